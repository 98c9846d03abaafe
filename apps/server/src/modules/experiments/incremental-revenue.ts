import type { TInterval } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { hostReach } from '../campaigns/queries.ts';
import { scenarioReach } from '../scenarios/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { holdoutReport } from './report.ts';

/** Campaigns and scenarios with a holdout looked at, at most, for the dashboard's figure. */
const LIMIT = 20;

/**
 * The dashboard's incremental revenue (issue 26): over the campaigns of the acting host's own reach
 * whose send started in the window, and its scenarios that ran in it, each with a measured holdout
 * (attribution window): the sum of their incremental revenue, the interval's half-widths added in
 * quadrature (the groups are independent). Null when none had a holdout measured.
 */
export async function incrementalRevenue(
  tx: TTx,
  ctx: TActingContext,
  window: { from: string; to: string; timezone: string },
): Promise<TInterval | null> {
  const campaigns = await selectRows<{ id: string; brand_id: string; holdout_percent: number; started_at: Date }>(
    tx,
    sql`select c.id, c.brand_id, c.holdout_percent, c.started_at from campaigns c join hosts h on h.id = c.host_id
      where c.scenario_id is null and c.holdout_percent is not null and c.started_at is not null and ${hostReach(ctx)}
        and (c.started_at at time zone ${window.timezone})::date between ${window.from}::date and ${window.to}::date
      order by c.started_at desc limit ${LIMIT}`,
  );
  const scenarios = await selectRows<{ id: string; brand_id: string; holdout_percent: number }>(
    tx,
    sql`select s.id, s.brand_id, s.holdout_percent from scenarios s join hosts h on h.id = s.host_id
      where s.holdout_percent is not null and s.started_at is not null and ${scenarioReach(ctx)}
        and (s.started_at at time zone ${window.timezone})::date <= ${window.to}::date
        and (s.stopped_at is null or (s.stopped_at at time zone ${window.timezone})::date >= ${window.from}::date)
      order by s.started_at desc limit ${LIMIT}`,
  );
  let value = 0;
  let variance = 0;
  let measured = 0;
  const add = (report: Awaited<ReturnType<typeof holdoutReport>>) => {
    const result = report?.windows[0]?.result;
    if (result?.kind !== 'measured') return;
    const r = result.incrementalRevenue;
    value += r.value;
    variance += ((r.high - r.low) / 2) ** 2;
    measured++;
  };
  for (const c of campaigns)
    add(
      await holdoutReport(
        tx,
        c.brand_id,
        c.holdout_percent,
        sql`select d.customer_id, d.skip_reason is not distinct from 'holdout' as held_out, ${new Date(c.started_at).toISOString()}::timestamptz as since
          from deliveries d where d.campaign_id = ${c.id}::uuid and (d.status = 'sent' or d.skip_reason = 'holdout')`,
        ['attribution'],
      ),
    );
  for (const s of scenarios)
    add(
      await holdoutReport(
        tx,
        s.brand_id,
        s.holdout_percent,
        sql`select j.customer_id, j.held_out, j.entered_at as since from journeys j
          where j.scenario_id = ${s.id}::uuid and (j.held_out or exists (select 1 from deliveries d join campaigns c on c.id = d.campaign_id
            where c.scenario_id = ${s.id}::uuid and d.customer_id = j.customer_id and d.status = 'sent'))`,
        ['attribution'],
      ),
    );
  if (measured === 0) return null;
  // Each half-width is 1.96 standard errors: their quadrature sum is 1.96 times the sum's.
  const half = Math.sqrt(variance);
  return { value, low: value - half, high: value + half };
}
