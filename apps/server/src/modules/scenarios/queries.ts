import type { TScenarioGraph, TScenarioListQuery, TScenarioRun, TScenarioStatus } from '@yado/contracts/scenarios';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/** The only place that touches scenarios, scenario_presets and journeys for the API (the engine has its own statements). */

export interface TScenarioRow {
  id: string;
  brand_id: string;
  host_id: string;
  name: string;
  description: string;
  status: TScenarioStatus;
  graph: TScenarioGraph;
  run: TScenarioRun;
  preset_id: string | null;
  run_number: number;
  starts_at: Date | null;
  ends_at: Date | null;
  started_at: Date | null;
  stopped_at: Date | null;
  completed_at: Date | null;
  archived_from: string | null;
  node_errors: Record<string, string>;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  updated_by: string | null;
  host_name: string;
  host_level: 'brand' | 'hotel_group' | 'hotel';
  created_by_name: string | null;
  updated_by_name: string | null;
  entered: number;
  active: number;
  holdout_percent: number | null;
}

/** Scenarios an acting context may read: its own host's and those of the hosts below it. */
export function scenarioReach(ctx: TActingContext): SQL {
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return sql`s.brand_id = ${ctx.host.id}::uuid`;
    case 'hotel_group':
      return sql`(s.host_id = ${ctx.host.id}::uuid or h.hotel_group_id = ${ctx.host.id}::uuid)`;
    default:
      return sql`s.host_id = ${ctx.host.id}::uuid`;
  }
}

const SELECT = sql`select s.id, s.brand_id, s.host_id, s.name, s.description, s.status, s.graph, s.run, s.preset_id, s.run_number, s.holdout_percent,
  s.starts_at, s.ends_at, s.started_at, s.stopped_at, s.completed_at, s.archived_from, s.node_errors, s.created_at, s.updated_at,
  s.created_by, s.updated_by, h.name as host_name, h.level as host_level,
  nullif(trim(cu.last_name || ' ' || cu.first_name), '') as created_by_name, nullif(trim(uu.last_name || ' ' || uu.first_name), '') as updated_by_name,
  (select count(*)::int from journeys j where j.scenario_id = s.id) as entered,
  (select count(*)::int from journeys j where j.scenario_id = s.id and j.state = 'waiting') as active
  from scenarios s join hosts h on h.id = s.host_id
  left join users cu on cu.id = s.created_by left join users uu on uu.id = s.updated_by`;

const ORDER: Record<TScenarioListQuery['sort'], SQL> = {
  name: sql`lower(s.name) asc, s.id asc`,
  '-name': sql`lower(s.name) desc, s.id desc`,
  created_at: sql`s.created_at asc, s.id asc`,
  '-created_at': sql`s.created_at desc, s.id desc`,
  updated_at: sql`s.updated_at asc, s.id asc`,
  '-updated_at': sql`s.updated_at desc, s.id desc`,
  status: sql`s.status asc, s.id asc`,
  '-status': sql`s.status desc, s.id desc`,
};

export async function listScenarioRows(tx: TTx, ctx: TActingContext, q: TScenarioListQuery) {
  const parts = [scenarioReach(ctx)];
  if (q.status) parts.push(sql`s.status = ${q.status}`);
  if (q.search) parts.push(sql`strpos(lower(s.name), lower(${q.search})) > 0`);
  const where = sql.join(parts, sql` and `);
  const rows = await selectRows<TScenarioRow>(
    tx,
    sql`${SELECT} where ${where} order by ${ORDER[q.sort]} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
  );
  const [count] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from scenarios s join hosts h on h.id = s.host_id where ${where}`,
  );
  const byStatus = await selectRows<{ status: TScenarioStatus; n: number }>(
    tx,
    sql`select s.status, count(*)::int as n from scenarios s join hosts h on h.id = s.host_id where ${scenarioReach(ctx)} group by s.status`,
  );
  return { rows, total: count?.n ?? 0, byStatus };
}

export async function findScenarioRow(tx: TTx, ctx: TActingContext, id: string): Promise<TScenarioRow | null> {
  const [row] = await selectRows<TScenarioRow>(tx, sql`${SELECT} where s.id = ${id}::uuid and ${scenarioReach(ctx)}`);
  return row ?? null;
}

export interface TScenarioFields {
  name: string;
  description: string;
  graph: TScenarioGraph;
  run: TScenarioRun;
  presetId?: string | null;
  /** Issue 26: the share held out (1..20), null for none. */
  holdoutPercent?: number | null;
}

