import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { customersApi } from '@yado/contracts';
import { z } from 'zod';
import { openSecret, sealSecret } from '../../crypto/secret-box.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { actingContextOf } from '../auth/authenticate.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import type { TCustomerFilter } from './queries.ts';

/**
 * Download links for the customer CSV export. The console cannot send its bearer token with a
 * navigation, and buffering the file in the page costs memory in proportion to its size; so it asks
 * for a link and navigates to it, and the browser streams the file to disk.
 *
 * A link is the user, the acting role, the filters, the language, its issue time and a hash of a
 * browser nonce, sealed with AES-256-GCM under a key derived from JWT_SECRET: nobody can forge or
 * alter one, and the search text in it (possibly a name or phone number) is unreadable in the URL.
 * The nonce lives in an HttpOnly, SameSite=Strict cookie scoped to the download path, so the URL
 * alone is not enough: another browser, another user or a leaked log line gets nothing. A link
 * works for EXPORT_LINK_TTL_SECONDS (60) and may be used again in that minute by the same browser (a
 * retried download). Each use re-derives the acting context like a request does: a user deactivated,
 * whose password changed, who lost the role or the entitlement since, gets nothing.
 */

export const EXPORT_COOKIE = 'yado_export';
export const EXPORT_PATH = '/v1/customers/export-downloads';

const ZLink = z.object({
  v: z.literal(1),
  userId: z.string(),
  selector: z.object({ role: z.string(), slug: z.string(), level: z.string() }),
  filter: customersApi.ZCustomerFilter,
  lang: z.enum(['ja', 'en']),
  nonceHash: z.string(),
  issuedAt: z.number(),
  expiresAt: z.number(),
});

// Its own key: a sealed link is never mistaken for anything else sealed under the same secret.
const linkKey = (rt: TRuntime) => `customer-export-link\0${rt.config.jwtSecret}`;
const hashOf = (nonce: string) => createHash('sha256').update(nonce, 'utf8').digest('base64url');

/** The browser's nonce: kept while it is well-formed, so two exports in one minute both work. */
export function browserNonce(current: string | undefined): string {
  return current && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomBytes(32).toString('base64url');
}

export function createExportLink(
  rt: TRuntime,
  ctx: TActingContext,
  input: TCustomerFilter & { lang?: 'ja' | 'en' },
  nonce: string,
  now = Date.now(),
): { url: string; expiresAt: string } {
  const { lang, ...filter } = input;
  const expiresAt = now + customersApi.EXPORT_LINK_TTL_SECONDS * 1000;
  const link: z.infer<typeof ZLink> = {
    v: 1,
    userId: ctx.user.id,
    // The role exactly as taken, so the default role stays the default even if that changes.
    selector: { role: ctx.role, slug: ctx.host.slug, level: ctx.host.level },
    filter,
    lang: lang ?? ctx.user.language,
    nonceHash: hashOf(nonce),
    issuedAt: now,
    expiresAt,
  };
  const token = sealSecret(JSON.stringify(link), linkKey(rt));
  return { url: `${EXPORT_PATH}?link=${token}`, expiresAt: new Date(expiresAt).toISOString() };
}

const invalid = () => new AppError(401, 'download_link_invalid');

/** Opens a link from this browser: its acting context as of now, its filters and language. */
export async function openExportLink(
  rt: TRuntime,
  token: string,
  nonce: string | undefined,
  now = Date.now(),
): Promise<{ ctx: TActingContext; filter: TCustomerFilter; lang: 'ja' | 'en' }> {
  let link: z.infer<typeof ZLink>;
  try {
    link = ZLink.parse(JSON.parse(openSecret(token, linkKey(rt))));
  } catch {
    // Forged, altered, truncated or sealed under another secret: all the same to the caller.
    throw invalid();
  }
  if (now >= link.expiresAt || !nonce) throw invalid();
  const expected = Buffer.from(link.nonceHash);
  const actual = Buffer.from(hashOf(nonce));
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid();
  const ctx = await actingContextOf(rt, { userId: link.userId, issuedAt: new Date(link.issuedAt) }, link.selector);
  if (!ctx.entitlements['customer.export_csv']) throw new AppError(403, 'forbidden');
  return { ctx, filter: link.filter, lang: link.lang };
}
