import { describe, expect, it } from 'vitest';
import type { TDb } from '../../db/client.ts';
import { TOTALS_TTL_MS, forgetTotals, planTotal } from './totals-cache.ts';

const database = () => ({}) as TDb;
const BRAND = '6b1f0d7e-0000-4000-8000-000000000001';

describe('list totals', () => {
  it('counts once, then shows the count until it expires', () => {
    const db = database();
    const first = planTotal(db, BRAND, 'k', 1_000);
    expect(first.count).toBe(true);
    first.settle?.(42);
    expect(planTotal(db, BRAND, 'k', 2_000).total).toBe(42);
    expect(planTotal(db, BRAND, 'other', 2_000).count).toBe(true);
    const later = planTotal(db, BRAND, 'k', Date.now() + TOTALS_TTL_MS + 1);
    expect(later.count).toBe(true);
  });

  it('lets one request count while the others wait for it, or show the older total meanwhile', async () => {
    const db = database();
    const counter = planTotal(db, BRAND, 'k');
    const waiter = planTotal(db, BRAND, 'k');
    expect(waiter.wait).toBeInstanceOf(Promise);
    counter.settle?.(7);
    await expect(waiter.wait).resolves.toBe(7);

    const expired = Date.now() + TOTALS_TTL_MS + 1;
    const recount = planTotal(db, BRAND, 'k', expired);
    expect(recount.count).toBe(true);
    expect(planTotal(db, BRAND, 'k', expired).total).toBe(7);
    recount.settle?.(8);
    expect(planTotal(db, BRAND, 'k').total).toBe(8);
  });

  it('hands a failed count to its waiters, and counts again next time', async () => {
    const db = database();
    const counter = planTotal(db, BRAND, 'k');
    const waiter = planTotal(db, BRAND, 'k');
    counter.settle?.(null);
    await expect(waiter.wait).rejects.toThrow();
    expect(planTotal(db, BRAND, 'k').count).toBe(true);
  });

  it('keeps a total asked for often when a run of one-off searches fills the map', () => {
    const db = database();
    planTotal(db, BRAND, 'common name').settle?.(90_000);
    for (let i = 0; i < 3_000; i++) {
      planTotal(db, BRAND, `phone ${i}`).settle?.(1);
      if (i % 100 === 0) expect(planTotal(db, BRAND, 'common name').total).toBe(90_000);
    }
    expect(planTotal(db, BRAND, 'common name').total).toBe(90_000);
    // The one-off searches used longest ago are the ones let go.
    expect(planTotal(db, BRAND, 'phone 0').count).toBe(true);
  });

  it('forgets a brand at a change, and keeps no count begun before it', () => {
    const db = database();
    const done = planTotal(db, BRAND, 'k');
    done.settle?.(5);
    const everyBrand = planTotal(db, null, 'k');
    everyBrand.settle?.(50);
    const inFlight = planTotal(db, BRAND, 'j');
    forgetTotals(db, BRAND);
    inFlight.settle?.(3);
    expect(planTotal(db, BRAND, 'k').count).toBe(true);
    expect(planTotal(db, BRAND, 'j').count).toBe(true);
    // The grand user's totals include every brand's.
    expect(planTotal(db, null, 'k').count).toBe(true);
  });
});
