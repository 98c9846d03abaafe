import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { parseSelector, resolveActingContext, type TActingContext } from '../tenancy/acting-context.ts';
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
    const db = rt.database.db;
    const session = await findSession(db, claims.userId);
    if (!session) throw new AppError(401, 'unauthenticated');
    const { user, assignments } = session;
    if (user.status !== 'active') throw new AppError(403, 'no_access');
    // Tokens issued before a password reset or change are void.
    if (claims.issuedAt < user.tokensValidAfter) {
      throw new AppError(401, 'session_expired');
    }
    const selector = parseSelector(request.headers);
    const context = await resolveActingContext(db, user, assignments, selector);
    return { ...context, familyId: claims.familyId };
  };
}
