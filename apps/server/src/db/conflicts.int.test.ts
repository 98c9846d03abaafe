import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import { retryingConflicts, sqlStateOf, withTenant } from './client.ts';

/**
 * `retryingConflicts` against a real deadlock: two transactions lock the same two rows in opposite
 * orders, so PostgreSQL rolls one back (40P01). Alone, the victim fails; retried, both commit.
 */

let s: TTestServer;
let rows: [string, string];

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  const hosts = await s.sql(`select id from hosts where level = 'hotel' order by id limit 2`);
  rows = [hosts[0].id, hosts[1].id];
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** Locks `first`, waits until the other transaction holds its row too, then locks `second`. */
function crossing(first: string, second: string, met: { count: number }, told: object[]): Promise<number> {
  let runs = 0;
  const log = { warn: (details: object) => told.push(details) };
  return retryingConflicts(
    async () => {
      runs++;
      await withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, async (tx) => {
        await tx.execute(sql`select id from hosts where id = ${first}::uuid for update`);
        met.count++;
        const until = Date.now() + 5_000;
        while (met.count < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
        await tx.execute(sql`select id from hosts where id = ${second}::uuid for update`);
      });
      return runs;
    },
    { log, what: 'crossing' },
  );
}

describe('retryingConflicts', () => {
  it("runs a deadlock's victim again, so both transactions commit", async () => {
    const met = { count: 0 };
    const told: object[] = [];
    const runs = await Promise.all([crossing(rows[0], rows[1], met, told), crossing(rows[1], rows[0], met, told)]);
    // One of the two was the victim and ran twice, and the log was told so.
    expect(runs.sort()).toEqual([1, 2]);
    expect(told).toEqual([{ sqlState: '40P01', attempt: 1, what: 'crossing' }]);
  }, 30_000);

  it('gives the deadlock to the caller when no attempt is left', async () => {
    const met = { count: 0 };
    const once = (a: string, b: string) =>
      withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, async (tx) => {
        await tx.execute(sql`select id from hosts where id = ${a}::uuid for update`);
        met.count++;
        while (met.count < 2) await new Promise((r) => setTimeout(r, 10));
        await tx.execute(sql`select id from hosts where id = ${b}::uuid for update`);
      });
    const results = await Promise.allSettled([
      retryingConflicts(() => once(rows[0], rows[1]), { attempts: 1 }),
      retryingConflicts(() => once(rows[1], rows[0]), { attempts: 1 }),
    ]);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [sqlStateOf(r.reason)] : []));
    expect(refused).toEqual(['40P01']);
  }, 30_000);
});
