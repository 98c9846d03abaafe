import type {
  TCampaignHold,
  TCampaignPerformance,
  TDailyPerformance,
  TFigure,
  THotelPerformance,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { holdsOf } from '../campaigns/campaign-hold.ts';
import { campaignReach, hostReach, inGuestHotels } from '../campaigns/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { daysOf, dashboardWindow } from './dashboard-window.ts';
import { incrementalRevenue } from '../experiments/incremental-revenue.ts';
import { dashboardScope } from './dashboard-scope.ts';
import {
  campaignEngagement,
  finishedCampaigns,
  nextCampaigns,
  panelHost,
  performanceRows,
  scopeHotels,
} from './queries.ts';

export const NEXT_SCHEDULED_LIMIT = 5;

const ZERO = { sent: 0, opened: 0, clicked: 0, bookings: 0, revenue: 0 };
type TSums = typeof ZERO;
const SUMMED = Object.keys(ZERO) as (keyof TSums)[];

function add(into: TSums, row: TSums): void {
  for (const key of SUMMED) into[key] += row[key];
}

/** A rate is unknown, not zero, when nothing was delivered. */
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/**
 * The campaign performance of the last 7 days against the 7 before, from the tracking rollups
 * (never raw events): the daily chart and the per-hotel figures from the rollup per host and
 * local day (what happened each day: sends, opens, clicks, bookings), the open and click rates
 * from the rollup per campaign and host over the mails of the campaigns sent in each week; the
 * campaigns finished as sent or failed, and the next scheduled ones. Campaign counts and rates are
 * of campaigns only; the daily and per-hotel figures hold every marketing mail, scenario mails too.
 * The running scenarios are their own block (`read-running-scenarios.ts`).
 */
export async function readCampaignPerformance(
  rt: TRuntime,
  ctx: TActingContext,
  now = new Date(),
): Promise<TCampaignPerformance> {
  const scope = dashboardScope(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const host = await panelHost(tx, scope.id);
    if (!host) throw new AppError(404, 'not_found');
    const window = dashboardWindow(now, host.timezone);
    const hotels = await scopeHotels(tx, scope);
    const rows = await performanceRows(
      tx,
      scope,
      hotels.map((h) => h.id),
      window.previousFrom,
      window.to,
    );

    const current = { ...ZERO };
    const previous = { ...ZERO };
    const byDay = new Map(daysOf(window.from, window.to).map((day) => [day, { ...ZERO }]));
    const byHotel = new Map(hotels.map((h) => [h.id, { ...ZERO }]));
    for (const row of rows) {
      if (row.day < window.from) {
        add(previous, row);
        continue;
      }
      add(current, row);
      const day = byDay.get(row.day);
      if (day) add(day, row);
      const hotel = row.hotel_id ? byHotel.get(row.hotel_id) : undefined;
      if (hotel) add(hotel, row);
    }
    const [finishedNow, finishedBefore] = await finishedCampaigns(tx, campaignReach(ctx), window.timezone, [
      { from: window.from, to: window.to },
      { from: window.previousFrom, to: window.previousTo },
    ]);
    const [mailsNow, mailsBefore] = await campaignEngagement(
      tx,
      scope,
      hotels.map((h) => h.id),
      window.timezone,
      [
        { from: window.from, to: window.to },
        { from: window.previousFrom, to: window.previousTo },
      ],
    );
    const figure = (a: number | null, b: number | null): TFigure => ({ current: a, previous: b });
    const upcoming = await upcomingCampaigns(tx, ctx, now);
    return {
      window,
      openRate: figure(rate(mailsNow!.opened, mailsNow!.delivered), rate(mailsBefore!.opened, mailsBefore!.delivered)),
      clickRate: figure(
        rate(mailsNow!.clicked, mailsNow!.delivered),
        rate(mailsBefore!.clicked, mailsBefore!.delivered),
      ),
      // Issue 25: hard bounces of the mails handed to the relay, complaints of delivered (as the
      // campaign statistics count them), over the same mails as the open and click rates.
      bounceRate: figure(
        rate(mailsNow!.hardBounces, mailsNow!.handed),
        rate(mailsBefore!.hardBounces, mailsBefore!.handed),
      ),
      complaintRate: figure(
        rate(mailsNow!.complaints, mailsNow!.delivered),
        rate(mailsBefore!.complaints, mailsBefore!.delivered),
      ),
      campaignsSent: figure(finishedNow?.sent ?? 0, finishedBefore?.sent ?? 0),
      campaignsFailed: figure(finishedNow?.failed ?? 0, finishedBefore?.failed ?? 0),
      sent: figure(current.sent, previous.sent),
      bookings: figure(current.bookings, previous.bookings),
      revenue: figure(current.revenue, previous.revenue),
      // Issue 26: what the holdouts of the window's campaigns and scenarios say the mails caused.
      incrementalRevenue: await incrementalRevenue(tx, ctx, window),
      daily: [...byDay].map(([day, sums]): TDailyPerformance => ({ day, ...sums })),
      hotels:
        scope.level === 'hotel'
          ? null
          : hotels.map((h): THotelPerformance => ({ hotelId: h.id, name: h.name, ...(byHotel.get(h.id) ?? ZERO) })),
      nextScheduled: upcoming,
    };
  });
}

/**
 * The next campaigns: those scheduled, and those sending but held by quiet hours (a hotel or group
 * also sees its brand's or group's campaign whose held guests are its own, and counts only them),
 * by when they go, soonest first.
 */
async function upcomingCampaigns(tx: TTx, ctx: TActingContext, now: Date) {
  const seen = sql`(${hostReach(ctx)} or ${inGuestHotels(ctx, sql`d.hotel_id`)})`;
  const { scheduled, sending } = await nextCampaigns(tx, campaignReach(ctx), seen, NEXT_SCHEDULED_LIMIT);
  const holds = await holdsOf(
    tx,
    sending.map((c) => ({ id: c.id, status: c.status, inFlight: c.in_flight })),
    ctx,
    now,
  );
  const entries: { id: string; name: string; sendAt: string; hostName: string; hold: TCampaignHold | null }[] = [
    ...scheduled.map((c) => ({
      id: c.id,
      name: c.name,
      sendAt: new Date(c.send_at as Date).toISOString(),
      hostName: c.host_name,
      hold: null,
    })),
    ...sending.flatMap((c) => {
      const hold = holds.get(c.id);
      return hold ? [{ id: c.id, name: c.name, sendAt: hold.until, hostName: c.host_name, hold }] : [];
    }),
  ];
  return entries
    .sort((a, b) => a.sendAt.localeCompare(b.sendAt) || a.id.localeCompare(b.id))
    .slice(0, NEXT_SCHEDULED_LIMIT);
}
