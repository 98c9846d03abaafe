import { createHash } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests use: DATABASE_URL, else the local server when one answers. */
export const TEST_ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * The seeded template each test server copies. Named after this checkout, so two checkouts of the
 * project (git worktrees) can run their integration tests against one PostgreSQL side by side.
 */
export const TEMPLATE_DB = `yado_test_template_${createHash('sha256')
  .update(import.meta.dirname)
  .digest('hex')
  .slice(0, 8)}`;

export async function postgresAnswers(url = TEST_ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    // No server: the tests fall back to PGlite, which is the product's embedded default too.
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function databaseUrl(name: string, base = TEST_ADMIN_URL): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(sql: string, base = TEST_ADMIN_URL): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
