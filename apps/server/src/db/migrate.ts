import { fileURLToPath } from 'node:url';
import type { TDatabase } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7242001;

/** Applies the committed migrations (drizzle-kit output) on PostgreSQL or PGlite. */
export async function migrateDatabase(database: TDatabase): Promise<void> {
  if (database.raw.kind === 'postgres') {
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // Several processes may start at once: one migrates while the others wait on the lock.
    const session = await database.raw.pool.connect();
    try {
      await session.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(drizzle(session), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await session.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      session.release();
    }
    return;
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  await migrate(drizzle(database.raw.client), { migrationsFolder: MIGRATIONS_FOLDER });
}
