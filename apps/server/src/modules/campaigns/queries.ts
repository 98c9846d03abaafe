import type {
  TCampaignListQuery,
  TCampaignListStatus,
  TCampaignScope,
  TCampaignStatus,
  TDeliveryStatus,
} from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/** The only place that touches campaigns, campaign_segments and deliveries (the send's claims are in send-queries.ts). */

export interface TCampaignRow {
  id: string;
  brand_id: string;
  host_id: string;
  name: string;
  subject: string;
  pre_header: string;
  sender_email: string | null;
  template_id: string | null;
  template_name: string | null;
  status: TCampaignStatus;
  schedule_kind: 'now' | 'at' | null;
  schedule_local_time: string | null;
  schedule_time_zone: string | null;
  send_at: Date | null;
  audience: number | null;
  started_at: Date | null;
  finished_at: Date | null;
  problem: string | null;
  /** A sending campaign paused by a user (status stays pending): when, by whom. */
  paused_at: Date | null;
  paused_by: string | null;
  paused_by_name: string | null;
  paused_reason: { kind: 'hard_bounce' | 'complaint'; rate: number } | null;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  updated_by: string | null;
  host_name: string;
  host_level: 'brand' | 'hotel_group' | 'hotel';
  host_group_id: string | null;
  host_time_zone: string;
  /** What the acting context sees of it: the whole campaign, or its own hotels' guests only. */
  scope: TCampaignScope;
  created_by_name: string | null;
  updated_by_name: string | null;
  segment_ids: string[] | null;
  exclude_segment_ids: string[] | null;
  /** Deliveries by status. */
  counts: Partial<Record<TDeliveryStatus, number>> | null;
  /** Deliveries handed over twice (in_flight_repeats). */
  repeats: number | null;
  /** From the tracking module's per-campaign rollup (null before it has a row). */
  delivered: number | null;
  unique_opens: number | null;
  unique_clicks: number | null;
  conversions: number | null;
  /** Issue 26: the experiment settings and its state (see the schema). */
  experiment_variants: TStoredVariant[];
  experiment_test_percent: number;
  experiment_wait_hours: number;
  experiment_metric: 'clicks' | 'bookings' | 'opens';
  holdout_percent: number | null;
  experiment_phase: 'none' | 'testing' | 'waiting' | 'decided';
  experiment_decide_at: Date | null;
  experiment_winner: number | null;
  experiment_how: 'significant' | 'inconclusive' | 'manual' | null;
  experiment_decision: Record<string, unknown> | null;
  experiment_decided_by: string | null;
  experiment_decided_by_name: string | null;
  experiment_decided_at: Date | null;
  /** The names of the variants' own templates, by id. */
  variant_template_names: Record<string, string> | null;
}

/** One alternative B..D as stored in `campaigns.experiment_variants`. */
export interface TStoredVariant {
  subject: string;
  preHeader: string;
  senderName: string | null;
  templateId: string | null;
}

/**
 * Campaigns an acting context may read: its own host's and those of the hosts below it, and, for
 * a hotel or hotel group, a campaign of a host above (its brand's, its group's) that reached its
 * guests (`reachedGuests`), which it reads for those guests only (`scope` own_guests). The hidden
 * campaigns that carry a scenario's email nodes (scenario_id set) are the scenario's, not listed here.
 */
export function campaignReach(ctx: TActingContext): SQL {
  return sql`c.scenario_id is null and (${hostReach(ctx)} or ${reachedGuests(ctx)})`;
}

/** The campaign's own reach: the acting host's campaigns and those of the hosts below it (`c`, its host `h`). */
export function hostReach(ctx: TActingContext): SQL {
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return sql`c.brand_id = ${ctx.host.id}::uuid`;
    case 'hotel_group':
      return sql`(c.host_id = ${ctx.host.id}::uuid or h.hotel_group_id = ${ctx.host.id}::uuid)`;
    default:
      return sql`c.host_id = ${ctx.host.id}::uuid`;
  }
}

/**
 * A hotel id (`column`) among the acting hotel, or the acting group's hotels; never for a brand or
 * the platform, which reach every campaign of theirs already.
 */
