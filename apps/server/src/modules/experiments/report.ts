import { DEFAULT_CONVERSION_WINDOW_DAYS } from '@yado/contracts/tracking';
import type { THoldoutReport, TExperimentReport, TInterval, TRate, TVariantKey } from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TCampaignRow } from '../campaigns/queries.ts';
import { keyOf } from './experiment-state.ts';
import { variantCounts } from './decide.ts';
import { holdoutLift, wilsonInterval, type TMeanSample } from './statistics.ts';

/**
 * The report of a campaign's experiment (issue 26): each variant of the test over its sent mails,
 * with 95 % Wilson intervals, the decision, and the holdout comparison. The holdout compares the
 * guests mailed (sent) with those held out over the same days from the campaign's start (or, for a
 * scenario, each guest's entry): bookings per guest and revenue per guest (bookings made in the
 * window, not cancelled), in the brand's attribution window and over 30 days.
 */

const rate = (x: number, n: number): TRate => {
  if (n <= 0) return null;
  const [low, high] = wilsonInterval({ n, x });
  return { value: x / n, low, high };
};

export async function campaignExperimentReport(
  tx: TTx,
  row: TCampaignRow,
  /** For a campaign of a host above seen for the acting hotel's guests only: those deliveries. */
  hotelFilter: SQL = sql`true`,
): Promise<TExperimentReport> {
  const alternatives = row.experiment_variants ?? [];
  const counts = alternatives.length ? await variantCounts(tx, row.id, hotelFilter) : [];
  const subjects = [row.subject, ...alternatives.map((v) => v.subject)];
  const variants = alternatives.length
    ? subjects.map((subject, i) => {
        const c = counts.find((r) => r.variant === i);
        const sends = c?.sends ?? 0;
        return {
          key: keyOf(i),
          subject,
          sends,
          humanOpens: c?.human_opens ?? 0,
          clicks: c?.clicks ?? 0,
          bookings: c?.bookings ?? 0,
          revenue: Number(c?.revenue ?? 0),
          openRate: rate(c?.human_opens ?? 0, sends),
          clickRate: rate(c?.clicks ?? 0, sends),
          bookingRate: rate(c?.booked ?? 0, sends),
        };
      })
    : [];
  const d = (row.experiment_decision ?? {}) as {
    reason?: 'too_few' | 'not_significant';
    pValue?: number;
    lift?: number | null;
  };
  const winner = row.experiment_winner;
  const decision: TExperimentReport['decision'] =
    winner === null || !row.experiment_how
      ? null
      : row.experiment_how === 'significant'
        ? {
            kind: 'winner',
            key: keyOf(winner),
            metric: row.experiment_metric,
            pValue: d.pValue ?? 0,
            lift: d.lift ?? null,
          }
        : row.experiment_how === 'inconclusive'
          ? { kind: 'inconclusive', reason: d.reason ?? 'not_significant', key: 'A' }
          : {
              kind: 'manual',
              key: keyOf(winner) as TVariantKey,
              by: row.experiment_decided_by
                ? { id: row.experiment_decided_by, name: row.experiment_decided_by_name ?? '' }
                : null,
            };
  const holdout =
    row.holdout_percent && row.started_at
      ? await holdoutReport(
          tx,
          row.brand_id,
          row.holdout_percent,
          sql`select d.customer_id, d.skip_reason is not distinct from 'holdout' as held_out, ${new Date(row.started_at).toISOString()}::timestamptz as since
            from deliveries d where d.campaign_id = ${row.id}::uuid and (d.status = 'sent' or d.skip_reason = 'holdout') and ${hotelFilter}`,
        )
      : null;
  return {
    phase: row.experiment_phase,
    decideAt: row.experiment_decide_at ? new Date(row.experiment_decide_at).toISOString() : null,
    metric: row.experiment_metric,
    testPercent: row.experiment_test_percent,
    waitHours: row.experiment_wait_hours,
    variants,
    decision,
    holdout,
  };
}

