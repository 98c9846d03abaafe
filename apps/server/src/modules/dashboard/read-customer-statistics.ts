import type { TCustomerStatistics, TFigure } from '@yado/contracts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { dashboardWindow } from './dashboard-window.ts';
import { dashboardScope } from './dashboard-scope.ts';
import {
  countCustomers,
  countDays,
  lastSync,
  panelHost,
  saveCountDay,
  scopeHotels,
  type TCustomerCounts,
} from './queries.ts';

/**
 * How old today's customer count may be before a reader counts again. Counting is a pass over the
 * scope's customers (tens of milliseconds for a million); within this age every reader is answered
 * from the stored row, so the dashboard stays fast however many people open it.
 */
export const COUNT_MAX_AGE_MS = 5 * 60_000;

/**
 * Customers, active and unsubscribed customers now and at the end of the week before, and the
 * last sync from the booking system. Today's count is stored as the day's row; the week before
 * is the row of its last day, or null when no count was kept that day (never a guess).
 */
export async function readCustomerStatistics(
  rt: TRuntime,
  ctx: TActingContext,
  now = new Date(),
): Promise<TCustomerStatistics> {
  const scope = dashboardScope(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const host = await panelHost(tx, scope.id);
    if (!host) throw new AppError(404, 'not_found');
    const window = dashboardWindow(now, host.timezone);
    const rows = await countDays(tx, scope.id, [window.to, window.previousTo]);
    const stored = rows.find(
      (r) => r.day === window.to && now.getTime() - new Date(r.counted_at).getTime() < COUNT_MAX_AGE_MS,
    );
    let today: TCustomerCounts;
    let countedAt: Date;
    if (stored) {
      today = stored;
      countedAt = new Date(stored.counted_at);
    } else {
      const hotels = scope.level === 'brand' ? [] : (await scopeHotels(tx, scope)).map((h) => h.id);
      today = await countCustomers(tx, scope, hotels);
      countedAt = await saveCountDay(tx, scope, window.to, today);
    }
    const before = rows.find((r) => r.day === window.previousTo);
    const figure = (key: keyof TCustomerCounts): TFigure => ({
      current: today[key],
      previous: before ? before[key] : null,
    });
    const sync = await lastSync(tx, scope.brandId);
    return {
      window,
      customers: figure('customers'),
      activeCustomers: figure('active'),
      unsubscribedCustomers: figure('unsubscribed'),
      countedAt: countedAt.toISOString(),
      lastSync: sync.run ? { status: sync.run.status, finishedAt: new Date(sync.run.finished_at).toISOString() } : null,
      bookingConnected: sync.connected,
    };
  });
}
