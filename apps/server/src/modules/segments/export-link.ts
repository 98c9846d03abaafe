import { createHash, timingSafeEqual } from 'node:crypto';
import { customersApi } from '@yado/contracts';
import { z } from 'zod';
import { openSecret, sealSecret } from '../../crypto/secret-box.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { actingContextOf } from '../auth/authenticate.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * Download links for a segment's member CSV: the customer export's rules (customers/export-link.ts)
 * for a segment instead of list filters. A sealed, one-minute link bound to the user, the acting
 * role and the browser's nonce cookie (scoped to this path); each use re-derives the acting context
 * and checks customer.export_csv and segmentation.read again.
 */

export const SEGMENT_EXPORT_COOKIE = 'yado_segment_export';
export const SEGMENT_EXPORT_PATH = '/v1/segments/export-downloads';

const ZLink = z.object({
  v: z.literal(1),
  userId: z.string(),
  selector: z.object({ role: z.string(), slug: z.string(), level: z.string() }),
  segmentId: z.uuid(),
  lang: z.enum(['ja', 'en']),
  nonceHash: z.string(),
  issuedAt: z.number(),
  expiresAt: z.number(),
});

const linkKey = (rt: TRuntime) => `segment-export-link\0${rt.config.jwtSecret}`;
const hashOf = (nonce: string) => createHash('sha256').update(nonce, 'utf8').digest('base64url');

export function createSegmentExportLink(rt: TRuntime, ctx: TActingContext, segmentId: string, lang: 'ja' | 'en' | undefined, nonce: string, now = Date.now()) {
  const expiresAt = now + customersApi.EXPORT_LINK_TTL_SECONDS * 1000;
  const link: z.infer<typeof ZLink> = {
    v: 1,
    userId: ctx.user.id,
    selector: { role: ctx.role, slug: ctx.host.slug, level: ctx.host.level },
    segmentId,
    lang: lang ?? ctx.user.language,
    nonceHash: hashOf(nonce),
    issuedAt: now,
    expiresAt,
  };
  return { url: `${SEGMENT_EXPORT_PATH}?link=${sealSecret(JSON.stringify(link), linkKey(rt))}`, expiresAt: new Date(expiresAt).toISOString() };
}

const invalid = () => new AppError(401, 'download_link_invalid');

export async function openSegmentExportLink(rt: TRuntime, token: string, nonce: string | undefined, now = Date.now()) {
  let link: z.infer<typeof ZLink>;
  try {
    link = ZLink.parse(JSON.parse(openSecret(token, linkKey(rt))));
  } catch {
    throw invalid();
  }
  if (now >= link.expiresAt || !nonce) throw invalid();
  const expected = Buffer.from(link.nonceHash);
  const actual = Buffer.from(hashOf(nonce));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid();
  const ctx = await actingContextOf(rt, { userId: link.userId, issuedAt: new Date(link.issuedAt) }, link.selector);
  if (!ctx.entitlements['customer.export_csv'] || !ctx.entitlements['segmentation.read']) throw new AppError(403, 'forbidden');
  return { ctx, segmentId: link.segmentId, lang: link.lang };
}
