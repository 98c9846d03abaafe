import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import { readInTenant, statementOf, writeInTenant, type TPlans } from './client.ts';

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
    [statementOf(db, sql`select current_setting('plan_cache_mode')`)],
    plans,
  ).then((r) => r.tenant);
  return rows?.[0]?.[0];
};

describe('plans', () => {
  it("sets PostgreSQL's plan_cache_mode for the pipeline's transaction, and only for it", async () => {
    expect(await modeWith('generic')).toBe('force_generic_plan');
    expect(await modeWith('custom')).toBe('force_custom_plan');
    expect(await modeWith(undefined)).toBe('auto');
    // Sequential calls share the pool's connections: none keeps the mode set before.
    expect(await modeWith('generic')).toBe('force_generic_plan');
    expect(await modeWith('auto')).toBe('auto');
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
});