export function inGuestHotels(ctx: TActingContext, column: SQL): SQL {
  if (ctx.host.level === 'hotel') return sql`${column} = ${ctx.host.id}::uuid`;
  if (ctx.host.level === 'hotel_group')
    return sql`${column} in (select gh.id from hosts gh where gh.hotel_group_id = ${ctx.host.id}::uuid and gh.level = 'hotel')`;
  return sql`false`;
}

/**
 * A campaign of a host above the acting hotel (its brand, its hotel group) or group (its brand)
 * that reached the acting hotel's (or group's hotels') guests: a delivery to one of them has an
 * outcome in the per-hotel rollup (a send, a skip, a failure), or, while the send runs (started,
 * not finished), one of them waits among its deliveries. The second reads deliveries of the
 * running sends only, so finished campaigns cost one rollup lookup.
 */
export function reachedGuests(ctx: TActingContext): SQL {
  if (ctx.host.level !== 'hotel' && ctx.host.level !== 'hotel_group') return sql`false`;
  const above = [ctx.host.brandId, ctx.host.level === 'hotel' ? ctx.host.hotelGroupId : null].filter(
    (id): id is string => Boolean(id),
  );
  return sql`(c.brand_id = ${ctx.host.brandId}::uuid and c.host_id = any(${sql.param(above)}::uuid[]) and (
    exists (select 1 from campaign_host_stats rs where rs.campaign_id = c.id and ${inGuestHotels(ctx, sql`rs.host_id`)})
    or (c.started_at is not null and c.finished_at is null
      and exists (select 1 from deliveries rd where rd.campaign_id = c.id and ${inGuestHotels(ctx, sql`rd.hotel_id`)}))))`;
}

/**
 * The campaign row as the acting context sees it: a campaign in its own reach whole, another's
 * (reached guests) with the counts and tracking sums of its own hotels' guests only.
 */
function selectFor(ctx: TActingContext | null): SQL {
  const whole = ctx ? hostReach(ctx) : sql`true`;
  const mine = (column: string) => (ctx ? inGuestHotels(ctx, sql.raw(column)) : sql`false`);
  return sql`select c.id, c.brand_id, c.host_id, c.name, c.subject, c.pre_header, c.sender_email, c.template_id, t.name as template_name,
  c.status, c.schedule_kind, c.schedule_local_time, c.schedule_time_zone, c.send_at, c.audience, c.started_at, c.finished_at, c.problem,
  c.paused_at, c.paused_by, c.paused_reason, nullif(trim(pu.last_name || ' ' || pu.first_name), '') as paused_by_name,
  c.created_at, c.updated_at, c.created_by, c.updated_by, h.name as host_name, h.level as host_level, h.hotel_group_id as host_group_id,
  h.timezone as host_time_zone, case when ${whole} then 'campaign' else 'own_guests' end as scope,
  nullif(trim(cu.last_name || ' ' || cu.first_name), '') as created_by_name, nullif(trim(uu.last_name || ' ' || uu.first_name), '') as updated_by_name,
  (select array_agg(cs.segment_id order by cs.segment_id) from campaign_segments cs where cs.campaign_id = c.id and not cs.exclude) as segment_ids,
  (select array_agg(cs.segment_id order by cs.segment_id) from campaign_segments cs where cs.campaign_id = c.id and cs.exclude) as exclude_segment_ids,
  (select jsonb_object_agg(n.status, n.n) from (select case when d.skip_reason = 'holdout' then 'held_out'
      when d.status = 'sending' and d.handed_at is null then 'claimed' else d.status end as status,
    count(*)::int as n from deliveries d
    where d.campaign_id = c.id and (${whole} or ${mine('d.hotel_id')}) group by 1) n) as counts,
  c.experiment_variants, c.experiment_test_percent, c.experiment_wait_hours, c.experiment_metric, c.holdout_percent,
  c.experiment_phase, c.experiment_decide_at, c.experiment_winner, c.experiment_how, c.experiment_decision,
  c.experiment_decided_by, nullif(trim(eu.last_name || ' ' || eu.first_name), '') as experiment_decided_by_name, c.experiment_decided_at,
  (select jsonb_object_agg(vt.id, vt.name) from templates vt where jsonb_array_length(c.experiment_variants) > 0
    and vt.id::text in (select v->>'templateId' from jsonb_array_elements(c.experiment_variants) v)) as variant_template_names,
  (select sum(d.in_flight_repeats)::int from deliveries d where d.campaign_id = c.id and d.in_flight_repeats > 0
    and (${whole} or ${mine('d.hotel_id')})) as repeats,
  case when ${whole} then st.delivered else gs.delivered end as delivered,
  case when ${whole} then st.unique_opens else gs.unique_opens end as unique_opens,
  case when ${whole} then st.unique_clicks else gs.unique_clicks end as unique_clicks,
  case when ${whole} then st.conversions else gs.conversions end as conversions
  from campaigns c join hosts h on h.id = c.host_id
  left join campaign_stats st on st.campaign_id = c.id
  left join lateral (select sum(hs.delivered)::int as delivered, sum(hs.unique_opens)::int as unique_opens,
      sum(hs.unique_clicks)::int as unique_clicks, sum(hs.conversions)::int as conversions
    from campaign_host_stats hs where hs.campaign_id = c.id and ${mine('hs.host_id')}) gs on true
  left join templates t on t.id = c.template_id
  left join users cu on cu.id = c.created_by left join users uu on uu.id = c.updated_by
  left join users pu on pu.id = c.paused_by
  left join users eu on eu.id = c.experiment_decided_by`;
}

