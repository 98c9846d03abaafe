import { LOGO_MAX_BYTES, managementApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { fileRoutes } from '../../http/file-routes.ts';
import type { TRuntime } from '../../runtime.ts';
import { createLogoStore, IMMUTABLE } from './logo-store.ts';
import { LOGO_URL_PREFIX, isLogoName, logoContentType, storeLogo } from './store-logo.ts';

export function uploadRoutes(app: FastifyInstance, rt: TRuntime): void {
  const store = createLogoStore(rt.config);
  fileRoutes(app, (files) =>
    route(
      files,
      managementApi.uploadLogo,
      {
        anyOf: [
          'manage_brand.create_brand',
          'manage_brand.update_brand',
          'manage_hotel_group.create_hotel_group',
          'manage_hotel_group.update_hotel_group',
          'manage_hotel.create_hotel',
          'manage_hotel.update_hotel',
          'settings.update_host_info',
        ],
      },
      async ({ request }) => {
        if (!request.isMultipart()) throw new AppError(400, 'logo_required', { file: fieldError('logo_required') });
        const file = await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
        if (!file) throw new AppError(400, 'logo_required', { file: fieldError('logo_required') });
        const bytes = await file.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE')
            throw new AppError(413, 'logo_too_big', { file: fieldError('logo_too_big') });
          throw new AppError(400, 'upload_failed', { file: fieldError('upload_failed') });
        });
        return storeLogo(store, bytes, file.file.truncated, rt.log);
      },
    ),
  );

  // Logos are public (they appear in mail); the content-hash name makes them cacheable forever.
  // With a public bucket or CDN (S3_PUBLIC_URL) the browser is sent there; otherwise the bytes
  // come through here, from the data directory or the (private) bucket. Logos and template images
  // are loaded by mail readers from their own origins (and by the console when it is opened at
  // another address than PUBLIC_URL): helmet's `same-origin` resource policy would blank them.
  app.get<{ Params: { name: string } }>(
    `${LOGO_URL_PREFIX}:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const { name } = request.params;
      reply.header('cross-origin-resource-policy', 'cross-origin');
      if (!isLogoName(name)) throw new AppError(404, 'not_found');
      const elsewhere = store.publicUrl(name);
      if (elsewhere) return reply.header('cache-control', 'public, max-age=86400').redirect(elsewhere, 302);
      const body = await store.get(name);
      if (!body) throw new AppError(404, 'not_found');
      return reply
        .header('content-type', logoContentType(name))
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
}
