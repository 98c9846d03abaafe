import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { customersApi } from '@yado/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { openSecret, sealSecret } from '../crypto/secret-box.ts';
import { actingContextOf } from '../modules/auth/authenticate.ts';
import type { TActingContext } from '../modules/tenancy/acting-context.ts';
import type { TRuntime } from '../runtime.ts';
import { AppError } from './errors.ts';

/**
 * Download links for CSV exports (customers, a segment's members). The console cannot send its
 * bearer token with a navigation, and buffering the file in the page costs memory in proportion to
 * its size; so it asks for a link and navigates to it, and the browser streams the file to disk.
 *
 * A link is the user, the acting role, what to export, the language, its issue time and a hash of a
 * browser nonce, sealed with AES-256-GCM under a key derived from JWT_SECRET: nobody can forge or
 * alter one, and a search text in it (possibly a name or phone number) is unreadable in the URL.
 * The nonce lives in an HttpOnly, SameSite=Strict cookie scoped to the download path, so the URL
 * alone is not enough: another browser, another user or a leaked log line gets nothing. A link
 * works for EXPORT_LINK_TTL_SECONDS (60) and may be used again in that minute by the same browser (a
 * retried download). Each use re-derives the acting context like a request does: a user deactivated,
 * whose password changed or who lost the role since gets nothing; the caller checks entitlements.
 */
export interface TDownloadLinkKind<S extends z.ZodRawShape> {
  /** Names the link's own key: a sealed link is never mistaken for anything else sealed under the same secret. */
  purpose: string;
  /** The download route; the nonce cookie is scoped to it. */
  path: string;
  cookie: string;
  /** What the link says to export, beside who and in which language. */
  fields: S;
}

const ZEnvelope = z.object({
  v: z.literal(1),
  userId: z.string(),
  selector: z.object({ role: z.string(), slug: z.string(), level: z.string() }),
  lang: z.enum(['ja', 'en']),
  nonceHash: z.string(),
  issuedAt: z.number(),
  expiresAt: z.number(),
});

export function downloadLinks<S extends z.ZodRawShape>(kind: TDownloadLinkKind<S>) {
  const ZFields = z.object(kind.fields);
  type TFields = z.infer<typeof ZFields>;
  const linkKey = (rt: TRuntime) => `${kind.purpose}\0${rt.config.jwtSecret}`;
  const invalid = () => new AppError(401, 'download_link_invalid');

  return {
    /** Gives this browser its nonce cookie (kept while well-formed, so two exports in one minute both work). */
    issueNonce(rt: TRuntime, request: FastifyRequest, reply: FastifyReply): string {
      const nonce = browserNonce(request.cookies[kind.cookie]);
      reply.setCookie(kind.cookie, nonce, {
        httpOnly: true,
        sameSite: 'strict',
        secure: rt.config.publicUrl.startsWith('https:'),
        path: kind.path,
        maxAge: 24 * 60 * 60,
      });
      reply.header('cache-control', 'no-store');
      return nonce;
    },

    create(
      rt: TRuntime,
      ctx: TActingContext,
      fields: TFields,
      lang: 'ja' | 'en' | undefined,
      nonce: string,
      now = Date.now(),
    ): { url: string; expiresAt: string } {
      const expiresAt = now + customersApi.EXPORT_LINK_TTL_SECONDS * 1000;
      const link = {
        v: 1,
        userId: ctx.user.id,
        // The role exactly as taken, so the default role stays the default even if that changes.
        selector: { role: ctx.role, slug: ctx.host.slug, level: ctx.host.level },
        ...fields,
        lang: lang ?? ctx.user.language,
        nonceHash: hashOf(nonce),
        issuedAt: now,
        expiresAt,
      };
      const token = sealSecret(JSON.stringify(link), linkKey(rt));
      return { url: `${kind.path}?link=${token}`, expiresAt: new Date(expiresAt).toISOString() };
    },

    /** Opens a link from this browser (its cookie's nonce): its acting context as of now, its fields and language. */
    async open(
      rt: TRuntime,
      token: string,
      request: FastifyRequest,
      now = Date.now(),
    ): Promise<{ ctx: TActingContext; fields: TFields; lang: 'ja' | 'en' }> {
      const nonce = request.cookies[kind.cookie];
      let link: z.infer<typeof ZEnvelope>;
      let fields: TFields;
      try {
        const sealed: unknown = JSON.parse(openSecret(token, linkKey(rt)));
        link = ZEnvelope.parse(sealed);
        fields = ZFields.parse(sealed);
      } catch {
        // Forged, altered, truncated or sealed under another secret: all the same to the caller.
        throw invalid();
      }
      if (now >= link.expiresAt || !nonce) throw invalid();
      const expected = Buffer.from(link.nonceHash);
      const actual = Buffer.from(hashOf(nonce));
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw invalid();
      const ctx = await actingContextOf(rt, { userId: link.userId, issuedAt: new Date(link.issuedAt) }, link.selector);
      return { ctx, fields, lang: link.lang };
    },
  };
}

const hashOf = (nonce: string) => createHash('sha256').update(nonce, 'utf8').digest('base64url');

/** The browser's nonce: kept while it is well-formed, so two exports in one minute both work. */
export function browserNonce(current: string | undefined): string {
  return current && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomBytes(32).toString('base64url');
}
