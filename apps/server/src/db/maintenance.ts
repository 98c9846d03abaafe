import type { TDatabase } from './client.ts';

/**
 * What autovacuum does, where none runs. The embedded database (PGlite: PostgreSQL in one process,
 * with no background workers) never vacuums or analyses by itself, and neither does a server whose
 * `autovacuum` is switched off. The tables that take and drop rows all day (the job queue, the relay
 * webhook queue, the send's slots and leases) would then keep every dead row: their indexes grow,
 * each claim walks past more of them, and the data directory only grows. So the worker, every
 * MAINTENANCE_CRON, reads the tables' counters and, on autovacuum's own default thresholds, vacuums
 * (and analyses) each table with many dead or newly inserted rows and analyses each one much
 * changed since its statistics, one table at a time (on PGlite each holds the one session while it
 * runs, as every statement does). Where autovacuum runs (a server with it on) it leaves the tables
 * to it. DB_MAINTENANCE=on or off overrides that choice.
 */

export type TMaintenanceMode = 'auto' | 'on' | 'off';

export const MAINTENANCE_CRON = '*/10 * * * *';

export interface TMaintained {
  /** Whether this run looked at the tables at all (not when autovacuum runs, in auto mode). */
  ran: boolean;
  vacuumed: string[];
  analysed: string[];
}

/**
 * autovacuum's default thresholds (autovacuum_vacuum_threshold 50 + scale factor 0.2, the insert
 * threshold 1,000 + 0.2, autovacuum_analyze_threshold 50 + 0.1), against the live rows counted.
 */
const DUE = `select quote_ident(schemaname) || '.' || quote_ident(relname) as name,
    n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup as vacuum
  from pg_stat_user_tables
  where n_dead_tup > 50 + 0.2 * n_live_tup
    or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
    or n_mod_since_analyze > 50 + 0.1 * n_live_tup
  order by n_dead_tup desc, relname`;

/**
 * Whether the server's own autovacuum is at work. PGlite's setting reads on, but nothing there runs
 * it. (A server's launcher is not looked for: to a role that is no superuser, pg_stat_activity
 * names no other process's type.)
 */
async function autovacuumRuns(database: TDatabase): Promise<boolean> {
  if (database.kind === 'pglite') return false;
  const { rows } = await database.executeSql(`select current_setting('autovacuum') = 'on' as runs`);
  return Boolean((rows[0] as { runs?: boolean } | undefined)?.runs);
}

export async function maintainTables(database: TDatabase, mode: TMaintenanceMode): Promise<TMaintained> {
  const done: TMaintained = { ran: false, vacuumed: [], analysed: [] };
  if (mode === 'off' || (mode === 'auto' && (await autovacuumRuns(database)))) return done;
  done.ran = true;
  const { rows } = await database.executeSql(DUE);
  for (const row of rows as { name: string; vacuum: boolean }[]) {
    // Never inside a transaction (VACUUM cannot be); a table we do not own is skipped with a warning.
    await database.executeSql(row.vacuum ? `vacuum (analyze) ${row.name}` : `analyze ${row.name}`);
    (row.vacuum ? done.vacuumed : done.analysed).push(row.name);
  }
  return done;
}
