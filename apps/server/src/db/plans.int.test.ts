import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import {
  queryPrepared,
  readInTenant,
  selectRows,
  statementOf,
  withTenant,
  writeInTenant,
  type TPlans,
} from './client.ts';
import { statementName } from './pipeline.ts';

/**
 * How a pipeline's prepared statements are planned (TPlans): each mode reaches PostgreSQL as its
 * `plan_cache_mode` for that transaction only, so a connection handed back to the pool plans the
 * next caller's statements as that caller asks.
 */

let s: TTestServer;
const SYSTEM = { scopeAll: true, brandId: null } as const;

beforeAll(async () => {
  s = await startTestServer({ worker: false });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const modeWith = async (plans: TPlans | undefined) => {
  const db = s.rt.database.db;
  const [rows] = await readInTenant(
    db,
    SYSTEM,
    [],
    [statementOf(db, sql`select current_setting('plan_cache_mode') || ' ' || current_setting('enable_seqscan')`)],
    plans,
  ).then((r) => r.tenant);
  return rows?.[0]?.[0];
};

describe('plans', () => {
  it("sets PostgreSQL's plan_cache_mode (and, planning once, no sequential scans) for the pipeline's transaction, and only for it", async () => {
    expect(await modeWith('generic')).toBe('force_generic_plan off');
    expect(await modeWith('custom')).toBe('force_custom_plan on');
    expect(await modeWith(undefined)).toBe('auto on');
    // Sequential calls share the pool's connections: none keeps the mode set before.
    expect(await modeWith('generic')).toBe('force_generic_plan off');
    expect(await modeWith('auto')).toBe('auto on');
  });

  it('writeInTenant passes its mode on', async () => {
    const db = s.rt.database.db;
    const [rows] = await writeInTenant(
      db,
      SYSTEM,
      [statementOf(db, sql`select current_setting('plan_cache_mode')`)],
      'generic',
    );
    expect(rows?.[0]?.[0]).toBe('force_generic_plan');
  });

  it("queryPrepared prepares a statement once per connection, under its text's name, and keeps its plan", async () => {
    const db = s.rt.database.db;
    const query = sql`select ${'ゆ'}::text as v, now() as at, 1::bigint as n`;
    const name = statementName(statementOf(db, query).sql);
    const seen = await withTenant(db, SYSTEM, async (tx) => {
      await tx.execute(sql`select set_config('plan_cache_mode', 'force_generic_plan', true)`);
      const prepared = await queryPrepared<Record<string, unknown>>(tx, query);
      await queryPrepared(tx, query);
      const [statement] = await selectRows<{ n: number; generic: number; custom: number }>(
        tx,
        sql`select count(*)::int as n, sum(generic_plans)::int as generic, sum(custom_plans)::int as custom
          from pg_prepared_statements where name = ${name}`,
      );
      return { prepared, plain: await selectRows<Record<string, unknown>>(tx, query), statement };
    });
    // One statement on the connection, planned once for any values and that plan used both times.
    expect(seen.statement).toEqual({ n: 1, generic: 2, custom: 0 });
    // Its rows as selectRows gives them (drizzle's conversions: a timestamp stays its text).
    expect(seen.prepared[0]?.v).toBe('ゆ');
    expect(seen.prepared[0]?.n).toBe(seen.plain[0]?.n);
    expect(typeof seen.prepared[0]?.at).toBe(typeof seen.plain[0]?.at);
  });
});
