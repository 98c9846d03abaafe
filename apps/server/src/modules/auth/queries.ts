import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { passwordResetTokens, refreshTokens, users } from '../../db/schema.ts';

/*
 * Identity queries. They run before (or outside) any acting context: sign-in, refresh and reset
 * are keyed by a secret the caller holds, so they use the privileged connection.
 */

export async function findUserByEmail(db: TTx, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      status: users.status,
      passwordHash: users.passwordHash,
      language: users.language,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()));
  return row ?? null;
}

export async function findPasswordHash(db: TTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.passwordHash ?? null;
}

export async function emailExists(db: TTx, email: string): Promise<boolean> {
  return (await findUserByEmail(db, email)) !== null;
}

export async function setPassword(
  db: TTx,
  userId: string,
  passwordHash: string,
  tokensValidAfter: Date,
): Promise<void> {
  await db.update(users).set({ passwordHash, tokensValidAfter, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function setLanguage(db: TTx, userId: string, language: 'ja' | 'en'): Promise<void> {
  await db.update(users).set({ language, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function insertRefreshToken(
  db: TTx,
  row: { familyId: string; userId: string; tokenHash: string; expiresAt: Date },
) {
  await db.insert(refreshTokens).values(row);
}

/** Takes the token for rotation: marks it used and returns it, locked against a concurrent use. */
export async function findRefreshTokenForUpdate(db: TTx, tokenHash: string) {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).for('update');
  return row ?? null;
}

export async function markRefreshTokenUsed(db: TTx, id: string, at: Date): Promise<void> {
  await db.update(refreshTokens).set({ usedAt: at }).where(eq(refreshTokens.id, id));
}

export async function revokeFamily(db: TTx, familyId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Ends every session of the user, or every one but `keepFamilyId`. */
export async function revokeUserSessions(db: TTx, userId: string, at: Date, keepFamilyId?: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}

export async function insertResetToken(
  db: TTx,
  row: { userId: string; tokenHash: string; expiresAt: Date; purpose: 'reset' | 'invitation' },
): Promise<void> {
  await db.insert(passwordResetTokens).values(row);
}

/** Only the latest link works: issuing a new one spends the older ones. */
export async function spendOpenResetTokens(db: TTx, userId: string, at: Date): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: at })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function findResetTokenForUpdate(db: TTx, tokenHash: string) {
  const [row] = await db
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash))
    .for('update');
  return row ?? null;
}