export async function insertScenario(
  tx: TTx,
  ctx: TActingContext,
  brandId: string,
  f: TScenarioFields,
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    tx,
    sql`insert into scenarios (brand_id, host_id, name, description, graph, run, preset_id, holdout_percent, created_by, updated_by)
      values (${brandId}::uuid, ${ctx.host.id}::uuid, ${f.name}, ${f.description}, ${JSON.stringify(f.graph)}::jsonb, ${JSON.stringify(f.run)}::jsonb,
        ${f.presetId ?? null}, ${f.holdoutPercent ?? null}::int, ${ctx.user.id}::uuid, ${ctx.user.id}::uuid) returning id`,
  );
  return (row as { id: string }).id;
}

export async function updateScenarioFields(tx: TTx, id: string, userId: string, f: TScenarioFields): Promise<void> {
  await tx.execute(sql`update scenarios set name = ${f.name}, description = ${f.description}, graph = ${JSON.stringify(f.graph)}::jsonb,
    run = ${JSON.stringify(f.run)}::jsonb, holdout_percent = ${f.holdoutPercent ?? null}::int, updated_by = ${userId}::uuid, updated_at = now() where id = ${id}::uuid`);
}

/** Status change with the columns it sets; `from` guards against a concurrent change (false when it lost). */
export async function setScenarioStatus(
  tx: TTx,
  id: string,
  from: TScenarioStatus,
  to: TScenarioStatus,
  userId: string,
  extra: SQL = sql``,
): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update scenarios set status = ${to}, updated_by = ${userId}::uuid, updated_at = now() ${extra} where id = ${id}::uuid and status = ${from} returning id`,
  );
  return rows.length > 0;
}

export async function deleteScenarioRow(tx: TTx, id: string): Promise<void> {
  // The hidden campaigns of its email nodes go with it (their deliveries cascade).
  await tx.execute(sql`delete from campaigns where scenario_id = ${id}::uuid`);
  await tx.execute(sql`delete from scenarios where id = ${id}::uuid`);
}

/** Everyone still inside leaves (stop): one statement for the log, one for the state. */
/**
 * The stop: every journey still inside leaves, and the mails not yet handed to the relay stay
 * unsent. The hidden campaigns still sending are cancelled (the send path sends only pending
 * campaigns) and their deliveries queued, deferred, or claimed and not handed are skipped as
 * cancelled, as a paused campaign's cancel skips them: the email details then count them as not
 * sent because of the stop, never as still queued. Those in flight finish on their own. Returns the
 * skipped deliveries, for the statistics.
 */
export async function haltJourneys(
  tx: TTx,
  scenarioId: string,
  reason: string,
  at: Date,
): Promise<{ id: string; campaign_id: string; hotel_id: string | null }[]> {
  await tx.execute(sql`insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
    select brand_id, scenario_id, id, coalesce(node_id, ''), 'left', ${reason}, ${at.toISOString()}::timestamptz from journeys where scenario_id = ${scenarioId}::uuid and state = 'waiting'`);
  await tx.execute(
    sql`update journeys set state = 'left', due_at = null, updated_at = ${at.toISOString()}::timestamptz where scenario_id = ${scenarioId}::uuid and state = 'waiting'`,
  );
  // The campaigns' statistics before their rows, in the order the send's steps take them (rollups,
  // then the row under a share lock at the hand-over): the other way round could deadlock with a
  // step recording its answers (see cancelPaused in campaign-operations.ts).
  await tx.execute(sql`insert into campaign_stats (campaign_id, brand_id)
    select id, brand_id from campaigns where scenario_id = ${scenarioId}::uuid and status = 'pending' order by id
    on conflict (campaign_id) do update set updated_at = now()`);
  const cancelled = await selectRows<{ id: string }>(
    tx,
    sql`update campaigns set status = 'cancelled', finished_at = now(), updated_at = now() where scenario_id = ${scenarioId}::uuid and status = 'pending' returning id`,
  );
  if (cancelled.length === 0) return [];
  return selectRows(
    tx,
    sql`update deliveries set status = 'skipped', skip_reason = 'cancelled', claimed_by = null, claim_token = null
      where campaign_id = any(${sql.param(cancelled.map((c) => c.id))}::uuid[])
        and (status in ('queued', 'deferred') or (status = 'sending' and handed_at is null))
      returning id, campaign_id, hotel_id`,
  );
}

/**
 * Per node: journeys entered, done (passed on), failed, left (`stopped`: of them, those the
 * scenario's stop took out), and waiting now; the last failure's reason.
 */
export async function nodeCounts(tx: TTx, scenarioId: string) {
  const events = await selectRows<{ node_id: string; event: string; n: number; stopped: number }>(
    tx,
    sql`select node_id, event, count(*)::int as n, (count(*) filter (where detail = ${'scenario_stopped'}))::int as stopped
      from journey_steps where scenario_id = ${scenarioId}::uuid group by node_id, event`,
  );
  // next_due: the earliest end of a wait on a date (a delay, a stay's moment); a mail on its way has none.
  const waiting = await selectRows<{ node_id: string; n: number; next_due: Date | null }>(
    tx,
    sql`select node_id, count(*)::int as n, min(due_at) filter (where phase = 'wait') as next_due
      from journeys where scenario_id = ${scenarioId}::uuid and state = 'waiting' group by node_id`,
  );
  const failures = await selectRows<{ node_id: string; detail: string | null }>(
    tx,
    sql`select distinct on (node_id) node_id, detail from journey_steps where scenario_id = ${scenarioId}::uuid and event = 'failed' order by node_id, id desc`,
  );
  return { events, waiting, failures };
}

export async function journeyRows(
  tx: TTx,
  scenarioId: string,
  q: { nodeId?: string; state?: string; search?: string; page: number; pageSize: number },
) {
  const parts = [sql`j.scenario_id = ${scenarioId}::uuid`];
  if (q.nodeId) parts.push(sql`j.node_id = ${q.nodeId}`);
  if (q.state) parts.push(sql`j.state = ${q.state}`);
  // A name in either order ("Rachel Harris", "Harris Rachel", 山田太郎), or part of the email.
  if (q.search) {
    const compact = q.search.replace(/[\s\u3000]+/g, '');
    parts.push(sql`(strpos(lower(c.last_name || c.first_name), lower(${compact})) > 0
      or strpos(lower(c.first_name || c.last_name), lower(${compact})) > 0
      or strpos(lower(coalesce(c.email, '')), lower(${q.search})) > 0)`);
  }
  const where = sql.join(parts, sql` and `);
  const rows = await selectRows<{
    id: string;
    customer_id: string;
    first_name: string;
    last_name: string;
    booking_id: string | null;
    node_id: string | null;
    state: string;
    due_at: Date | null;
    entered_at: Date;
    path: { nodeId: string; event: string; detail: string | null; at: string }[];
  }>(
    tx,
    sql`select j.id, j.customer_id, c.first_name, c.last_name, j.booking_id, j.node_id, j.state, j.due_at, j.entered_at,
        coalesce((select jsonb_agg(jsonb_build_object('nodeId', st.node_id, 'event', st.event, 'detail', st.detail, 'at', st.at) order by st.id)
          from journey_steps st where st.journey_id = j.id), '[]'::jsonb) as path
      from journeys j join customers c on c.id = j.customer_id where ${where}
      order by j.entered_at desc, j.id limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
  );
  const [count] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from journeys j join customers c on c.id = j.customer_id where ${where}`,
  );
  return { rows, total: count?.n ?? 0 };
}

/**
 * The journeys among `ids` whose mail still waits to be sent (queued or deferred, its hidden
 * campaign sending), with the quiet hours that apply to it as the send path applies them: those of
 * its hotel (its own setting, else its group's, else its brand's), in the hotel's time zone; for a
 * guest allocated to no hotel, those of the scenario's host (see waitingGroups in campaign-hold.ts).
 */
export async function waitingMailQuietHours(tx: TTx, ids: string[]) {
  if (ids.length === 0) return [];
  return selectRows<{
    journey_id: string;
    host_name: string;
    timezone: string;
    start: string | null;
    end: string | null;
  }>(
    tx,
    sql`select j.id as journey_id, x.name as host_name, x.timezone,
        coalesce(own.quiet_hours_start, grp.quiet_hours_start, brand.quiet_hours_start) as start,
        coalesce(own.quiet_hours_end, grp.quiet_hours_end, brand.quiet_hours_end) as end
      from journeys j join deliveries d on d.id = j.delivery_id join campaigns c on c.id = d.campaign_id
        join hosts x on x.id = coalesce(d.hotel_id, c.host_id)
        left join campaign_email_settings own on own.host_id = x.id
        left join campaign_email_settings grp on grp.host_id = x.hotel_group_id
        left join campaign_email_settings brand on brand.host_id = x.brand_id
      where j.id = any(${sql.param(ids)}::uuid[]) and j.state = 'waiting' and d.status in ('queued', 'deferred')
        and c.status = 'pending' and c.paused_at is null`,
  );
}

/** The hidden campaigns still sending of a scenario's email nodes, with what they have claimed and not answered. */
export async function sendingNodeCampaigns(tx: TTx, scenarioId: string) {
  return selectRows<{ id: string; node_id: string; in_flight: number }>(
    tx,
    sql`select c.id, c.scenario_node_id as node_id,
        (select count(*)::int from deliveries d where d.campaign_id = c.id and d.status = 'sending') as in_flight
      from campaigns c where c.scenario_id = ${scenarioId}::uuid and c.status = 'pending'`,
  );
}

/**
 * Per email node: the delivery counts and unique opens and clicks over its hidden campaigns (one per
 * round), and the skipped deliveries counted by reason (most first), so a marketer sees why.
 */
export async function emailNodeStats(tx: TTx, scenarioId: string) {
  return selectRows<{
    node_id: string;
    campaign_id: string | null;
    sent: number;
    skipped: number;
    skipped_by: { reason: string; count: number }[];
    cancelled: number;
    failed: number;
    queued: number;
    opened: number;
    clicked: number;
    delivered: number;
  }>(
    tx,
    sql`select c.scenario_node_id as node_id, (array_agg(c.id order by c.scenario_round))[1] as campaign_id,
        coalesce(sum((select count(*) from deliveries d where d.campaign_id = c.id and d.status = 'sent')), 0)::int as sent,
        coalesce(sum((select count(*) from deliveries d where d.campaign_id = c.id and d.status = 'skipped' and d.skip_reason is distinct from 'cancelled')), 0)::int as skipped,
        coalesce(sum((select count(*) from deliveries d where d.campaign_id = c.id and d.status = 'skipped' and d.skip_reason = 'cancelled')), 0)::int as cancelled,
        coalesce(sum((select count(*) from deliveries d where d.campaign_id = c.id and d.status = 'failed')), 0)::int as failed,
        coalesce(sum((select count(*) from deliveries d where d.campaign_id = c.id and d.status in ('queued', 'sending', 'deferred'))), 0)::int as queued,
        coalesce(sum(cs.unique_opens), 0)::int as opened, coalesce(sum(cs.unique_clicks), 0)::int as clicked,
        coalesce(sum(cs.delivered), 0)::int as delivered,
        coalesce((select jsonb_agg(jsonb_build_object('reason', r.reason, 'count', r.n) order by r.n desc, r.reason)
          from (select d.skip_reason as reason, count(*)::int as n
            from campaigns rc join deliveries d on d.campaign_id = rc.id
            where rc.scenario_id = ${scenarioId}::uuid and rc.scenario_node_id = c.scenario_node_id
              and d.status = 'skipped' and d.skip_reason is distinct from 'cancelled'
            group by d.skip_reason) r), '[]'::jsonb) as skipped_by
      from campaigns c left join campaign_stats cs on cs.campaign_id = c.id
      where c.scenario_id = ${scenarioId}::uuid group by c.scenario_node_id`,
  );
}

// Presets

export interface TPresetRow {
  id: string;
  host_id: string;
  name: string;
  description: string;
  emoji: string;
  colour: string;
  graph: TScenarioGraph;
  run: TScenarioRun;
  created_at: Date;
}

/** Presets a context may use: its own host's and its ancestors' (a hotel uses its brand's). */
function presetReach(ctx: TActingContext): SQL {
  const ids = [ctx.host.id, ctx.host.brandId, ctx.host.hotelGroupId].filter((x): x is string => Boolean(x));
  if (ctx.host.level === 'grand_user') return sql`true`;
  return sql`p.host_id = any(${sql.param(ids)}::uuid[])`;
}

export async function listPresetRows(tx: TTx, ctx: TActingContext): Promise<TPresetRow[]> {
  return selectRows<TPresetRow>(
    tx,
    sql`select p.id, p.host_id, p.name, p.description, p.emoji, p.colour, p.graph, p.run, p.created_at from scenario_presets p where ${presetReach(ctx)} order by p.created_at desc`,
  );
}

export async function findPresetRow(tx: TTx, ctx: TActingContext, id: string): Promise<TPresetRow | null> {
  const [row] = await selectRows<TPresetRow>(
    tx,
    sql`select p.id, p.host_id, p.name, p.description, p.emoji, p.colour, p.graph, p.run, p.created_at from scenario_presets p where p.id = ${id}::uuid and ${presetReach(ctx)}`,
  );
  return row ?? null;
}

export async function insertPreset(
  tx: TTx,
  ctx: TActingContext,
  brandId: string,
  f: Omit<TPresetRow, 'id' | 'host_id' | 'created_at'>,
): Promise<string> {
  const [row] = await selectRows<{ id: string }>(
    tx,
    sql`insert into scenario_presets (brand_id, host_id, name, description, emoji, colour, graph, run, created_by)
      values (${brandId}::uuid, ${ctx.host.id}::uuid, ${f.name}, ${f.description}, ${f.emoji}, ${f.colour}, ${JSON.stringify(f.graph)}::jsonb, ${JSON.stringify(f.run)}::jsonb, ${ctx.user.id}::uuid)
      returning id`,
  );
  return (row as { id: string }).id;
}

export async function deletePresetRow(tx: TTx, id: string): Promise<void> {
  await tx.execute(sql`delete from scenario_presets where id = ${id}::uuid`);
}
