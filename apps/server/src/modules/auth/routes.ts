import { authApi } from '@yado/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { listAssignableRoles } from '../tenancy/list-assignable-roles.ts';
import { buildMe } from './build-me.ts';
import { changePassword } from './change-password.ts';
import { login } from './login.ts';
import { checkResetToken, requestPasswordReset, resetPassword } from './password-links.ts';
import { emailExists, setLanguage } from './queries.ts';
import { endSession, refreshSession } from './sessions.ts';
import { REFRESH_COOKIE, REFRESH_TOKEN_TTL_MS } from './tokens.ts';

export function authRoutes(app: FastifyInstance, rt: TRuntime): void {
  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: rt.config.publicUrl.startsWith('https:'),
      path: '/v1/auth',
      maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000),
    });
  const clearRefreshCookie = (reply: FastifyReply) => reply.clearCookie(REFRESH_COOKIE, { path: '/v1/auth' });

  route(app, authApi.login, 'public', async ({ body, request, reply }) => {
    const session = await login(rt, { email: body.email, password: body.password, ip: request.ip });
    setRefreshCookie(reply, session.refreshToken);
    return session.access;
  });

  route(app, authApi.refresh, 'public', async ({ request, reply }) => {
    try {
      const session = await refreshSession(rt, request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(reply, session.refreshToken);
      return session.access;
    } catch (error) {
      clearRefreshCookie(reply);
      throw error;
    }
  });

  route(app, authApi.logout, 'public', async ({ request, reply }) => {
    await endSession(rt, request.cookies[REFRESH_COOKIE]);
    clearRefreshCookie(reply);
    return { ok: true as const };
  });

  route(app, authApi.forgotPassword, 'public', async ({ body, request }) =>
    requestPasswordReset(rt, { email: body.email, language: body.language, ip: request.ip }),
  );

  route(app, authApi.checkResetToken, 'public', async ({ query }) => checkResetToken(rt, query.token));

  route(app, authApi.resetPassword, 'public', async ({ body }) => {
    await resetPassword(rt, body);
    return { ok: true as const };
  });

  route(app, authApi.changePassword, { entitlement: 'settings.change_password' }, async ({ body, ctx }) =>
    changePassword(rt, {
      userId: ctx.user.id,
      familyId: ctx.familyId ?? '',
      currentPassword: body.currentPassword,
      newPassword: body.newPassword,
    }),
  );

  route(app, authApi.me, 'authenticated', async ({ ctx }) => buildMe(rt, ctx));

  route(app, authApi.updateLanguage, 'authenticated', async ({ body, ctx }) => {
    await setLanguage(rt.database.db, ctx.user.id, body.language);
    return { language: body.language };
  });

  route(app, authApi.assignable, 'authenticated', async ({ query, ctx }) =>
    listAssignableRoles(rt.database.db, ctx, query.search ?? null),
  );

  route(app, authApi.exist, { entitlement: 'authorization.read_user' }, async ({ query }) => ({
    exist: await emailExists(rt.database.db, query.email),
  }));
}
