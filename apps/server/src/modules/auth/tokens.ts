import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
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

export async function signAccessToken(secret: string, userId: string, familyId: string, now = Date.now()): Promise<TAccessToken> {
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

/** The claims of a valid access token, or null for anything else (expired, forged, malformed). */
export async function verifyAccessToken(secret: string, token: string): Promise<TAccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.fam !== 'string' || typeof payload.its !== 'number') return null;
    return { userId: payload.sub, familyId: payload.fam, issuedAt: new Date(payload.its) };
  } catch {
    // Any verification failure means the same thing to the caller: not signed in.
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
