import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { adminQuery } from '../test/databases.ts';
import { eventually, startTestServer } from '../test/harness.ts';
import { QUEUES } from './queue.ts';

/**
 * A worker stopping while pg-boss fetches a job. pg-boss's stop does not wait for a fetch under
 * way: the job it returns reached its handler after the queue had stopped, ran against a database
 * closing, and pg-boss's failure of it (sent without awaiting) met the closed pool: an unhandled
 * "Cannot use a pool after calling end on the pool". Here the fetch is held under way by a lock the
 * test takes on the queue's partition of pg-boss's job table, with the due job written under it,
 * and let go once the worker is stopping.
 */

describe('a worker stopping while a fetch is under way', () => {
  it('does not start the job fetched, fails it to run again, and nothing meets the closed database', async () => {
    const s = await startTestServer();
    const url = s.rt.config.databaseUrl;
    if (!url) throw new Error('this test needs PostgreSQL: it holds a lock from a connection of its own');
    const rejections: unknown[] = [];
    const heard = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', heard);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const queue = QUEUES.pruneImports;
      const [partition] = (
        await client.query<{ name: string }>(
          `select format('%I.%I', n.nspname, c.relname) as name
           from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
           where i.inhparent = 'pgboss.job'::regclass and pg_get_expr(c.relpartbound, c.oid) like '%' || $1 || '%'`,
          [queue],
        )
      ).rows;
      expect(partition).toBeDefined();
      await client.query('begin');
      await client.query(`lock table ${partition!.name} in share mode`);
      const [job] = (
        await client.query<{ id: string }>(
          `insert into pgboss.job (name, data, start_after, retry_limit, retry_delay)
           values ($1, '{}', now() - interval '1 minute', 3, 0) returning id`,
          [queue],
        )
      ).rows;
      // The worker's next fetch of that queue waits for the lock.
      await eventually(async () => {
        const { rows } = await client.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%pgboss.job%' and pid <> pg_backend_pid()`,
        );
        return rows.length > 0;
      });
      const stopping = (async () => {
        await s.app.close();
        await s.rt.stop();
      })();
      // Before this change the worker gave up its lease and closed the database meanwhile; now
      // it waits for the fetch, so give the stop time to get there.
      await eventually(async () => {
        const { rows } = await client.query(`select 1 from worker_leases`);
        return rows.length === 0;
      }, 3000).catch(() => undefined);
      await client.query('commit');
      await stopping;
      await sleep(200);
      expect(rejections.map(String)).toEqual([]);
      const { rows } = await client.query<{ state: string; output: { message?: string } }>(
        `select state, output from pgboss.job where id = $1`,
        [job!.id],
      );
      // Failed with retries left: it runs again, not left "active" for its six-hour expiry.
      expect(rows[0]).toMatchObject({
        state: 'retry',
        output: { message: 'the worker is stopping: the job runs again' },
      });
    } finally {
      process.off('unhandledRejection', heard);
      await client.end();
      const name = new URL(url).pathname.slice(1);
      await adminQuery(`drop database if exists ${name} with (force)`);
    }
  }, 60_000);
});
