import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { downloadLinks } from '../../http/download-link.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * Download links for a segment's member CSV: the customer export's link (http/download-link.ts)
 * for a segment instead of list filters. Each use checks customer.export_csv and
 * segmentation.read again.
 */
export const SEGMENT_EXPORT_COOKIE = 'yado_segment_export';
export const SEGMENT_EXPORT_PATH = '/v1/segments/export-downloads';

export const segmentExportLinks = downloadLinks({
  purpose: 'segment-export-link',
  path: SEGMENT_EXPORT_PATH,
  cookie: SEGMENT_EXPORT_COOKIE,
  fields: { segmentId: z.uuid() },
});

export function createSegmentExportLink(
  rt: TRuntime,
  ctx: TActingContext,
  segmentId: string,
  lang: 'ja' | 'en' | undefined,
  nonce: string,
  now = Date.now(),
) {
  return segmentExportLinks.create(rt, ctx, { segmentId }, lang, nonce, now);
}

export async function openSegmentExportLink(rt: TRuntime, token: string, request: FastifyRequest, now = Date.now()) {
  const { ctx, fields, lang } = await segmentExportLinks.open(rt, token, request, now);
  if (!ctx.entitlements['customer.export_csv'] || !ctx.entitlements['segmentation.read'])
    throw new AppError(403, 'forbidden');
  return { ctx, segmentId: fields.segmentId, lang };
}
