import { customerImportsApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { rawRoute, route } from '../../http/route.ts';
import { fileRoutes } from '../../http/file-routes.ts';
import type { TRuntime } from '../../runtime.ts';
import { cancelImport, confirmImport, failuresCsv, getImport, listImportRows } from './import-operations.ts';
import { sampleCsv } from './sample-csv.ts';
import { uploadImport } from './upload-import.ts';

export function customerImportRoutes(app: FastifyInstance, rt: TRuntime): void {
  const access = { entitlement: 'customer.import' } as const;
  fileRoutes(app, (files) =>
    route(files, customerImportsApi.upload, access, async ({ request, query, ctx }) =>
      uploadImport(rt, ctx, request, query.hotelId),
    ),
  );
  route(app, customerImportsApi.get, access, async ({ params, ctx }) => getImport(rt, ctx, uuid(params.id)));
  route(app, customerImportsApi.rows, access, async ({ params, query, ctx }) =>
    listImportRows(rt, ctx, uuid(params.id), query),
  );
  route(app, customerImportsApi.confirm, access, async ({ params, body, ctx }) =>
    confirmImport(rt, ctx, uuid(params.id), body.emailReception, body.segmentId),
  );
  route(app, customerImportsApi.cancel, access, async ({ params, ctx }) => cancelImport(rt, ctx, uuid(params.id)));
  rawRoute(app, customerImportsApi.sampleCsv, access, async ({ query, ctx, reply }) => {
    const language = query.lang ?? ctx.user.language;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${language === 'ja' ? 'customers-sample' : 'customers-sample-en'}.csv"`,
      )
      .header('cache-control', 'no-store')
      .send(sampleCsv(language));
  });
  rawRoute(app, customerImportsApi.failuresCsv, access, async ({ params, query, ctx, reply }) => {
    const stream = await failuresCsv(rt, ctx, uuid(params.id), query.lang ?? ctx.user.language);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="import-failures.csv"')
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
