import { DAILY_SYNC_TIME } from '@yado/contracts';
import { withTenant } from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import { claimDailySync, connectionsWithTimeZones } from './queries.ts';
import { enqueueSync } from './enqueue-sync.ts';

/**
 * How often the dispatcher looks for brands whose 01:00 has come. Every quarter hour catches
 * every time zone, those at :30 and :45 offsets included.
 */
export const DAILY_SYNC_DISPATCH_CRON = '*/15 * * * *';

/** The day and the time of day at an instant in a time zone: `{ day: '2026-11-22', time: '01:00' }`. */
export function localClock(at: Date, timeZone: string): { day: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * The daily sync: every connected brand once per local day, at 01:00 in the brand's time zone
 * or, when the product was down then, at the first dispatch after it. pg-boss 10 keeps one
 * schedule per queue, so rather than a queue (and a polling worker) per brand, one cron job
 * dispatches; claiming the day in the connection row makes concurrent dispatchers harmless.
 */
export async function dispatchDailySyncs(rt: TRuntime, now = new Date()): Promise<string[]> {
  const everyBrand = { scopeAll: true, brandId: null };
  const connections = await withTenant(rt.database.db, everyBrand, (tx) => connectionsWithTimeZones(tx));
  const started: string[] = [];
  for (const c of connections) {
    const local = localClock(now, c.timeZone);
    if (local.time < DAILY_SYNC_TIME || c.lastDailyOn === local.day) continue;
    const claimed = await withTenant(rt.database.db, { scopeAll: false, brandId: c.brandId }, (tx) =>
      claimDailySync(tx, c.brandId, local.day),
    );
    if (!claimed) continue;
    await enqueueSync(rt, { brandId: c.brandId, trigger: 'cron' });
    started.push(c.brandId);
  }
  return started;
}

export async function scheduleDailySyncDispatch(rt: TRuntime): Promise<void> {
  await rt.queue.schedule(QUEUES.bookingSyncDispatch, DAILY_SYNC_DISPATCH_CRON, {}, { tz: 'UTC' });
}