const ORDER: Record<TCampaignListQuery['sort'], SQL> = {
  name: sql`lower(c.name) asc, c.id asc`,
  '-name': sql`lower(c.name) desc, c.id desc`,
  created_at: sql`c.created_at asc, c.id asc`,
  '-created_at': sql`c.created_at desc, c.id desc`,
  send_at: sql`c.send_at asc nulls last, c.id asc`,
  '-send_at': sql`c.send_at desc nulls last, c.id desc`,
  status: sql`c.status asc, c.id asc`,
  '-status': sql`c.status desc, c.id desc`,
};

/**
 * A campaign's list status (CAMPAIGN_LIST_STATUSES, as its badge says it): a sending campaign is
 * `paused` while paused, `waiting` when it is among `waiting` (those quiet hours hold whole, worked
 * out by campaign-hold.ts from the clock), else its status.
 */
function listStatus(waiting: string[]): SQL {
  return sql`(case when c.status = 'pending' and c.paused_at is not null then 'paused'
    when c.status = 'pending' and c.id = any(${sql.param(waiting)}::uuid[]) then 'waiting' else c.status::text end)`;
}

function listWhere(ctx: TActingContext, q: Pick<TCampaignListQuery, 'search' | 'status'>, waiting: string[]): SQL {
  const parts = [campaignReach(ctx)];
  if (q.status === 'pending' || q.status === 'paused' || q.status === 'waiting')
    parts.push(sql`c.status = 'pending' and ${listStatus(waiting)} = ${q.status}`);
  else if (q.status) parts.push(sql`c.status = ${q.status}`);
  if (q.search)
    parts.push(
      sql`(strpos(lower(c.name), lower(${q.search})) > 0 or strpos(lower(c.subject), lower(${q.search})) > 0)`,
    );
  return sql.join(parts, sql` and `);
}

