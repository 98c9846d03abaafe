import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import type { TRuntime } from '../../runtime.ts';

/** How long a readiness check waits for PostgreSQL before it says "unreachable". */
const DATABASE_TIMEOUT_MS = 2000;

export interface TReadiness {
  ready: boolean;
  checks: {
    database: 'ok' | 'unreachable';
    /** The newest committed migration is applied ("behind": this code expects a newer schema). */
    migrations: 'ok' | 'behind' | 'unknown';
    /** A worker's job lease (jobs/leases.ts) is renewed and not yet expired; absent without a worker. */
    lease?: 'ok' | 'stale' | 'unknown';
  };
}

/** The `when` of the newest migration this code ships (drizzle-kit's journal), read once. */
let headMillis: number | null = null;
function migrationHead(): number {
  headMillis ??= Math.max(
    ...(
      JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
        entries: { when: number }[];
      }
    ).entries.map((e) => e.when),
  );
  return headMillis;
}

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error('database did not answer in time')), DATABASE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this process can serve: PostgreSQL answers, its schema is at the migration this code
 * ships, and, for a process running the worker, its job lease is fresh (so the jobs it takes are
 * not put back under it). /healthz, by contrast, only says the process is alive.
 */
export async function readiness(rt: TRuntime): Promise<TReadiness> {
  const checks: TReadiness['checks'] = { database: 'ok', migrations: 'unknown' };
  const lease = rt.leases;
  if (lease) checks.lease = 'unknown';
  try {
    const { rows } = await withTimeout(
      rt.database.executeSql('select max(created_at)::text as applied from drizzle.__drizzle_migrations'),
    );
    const applied = Number((rows[0] as { applied: string | null } | undefined)?.applied ?? 0);
    checks.migrations = applied >= migrationHead() ? 'ok' : 'behind';
    if (lease) checks.lease = (await withTimeout(lease.fresh())) ? 'ok' : 'stale';
  } catch {
    checks.database = 'unreachable';
  }
  const ready = checks.database === 'ok' && checks.migrations === 'ok' && (!lease || checks.lease === 'ok');
  return { ready, checks };
}