interface TGroupSums {
  held_out: boolean;
  guests: number;
  bookings: number;
  bookings_sq: number;
  revenue: number;
  revenue_sq: number;
}

const interval = (value: number, range: [number, number]): TInterval => ({ value, low: range[0], high: range[1] });

/**
 * The holdout comparison over `members` (a query of customer_id, held_out, since): per guest, the
 * bookings made from `since` (its date in the brand's time zone) to `days` days after, and their
 * amounts. `percent`: the holdout's share as set.
 */
export async function holdoutReport(
  tx: TTx,
  brandId: string,
  percent: number,
  members: SQL,
  only: ('attribution' | 'days_30')[] = ['attribution', 'days_30'],
): Promise<THoldoutReport> {
  const [settings] = await selectRows<{ days: number }>(
    tx,
    sql`select coalesce((select conversion_window_days from tracking_settings where brand_id = ${brandId}::uuid), ${DEFAULT_CONVERSION_WINDOW_DAYS})::int as days`,
  );
  const attribution = settings?.days ?? DEFAULT_CONVERSION_WINDOW_DAYS;
  const windows = [
    { window: 'attribution' as const, days: attribution },
    { window: 'days_30' as const, days: 30 },
  ].filter((w) => only.includes(w.window));
  const result: NonNullable<THoldoutReport>['windows'] = [];
  for (const w of windows) {
    const rows = await selectRows<TGroupSums>(
      tx,
      sql`with m as (${members}),
        g as (select m.customer_id, bool_or(m.held_out) as held_out,
            (min(m.since) at time zone (select timezone from hosts where id = ${brandId}::uuid))::date as day
          from m group by m.customer_id),
        per as (select g.customer_id, g.held_out, coalesce(b.n, 0)::float8 as n, coalesce(b.amount, 0)::float8 as amount
          from g left join lateral (select count(*) as n, sum(bk.amount) as amount from bookings bk
            where bk.brand_id = ${brandId}::uuid and bk.customer_id = g.customer_id and bk.status <> 'cancelled'
              and bk.booking_date between g.day and g.day + ${w.days}::int) b on true)
        select held_out, count(*)::int as guests, coalesce(sum(n), 0)::float8 as bookings, coalesce(sum(n * n), 0)::float8 as bookings_sq,
          coalesce(sum(amount), 0)::float8 as revenue, coalesce(sum(amount * amount), 0)::float8 as revenue_sq
        from per group by held_out`,
    );
    const of = (held: boolean) =>
      rows.find((r) => r.held_out === held) ?? {
        held_out: held,
        guests: 0,
        bookings: 0,
        bookings_sq: 0,
        revenue: 0,
        revenue_sq: 0,
      };
    const mailed = of(false);
    const held = of(true);
    const group = (g: TGroupSums) => ({
      guests: g.guests,
      bookings: g.bookings,
      revenue: g.revenue,
      bookingsPerGuest: g.guests ? g.bookings / g.guests : 0,
      revenuePerGuest: g.guests ? g.revenue / g.guests : 0,
    });
    const sample = (g: TGroupSums, which: 'bookings' | 'revenue'): TMeanSample => ({
      n: g.guests,
      sum: g[which],
      sumOfSquares: which === 'bookings' ? g.bookings_sq : g.revenue_sq,
    });
    const bookings = holdoutLift(sample(mailed, 'bookings'), sample(held, 'bookings'));
    const revenue = holdoutLift(sample(mailed, 'revenue'), sample(held, 'revenue'));
    result.push({
      window: w.window,
      days: w.days,
      mailed: group(mailed),
      holdout: group(held),
      result:
        bookings.kind === 'measured' && revenue.kind === 'measured'
          ? {
              kind: 'measured',
              incrementalBookings: interval(bookings.incremental, bookings.incrementalInterval),
              incrementalRevenue: interval(revenue.incremental, revenue.incrementalInterval),
              significant: bookings.incrementalInterval[0] > 0 || bookings.incrementalInterval[1] < 0,
            }
          : { kind: 'too_small', holdout: held.guests },
    });
  }
  return { percent, windows: result };
}