/** `waiting`: the sending campaigns quiet hours hold whole (see `listStatus`). */
export async function listCampaignRows(
  tx: TTx,
  ctx: TActingContext,
  q: TCampaignListQuery,
  waiting: string[],
): Promise<{ rows: TCampaignRow[]; total: number }> {
  const where = listWhere(ctx, q, waiting);
  const rows = await selectRows<TCampaignRow>(
    tx,
    sql`${selectFor(ctx)} where ${where} order by ${ORDER[q.sort]} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
  );
  const [count] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from campaigns c join hosts h on h.id = c.host_id where ${where}`,
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * The sending campaigns (pending, not paused) the context reaches, each with its deliveries in
 * flight as the context sees them (as `counts.sending` of the row): the list works out from them
 * which ones quiet hours hold whole.
 */
export async function sendingCampaignsInReach(
  tx: TTx,
  ctx: TActingContext,
): Promise<{ id: string; status: 'pending'; inFlight: number }[]> {
  const rows = await selectRows<{ id: string; in_flight: number }>(
    tx,
    sql`select c.id, (select count(*)::int from deliveries d where d.campaign_id = c.id and d.status = 'sending'
        and d.handed_at is not null and (${hostReach(ctx)} or ${inGuestHotels(ctx, sql`d.hotel_id`)})) as in_flight
      from campaigns c join hosts h on h.id = c.host_id
      where ${campaignReach(ctx)} and c.status = 'pending' and c.paused_at is null`,
  );
  return rows.map((r) => ({ id: r.id, status: 'pending', inFlight: r.in_flight }));
}

/** Campaigns by list status (`waiting` as for `listCampaignRows`), and the sums of the sends, over everything the context reaches. */
export async function headlineOf(tx: TTx, ctx: TActingContext, waiting: string[]) {
  const reach = campaignReach(ctx);
  const byStatus = await selectRows<{ status: TCampaignListStatus; n: number }>(
    tx,
    sql`select ${listStatus(waiting)} as status, count(*)::int as n from campaigns c join hosts h on h.id = c.host_id
      where ${reach} group by 1`,
  );
  // The campaigns in the host's own reach from their deliveries; those of a host above, for the
  // acting hotel's guests only, from the per-hotel rollup (the same counts, without reading every
  // delivery of the brand's campaigns).
  const [own] = await selectRows<TSums>(
    tx,
    sql`select count(*) filter (where d.status = 'sent')::int as sent, count(*) filter (where d.status = 'failed')::int as failed,
      count(*) filter (where d.status = 'skipped' and d.skip_reason is distinct from 'holdout')::int as skipped
      from deliveries d join campaigns c on c.id = d.campaign_id join hosts h on h.id = c.host_id
      where c.scenario_id is null and ${hostReach(ctx)}`,
  );
  const [above] =
    ctx.host.level === 'hotel' || ctx.host.level === 'hotel_group'
      ? await selectRows<TSums>(
          tx,
          sql`select coalesce(sum(s.sent), 0)::int as sent, coalesce(sum(s.failed), 0)::int as failed,
            coalesce(sum(s.skipped), 0)::int as skipped
            from campaign_host_stats s join campaigns c on c.id = s.campaign_id join hosts h on h.id = c.host_id
            where ${reach} and not ${hostReach(ctx)} and ${inGuestHotels(ctx, sql`s.host_id`)}`,
        )
      : [];
  const zero: TSums = { sent: 0, failed: 0, skipped: 0 };
  const a = own ?? zero;
  const b = above ?? zero;
  return { byStatus, sums: { sent: a.sent + b.sent, failed: a.failed + b.failed, skipped: a.skipped + b.skipped } };
}

type TSums = { sent: number; failed: number; skipped: number };

export async function findCampaignRow(tx: TTx, ctx: TActingContext, id: string): Promise<TCampaignRow | null> {
  const [row] = await selectRows<TCampaignRow>(
    tx,
    sql`${selectFor(ctx)} where c.id = ${id}::uuid and ${campaignReach(ctx)}`,
  );
  return row ?? null;
}

/** For the worker (no acting context; runs under the campaign's brand). */
export async function campaignRowById(tx: TTx, id: string): Promise<TCampaignRow | null> {
  const [row] = await selectRows<TCampaignRow>(tx, sql`${selectFor(null)} where c.id = ${id}::uuid`);
  return row ?? null;
}

export interface TCampaignFields {
  name: string;
  subject: string;
  preHeader: string;
  senderEmail: string | null;
  templateId: string | null;
}

export async function insertCampaign(
  tx: TTx,
  ctx: TActingContext,
  brandId: string,
  v: TCampaignFields,
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    tx,
    sql`insert into campaigns (brand_id, host_id, name, subject, pre_header, sender_email, template_id, created_by, updated_by)
      values (${brandId}::uuid, ${ctx.host.id}::uuid, ${v.name}, ${v.subject}, ${v.preHeader}, ${v.senderEmail}, ${v.templateId}::uuid, ${ctx.user.id}::uuid, ${ctx.user.id}::uuid)
      returning id`,
  );
  return (row as { id: string }).id;
}

export async function updateCampaignFields(tx: TTx, id: string, userId: string, v: TCampaignFields): Promise<void> {
  await tx.execute(sql`update campaigns set name = ${v.name}, subject = ${v.subject}, pre_header = ${v.preHeader}, sender_email = ${v.senderEmail},
    template_id = ${v.templateId}::uuid, updated_by = ${userId}::uuid, updated_at = now() where id = ${id}::uuid`);
}

export async function setCampaignSegments(
  tx: TTx,
  campaignId: string,
  brandId: string,
  include: string[],
  exclude: string[],
): Promise<void> {
  await tx.execute(sql`delete from campaign_segments where campaign_id = ${campaignId}::uuid`);
  const all = [
    ...include.map((id) => ({ id, exclude: false })),
    ...exclude.filter((id) => !include.includes(id)).map((id) => ({ id, exclude: true })),
  ];
  if (all.length === 0) return;
  await tx.execute(sql`insert into campaign_segments (campaign_id, segment_id, brand_id, exclude)
    select ${campaignId}::uuid, s.id, ${brandId}::uuid, s.exclude from unnest(${sql.param(all.map((a) => a.id))}::uuid[], ${sql.param(all.map((a) => a.exclude))}::boolean[]) as s(id, exclude)`);
}

export interface TScheduleFields {
  kind: 'now' | 'at';
  localTime: string | null;
  timeZone: string | null;
  sendAt: Date;
}

export async function setScheduled(tx: TTx, id: string, userId: string, s: TScheduleFields): Promise<void> {
  await tx.execute(sql`update campaigns set status = 'scheduled', schedule_kind = ${s.kind}, schedule_local_time = ${s.localTime}, schedule_time_zone = ${s.timeZone},
    send_at = ${s.sendAt.toISOString()}::timestamptz, problem = null, updated_by = ${userId}::uuid, updated_at = now() where id = ${id}::uuid`);
}

/**
 * A draft's planned schedule (null: none), as the user typed it: kept in the schedule's columns so
 * the editor opens it again, never due (`send_at` null; the dispatcher takes scheduled ones only).
 */
export async function setPlannedSchedule(
  tx: TTx,
  id: string,
  s: Pick<TScheduleFields, 'kind' | 'localTime' | 'timeZone'> | null,
): Promise<void> {
  await tx.execute(sql`update campaigns set schedule_kind = ${s?.kind ?? null}, schedule_local_time = ${s?.localTime ?? null},
    schedule_time_zone = ${s?.timeZone ?? null}, send_at = null, updated_at = now() where id = ${id}::uuid and status = 'draft'`);
}

/**
 * Draft or cancelled; only from draft or scheduled (a send that started meanwhile keeps going). A
 * campaign taken back to draft keeps its schedule as planned, no longer due.
 */
export async function setStatusFromEditable(
  tx: TTx,
  id: string,
  userId: string,
  status: 'draft' | 'cancelled',
): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update campaigns set status = ${status}, problem = null, updated_by = ${userId}::uuid, updated_at = now()
      ${status === 'draft' ? sql`, send_at = null` : sql``}
      where id = ${id}::uuid and status in ('draft', 'scheduled') returning id`,
  );
  return rows.length > 0;
}

/**
 * Takes the campaign's statistics row for the rest of the transaction, made (all zeros) if it has
 * none yet: a send step that is making it meanwhile (its first answers) is waited for, where a
 * `select ... for update` would find nothing to lock and go on.
 */
export async function lockCampaignStats(tx: TTx, id: string, brandId: string): Promise<void> {
  await tx.execute(
    sql`insert into campaign_stats (campaign_id, brand_id) values (${id}::uuid, ${brandId}::uuid)
      on conflict (campaign_id) do update set updated_at = now()`,
  );
}

/**
 * Cancels a paused campaign (issue 25): the campaign is cancelled, and its deliveries not yet handed
 * to the relay (queued, deferred, or claimed before the pause and not handed) are skipped as
 * cancelled. Those handed finish on their own: their answers are recorded by their claim, and
 * `finishIfDone` leaves a cancelled campaign alone. A claim that hands at this very moment either
 * sees the campaign cancelled or hands its rows before they are skipped (row locks decide), so no
 * delivery is both. Null when the campaign is not paused.
 */
export async function cancelPausedRow(
  tx: TTx,
  id: string,
  userId: string,
): Promise<{ id: string; hotel_id: string | null }[] | null> {
  const cancelled = await selectRows<{ id: string }>(
    tx,
    sql`update campaigns set status = 'cancelled', finished_at = now(), paused_at = null, paused_by = null, problem = null,
        updated_by = ${userId}::uuid, updated_at = now()
      where id = ${id}::uuid and status = 'pending' and paused_at is not null returning id`,
  );
  if (cancelled.length === 0) return null;
  return selectRows<{ id: string; hotel_id: string | null }>(
    tx,
    sql`update deliveries set status = 'skipped', skip_reason = 'cancelled', claimed_by = null, claim_token = null
      where campaign_id = ${id}::uuid and (status in ('queued', 'deferred') or (status = 'sending' and handed_at is null))
      returning id, hotel_id`,
  );
}

export async function deleteCampaignRow(tx: TTx, id: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`delete from campaigns where id = ${id}::uuid and status <> 'pending' returning id`,
  );
  return rows.length > 0;
}

/** Campaigns of the acting brand that use a template (for the template report's statistics). */
export async function deliveryCounts(tx: TTx, campaignIds: string[]) {
  return selectRows<{ campaign_id: string; sent: number; total: number; sent_at: Date | null }>(
    tx,
    sql`select d.campaign_id, count(*) filter (where d.status = 'sent')::int as sent, count(*)::int as total, max(d.sent_at) as sent_at
      from deliveries d where d.campaign_id = any(${sql.param(campaignIds)}::uuid[]) group by d.campaign_id`,
  );
}

export interface TDeliveryRow {
  id: string;
  customer_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  hotel_id: string | null;
  status: TDeliveryStatus;
  skip_reason: string | null;
  attempts: number;
  sent_at: Date | null;
  error: string | null;
}

export async function listDeliveryRows(
  tx: TTx,
  campaignId: string,
  q: { status?: TDeliveryStatus; page: number; pageSize: number },
  /** Set for a campaign seen for the acting host's guests only: those guests' deliveries. */
  guestsOf: TActingContext | null = null,
) {
  const parts = [sql`d.campaign_id = ${campaignId}::uuid`];
  if (q.status) parts.push(sql`d.status = ${q.status}`);
  if (guestsOf) parts.push(inGuestHotels(guestsOf, sql`d.hotel_id`));
  const where = sql.join(parts, sql` and `);
  const rows = await selectRows<TDeliveryRow>(
    tx,
    sql`select d.id, d.customer_id, cu.first_name, cu.last_name, d.email, d.hotel_id, d.status, d.skip_reason,
      d.attempts, d.sent_at, d.error from deliveries d join customers cu on cu.id = d.customer_id
      where ${where} order by d.created_at, d.id limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
  );
  const [count] = await selectRows<{ n: number }>(tx, sql`select count(*)::int as n from deliveries d where ${where}`);
  return { rows, total: count?.n ?? 0 };
}

