import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import { pickWinner, type TProportion } from './statistics.ts';
import { keyOf } from './experiment-state.ts';

/**
 * The decision of an A/B test (issue 26). The wait runs from the start of the send
 * (`experiment_decide_at` = started_at + wait hours, set by markStarted): the test share goes
 * first, and once every test delivery is answered the campaign waits ('waiting'). When the wait has
 * ended and the test is answered, the dispatcher's tick compares the variants on the campaign's
 * metric over the test mails that were sent (unique clicks, attributed bookings, or unique human
 * opens: machine opens are counted apart and left out) with `pickWinner`: a winner at 95 % with at
 * least 500 sends per variant, else the control A ("inconclusive": too_few or not_significant).
 * A marketer may pick by hand while the test runs or waits. Either way the rest deliveries get the
 * winner's variant (stored: a resume sends the same) and become claimable through the same send
 * path (quiet hours, frequency cap, consent, suppression, pause).
 */

export interface TVariantCounts {
  variant: number;
  sends: number;
  human_opens: number;
  clicks: number;
  bookings: number;
  /** Mails with at least one attributed booking (a proportion of the sends, for the test). */
  booked: number;
  revenue: number;
}

/** Per variant of the test: mails sent, unique human opens, unique clicks, attributed bookings and revenue. */
export async function variantCounts(tx: TTx, campaignId: string, hotelFilter = sql`true`): Promise<TVariantCounts[]> {
  return selectRows<TVariantCounts>(
    tx,
    sql`select d.variant, count(*)::int as sends,
        count(*) filter (where e.opens > 0)::int as human_opens,
        count(*) filter (where e.clicks > 0)::int as clicks,
        coalesce(sum(cv.n), 0)::int as bookings, count(*) filter (where cv.n > 0)::int as booked, coalesce(sum(cv.amount), 0)::bigint::float8 as revenue
      from deliveries d
      left join delivery_engagement e on e.delivery_id = d.id
      left join lateral (select count(*)::int as n, sum(amount) as amount from campaign_conversions x
        where x.delivery_id = d.id) cv on true
      where d.campaign_id = ${campaignId}::uuid and d.arm = 'test' and d.status = 'sent' and ${hotelFilter}
      group by d.variant order by d.variant`,
  );
}

export const successesOf = (c: TVariantCounts, metric: 'clicks' | 'bookings' | 'opens') =>
  metric === 'clicks' ? c.clicks : metric === 'bookings' ? c.booked : c.human_opens;

interface TDecisionRow {
  id: string;
  brand_id: string;
  name: string;
  experiment_variants: unknown[];
  experiment_metric: 'clicks' | 'bookings' | 'opens';
  experiment_winner: number | null;
  experiment_phase: string;
  status: string;
}

export type TDecided =
  | { how: 'significant'; winner: number; pValue: number; lift: number | null }
  | { how: 'inconclusive'; winner: 0; reason: 'too_few' | 'not_significant' }
  | { how: 'manual'; winner: number };

/** What the counts decide (the control A unless a variant beats all the others). */
export function decisionOf(
  counts: TVariantCounts[],
  variants: number,
  metric: 'clicks' | 'bookings' | 'opens',
): Exclude<TDecided, { how: 'manual' }> {
  const groups: TProportion[] = Array.from({ length: variants }, (_, i) => {
    const c = counts.find((r) => r.variant === i);
    return { n: c?.sends ?? 0, x: c ? successesOf(c, metric) : 0 };
  });
  const result = pickWinner(groups);
  if (result.kind === 'too_small') return { how: 'inconclusive', winner: 0, reason: 'too_few' };
  if (result.kind === 'inconclusive') return { how: 'inconclusive', winner: 0, reason: 'not_significant' };
  const others = result.pValues.filter((_, i) => i !== result.winner);
  const control = groups[0] as TProportion;
  const best = groups[result.winner] as TProportion;
  const lift = result.winner === 0 || control.x === 0 ? null : best.x / best.n / (control.x / control.n) - 1;
  // The report shows the largest p-value of the winner against the others.
  return { how: 'significant', winner: result.winner, pValue: Math.max(...others), lift };
}

