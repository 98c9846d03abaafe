import { sql } from 'drizzle-orm';
import { selectRows, withTenant } from '../../db/client.ts';
import type { TRuntime } from '../../runtime.ts';
import { addDays, localDay } from './dashboard-window.ts';
import { countCustomers, saveCountDay, scopeHotels, type TScopeHost } from './queries.ts';

const PLATFORM = { scopeAll: true, brandId: null } as const;

/**
 * Hourly (worker): every brand, hotel group and hotel whose local yesterday has no count taken
 * after its end gets one now, as yesterday's row. So "the week before" on the dashboard is known
 * a week after a host starts, whether or not anyone opened the dashboard on that day, and it is
 * the figure at the day's end rather than at the last time someone looked. Returns how many
 * hosts were counted.
 */
export async function keepDailyCustomerCounts(rt: TRuntime, now = new Date()): Promise<number> {
  const hosts = await withTenant(rt.database.db, PLATFORM, (tx) =>
    selectRows<{ id: string; level: TScopeHost['level']; brand_id: string; timezone: string }>(
      tx,
      sql`select id, level, brand_id, timezone from hosts where level in ('brand', 'hotel_group', 'hotel') and deleted_at is null and brand_id is not null order by brand_id, id`,
    ),
  );
  const byBrand = new Map<string, typeof hosts>();
  for (const h of hosts) byBrand.set(h.brand_id, [...(byBrand.get(h.brand_id) ?? []), h]);
  let counted = 0;
  for (const [brandId, members] of byBrand) {
    counted += await withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) => {
      let n = 0;
      for (const h of members) {
        const today = localDay(now, h.timezone);
        const yesterday = addDays(today, -1);
        const [row] = await selectRows<{ ended: boolean }>(
          tx,
          sql`select counted_at >= (${today}::date)::timestamp at time zone ${h.timezone} as ended
            from customer_count_days where host_id = ${h.id} and day = ${yesterday}::date`,
        );
        if (row?.ended) continue;
        const scope: TScopeHost = { id: h.id, level: h.level, brandId };
        const hotels = scope.level === 'brand' ? [] : (await scopeHotels(tx, scope)).map((x) => x.id);
        await saveCountDay(tx, scope, yesterday, await countCustomers(tx, scope, hotels));
        n++;
      }
      return n;
    });
  }
  return counted;
}