/** Pauses (a user's id) or resumes (null) a sending campaign; false when nothing changed. */
export async function setPaused(tx: TTx, id: string, userId: string | null): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    userId
      ? sql`update campaigns set paused_at = now(), paused_by = ${userId}::uuid, updated_at = now()
          where id = ${id}::uuid and status = 'pending' and paused_at is null returning id`
      : // A campaign resumed after it paused itself keeps its reason, marked resumed: protection
        // leaves it alone from then on (the admin decided to send the rest).
        sql`update campaigns set paused_at = null, paused_by = null, updated_at = now(),
          paused_reason = case when paused_reason is null then null else paused_reason || '{"resumed": true}'::jsonb end
          where id = ${id}::uuid and paused_at is not null returning id`,
  );
  return rows.length > 0;
}

/** Issue 26: the experiment settings of a draft or scheduled campaign, whole. */
export async function setExperimentSettings(
  tx: TTx,
  id: string,
  v: {
    variants: TStoredVariant[];
    testPercent: number;
    waitHours: number;
    metric: 'clicks' | 'bookings' | 'opens';
    holdoutPercent: number | null;
  },
): Promise<void> {
  await tx.execute(sql`update campaigns set experiment_variants = ${JSON.stringify(v.variants)}::jsonb,
    experiment_test_percent = ${v.testPercent}, experiment_wait_hours = ${v.waitHours}, experiment_metric = ${v.metric},
    holdout_percent = ${v.holdoutPercent}, updated_at = now() where id = ${id}::uuid`);
}
