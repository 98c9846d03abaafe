import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { parseSelector, resolveActingContext, type TActingContext, type TRoleSelector } from '../tenancy/acting-context.ts';
import { findSession } from '../tenancy/queries.ts';
import { verifyAccessToken } from './tokens.ts';

/**
 * The acting context of a request, from its bearer token and role headers. Re-derived from the
 * database every time, so a deactivated user or a revoked role loses access at the next request.
 */
export function makeAuthenticate(rt: TRuntime) {
  return async function authenticate(request: FastifyRequest): Promise<TActingContext> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AppError(401, 'unauthenticated');
    const claims = await verifyAccessToken(rt.config.jwtSecret, match[1]);
    if (!claims) throw new AppError(401, 'unauthenticated');
    const context = await actingContextOf(rt, claims, parseSelector(request.headers));
    return { ...context, familyId: claims.familyId };
  };
}

/**
 * The acting context of a user who proved who they are at `issuedAt` (an access token, or a
 * download link minted with one), in the role the selector names: the user must still exist and
 * be active, no password change may have come since, and the role must still be theirs to take.
 */
export async function actingContextOf(
  rt: TRuntime,
  claims: { userId: string; issuedAt: Date },
  selector: TRoleSelector | null,
): Promise<TActingContext> {
  const db = rt.database.db;
  const session = await findSession(db, claims.userId);
  if (!session) throw new AppError(401, 'unauthenticated');
  const { user, assignments } = session;
  if (user.status !== 'active') throw new AppError(403, 'no_access');
  // Tokens issued before a password reset or change are void.
  if (claims.issuedAt < user.tokensValidAfter) {
    throw new AppError(401, 'session_expired');
  }
  return resolveActingContext(db, user, assignments, selector);
}
