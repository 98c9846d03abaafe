import type { TAccessToken } from '@yado/contracts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findPasswordHash, revokeUserSessions, setPassword } from './queries.ts';
import { MAX_FAILURES_PER_ACCOUNT, accountKey, assertNotThrottled, recordAttempt } from './throttle.ts';
import { signAccessToken } from './tokens.ts';
import { assertNoFieldErrors, newPasswordErrors } from './validate.ts';

/**
 * Changes the signed-in user's password. Every other session of the user ends; this one goes on
 * with a fresh access token.
 */
export async function changePassword(
  rt: TRuntime,
  input: { userId: string; familyId: string; currentPassword: string; newPassword: string },
): Promise<TAccessToken> {
  const db = rt.database.db;
  assertNoFieldErrors(
    input.currentPassword ? {} : { currentPassword: fieldError('field_required') },
    newPasswordErrors('newPassword', input.newPassword),
  );
  const key = accountKey('change-password', input.userId);
  await assertNotThrottled(db, [{ key, max: MAX_FAILURES_PER_ACCOUNT }]);
  if (!(await verifyPassword(await findPasswordHash(db, input.userId), input.currentPassword))) {
    await recordAttempt(db, [key]);
    throw new AppError(400, 'wrong_current_password', { currentPassword: fieldError('wrong_current_password') });
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = new Date();
  await db.transaction(async (tx) => {
    await setPassword(tx, input.userId, passwordHash, now);
    await revokeUserSessions(tx, input.userId, now, input.familyId);
  });
  return signAccessToken(rt.config.jwtSecret, input.userId, input.familyId, now.getTime());
}
