import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import { maintainTables } from './maintenance.ts';

/**
 * The worker's own vacuum and analyse (db/maintenance.ts) over the real database, PostgreSQL and
 * (in the PGlite layer) the embedded one: a table that took and dropped rows, as the job and webhook
 * queues do all day, keeps its dead rows and its pages until a vacuum; the maintenance vacuums it
 * (its pages given back), analyses a table much changed, leaves a quiet one alone, and in auto mode
 * does it only where no autovacuum runs.
 */

let s: TTestServer;
/** As the maintenance names them (schema and table, each quoted where it must be). */
const QUEUE = 'public.maintenance_queue';
const QUIET = 'public.maintenance_quiet';

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  await s.sql(`create table maintenance_queue (id bigserial primary key, body text not null)`);
  await s.sql(`create table maintenance_quiet (id int primary key)`);
  await s.sql(`insert into maintenance_quiet values (1); select pg_stat_force_next_flush()`);
  await s.sql(`vacuum (analyze) maintenance_quiet`);
});

afterAll(async () => {
  await s?.close();
});

/** Rows taken and dropped in one session, its counters flushed at once (they are otherwise sent within seconds). */
async function churn(rows: number): Promise<void> {
  await s.sql(
    `insert into maintenance_queue (body) select repeat('x', 200) from generate_series(1, ${rows});
     delete from maintenance_queue;
     select pg_stat_force_next_flush()`,
  );
}

async function counters(table: string) {
  const [row] = await s.sql(
    `select n_dead_tup::int as dead, n_mod_since_analyze::int as changed, last_vacuum is not null as vacuumed,
       last_analyze is not null as analysed, pg_relation_size(relid)::int as bytes
     from pg_stat_user_tables where relname = $1`,
    [table],
  );
  return row as { dead: number; changed: number; vacuumed: boolean; analysed: boolean; bytes: number };
}

describe('table maintenance', () => {
  it('off does nothing, whatever the dead rows', async () => {
    await churn(3000);
    const done = await maintainTables(s.rt.database, 'off');
    expect(done).toEqual({ ran: false, vacuumed: [], analysed: [] });
    const before = await counters('maintenance_queue');
    expect(before.dead).toBe(3000);
    expect(before.vacuumed).toBe(false);
    expect(before.bytes).toBeGreaterThan(0);
  });

  it('vacuums and analyses a table full of dead rows, giving its pages back, and leaves a quiet one alone', async () => {
    const done = await maintainTables(s.rt.database, 'on');
    expect(done.ran).toBe(true);
    expect(done.vacuumed).toContain(QUEUE);
    expect([...done.vacuumed, ...done.analysed]).not.toContain(QUIET);
    const after = await counters('maintenance_queue');
    expect(after).toMatchObject({ dead: 0, vacuumed: true, analysed: true, bytes: 0 });
    // Nothing left to do: a second run finds the table tidy.
    const again = await maintainTables(s.rt.database, 'on');
    expect([...again.vacuumed, ...again.analysed]).not.toContain(QUEUE);
  });

  it('analyses a table whose rows changed much since its statistics, without vacuuming it', async () => {
    await s.sql(
      `insert into maintenance_quiet select g from generate_series(2, 41) g;
       update maintenance_quiet set id = id + 1000 where id <= 25;
       select pg_stat_force_next_flush()`,
    );
    // 40 inserted and 25 updated (25 dead) in a table of 41: over 50 + 10% changed, under 50 + 20% dead.
    expect((await counters('maintenance_quiet')).changed).toBe(65);
    const done = await maintainTables(s.rt.database, 'on');
    expect(done.analysed).toContain(QUIET);
    expect(done.vacuumed).not.toContain(QUIET);
    expect((await counters('maintenance_quiet')).changed).toBe(0);
  });

  it('auto works only where no autovacuum runs: always on the embedded database, on a server only with it off', async () => {
    await churn(500);
    const [setting] = await s.sql(`select current_setting('autovacuum') as autovacuum`);
    const expectRun = s.rt.database.kind === 'pglite' || setting.autovacuum === 'off';
    const done = await maintainTables(s.rt.database, 'auto');
    expect(done.ran).toBe(expectRun);
    expect(done.vacuumed.includes(QUEUE)).toBe(expectRun);
  });
});
