import { AppError, fieldError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { listAssignments } from '../tenancy/queries.ts';
import { verifyPassword } from './passwords.ts';
import { findUserByEmail } from './queries.ts';
import { startSession, type TSession } from './sessions.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  accountKey,
  addressKey,
  assertNotThrottled,
  clearAttempts,
  recordAttempt,
} from './throttle.ts';
import { accountEmailErrors, assertNoFieldErrors } from './validate.ts';

/**
 * Signs a user in. A wrong email and a wrong password answer alike (and take alike long);
 * an inactive user with the right password is told they have no access.
 */
export async function login(rt: TRuntime, input: { email: string; password: string; ip: string }): Promise<TSession> {
  const db = rt.database.db;
  const email = input.email.trim();
  assertNoFieldErrors(
    accountEmailErrors('email', email),
    input.password ? {} : { password: fieldError('field_required') },
  );

  const account = accountKey('login', email);
  const address = addressKey('login', input.ip);
  await assertNotThrottled(db, [
    { key: account, max: MAX_FAILURES_PER_ACCOUNT },
    { key: address, max: MAX_FAILURES_PER_ADDRESS },
  ]);

  const user = await findUserByEmail(db, email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !passwordOk) {
    await recordAttempt(db, [account, address]);
    throw new AppError(401, 'invalid_credentials');
  }
  if (user.status !== 'active' || (await listAssignments(db, user.id)).length === 0) {
    throw new AppError(403, 'no_access');
  }
  await clearAttempts(db, account);
  return startSession(rt, user.id);
}
