import { onTenantCommit, type TDb } from '../../db/client.ts';

/**
 * Totals of the customer list this process counted lately, per brand and filter. Counting up to
 * the cap costs more than the page itself (a name shared by a tenth of a million customers is ten
 * thousand rows to count), and a console asks for the same total on every page and every return to
 * the list. So:
 * - a total is fresh for TTL_MS, and forgotten at once when a tenant transaction of its brand that
 *   changed customers, their hotels or the hotels' groups commits in this process (onTenantCommit;
 *   a scope-all one forgets every brand's): a change made here shows at once, one made by another
 *   process (a separate worker) within TTL_MS or so. A transaction that changed none of them (the
 *   worker's sweeps and ticks, every few seconds) forgets nothing;
 * - one request counts at a time for a brand and filter: a request that finds the total being
 *   counted waits for that count, or, if an older total is known, shows it meanwhile (many
 *   requests finding a total expired at once would otherwise all count at once);
 * - at most MOST_PER_BRAND totals are kept per brand, the one used longest ago let go first.
 */
export const TOTALS_TTL_MS = 15_000;
const MOST_PER_BRAND = 1_000;

interface TEntry {
  total: number | null;
  at: number;
  counting: Promise<number> | null;
}
interface TBrandTotals {
  /** Raised by every forget, so a count begun before a change does not outlive it. */
  generation: number;
  entries: Map<string, TEntry>;
}

/** Per database (tests run several servers in one process), then per brand, then per filter. */
const byDatabase = new WeakMap<TDb, Map<string, TBrandTotals>>();
onTenantCommit((db, context) => forgetTotals(db, context.scopeAll ? null : context.brandId));

/** The brand a total belongs to; the grand user's totals span brands. */
const brandKey = (brandId: string | null) => brandId ?? '*';

function brandTotals(db: TDb, brandId: string | null): TBrandTotals {
  let brands = byDatabase.get(db);
  if (!brands) byDatabase.set(db, (brands = new Map()));
  let totals = brands.get(brandKey(brandId));
  if (!totals) brands.set(brandKey(brandId), (totals = { generation: 0, entries: new Map() }));
  return totals;
}

/** What a list request does about its total. */
export type TTotalPlan =
  /** Show this total; count nothing. */
  | { total: number; count?: undefined; wait?: undefined; settle?: undefined }
  /** Count it (in the same round trip as the page) and report the count with `settle`. */
  | { count: true; settle(total: number | null): void; total?: undefined; wait?: undefined }
  /** Another request is counting it: wait for that count. */
  | { wait: Promise<number>; total?: undefined; count?: undefined; settle?: undefined };

export function planTotal(db: TDb, brandId: string | null, key: string, now = Date.now()): TTotalPlan {
  const totals = brandTotals(db, brandId);
  const entry = totals.entries.get(key);
  // The map is kept in order of use, so the entry a full map lets go is the one used longest ago: a
  // common name's total, asked for every moment, is not pushed out by a run of one-off searches.
  if (entry) {
    totals.entries.delete(key);
    totals.entries.set(key, entry);
  }
  if (entry?.total != null && now - entry.at <= TOTALS_TTL_MS) return { total: entry.total };
  if (entry?.counting) return entry.total != null ? { total: entry.total } : { wait: entry.counting };

  let resolve!: (total: number) => void;
  let reject!: (error: Error) => void;
  const counting = new Promise<number>((res, rej) => ((resolve = res), (reject = rej)));
  // Nobody may be waiting when a count fails: that is not an unhandled rejection.
  counting.catch(() => {});
  const generation = totals.generation;
  const mine: TEntry = { total: entry?.total ?? null, at: entry?.at ?? 0, counting };
  if (!entry && totals.entries.size >= MOST_PER_BRAND)
    totals.entries.delete(totals.entries.keys().next().value as string);
  totals.entries.set(key, mine);
  return {
    count: true,
    settle(total) {
      if (total === null) {
        if (totals.entries.get(key) === mine) totals.entries.delete(key);
        reject(new Error('The count failed'));
        return;
      }
      // A change committed while counting: the count may predate it, so it is not kept.
      if (totals.generation === generation && totals.entries.get(key) === mine)
        totals.entries.set(key, { total, at: Date.now(), counting: null });
      resolve(total);
    },
  };
}

/** Forgets a brand's totals, and the grand user's, which include them; null: every brand's. */
export function forgetTotals(db: TDb, brandId: string | null): void {
  const brands = byDatabase.get(db);
  if (!brands) return;
  const keys = brandId === null ? [...brands.keys()] : [brandId, '*'];
  for (const key of keys) {
    const totals = brands.get(key);
    if (!totals) continue;
    totals.generation++;
    totals.entries.clear();
  }
}
