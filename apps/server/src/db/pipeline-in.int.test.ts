import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import { pipelineIn, sqlStateOf, withTenant } from './client.ts';

/**
 * pipelineIn: a transaction's next statements in one round trip (over PostgreSQL, pipelined on the
 * transaction's connection and prepared once per connection), each seeing what the ones before it
 * did. A statement that fails leaves the statements PostgreSQL had parsed known to the connection,
 * so the connection's next transaction prepares nothing twice.
 */

let s: TTestServer;
const SYSTEM = { scopeAll: true, brandId: null } as const;

beforeAll(async () => {
  s = await startTestServer({ worker: false });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('pipelineIn', () => {
  it('runs the statements in order within the transaction, each seeing the one before, a text repeated with other values', async () => {
    const results = await withTenant(s.rt.database.db, SYSTEM, (tx) =>
      pipelineIn(tx, [
        sql`select set_config('yado.pipeline_test', ${'seen'}, true)`,
        sql`select current_setting('yado.pipeline_test') as setting`,
        sql`select ${2}::int + 1 as n`,
        sql`select ${5}::int + 1 as n`,
      ]),
    );
    expect(results).toEqual([[['seen']], [['seen']], [[3]], [[6]]]);
    // The setting was the transaction's own.
    const after = await withTenant(s.rt.database.db, SYSTEM, (tx) =>
      pipelineIn(tx, [sql`select current_setting('yado.pipeline_test', true) as setting`]),
    );
    expect(after[0]?.[0]?.[0] ?? '').toBe('');
  });

  it('fails the transaction with the statement that failed, and the connection prepares what it parsed only once', async () => {
    // Texts no connection has seen yet: both are parsed in this pipeline, the second fails when it runs.
    const tag = randomBytes(6).toString('hex');
    const statements = (divisor: number) => [
      sql`select pg_backend_pid() as pid, ${sql.raw(`'${tag}'`)} as tag`,
      sql`select 1 / ${divisor}::int as quotient, ${sql.raw(`'${tag}'`)} as tag`,
    ];
    let failedOn: unknown = null;
    const failure = await withTenant(s.rt.database.db, SYSTEM, async (tx) => {
      const [[pid]] = (await pipelineIn(tx, [sql`select pg_backend_pid()`])) as [[[number]]];
      failedOn = pid[0];
      return pipelineIn(tx, statements(0));
    }).catch((error: unknown) => error);
    expect(sqlStateOf(failure)).toBe('22012');
    // The next transactions take the same connection (the pool hands back the one released last) and
    // send the same texts: prepared again, they would fail as already prepared.
    for (let i = 0; i < 2; i++) {
      const results = await withTenant(s.rt.database.db, SYSTEM, (tx) => pipelineIn(tx, statements(1)));
      if (s.rt.database.kind === 'postgres') expect(results[0]?.[0]?.[0]).toBe(failedOn);
      expect(results[1]).toEqual([[1, tag]]);
    }
  });
});
