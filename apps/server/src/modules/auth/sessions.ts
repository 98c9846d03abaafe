import { randomUUID } from 'node:crypto';
import type { TAccessToken } from '@yado/contracts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { findSession } from '../tenancy/queries.ts';
import { findRefreshTokenForUpdate, insertRefreshToken, markRefreshTokenUsed, revokeFamily } from './queries.ts';
import { REFRESH_TOKEN_TTL_MS, hashOpaqueToken, newOpaqueToken, signAccessToken } from './tokens.ts';

export interface TSession {
  access: TAccessToken;
  refreshToken: string;
  familyId: string;
}

/**
 * Two tabs of the console may refresh with the same cookie at once. A token reused within this
 * grace period after its rotation is refused without revoking the family; the losing tab then
 * retries with the cookie the winner received. Reuse later than that is treated as theft.
 */
export const REUSE_GRACE_MS = 10_000;

/** Begins a session: a new refresh-token family and an access token. */
export async function startSession(rt: TRuntime, userId: string, familyId: string = randomUUID()): Promise<TSession> {
  const now = Date.now();
  const refresh = newOpaqueToken();
  await insertRefreshToken(rt.database.db, {
    familyId,
    userId,
    tokenHash: refresh.hash,
    expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS),
  });
  const access = await signAccessToken(rt.config.jwtSecret, userId, familyId, now);
  return { access, refreshToken: refresh.token, familyId };
}

type TRotation =
  { ok: true; session: TSession } | { ok: false; status: 401 | 403; code: 'session_expired' | 'no_access' };

/** Rotates a refresh token. Reuse of a spent one revokes its whole family. */
export async function refreshSession(rt: TRuntime, refreshToken: string | undefined): Promise<TSession> {
  if (!refreshToken) throw new AppError(401, 'session_expired');
  const now = new Date();
  // The revocation must commit even though the caller is refused, so the outcome is returned
  // from the transaction and thrown only after it.
  const outcome = await rt.database.db.transaction(async (tx): Promise<TRotation> => {
    const row = await findRefreshTokenForUpdate(tx, hashOpaqueToken(refreshToken));
    if (!row || row.revokedAt || row.expiresAt <= now) return { ok: false, status: 401, code: 'session_expired' };
    if (row.usedAt) {
      if (now.getTime() - row.usedAt.getTime() > REUSE_GRACE_MS) await revokeFamily(tx, row.familyId, now);
      return { ok: false, status: 401, code: 'session_expired' };
    }
    const session = await findSession(tx, row.userId);
    const user = session?.user;
    if (!user || user.status !== 'active' || session.assignments.length === 0) {
      await revokeFamily(tx, row.familyId, now);
      return { ok: false, status: 403, code: 'no_access' };
    }
    await markRefreshTokenUsed(tx, row.id, now);
    const next = newOpaqueToken();
    await insertRefreshToken(tx, {
      familyId: row.familyId,
      userId: row.userId,
      tokenHash: next.hash,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
    });
    const access = await signAccessToken(rt.config.jwtSecret, row.userId, row.familyId, now.getTime());
    return { ok: true, session: { access, refreshToken: next.token, familyId: row.familyId } };
  });
  if (!outcome.ok) throw new AppError(outcome.status, outcome.code);
  return outcome.session;
}

/** Ends the session the refresh token belongs to. Unknown tokens end nothing and are not an error. */
export async function endSession(rt: TRuntime, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  await rt.database.db.transaction(async (tx) => {
    const row = await findRefreshTokenForUpdate(tx, hashOpaqueToken(refreshToken));
    if (row) await revokeFamily(tx, row.familyId, new Date());
  });
}
