import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LOGO_MAX_BYTES, managementApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { LOGO_URL_PREFIX, isLogoName, logoDirectory, storeLogo } from './store-logo.ts';

export function uploadRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(
    app,
    managementApi.uploadLogo,
    { anyOf: ['manage_brand.create_brand', 'manage_brand.update_brand', 'manage_hotel_group.create_hotel_group', 'manage_hotel_group.update_hotel_group', 'manage_hotel.create_hotel', 'manage_hotel.update_hotel', 'settings.update_host_info'] },
    async ({ request }) => {
      if (!request.isMultipart()) throw new AppError(400, 'logo_required', { file: fieldError('logo_required') });
      const file = await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
      if (!file) throw new AppError(400, 'logo_required', { file: fieldError('logo_required') });
      const bytes = await file.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'logo_too_big', { file: fieldError('logo_too_big') });
        throw new AppError(400, 'upload_failed', { file: fieldError('upload_failed') });
      });
      return storeLogo(rt.config.dataDir, bytes, file.file.truncated);
    },
  );

  // Logos are public (they appear in mail); the content-hash name makes them cacheable forever.
  app.get<{ Params: { name: string } }>(`${LOGO_URL_PREFIX}:name`, { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    if (!isLogoName(name)) throw new AppError(404, 'not_found');
    const path = join(logoDirectory(rt.config.dataDir), name);
    const found = await stat(path).catch(() => null);
    if (!found) throw new AppError(404, 'not_found');
    return reply
      .header('content-type', name.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(path));
  });
}
