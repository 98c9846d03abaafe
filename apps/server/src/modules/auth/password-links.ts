import { AppError } from '../../http/errors.ts';
import { QUEUES, type TSendAccountLink } from '../../jobs/queue.ts';
import { accountMail } from '../../mail/account-mail.ts';
import type { TRuntime } from '../../runtime.ts';
import { findHostById, findUserForSession } from '../tenancy/queries.ts';
import { fullName } from '@yado/contracts';
import { hashPassword } from './passwords.ts';
import {
  findResetTokenForUpdate,
  findUserByEmail,
  insertResetToken,
  revokeUserSessions,
  setPassword,
  spendOpenResetTokens,
} from './queries.ts';
import {
  MAX_RESET_MAILS_PER_ACCOUNT,
  MAX_RESET_MAILS_PER_ADDRESS,
  accountKey,
  addressKey,
  assertNotThrottled,
  recordAttempt,
} from './throttle.ts';
import { INVITATION_TOKEN_TTL_MS, RESET_TOKEN_TTL_MS, hashOpaqueToken, newOpaqueToken } from './tokens.ts';
import { accountEmailErrors, assertNoFieldErrors, newPasswordErrors } from './validate.ts';

/**
 * A forgotten password: the specification tells an unregistered address apart, so this is
 * throttled per address and per account to keep it from being used to list accounts or flood a
 * mailbox. The link itself is made by the worker, so no usable secret is ever stored.
 */
export async function requestPasswordReset(
  rt: TRuntime,
  input: { email: string; language?: 'ja' | 'en'; ip: string },
): Promise<{ email: string }> {
  const db = rt.database.db;
  const email = input.email.trim();
  assertNoFieldErrors(accountEmailErrors('email', email));
  const account = accountKey('reset', email);
  const address = addressKey('reset', input.ip);
  await assertNotThrottled(db, [
    { key: account, max: MAX_RESET_MAILS_PER_ACCOUNT },
    { key: address, max: MAX_RESET_MAILS_PER_ADDRESS },
  ]);
  await recordAttempt(db, [account, address]);
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError(404, 'unregistered_email');
  const job: TSendAccountLink = { userId: user.id, purpose: 'reset', language: input.language ?? user.language };
  await rt.queue.send(QUEUES.sendAccountLink, job);
  return { email };
}

/** Worker side: mint a single-use link (the newest one only works) and mail it. */
export async function sendAccountLink(rt: TRuntime, job: TSendAccountLink): Promise<void> {
  const db = rt.database.db;
  const user = await findUserForSession(db, job.userId);
  if (!user) return;
  const { token, hash } = newOpaqueToken();
  const ttl = job.purpose === 'reset' ? RESET_TOKEN_TTL_MS : INVITATION_TOKEN_TTL_MS;
  await db.transaction(async (tx) => {
    const now = new Date();
    await spendOpenResetTokens(tx, user.id, now);
    await insertResetToken(tx, {
      userId: user.id,
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + ttl),
      purpose: job.purpose,
    });
  });
  const link = `${rt.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&lang=${job.language}`;
  const hostName =
    job.hostName ?? (user.originalHostId ? (await findHostById(db, user.originalHostId))?.name : undefined);
  const mail = accountMail(job.purpose === 'reset' ? 'reset_password' : 'invitation', job.language, {
    name: fullName(user.firstName, user.lastName),
    link,
    host: hostName ?? 'Yado',
  });
  await rt.mailer.sendMail({
    from: rt.config.mailFrom,
    to: user.email,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
}

async function usableResetToken(rt: TRuntime, token: string) {
  const row = await findResetTokenForUpdate(rt.database.db, hashOpaqueToken(token));
  return row && !row.usedAt && row.expiresAt > new Date() ? row : null;
}

export async function checkResetToken(rt: TRuntime, token: string): Promise<{ valid: boolean }> {
  return { valid: (await usableResetToken(rt, token)) !== null };
}

/** Sets a new password with a link token. Spends the token and ends every session of the user. */
export async function resetPassword(rt: TRuntime, input: { token: string; password: string }): Promise<void> {
  assertNoFieldErrors(newPasswordErrors('password', input.password));
  const passwordHash = await hashPassword(input.password);
  const done = await rt.database.db.transaction(async (tx) => {
    const row = await findResetTokenForUpdate(tx, hashOpaqueToken(input.token));
    const now = new Date();
    if (!row || row.usedAt || row.expiresAt <= now) return false;
    await spendOpenResetTokens(tx, row.userId, now);
    await setPassword(tx, row.userId, passwordHash, now);
    await revokeUserSessions(tx, row.userId, now);
    return true;
  });
  if (!done) throw new AppError(400, 'reset_link_expired');
}
