import { onTenantCommit, type TDb } from '../../db/client.ts';

/**
 * Totals of the customer list this process counted lately, per brand and filter. Counting up to
 * the cap costs more than the page itself (a name shared by a tenth of a million customers is ten
 * thousand index entries), and a console asks for the same total on every page and every return
 * to the list. A total is kept for TTL_MS, and forgotten at once when any tenant transaction of its
 * brand commits in this process (see onTenantCommit), so a change made here shows at once; one made
 * by another process (a separate worker) shows within TTL_MS.
 */
export const TOTALS_TTL_MS = 15_000;
const MOST_PER_BRAND = 1_000;
type TTotals = Map<string, Map<string, { total: number; at: number }>>;
/** Per database (tests run several servers in one process), then per brand, then per filter. */
const byDatabase = new WeakMap<TDb, TTotals>();
const totalsOf = (db: TDb): TTotals => {
  let totals = byDatabase.get(db);
  if (!totals) byDatabase.set(db, (totals = new Map()));
  return totals;
};
onTenantCommit((db, context) => forgetTotals(db, context.scopeAll ? null : context.brandId));

/** The brand a total belongs to; the grand user's totals span brands. */
const brandKey = (brandId: string | null) => brandId ?? '*';

export function rememberedTotal(db: TDb, brandId: string | null, key: string, now = Date.now()): number | null {
  const entry = totalsOf(db).get(brandKey(brandId))?.get(key);
  if (!entry || now - entry.at > TOTALS_TTL_MS) return null;
  return entry.total;
}

export function rememberTotal(db: TDb, brandId: string | null, key: string, total: number, now = Date.now()): void {
  const byBrand = totalsOf(db);
  let totals = byBrand.get(brandKey(brandId));
  if (!totals) byBrand.set(brandKey(brandId), (totals = new Map()));
  totals.delete(key);
  if (totals.size >= MOST_PER_BRAND) totals.delete(totals.keys().next().value as string);
  totals.set(key, { total, at: now });
}

/** Forgets a brand's totals, and the grand user's, which include them; null: every brand's. */
export function forgetTotals(db: TDb, brandId: string | null): void {
  const byBrand = totalsOf(db);
  if (brandId === null) byBrand.clear();
  else {
    byBrand.delete(brandId);
    byBrand.delete('*');
  }
}
