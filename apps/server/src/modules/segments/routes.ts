import { MEMBER_FILE_MAX_BYTES, segmentsApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from '../../http/errors.ts';
import { uuid } from '../../http/params.ts';
import { linkRoute, rawRoute, route, type TAccess } from '../../http/route.ts';
import { fileRoutes } from '../../http/file-routes.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { exportCustomersWhere, exportFileName, exportTimeZone } from '../customers/export-customers.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { createSegmentExportLink, openSegmentExportLink, segmentExportLinks } from './export-link.ts';
import { importMemberFile } from './member-file.ts';
import {
  addMembers,
  addToSegments,
  countLive,
  createSegment,
  deleteSegment,
  duplicateSegment,
  explainMembership,
  fieldValues,
  freezeFilter,
  getSegment,
  listMembers,
  listSegments,
  memberExportCondition,
  recountSegment,
  removeSegmentMembers,
  segmentsOfCustomer,
  segmentUses,
  updateSegment,
} from './segment-operations.ts';

type TRule = Exclude<TAccess, 'public'>;

export function segmentRoutes(app: FastifyInstance, rt: TRuntime): void {
  const read: TRule = { entitlement: 'segmentation.read' };
  const edit: TRule = { entitlement: 'segmentation.update' };
  const building: TRule = { anyOf: ['segmentation.create', 'segmentation.update'] };

  route(app, segmentsApi.list, { entitlement: 'segmentation.read_segment' }, async ({ query, ctx }) =>
    listSegments(rt, ctx, query),
  );
  // Readers too: a viewer's filter summary names the hotels of its conditions.
  route(app, segmentsApi.fieldValues, read, async ({ query, ctx }) => fieldValues(rt, ctx, query.source));
  route(app, segmentsApi.count, building, async ({ body, ctx }) => countLive(rt, ctx, body.filter));
  route(app, segmentsApi.addToSegments, edit, async ({ body, ctx }) => addToSegments(rt, ctx, body));
  route(app, segmentsApi.create, { entitlement: 'segmentation.create' }, async ({ body, ctx }) =>
    createSegment(rt, ctx, body),
  );
  route(app, segmentsApi.get, read, async ({ params, ctx }) => getSegment(rt, ctx, uuid(params.id)));
  route(app, segmentsApi.update, edit, async ({ params, body, ctx }) => updateSegment(rt, ctx, uuid(params.id), body));
  route(app, segmentsApi.duplicate, { entitlement: 'segmentation.create' }, async ({ params, body, ctx }) =>
    duplicateSegment(rt, ctx, uuid(params.id), body),
  );
  route(app, segmentsApi.remove, { entitlement: 'segmentation.delete' }, async ({ params, ctx }) =>
    deleteSegment(rt, ctx, uuid(params.id)),
  );
  route(app, segmentsApi.uses, read, async ({ params, ctx }) => segmentUses(rt, ctx, uuid(params.id)));
  route(app, segmentsApi.recount, read, async ({ params, ctx }) => recountSegment(rt, ctx, uuid(params.id)));
  route(app, segmentsApi.members, read, async ({ params, query, ctx }) => listMembers(rt, ctx, uuid(params.id), query));
  route(app, segmentsApi.addMembers, edit, async ({ params, body, ctx }) => addMembers(rt, ctx, uuid(params.id), body));
  route(app, segmentsApi.removeMembers, edit, async ({ params, body, ctx }) =>
    removeSegmentMembers(rt, ctx, uuid(params.id), body.customerIds),
  );
  route(app, segmentsApi.freeze, edit, async ({ params, body, ctx }) =>
    freezeFilter(rt, ctx, uuid(params.id), body.filter),
  );
  fileRoutes(app, (files) => {
    route(files, segmentsApi.importMembers, edit, async ({ params, request, ctx }) => {
      const id = uuid(params.id);
      const missing = () => new AppError(400, 'member_file_required', { file: fieldError('member_file_required') });
      if (!request.isMultipart()) throw missing();
      const file = await request.file({ limits: { fileSize: MEMBER_FILE_MAX_BYTES, files: 1 } });
      if (!file) throw missing();
      const bytes = await file.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(413, 'member_file_too_big', { file: fieldError('member_file_too_big') });
        throw new AppError(400, 'upload_failed', { file: fieldError('upload_failed') });
      });
      if (file.file.truncated)
        throw new AppError(413, 'member_file_too_big', { file: fieldError('member_file_too_big') });
      if (bytes.length === 0) throw missing();
      return importMemberFile(rt, ctx, id, bytes);
    });
  });
  route(app, segmentsApi.explain, read, async ({ params, ctx }) =>
    explainMembership(rt, ctx, uuid(params.id), uuid(params.customerId)),
  );
  route(app, segmentsApi.customerSegments, { entitlement: 'customer.read' }, async ({ params, ctx }) =>
    segmentsOfCustomer(rt, ctx, uuid(params.id)),
  );

  // Member CSV: the customer export's rules (customer.export_csv), and the segment must be readable.
  const sendCsv = async (ctx: TActingContext, id: string, lang: 'ja' | 'en', reply: import('fastify').FastifyReply) => {
    if (!ctx.entitlements['segmentation.read']) throw new AppError(403, 'forbidden');
    // Found (or 404) before the first byte is sent.
    await inTenant(rt, ctx, (tx) => memberExportCondition(tx, ctx, id));
    const file = exportFileName('segment-members', new Date(), await exportTimeZone(rt, ctx));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}"`)
      .header('cache-control', 'no-store')
      .send(
        exportCustomersWhere(
          rt,
          ctx,
          async (tx) => (await memberExportCondition(tx, ctx, id)).where,
          '-created_at',
          lang,
        ),
      );
  };
  rawRoute(app, segmentsApi.exportCsv, { entitlement: 'customer.export_csv' }, async ({ params, query, ctx, reply }) =>
    sendCsv(ctx, uuid(params.id), query.lang ?? ctx.user.language, reply),
  );
  route(
    app,
    segmentsApi.createExportLink,
    { entitlement: 'customer.export_csv' },
    async ({ params, body, ctx, request, reply }) => {
      const id = uuid(params.id);
      if (!ctx.entitlements['segmentation.read']) throw new AppError(403, 'forbidden');
      await inTenant(rt, ctx, (tx) => memberExportCondition(tx, ctx, id));
      const nonce = segmentExportLinks.issueNonce(rt, request, reply);
      return createSegmentExportLink(rt, ctx, id, body.lang, nonce);
    },
  );
  linkRoute(app, segmentsApi.downloadExport, { link: 'customer.export_csv' }, async ({ query, request, reply }) => {
    const { ctx, segmentId, lang } = await openSegmentExportLink(rt, query.link, request);
    reply.header('referrer-policy', 'no-referrer');
    return sendCsv(ctx, segmentId, lang, reply);
  });
}
