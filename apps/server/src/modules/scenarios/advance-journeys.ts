import {
  ZScenarioGraph,
  type TScenarioGraph,
  type TScenarioNode,
  type TScenarioRun,
  type TEdgeHandle,
} from '@yado/contracts/scenarios';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import { atCap, MAILABLE } from '../campaigns/audience.ts';
import { templateForSend } from '../campaigns/send-queries.ts';
import type { TCampaignJob } from '../campaigns/send-campaign.ts';
import { resolveSendingIdentityIn, type TSendingResolution } from '../sending/email-settings.ts';
import { recordDeliveryOutcomes } from '../tracking/rollups.ts';
import { delayUntil } from './delay-time.ts';
import { isPreArrival, skipForStay } from './stay-limits.ts';
import { suppressedSql } from '../deliverability/suppression.ts';

/**
 * Moving customers through scenarios: due journeys are claimed in sets by their due time
 * (FOR UPDATE SKIP LOCKED on the partial due index), grouped by scenario, node and phase, and each
 * group changes state with a few set-based statements. A claimed set, its state changes, its log
 * rows and the deliveries its emails queue commit in one transaction: a worker killed at any moment
 * leaves either the old state (the set is claimed again) or the new one, never half a step, and a
 * mail is only ever queued once per journey and node (the delivery is unique per hidden campaign
 * and customer). The SMTP sends themselves happen in the campaigns send path, with its in-flight rule.
 *
 * Phases: a journey `arrive`s at a node (due at once) and then, for delays and emails, `wait`s
 * there: a delay until its time, an email until its delivery has an outcome (no due time meanwhile;
 * the wake-up statement gives it one when the send answers).
 */

const ALL = { scopeAll: true, brandId: null } as const;
const p = (value: unknown): SQL => sql`${sql.param(value)}`;

interface TClaimed {
  id: string;
  scenario_id: string;
  node_id: string;
  phase: 'arrive' | 'wait';
}

export interface TScenarioForEngine {
  id: string;
  brand_id: string;
  host_id: string;
  name: string;
  status: string;
  graph: TScenarioGraph;
  run: TScenarioRun;
  /** Issue 26: the share of entering guests held out (never mailed by the scenario); null: none. */
  holdout_percent: number | null;
}

