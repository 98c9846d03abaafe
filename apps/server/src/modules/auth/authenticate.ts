import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import {
  parseSelector,
  resolveActingContext,
  type TActingContext,
  type TRoleSelector,
} from '../tenancy/acting-context.ts';
import { findSession, type TSession } from '../tenancy/queries.ts';
import { rememberSession, rememberedSession } from './session-cache.ts';
import { verifyAccessToken } from './tokens.ts';

/**
 * The acting context of a request, from its bearer token and role headers. Re-derived from the
 * database every time, so a deactivated user or a revoked role loses access at the next request.
 *
 * `deferred`: the route confirms the session in the same round trip as its data (readAs), so a
 * session this process remembers may be acted on; the context then carries what must be confirmed.
 */
export function makeAuthenticate(rt: TRuntime) {
  return async function authenticate(request: FastifyRequest, deferred = false): Promise<TActingContext> {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AppError(401, 'unauthenticated');
    const claims = verifyAccessToken(rt.config.jwtSecret, match[1]);
    if (!claims) throw new AppError(401, 'unauthenticated');
    const selector = parseSelector(request.headers);
    const known = deferred ? rememberedSession(claims.userId) : undefined;
    if (known) {
      // A refusal is never given on a remembered session: it may have changed since.
      const context = await contextFrom(rt, known.session, claims, selector).catch(() => null);
      if (context)
        return {
          ...context,
          familyId: claims.familyId,
          unconfirmed: { userId: claims.userId, fingerprint: known.fingerprint, confirmed: false },
        };
    }
    const context = await actingContextOf(rt, claims, selector);
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
  const session = await findSession(rt.database.db, claims.userId);
  if (session) rememberSession(claims.userId, session);
  return contextFrom(rt, session, claims, selector);
}

async function contextFrom(
  rt: TRuntime,
  session: TSession | null,
  claims: { issuedAt: Date },
  selector: TRoleSelector | null,
): Promise<TActingContext> {
  if (!session) throw new AppError(401, 'unauthenticated');
  const { user, assignments } = session;
  if (user.status !== 'active') throw new AppError(403, 'no_access');
  // Tokens issued before a password reset or change are void.
  if (claims.issuedAt < user.tokensValidAfter) {
    throw new AppError(401, 'session_expired');
  }
  return resolveActingContext(rt.database.db, user, assignments, selector);
}