/**
 * Records the decision (once: a campaign already decided is left alone) and releases the rest to
 * the send: its deliveries take the winner's variant. `by`: the user who picked, null for the
 * server. Returns false when the campaign was already decided or is no longer sending.
 */
export async function recordDecision(
  tx: TTx,
  campaignId: string,
  decide: (row: TDecisionRow, counts: () => Promise<TVariantCounts[]>) => Promise<TDecided | null>,
  by: { userId: string; hostId: string; role: string } | null,
): Promise<TDecided | null> {
  const [row] = await selectRows<TDecisionRow>(
    tx,
    sql`select id, brand_id, name, experiment_variants, experiment_metric, experiment_winner, experiment_phase, status
      from campaigns where id = ${campaignId}::uuid for update`,
  );
  if (!row || row.experiment_winner !== null || row.status !== 'pending') return null;
  if (row.experiment_phase !== 'testing' && row.experiment_phase !== 'waiting') return null;
  const decided = await decide(row, () => variantCounts(tx, campaignId));
  if (!decided) return null;
  const details =
    decided.how === 'significant'
      ? { pValue: decided.pValue, lift: decided.lift, metric: row.experiment_metric }
      : decided.how === 'inconclusive'
        ? { reason: decided.reason }
        : {};
  await tx.execute(sql`update campaigns set experiment_winner = ${decided.winner}, experiment_how = ${decided.how},
      experiment_decision = ${JSON.stringify(details)}::jsonb, experiment_decided_by = ${by?.userId ?? null}::uuid,
      experiment_decided_at = now(), experiment_phase = 'decided', updated_at = now()
    where id = ${campaignId}::uuid`);
  await tx.execute(sql`update deliveries set variant = ${decided.winner}
    where campaign_id = ${campaignId}::uuid and arm = 'rest' and status in ('queued', 'deferred')`);
  await tx.execute(sql`insert into audit_log (actor_user_id, acting_host_id, acting_role, brand_id, action, target_type, target_id, changes)
    values (${by?.userId ?? null}::uuid, ${by?.hostId ?? null}::uuid, ${by?.role ?? null}, ${row.brand_id}::uuid,
      ${by ? 'pick_winner' : 'decide_winner'}, 'campaign', ${row.id},
      ${JSON.stringify({ name: row.name, winner: keyOf(decided.winner), how: decided.how, ...details })}::jsonb)`);
  return decided;
}

/**
 * The dispatcher's part (every few seconds, across brands): tests whose test share is all answered
 * move to 'waiting'; those whose wait ended are decided and their rest queued at once.
 */
export async function advanceExperiments(rt: TRuntime): Promise<void> {
  const due = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, async (tx) => {
    await tx.execute(sql`update campaigns c set experiment_phase = 'waiting', updated_at = now()
      where c.experiment_phase = 'testing' and c.status = 'pending'
        and not exists (select 1 from deliveries d where d.campaign_id = c.id and d.arm = 'test'
          and d.status in ('queued', 'sending', 'deferred'))`);
    return selectRows<{ id: string; brand_id: string }>(
      tx,
      sql`select id, brand_id from campaigns where experiment_phase = 'waiting' and status = 'pending'
        and experiment_decide_at <= now() and experiment_winner is null limit 100`,
    );
  });
  for (const c of due) {
    const decided = await withTenant(rt.database.db, { scopeAll: false, brandId: c.brand_id }, (tx) =>
      recordDecision(
        tx,
        c.id,
        async (row, counts) => decisionOf(await counts(), row.experiment_variants.length + 1, row.experiment_metric),
        null,
      ),
    );
    if (decided)
      await rt.queue.send(QUEUES.campaignSend, { campaignId: c.id, brandId: c.brand_id }, { singletonKey: c.id });
  }
}