export async function scenariosById(tx: TTx, ids: string[]): Promise<Map<string, TScenarioForEngine>> {
  const rows = await selectRows<TScenarioForEngine>(
    tx,
    sql`select id, brand_id, host_id, name, status, graph, run, holdout_percent from scenarios where id = any(${p(ids)}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, { ...r, graph: ZScenarioGraph.parse(r.graph) }]));
}

/** Email waits whose delivery has an outcome (or whose send cannot happen) become due now. */
export async function wakeEmailWaits(rt: TRuntime, at: Date): Promise<void> {
  await withTenant(rt.database.db, ALL, (tx) =>
    tx.execute(sql`update journeys j set due_at = ${at.toISOString()}::timestamptz
      from deliveries d join campaigns c on c.id = d.campaign_id
      where j.state = 'waiting' and j.due_at is null and d.id = j.delivery_id
        and (d.status in ('sent', 'skipped', 'failed') or c.status = 'failed' or c.problem is not null)`),
  );
}

/**
 * One claimed set: answers how many journey steps it took (0 when nothing is due). With `sendJobs`
 * false the queued mails get no send job (see runScenarioTick).
 */
export async function advanceBatch(rt: TRuntime, at: Date, limit: number, sendJobs = true): Promise<number> {
  const toSend = new Map<string, TCampaignJob>();
  const identities: TIdentities = new Map();
  const steps = await withTenant(rt.database.db, ALL, async (tx) => {
    const claimed = await selectRows<TClaimed>(
      tx,
      sql`select id, scenario_id, node_id, phase from journeys where state = 'waiting' and due_at <= ${at.toISOString()}::timestamptz
        order by due_at limit ${limit} for update skip locked`,
    );
    if (claimed.length === 0) return 0;
    const scenarios = await scenariosById(tx, [...new Set(claimed.map((c) => c.scenario_id))]);
    const groups = new Map<string, TClaimed[]>();
    for (const c of claimed) {
      const key = `${c.scenario_id}|${c.node_id}|${c.phase}`;
      const list = groups.get(key) ?? [];
      list.push(c);
      groups.set(key, list);
    }
    let count = 0;
    for (const group of groups.values()) {
      const first = group[0] as TClaimed;
      const scenario = scenarios.get(first.scenario_id);
      const ids = group.map((g) => g.id);
      count += ids.length;
      if (!scenario || scenario.status !== 'running') {
        await leave(tx, ids, first.node_id, 'scenario_stopped', at);
        continue;
      }
      const node = scenario.graph.nodes.find((n) => n.id === first.node_id);
      if (!node) {
        await finish(tx, ids, first.node_id, 'failed', 'node_missing', at);
        continue;
      }
      await step(rt, tx, scenario, node, first.phase, ids, at, { toSend, identities });
    }
    return count;
  });
  // After the commit: the send path takes the queued deliveries up (one waiting job per campaign).
  if (sendJobs)
    for (const job of toSend.values()) await rt.queue.send(QUEUES.campaignSend, job, { singletonKey: job.campaignId });
  return steps;
}

function edgeFrom(graph: TScenarioGraph, nodeId: string, handle: TEdgeHandle): string | null {
  return graph.edges.find((e) => e.source === nodeId && e.handle === handle)?.target ?? null;
}

interface TSetContext {
  toSend: Map<string, TCampaignJob>;
  identities: TIdentities;
}

async function step(
  rt: TRuntime,
  tx: TTx,
  scenario: TScenarioForEngine,
  node: TScenarioNode,
  phase: 'arrive' | 'wait',
  ids: string[],
  at: Date,
  set: TSetContext,
): Promise<void> {
  const next = (handle: TEdgeHandle = 'next') => edgeFrom(scenario.graph, node.id, handle);
  switch (node.type) {
    case 'trigger': {
      // A pre-arrival wait that ends after check-in (the engine was down, the guest checked in
      // meanwhile) is skipped with the reason, not mailed late.
      const skipped = new Set(await skipStayAt(tx, scenario, ids, node.id, at));
      const going = ids.filter((id) => !skipped.has(id));
      if (going.length) await moveOn(tx, scenario, going, node.id, 'done', null, next(), at);
      return;
    }
    case 'delay':
      // Journeys usually begin a delay's wait as they arrive (moveOn); this is the arrival on its own.
      if (phase === 'arrive') await startWait(tx, ids, node.id, delayUntil(node.data, at, scenario.run.timeZone), at);
      else await moveOn(tx, scenario, ids, node.id, 'done', null, next(), at);
      return;
    case 'branch': {
      const yes = await selectRows<{ id: string }>(
        tx,
        sql`select j.id from journeys j where j.id = any(${p(ids)}::uuid[]) and ${branchHolds(node.data.condition, scenario.run.timeZone)}`,
      );
      const yesIds = new Set(yes.map((r) => r.id));
      const no = ids.filter((id) => !yesIds.has(id));
      if (yesIds.size) await moveOn(tx, scenario, [...yesIds], node.id, 'yes', null, next('yes'), at);
      if (no.length) await moveOn(tx, scenario, no, node.id, 'no', null, next('no'), at);
      return;
    }
    case 'email':
      if (phase === 'arrive') {
        // Every mail of a pre-arrival journey is held by the stay when it is due, not only the
        // trigger's wait: a delay after the trigger can carry it past check-in.
        const skipped = new Set(await skipStayAt(tx, scenario, ids, node.id, at));
        const going = ids.filter((id) => !skipped.has(id));
        if (going.length) await queueEmails(rt, tx, scenario, node, going, at, set);
      } else await emailOutcomes(tx, scenario, ids, node.id, next(), next('error'), at);
      return;
  }
}

/**
 * The journeys `ids` of a pre-arrival scenario ("N days before check-in", "check-in day") whose stay
 * no longer allows a mail at `at` (checked in, check-in passed, stay ended) leave at `nodeId` with a
 * `skipped` step and the reason; answers their ids. Other triggers (after check-out, a booking
 * made, a segment, a birthday) are not held by the stay: their mail goes out whenever it is due.
 */
async function skipStayAt(
  tx: TTx,
  scenario: TScenarioForEngine,
  ids: string[],
  nodeId: string,
  at: Date,
): Promise<string[]> {
  const trigger = scenario.graph.nodes.find((n) => n.type === 'trigger');
  if (trigger?.type !== 'trigger' || !isPreArrival(trigger.data.kind)) return [];
  return skipForStay(tx, sql`j.id = any(${p(ids)}::uuid[])`, sql`${at.toISOString()}::timestamptz`, nodeId, at);
}

function branchHolds(condition: 'opened_previous' | 'clicked_previous' | 'booked_since_entry', timeZone: string): SQL {
  switch (condition) {
    case 'opened_previous':
      return sql`exists (select 1 from delivery_engagement e where e.delivery_id = j.delivery_id and e.opens > 0)`;
    case 'clicked_previous':
      return sql`exists (select 1 from delivery_engagement e where e.delivery_id = j.delivery_id and e.clicks > 0)`;
    case 'booked_since_entry':
      // Booking dates are the hotel's local dates; the entry is compared as a local date too.
      return sql`exists (select 1 from bookings b where b.customer_id = j.customer_id and b.status <> 'cancelled'
        and b.booking_date >= (j.entered_at at time zone ${timeZone})::date)`;
  }
}

/**
 * Sending identities looked up in this set (one lookup per host and set, read fresh each set),
 * inside the set's own transaction: a second transaction opened from inside it would wait forever
 * on the embedded database's single connection (the manual clock's route hung on exactly that).
 */
type TIdentities = Map<string, Promise<TSendingResolution>>;
function identityOf(rt: TRuntime, tx: TTx, identities: TIdentities, hostId: string): Promise<TSendingResolution> {
  let found = identities.get(hostId);
  if (!found) {
    found = resolveSendingIdentityIn(rt, tx, hostId);
    identities.set(hostId, found);
  }
  return found;
}

/**
 * An email node: one delivery per journey on the node's hidden campaign of the journey's round,
 * with the campaigns path's rules at queue time (consent, suppression, frequency cap: skipped with
 * the reason); the send path checks consent again right before sending. A node that cannot send
 * (no sending identity, deleted template) fails its customers with the reason, and they go on.
 */
async function queueEmails(
  rt: TRuntime,
  tx: TTx,
  scenario: TScenarioForEngine,
  node: Extract<TScenarioNode, { type: 'email' }>,
  ids: string[],
  at: Date,
  set: TSetContext,
): Promise<void> {
  const fail = (reason: string) => failAndGoOn(tx, scenario, node.id, ids, reason, at);
  const { templateId, subject, senderEmail } = node.data;
  if (!templateId || !subject) return fail('email_incomplete');
  const resolution = await identityOf(rt, tx, set.identities, scenario.host_id);
  if (!resolution.ok) return fail(resolution.problems[0] ?? 'sending_settings_missing');
  if (!(await templateForSend(tx, templateId))) return fail('campaign_template_deleted');
  const atIso = at.toISOString();
  // A run after a restart reopens the node's hidden campaigns (a stop cancelled them) with the node as it is now.
  await tx.execute(sql`insert into campaigns (brand_id, host_id, name, subject, sender_email, template_id, status, started_at, scenario_id, scenario_node_id, scenario_round)
    select distinct ${scenario.brand_id}::uuid, ${scenario.host_id}::uuid, ${`${scenario.name} · ${node.label ?? node.id}`}, ${subject}, ${senderEmail}, ${templateId}::uuid,
      'pending', ${atIso}::timestamptz, ${scenario.id}::uuid, ${node.id}, j.round
    from journeys j where j.id = any(${p(ids)}::uuid[])
    on conflict (scenario_id, scenario_node_id, scenario_round) where scenario_id is not null
    do update set status = 'pending', template_id = excluded.template_id, subject = excluded.subject, sender_email = excluded.sender_email, name = excluded.name
      where campaigns.status <> 'pending' or campaigns.template_id is distinct from excluded.template_id or campaigns.subject <> excluded.subject
        or campaigns.sender_email is distinct from excluded.sender_email`);
  const hotel = sql`coalesce((select b.hotel_id from bookings b where b.id = j.booking_id),
    (select a.hotel_id from customer_allocations a where a.customer_id = customers.id order by a.booking_count desc, a.hotel_id limit 1))`;
  const inserted = await selectRows<{
    id: string;
    campaign_id: string;
    hotel_id: string | null;
    status: string;
    skip_reason: string | null;
  }>(
    tx,
    sql`insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, skip_reason, arm)
      select c.id, customers.brand_id, customers.id, ${hotel}, customers.email,
        case when j.held_out or not (${MAILABLE}) or ${atCap(resolution.identity.frequencyCap, at)} then 'skipped' else 'queued' end,
        -- Issue 26: a journey held out by the scenario's holdout is recorded and never mailed.
        case when j.held_out then 'holdout' when customers.email_status <> 'active' then 'unsubscribed' when nullif(customers.email, '') is null then 'no_email'
          when ${suppressedSql('customers')} then 'bounced' when ${atCap(resolution.identity.frequencyCap, at)} then 'frequency_cap' end,
        case when j.held_out then 'holdout' end
      from journeys j join customers on customers.id = j.customer_id
        join campaigns c on c.scenario_id = j.scenario_id and c.scenario_node_id = ${node.id} and c.scenario_round = j.round
      where j.id = any(${p(ids)}::uuid[])
      on conflict (campaign_id, customer_id) do nothing
      returning id, campaign_id, hotel_id, status, skip_reason`,
  );
  await recordDeliveryOutcomes(
    tx,
    inserted
      // Held-out guests are counted apart, never as skipped (issue 26).
      .filter((d) => d.status === 'skipped' && d.skip_reason !== 'holdout')
      .map((d) => ({
        deliveryId: d.id,
        campaignId: d.campaign_id,
        brandId: scenario.brand_id,
        hotelId: d.hotel_id,
        outcome: 'skipped' as const,
      })),
  );
  for (const d of inserted)
    if (d.status === 'queued') set.toSend.set(d.campaign_id, { campaignId: d.campaign_id, brandId: scenario.brand_id });
  await tx.execute(sql`update journeys j set delivery_id = d.id, phase = 'wait', due_at = case when d.status in ('sent', 'skipped', 'failed') then ${atIso}::timestamptz end,
      updated_at = ${atIso}::timestamptz
    from campaigns c join deliveries d on d.campaign_id = c.id
    where j.id = any(${p(ids)}::uuid[]) and c.scenario_id = j.scenario_id and c.scenario_node_id = ${node.id} and c.scenario_round = j.round and d.customer_id = j.customer_id`);
  await logSteps(tx, ids, node.id, 'queued', null, at);
}

/** A node that cannot act for these customers: the failure is logged with its reason, and they go on (the error path when there is one). */
async function failAndGoOn(
  tx: TTx,
  scenario: TScenarioForEngine,
  nodeId: string,
  ids: string[],
  reason: string,
  at: Date,
): Promise<void> {
  const errorPath = edgeFrom(scenario.graph, nodeId, 'error');
  await moveOn(tx, scenario, ids, nodeId, 'failed', reason, errorPath ?? edgeFrom(scenario.graph, nodeId, 'next'), at);
}

/** The send answered (or cannot happen): sent and skipped go on along `next`, failed along `error` if the node has one. */
async function emailOutcomes(
  tx: TTx,
  scenario: TScenarioForEngine,
  ids: string[],
  nodeId: string,
  next: string | null,
  errorPath: string | null,
  at: Date,
): Promise<void> {
  // A send that cannot happen (the hidden campaign failed or waits on a problem) fails now, so the
  // customer goes on and the mail is not sent late, out of step with the journey.
  const stuck = await selectRows<{
    id: string;
    campaign_id: string;
    hotel_id: string | null;
    brand_id: string;
    problem: string;
  }>(
    tx,
    sql`update deliveries d set status = 'failed', error = coalesce(c.problem, 'campaign_failed')
      from journeys j, campaigns c
      where j.id = any(${p(ids)}::uuid[]) and d.id = j.delivery_id and c.id = d.campaign_id and d.status in ('queued', 'deferred')
        and (c.status = 'failed' or c.problem is not null)
      returning d.id, d.campaign_id, d.hotel_id, d.brand_id, d.error as problem`,
  );
  await recordDeliveryOutcomes(
    tx,
    stuck.map((d) => ({
      deliveryId: d.id,
      campaignId: d.campaign_id,
      brandId: d.brand_id,
      hotelId: d.hotel_id,
      outcome: 'failed' as const,
    })),
  );
  const rows = await selectRows<{ id: string; status: string; detail: string | null }>(
    tx,
    sql`select j.id, d.status, case when d.status = 'skipped' then d.skip_reason when d.status = 'failed' then left(d.error, 200) end as detail
      from journeys j join deliveries d on d.id = j.delivery_id where j.id = any(${p(ids)}::uuid[])`,
  );
  const final = rows.filter((r) => r.status === 'sent' || r.status === 'skipped' || r.status === 'failed');
  // Not final yet (a retry is pending): back to waiting for the answer.
  const pending = ids.filter((id) => !final.some((r) => r.id === id));
  if (pending.length) await tx.execute(sql`update journeys set due_at = null where id = any(${p(pending)}::uuid[])`);
  const ok = final.filter((r) => r.status !== 'failed');
  const failed = final.filter((r) => r.status === 'failed');
  if (ok.length)
    await moveOn(
      tx,
      scenario,
      ok.map((r) => r.id),
      nodeId,
      ok.map((r) => r.status),
      ok.map((r) => r.detail),
      next,
      at,
    );
  if (failed.length)
    await moveOn(
      tx,
      scenario,
      failed.map((r) => r.id),
      nodeId,
      'failed',
      failed.map((r) => r.detail),
      errorPath ?? next,
      at,
    );
}

/**
 * Leaves `nodeId` with an event (done, yes, no, sent, skipped, failed; one for all or one each) and
 * arrives at `target`, due at once; without a target the journey is done. A delay is arrived at
 * and its wait begun here too (nothing is decided there), so the set is not claimed twice for it.
 * One statement: the state change and its log rows (leaving, arriving, waiting, in that order of
 * ids per journey) read the set's rows once.
 */
async function moveOn(
  tx: TTx,
  scenario: TScenarioForEngine,
  ids: string[],
  nodeId: string,
  event: string | string[],
  detail: string | null | (string | null)[],
  target: string | null,
  at: Date,
): Promise<void> {
  const atIso = at.toISOString();
  const source =
    Array.isArray(event) || Array.isArray(detail)
      ? sql`select v.id, v.event, v.detail from unnest(${p(ids)}::uuid[], ${p(Array.isArray(event) ? event : ids.map(() => event))}::text[],
          ${p(Array.isArray(detail) ? detail : ids.map(() => detail))}::text[]) as v(id, event, detail)`
      : sql`select v.id, ${event}::text as event, ${detail}::text as detail from unnest(${p(ids)}::uuid[]) as v(id)`;
  const arriving = target ? scenario.graph.nodes.find((n) => n.id === target) : undefined;
  const until = arriving?.type === 'delay' ? delayUntil(arriving.data, at, scenario.run.timeZone).toISOString() : null;
  const state = !target
    ? sql`state = 'done', due_at = null`
    : until
      ? sql`node_id = ${target}, phase = 'wait', due_at = ${until}::timestamptz`
      : sql`node_id = ${target}, phase = 'arrive', due_at = ${atIso}::timestamptz`;
  const arrived = target
    ? sql` union all select brand_id, scenario_id, id, ${target}, 'entered', null, ${atIso}::timestamptz from moved`
    : sql``;
  const waiting = until
    ? sql` union all select brand_id, scenario_id, id, ${target}, 'waiting', ${until}, ${atIso}::timestamptz from moved`
    : sql``;
  await tx.execute(sql`with v as (${source}), moved as (
      update journeys j set ${state}, updated_at = ${atIso}::timestamptz from v where j.id = v.id
      returning j.id, j.brand_id, j.scenario_id, v.event, v.detail)
    insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, ${nodeId}, event, detail, ${atIso}::timestamptz from moved${arrived}${waiting}`);
}

/** Journeys at a delay begin to wait until `until` (logged with it). */
async function startWait(tx: TTx, ids: string[], nodeId: string, until: Date, at: Date): Promise<void> {
  const atIso = at.toISOString();
  await tx.execute(sql`with moved as (
      update journeys set phase = 'wait', due_at = ${until.toISOString()}::timestamptz, updated_at = ${atIso}::timestamptz
      where id = any(${p(ids)}::uuid[]) returning id, brand_id, scenario_id)
    insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, ${nodeId}, 'waiting', ${until.toISOString()}, ${atIso}::timestamptz from moved`);
}

async function finish(tx: TTx, ids: string[], nodeId: string, event: string, detail: string, at: Date): Promise<void> {
  const atIso = at.toISOString();
  await tx.execute(sql`with moved as (
      update journeys set state = ${event === 'failed' ? 'failed' : 'done'}, due_at = null, updated_at = ${atIso}::timestamptz
      where id = any(${p(ids)}::uuid[]) returning id, brand_id, scenario_id)
    insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, ${nodeId}, ${event}, ${detail}, ${atIso}::timestamptz from moved`);
}

/** Customers leave where they are (stopped scenario, cancelled stay), with the reason. */
export async function leave(tx: TTx, ids: string[], nodeId: string, reason: string, at: Date): Promise<void> {
  const atIso = at.toISOString();
  await tx.execute(sql`with moved as (
      update journeys j set state = 'left', due_at = null, updated_at = ${atIso}::timestamptz
      where j.id = any(${p(ids)}::uuid[]) returning j.id, j.brand_id, j.scenario_id, j.node_id)
    insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, coalesce(node_id, ${nodeId}), 'left', ${reason}, ${atIso}::timestamptz from moved`);
}

export async function logSteps(
  tx: TTx,
  ids: string[],
  nodeId: string,
  event: string,
  detail: string | null,
  at: Date,
): Promise<void> {
  await tx.execute(sql`insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, ${nodeId}, ${event}, ${detail}, ${at.toISOString()}::timestamptz from journeys where id = any(${p(ids)}::uuid[])`);
}
