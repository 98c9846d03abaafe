import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { authFailures } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** At most 10 failed sign-ins per account per 15 minutes; an address gets more room (shared NAT). */
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;
/** Reset mails: at most 5 per account and 20 per address per 15 minutes. */
export const MAX_RESET_MAILS_PER_ACCOUNT = 5;
export const MAX_RESET_MAILS_PER_ADDRESS = 20;

export const accountKey = (kind: string, email: string) => `${kind}:account:${email.trim().toLowerCase()}`;
export const addressKey = (kind: string, ip: string) => `${kind}:ip:${ip}`;

async function countSince(db: TTx, key: string, since: Date) {
  const [row] = await db
    .select({ n: count(), oldest: min(authFailures.at) })
    .from(authFailures)
    .where(and(eq(authFailures.key, key), gt(authFailures.at, since)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : since };
}

/** Refuses with 429 and Retry-After when any key has reached its limit within the window. */
export async function assertNotThrottled(
  db: TTx,
  limits: { key: string; max: number }[],
  now = new Date(),
): Promise<void> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  for (const { key, max } of limits) {
    const { n, oldest } = await countSince(db, key, since);
    if (n >= max) {
      // The earliest moment the oldest attempt leaves the window.
      const retryAfter = Math.max(1, Math.ceil((oldest.getTime() + FAILURE_WINDOW_MS - now.getTime()) / 1000));
      throw new AppError(429, 'too_many_attempts', undefined, { 'retry-after': String(retryAfter) });
    }
  }
}

export async function recordAttempt(db: TTx, keys: string[]): Promise<void> {
  await db.insert(authFailures).values(keys.map((key) => ({ key })));
}

export async function clearAttempts(db: TTx, key: string): Promise<void> {
  await db.delete(authFailures).where(eq(authFailures.key, key));
}

/** Old rows are of no further use; the worker prunes them. */
export async function pruneAttempts(db: TTx, now = new Date()): Promise<void> {
  await db.delete(authFailures).where(lt(authFailures.at, new Date(now.getTime() - FAILURE_WINDOW_MS)));
}
