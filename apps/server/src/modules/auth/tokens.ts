import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import type { TAccessToken } from '@yado/contracts';

export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
/** The console refreshes 50 minutes after each refresh (specification, section 9). */
export const REFRESH_AFTER_MS = 50 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 30 * 60 * 1000;
export const INVITATION_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const REFRESH_COOKIE = 'yado_refresh';

const ISSUER = 'yado';

export interface TAccessClaims {
  userId: string;
  familyId: string;
  issuedAt: Date;
}

export async function signAccessToken(
  secret: string,
  userId: string,
  familyId: string,
  now = Date.now(),
): Promise<TAccessToken> {
  const key = new TextEncoder().encode(secret);
  // `its`: the issue time in milliseconds, so a token minted in the same second as a password
  // reset is still voided by it (`iat` has whole seconds only).
  const accessToken = await new SignJWT({ fam: familyId, its: now })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + ACCESS_TOKEN_TTL_MS) / 1000))
    .sign(key);
  return { accessToken, expiresAt: now + ACCESS_TOKEN_TTL_MS, refreshAt: now + REFRESH_AFTER_MS };
}

/**
 * The claims of a valid access token, or null for anything else (expired, forged, malformed).
 * Checked here with node's HMAC rather than jose's WebCrypto path, which costs an asynchronous key
 * import per call (most of a list request's CPU under load): the header must say HS256 exactly,
 * the signature must match in constant time, and the issuer and expiry must hold.
 */
export function verifyAccessToken(secret: string, token: string, now = Date.now()): TAccessClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const head = parseSegment(header);
  const claims = parseSegment(payload);
  if (!head || head.alg !== 'HS256' || 'crit' in head || !claims) return null;
  if (claims.iss !== ISSUER || typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null;
  if (typeof claims.nbf === 'number' && claims.nbf * 1000 > now) return null;
  if (typeof claims.sub !== 'string' || typeof claims.fam !== 'string' || typeof claims.its !== 'number') return null;
  return { userId: claims.sub, familyId: claims.fam, issuedAt: new Date(claims.its) };
}

function parseSegment(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A 256-bit random token for a link or a cookie; only its hash is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
