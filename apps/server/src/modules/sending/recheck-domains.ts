import { withTenant } from '../../db/client.ts';
import type { TRuntime } from '../../runtime.ts';
import { afterCheck, lookUpRecords } from './domains.ts';
import { domainsToRecheck, saveCheck } from './queries.ts';

/**
 * The daily re-check: every domain tried at least once is looked up again. A verified domain that
 * no longer passes goes back to "in verification" and is marked lapsed (its brand admins see a
 * banner); one whose DNS does not answer is left as it was, to be tried the next day.
 */
export async function recheckDomains(rt: TRuntime): Promise<{ checked: number; lapsed: number; skipped: number }> {
  let checked = 0;
  let lapsed = 0;
  let skipped = 0;
  // Every brand's domains, read under row-level security like any request (the owner is bound by it too).
  const rows = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, (tx) => domainsToRecheck(tx));
  for (const row of rows) {
    const now = new Date();
    const verification = await lookUpRecords(rt.config, row, now);
    if (verification.unavailable) {
      skipped++;
      continue;
    }
    const next = afterCheck(row, verification, now);
    await withTenant(rt.database.db, { scopeAll: false, brandId: row.brandId }, (tx) => saveCheck(tx, row.id, next));
    checked++;
    if (row.state === 'verified' && next.state !== 'verified') {
      lapsed++;
      rt.log.warn({ domainId: row.id }, 'sending domain fell out of verification');
    }
  }
  return { checked, lapsed, skipped };
}
