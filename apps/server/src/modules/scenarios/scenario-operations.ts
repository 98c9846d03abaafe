import {
  ACTION_FROM,
  ERROR_MESSAGES,
  SENDING_DEFAULTS,
  checkScenarioGraph,
  fullName,
  type TCampaignHold,
  type TErrorCode,
} from '@yado/contracts';
import {
  isStopSentence,
  SCENARIO_NAME_MAX,
  zonedToInstant,
  ZScenarioRunInput,
  type TEmailDetail,
  type TExecutionLog,
  type TGraphFault,
  type TJourney,
  type TJourneyEvent,
  type TNodeStatus,
  type TPreset,
  type TPresetLanguage,
  type TScenario,
  type TScenarioAction,
  type TScenarioGraph,
  type TScenarioListQuery,
  type TScenarioRun,
  type TScenarioUpdate,
  type TScenarioValues,
} from '@yado/contracts/scenarios';
import type { THoldoutReport } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { holdsOf } from '../campaigns/campaign-hold.ts';
import { quietHoursRelease, wallClockOf } from '../campaigns/schedule-time.ts';
import { holdoutReport } from '../experiments/report.ts';
import type { TTx } from '../../db/client.ts';
import { AppError, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { defaultCopyName } from '../../i18n/copy-name.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { diff, recordAudit, type TAuditEvent } from '../audit/record-audit.ts';
import { hostTimeZone } from '../management/queries.ts';
import { findSegmentRow } from '../segments/queries.ts';
import { recordSegmentUse, releaseSegmentUses } from '../segments/segment-uses.ts';
import { sendableIdentity } from '../sending/sender-check.ts';
import { recordDeliveryOutcomes } from '../tracking/rollups.ts';
import { findTemplate } from '../templates/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { BUILT_IN_PREFIX, builtInPreset, builtInPresets, PRESET_RUN } from './built-in-presets.ts';
import { scenarioNow } from './clock.ts';
import {
  deletePresetRow,
  deleteScenarioRow,
  emailNodeStats,
  findPresetRow,
  findScenarioRow,
  haltJourneys,
  insertPreset,
  insertScenario,
  journeyRows,
  listPresetRows,
  listScenarioRows,
  nodeCounts,
  sendingNodeCampaigns,
  setScenarioStatus,
  updateScenarioFields,
  waitingMailQuietHours,
  type TPresetRow,
  type TScenarioRow,
} from './queries.ts';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
type TJourneyHold = NonNullable<TJourney['hold']>;

/**
 * The audit log's entry for a scenario or preset change, in the change's transaction. The name is
 * kept in the entry (a scenario may be renamed or deleted later), so the log reads as a sentence.
 */
function audit(
  tx: TTx,
  ctx: TActingContext,
  target: { type: 'scenario' | 'preset'; id: string; brandId: string; name: string },
  action: TAuditEvent['action'],
  changes: Record<string, unknown> = {},
) {
  return recordAudit(tx, ctx, {
    action,
    targetType: target.type,
    targetId: target.id,
    brandId: target.brandId,
    changes: { name: target.name, ...changes },
  });
}
/** JSON with keys in order, so a graph read back from jsonb (which reorders keys) compares equal to the one saved. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
const scenarioTarget = (row: Pick<TScenarioRow, 'id' | 'brand_id' | 'name'>) => ({
  type: 'scenario' as const,
  id: row.id,
  brandId: row.brand_id,
  name: row.name,
});

function owningBrand(ctx: TActingContext): string {
  // A scenario belongs to a brand, hotel group or hotel: the platform itself has no customers.
  if (ctx.host.level === 'grand_user') throw new AppError(403, 'brand_host_required');
  return ctx.host.level === 'brand' ? ctx.host.id : (ctx.host.brandId as string);
}

async function mustFind(tx: TTx, ctx: TActingContext, id: string): Promise<TScenarioRow> {
  const row = await findScenarioRow(tx, ctx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** Only the owner host changes a scenario; the hosts above it read it. */
async function mustOwn(tx: TTx, ctx: TActingContext, id: string): Promise<TScenarioRow> {
  const row = await mustFind(tx, ctx, id);
  if (row.host_id !== ctx.host.id) throw new AppError(403, 'forbidden');
  return row;
}

/**
 * Per email node, the quiet hours holding its queued mails now (the campaigns' hold of its hidden
 * campaigns, one per round: the one ending first, with all those held counted). Quiet hours keep
 * real time, as the send path does, whatever the scenario clock says.
 */
async function nodeHolds(tx: TTx, scenarioId: string): Promise<Map<string, TCampaignHold>> {
  const campaigns = await sendingNodeCampaigns(tx, scenarioId);
  const byNode = new Map<string, TCampaignHold>();
  if (campaigns.length === 0) return byNode;
  const holds = await holdsOf(
    tx,
    campaigns.map((c) => ({ id: c.id, status: 'pending', inFlight: c.in_flight })),
    null,
  );
  for (const c of campaigns) {
    const hold = holds.get(c.id);
    if (!hold) continue;
    const seen = byNode.get(c.node_id);
    if (!seen) byNode.set(c.node_id, hold);
    else {
      const first = Date.parse(hold.until) < Date.parse(seen.until) ? hold : seen;
      byNode.set(c.node_id, {
        ...first,
        otherHosts: Math.max(hold.otherHosts, seen.otherHosts),
        waiting: hold.waiting + seen.waiting,
        whole: hold.whole && seen.whole,
      });
    }
  }
  return byNode;
}

async function nodeStatuses(tx: TTx, row: TScenarioRow): Promise<TNodeStatus[]> {
  if (row.status === 'draft' && row.run_number === 0) return [];
  const { events, waiting, failures } = await nodeCounts(tx, row.id);
  const holds = row.graph.nodes.some((n) => n.type === 'email') ? await nodeHolds(tx, row.id) : new Map();
  return row.graph.nodes.map((node) => {
    const at = events.filter((e) => e.node_id === node.id);
    const of = (...names: string[]) => at.filter((e) => names.includes(e.event)).reduce((a, e) => a + e.n, 0);
    const counts = {
      entered: of('entered'),
      waiting: waiting.find((w) => w.node_id === node.id)?.n ?? 0,
      done: of('done', 'yes', 'no', 'sent', 'skipped'),
      skipped: of('skipped'),
      failed: of('failed'),
      left: of('left'),
      stopped: at.find((e) => e.event === 'left')?.stopped ?? 0,
    };
    const nodeError = row.node_errors?.[node.id] ?? null;
    const failure = failures.find((f) => f.node_id === node.id)?.detail ?? null;
    // A step the stop emptied did not succeed: those still there left because of the stop.
    const state =
      nodeError || counts.failed > 0
        ? 'error'
        : counts.waiting > 0
          ? 'running'
          : row.status === 'stopped' && counts.stopped > 0
            ? 'stopped'
            : counts.entered > 0
              ? 'success'
              : null;
    const waitingHere = waiting.find((w) => w.node_id === node.id);
    return {
      nodeId: node.id,
      state,
      message: nodeError ?? (counts.failed > 0 ? failure : null),
      counts,
      nextDueAt: iso(waitingHere?.next_due ?? null),
      hold: holds.get(node.id) ?? null,
    };
  });
}

async function toScenario(tx: TTx, row: TScenarioRow, ctx: TActingContext): Promise<TScenario> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    graph: row.graph,
    run: row.run,
    faults: checkScenarioGraph(row.graph, { timeZone: row.run.timeZone }),
    nodes: await nodeStatuses(tx, row),
    presetId: row.preset_id,
    holdoutPercent: row.holdout_percent,
    startedAt: iso(row.started_at),
    stoppedAt: iso(row.stopped_at),
    completedAt: iso(row.completed_at),
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    hostId: row.host_id,
    hostName: row.host_name,
    hostLevel: row.host_level,
    editable: row.host_id === ctx.host.id && row.status === 'draft',
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
    createdBy: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    updatedBy: row.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
  };
}

export async function listScenarios(rt: TRuntime, ctx: TActingContext, q: TScenarioListQuery) {
  return inTenant(rt, ctx, async (tx) => {
    const { rows, total, byStatus } = await listScenarioRows(tx, ctx, q);
    const counts = { draft: 0, scheduled: 0, running: 0, completed: 0, stopped: 0, archived: 0 };
    for (const r of byStatus) counts[r.status] = r.n;
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: r.description,
        status: r.status,
        run: r.run,
        hostId: r.host_id,
        hostName: r.host_name,
        hostLevel: r.host_level,
        editable: r.host_id === ctx.host.id && r.status === 'draft',
        startsAt: iso(r.starts_at),
        endsAt: iso(r.ends_at),
        createdAt: iso(r.created_at) as string,
        updatedAt: iso(r.updated_at) as string,
        createdBy: r.created_by ? { id: r.created_by, name: r.created_by_name ?? '' } : null,
        updatedBy: r.updated_by ? { id: r.updated_by, name: r.updated_by_name ?? '' } : null,
        entered: r.entered,
        active: r.active,
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
      byStatus: counts,
    };
  });
}

export async function getScenario(rt: TRuntime, ctx: TActingContext, id: string): Promise<TScenario> {
  return inTenant(rt, ctx, async (tx) => toScenario(tx, await mustFind(tx, ctx, id), ctx));
}

/** The acting host's time zone (it always has one; the presets' zone is only a fallback). */
const actingTimeZone = async (tx: TTx, ctx: TActingContext) =>
  (await hostTimeZone(tx, ctx.host.id)) ?? PRESET_RUN.timeZone;

/**
 * A new draft of the acting host. Without a run period it gets the defaults in the host's own time
 * zone (`hosts.timezone`): a hotel in Honolulu times its journeys in Honolulu, not in Tokyo.
 */
export async function createScenario(
  rt: TRuntime,
  ctx: TActingContext,
  input: TScenarioValues & { presetId?: string | null },
): Promise<TScenario> {
  const brandId = owningBrand(ctx);
  const id = await inTenant(rt, ctx, async (tx) => {
    const run = input.run ?? ZScenarioRunInput.parse({ timeZone: await actingTimeZone(tx, ctx) });
    const created = await insertScenario(tx, ctx, brandId, { ...input, run });
    await audit(tx, ctx, { type: 'scenario', id: created, brandId, name: input.name }, 'create');
    return created;
  });
  return getScenario(rt, ctx, id);
}

export async function updateScenario(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: TScenarioUpdate,
): Promise<TScenario> {
  await inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    // Once a scenario runs (or is scheduled to), changes cannot be made (section 4).
    if (row.status !== 'draft') throw new AppError(409, 'scenario_not_editable');
    // Autosave names the version it last saw: another tab's change is never overwritten.
    if (input.updatedAt !== undefined && Date.parse(input.updatedAt) !== new Date(row.updated_at).getTime())
      throw new AppError(409, 'scenario_stale');
    const fields = {
      name: input.name ?? row.name,
      description: input.description ?? row.description,
      graph: input.graph ?? row.graph,
      run: input.run ?? row.run,
      holdoutPercent: input.holdoutPercent === undefined ? row.holdout_percent : input.holdoutPercent,
    };
    await updateScenarioFields(tx, id, ctx.user.id, fields);
    // Name and description as before → after; the workflow and run period by name only.
    const changes: Record<string, unknown> = diff(
      { name: row.name, description: row.description },
      { name: fields.name, description: fields.description },
    );
    const changed: string[] = (['graph', 'run'] as const).filter(
      (key) => canonical(fields[key]) !== canonical(row[key]),
    );
    if (fields.holdoutPercent !== row.holdout_percent) changed.push('holdoutPercent');
    if (changed.length) changes.fields = changed;
    if (Object.keys(changes).length)
      await audit(tx, ctx, { ...scenarioTarget(row), name: fields.name }, 'update', changes);
  });
  return getScenario(rt, ctx, id);
}

/** A copy keeps the run period (its time zone too); its default name is in the user's language. */
export async function copyScenario(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  { name, language = ctx.user.language }: { name?: string; language?: 'ja' | 'en' } = {},
): Promise<TScenario> {
  const brandId = owningBrand(ctx);
  const created = await inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    const copyName = name ?? defaultCopyName(row.name, language, SCENARIO_NAME_MAX);
    const copied = await insertScenario(tx, ctx, brandId, {
      name: copyName,
      description: row.description,
      graph: row.graph,
      run: row.run,
      presetId: row.preset_id,
      holdoutPercent: row.holdout_percent,
    });
    await audit(tx, ctx, { type: 'scenario', id: copied, brandId, name: copyName }, 'copy', { copiedFrom: row.name });
    return copied;
  });
  return getScenario(rt, ctx, created);
}

/** Not running: archived; archived: deleted for good (with its journeys and hidden campaigns). */
export async function deleteScenario(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    if (row.status === 'running' || row.status === 'scheduled') throw new AppError(409, 'scenario_running');
    if (row.status === 'archived') {
      await releaseSegmentUses(tx, 'scenario', id);
      await deleteScenarioRow(tx, id);
      await audit(tx, ctx, scenarioTarget(row), 'delete');
      return { id, status: null };
    }
    await setScenarioStatus(tx, id, row.status, 'archived', ctx.user.id, sql`, archived_from = ${row.status}`);
    await audit(tx, ctx, scenarioTarget(row), 'archive', { status: [row.status, 'archived'] });
    return { id, status: 'archived' as const };
  });
}

const message = (code: string) => ERROR_MESSAGES[code as TErrorCode] ?? code;

/** Faults as the error's fields: `nodes.<id>` for a node's, `workflow` for the whole graph or run period. */
function faultFields(faults: TGraphFault[]): TFieldErrors {
  const fields: TFieldErrors = {};
  for (const f of faults) {
    const key = f.nodeId ? `nodes.${f.nodeId}` : 'workflow';
    fields[key] ??= { code: f.code, message: message(f.code) };
  }
  return fields;
}

/** Section 5's checks at run time, plus references that must still exist: segments and templates in reach. */
async function runFaults(
  tx: TTx,
  ctx: TActingContext,
  graph: TScenarioGraph,
  run: TScenarioRun,
  now: Date,
): Promise<TGraphFault[]> {
  const faults = checkScenarioGraph(graph, { now: now.getTime(), timeZone: run.timeZone, run });
  for (const node of graph.nodes) {
    if (
      node.type === 'trigger' &&
      'segmentId' in node.data &&
      node.data.segmentId &&
      !(await findSegmentRow(tx, ctx, node.data.segmentId))
    )
      faults.push({ nodeId: node.id, code: 'trigger_needs_segment' });
    if (node.type === 'email' && node.data.templateId && !(await findTemplate(tx, ctx, node.data.templateId)))
      faults.push({ nodeId: node.id, code: 'email_incomplete' });
  }
  return faults;
}

export async function validateScenario(rt: TRuntime, ctx: TActingContext, graph: TScenarioGraph, run: TScenarioRun) {
  const now = await scenarioNow(rt);
  return inTenant(rt, ctx, async (tx) => ({ faults: await runFaults(tx, ctx, graph, run, now) }));
}

function runWindow(run: TScenarioRun, now: Date): { startsAt: Date; endsAt: Date | null } {
  const startsAt = run.startDate
    ? new Date(zonedToInstant(run.startDate, run.startTime ?? '00:00', run.timeZone))
    : now;
  const endsAt =
    run.endDate && run.period.kind !== 'long_run'
      ? new Date(zonedToInstant(run.endDate, run.endTime ?? '23:59', run.timeZone))
      : null;
  return { startsAt: startsAt < now ? now : startsAt, endsAt };
}

async function holdSegments(tx: TTx, row: TScenarioRow, state: 'scheduled' | 'running'): Promise<void> {
  const ids = row.graph.nodes.flatMap((n) =>
    n.type === 'trigger' && 'segmentId' in n.data && n.data.segmentId ? [n.data.segmentId] : [],
  );
  await releaseSegmentUses(tx, 'scenario', row.id, ids);
  for (const segmentId of ids)
    await recordSegmentUse(tx, {
      segmentId,
      brandId: row.brand_id,
      kind: 'scenario',
      objectId: row.id,
      name: row.name,
      state,
      blocksDelete: true,
    });
}

export async function actOnScenario(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  action: TScenarioAction,
  confirmation?: string,
): Promise<TScenario> {
  const now = await scenarioNow(rt);
  await inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    if (!(ACTION_FROM[action] as readonly string[]).includes(row.status))
      throw new AppError(409, 'scenario_action_not_allowed');
    const nowIso = now.toISOString();
    const moved = async (to: TScenario['status'], extra = sql``) => {
      if (!(await setScenarioStatus(tx, id, row.status, to, ctx.user.id, extra)))
        throw new AppError(409, 'scenario_action_not_allowed');
      await audit(tx, ctx, scenarioTarget(row), action, { status: [row.status, to] });
    };
    switch (action) {
      case 'run': {
        const faults = await runFaults(tx, ctx, row.graph, row.run, now);
        if (faults.length) throw new AppError(400, 'scenario_invalid', faultFields(faults));
        // The email steps' senders as scheduling a campaign checks them (422 with the reason), so a
        // run does not start only to fail each guest at send time.
        const senders = row.graph.nodes.flatMap((n) =>
          n.type === 'email' ? [{ address: n.data.senderEmail, field: `nodes.${n.id}` }] : [],
        );
        if (senders.length) await sendableIdentity(rt, { hostId: row.host_id, brandId: row.brand_id }, senders, tx);
        const { startsAt, endsAt } = runWindow(row.run, now);
        const running = startsAt.getTime() <= now.getTime();
        await moved(
          running ? 'running' : 'scheduled',
          sql`, starts_at = ${startsAt.toISOString()}::timestamptz, ends_at = ${endsAt?.toISOString() ?? null}::timestamptz,
            started_at = ${running ? nowIso : null}::timestamptz, next_entry_at = ${startsAt.toISOString()}::timestamptz, entry_count = 0,
            run_number = run_number + 1, bookings_seen_at = null, birthdays_on = null, segment_scanned_at = null, stopped_at = null, completed_at = null,
            node_errors = '{}'::jsonb`,
        );
        await holdSegments(tx, row, running ? 'running' : 'scheduled');
        return;
      }
      case 'cancel':
        await moved('draft');
        await releaseSegmentUses(tx, 'scenario', id);
        return;
      case 'stop':
        // The typed sentence, exactly, in English or Japanese (section 4): stopping cannot be undone.
        if (!isStopSentence(confirmation))
          throw new AppError(400, 'scenario_stop_confirmation', {
            confirmation: fieldError('scenario_stop_confirmation'),
          });
        await moved('stopped', sql`, stopped_at = ${nowIso}::timestamptz, next_entry_at = null`);
        await recordDeliveryOutcomes(
          tx,
          (await haltJourneys(tx, id, 'scenario_stopped', now)).map((d) => ({
            deliveryId: d.id,
            campaignId: d.campaign_id,
            brandId: row.brand_id,
            hotelId: d.hotel_id,
            outcome: 'skipped' as const,
          })),
        );
        await releaseSegmentUses(tx, 'scenario', id);
        return;
      case 'restart':
        // Back to a draft of the last saved configuration; the next run starts afresh.
        await moved(
          'draft',
          sql`, starts_at = null, ends_at = null, started_at = null, stopped_at = null, completed_at = null, next_entry_at = null, node_errors = '{}'::jsonb`,
        );
        return;
      case 'resume': {
        if (row.ends_at && new Date(row.ends_at) <= now) throw new AppError(409, 'scenario_action_not_allowed');
        await moved('running', sql`, completed_at = null`);
        await holdSegments(tx, row, 'running');
        return;
      }
      case 'restore':
        await moved('draft', sql`, archived_from = null`);
        return;
    }
  });
  return getScenario(rt, ctx, id);
}

// Summary

export async function executionLog(rt: TRuntime, ctx: TActingContext, id: string): Promise<TExecutionLog> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    const runs =
      row.run_number > 0 && row.started_at
        ? [
            {
              run: row.run_number,
              startedAt: iso(row.started_at) as string,
              endedAt: iso(row.stopped_at ?? row.completed_at),
              entered: row.entered,
            },
          ]
        : [];
    return { runs, nodes: await nodeStatuses(tx, row) };
  });
}

export async function listJourneys(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  q: { nodeId?: string; state?: string; search?: string; page: number; pageSize: number },
) {
  return inTenant(rt, ctx, async (tx) => {
    await mustFind(tx, ctx, id);
    const { rows, total } = await journeyRows(tx, id, q);
    // A mail waiting for its hotel's quiet hours says so, with when they end (real time, as the send path).
    const now = new Date();
    const holds = new Map<string, TJourneyHold>();
    for (const w of await waitingMailQuietHours(
      tx,
      rows.filter((r) => r.state === 'waiting' && !r.due_at).map((r) => r.id),
    )) {
      const until = quietHoursRelease(now, {
        start: w.start ?? SENDING_DEFAULTS.quietHoursStart,
        end: w.end ?? SENDING_DEFAULTS.quietHoursEnd,
        timeZone: w.timezone,
      });
      if (!until) continue;
      const wall = wallClockOf(until, w.timezone);
      holds.set(w.journey_id, {
        reason: 'quiet_hours',
        until: until.toISOString(),
        localTime: `${String(wall.hour).padStart(2, '0')}:${String(wall.minute).padStart(2, '0')}`,
        timeZone: w.timezone,
        hostName: w.host_name,
      });
    }
    return {
      items: rows.map((r) => ({
        id: r.id,
        customerId: r.customer_id,
        // The customer's own full name, as the customer list writes it.
        customerName: fullName(r.first_name, r.last_name),
        bookingId: r.booking_id,
        nodeId: r.node_id,
        state: r.state as 'waiting' | 'done' | 'left' | 'failed',
        dueAt: iso(r.due_at),
        hold: holds.get(r.id) ?? null,
        enteredAt: iso(r.entered_at) as string,
        path: r.path.map((s) => ({
          nodeId: s.nodeId,
          event: s.event as TJourneyEvent,
          detail: s.detail,
          at: new Date(s.at).toISOString(),
        })),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  });
}

export async function emailDetails(rt: TRuntime, ctx: TActingContext, id: string): Promise<{ items: TEmailDetail[] }> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    const stats = await emailNodeStats(tx, id);
    const items = row.graph.nodes.flatMap((node) => {
      if (node.type !== 'email') return [];
      const s = stats.find((x) => x.node_id === node.id);
      const sent = s?.sent ?? 0;
      // Fractions of the mails delivered (0.25 = 25%), as a campaign's rates; null before any.
      const rate = (n: number | undefined) => (s && s.delivered > 0 ? (n ?? 0) / s.delivered : null);
      return [
        {
          nodeId: node.id,
          label: node.label ?? null,
          subject: node.data.subject,
          campaignId: s?.campaign_id ?? null,
          sent,
          skipped: s?.skipped ?? 0,
          skippedBy: s?.skipped_by ?? [],
          cancelled: s?.cancelled ?? 0,
          failed: s?.failed ?? 0,
          queued: s?.queued ?? 0,
          opened: s ? s.opened : null,
          clicked: s ? s.clicked : null,
          openRate: rate(s?.opened),
          clickRate: rate(s?.clicked),
        },
      ];
    });
    return { items };
  });
}

// Presets

function toPreset(row: TPresetRow, ctx: TActingContext): TPreset {
  return {
    id: row.id,
    builtIn: null,
    name: row.name,
    description: row.description,
    emoji: row.emoji,
    colour: row.colour as TPreset['colour'],
    graph: row.graph,
    run: row.run,
    hostId: row.host_id,
    editable: row.host_id === ctx.host.id,
    createdAt: iso(row.created_at),
  };
}

export async function listPresets(
  rt: TRuntime,
  ctx: TActingContext,
  language: TPresetLanguage = ctx.user.language,
): Promise<{ items: TPreset[] }> {
  const own = await inTenant(rt, ctx, (tx) => listPresetRows(tx, ctx));
  return { items: [...builtInPresets(language), ...own.map((r) => toPreset(r, ctx))] };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function presetById(
  tx: TTx,
  ctx: TActingContext,
  id: string,
  language: TPresetLanguage = ctx.user.language,
): Promise<TPreset> {
  if (id.startsWith(BUILT_IN_PREFIX)) {
    const found = builtInPreset(id, language);
    if (!found) throw new AppError(404, 'not_found');
    return found;
  }
  if (!UUID.test(id)) throw new AppError(404, 'not_found');
  const row = await findPresetRow(tx, ctx, id);
  if (!row) throw new AppError(404, 'not_found');
  return toPreset(row, ctx);
}

export async function createPreset(
  rt: TRuntime,
  ctx: TActingContext,
  input: { name: string; description: string; emoji: string; colour: TPreset['colour']; scenarioId: string | null },
): Promise<TPreset> {
  const brandId = owningBrand(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const from = input.scenarioId ? await mustFind(tx, ctx, input.scenarioId) : null;
    const graph: TScenarioGraph = from?.graph ?? { version: 1, nodes: [], edges: [] };
    const run = from?.run ?? PRESET_RUN;
    const id = await insertPreset(tx, ctx, brandId, {
      name: input.name,
      description: input.description,
      emoji: input.emoji,
      colour: input.colour,
      graph,
      run,
    });
    await audit(
      tx,
      ctx,
      { type: 'preset', id, brandId, name: input.name },
      'create',
      from ? { fromScenario: from.name } : {},
    );
    const row = await findPresetRow(tx, ctx, id);
    return toPreset(row as TPresetRow, ctx);
  });
}

export async function deletePreset(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    const preset = await presetById(tx, ctx, id);
    if (preset.builtIn) throw new AppError(409, 'preset_built_in');
    if (preset.hostId !== ctx.host.id) throw new AppError(403, 'forbidden');
    await deletePresetRow(tx, id);
    await audit(tx, ctx, { type: 'preset', id, brandId: owningBrand(ctx), name: preset.name }, 'delete');
    return { id };
  });
}

/**
 * A preset makes a draft scenario of the acting host, to adjust, timed in the host's own time zone
 * (a preset's run is a template: the built-in ones say Tokyo). A built-in preset's texts are
 * written in the language the user reads the console in (else their profile's): they are the
 * scenario's own from then on.
 */
export async function scenarioFromPreset(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  { name, language }: { name?: string; language?: TPresetLanguage } = {},
): Promise<TScenario> {
  const { preset, timeZone } = await inTenant(rt, ctx, async (tx) => ({
    preset: await presetById(tx, ctx, id, language),
    timeZone: await actingTimeZone(tx, ctx),
  }));
  return createScenario(rt, ctx, {
    name: name ?? preset.name,
    description: preset.description,
    graph: preset.graph,
    run: { ...preset.run, timeZone },
    presetId: preset.id,
    holdoutPercent: null,
  });
}

/**
 * Issue 26: the holdout comparison of a scenario (null without a holdout or before it ran): the
 * guests who entered and were mailed by it against those held out, from each guest's first entry.
 */
export async function getScenarioHoldout(rt: TRuntime, ctx: TActingContext, id: string): Promise<THoldoutReport> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    if (!row.holdout_percent || !row.started_at) return null;
    return holdoutReport(
      tx,
      row.brand_id,
      row.holdout_percent,
      sql`select j.customer_id, j.held_out, j.entered_at as since from journeys j
        where j.scenario_id = ${row.id}::uuid and (j.held_out or exists (select 1 from deliveries d join campaigns c on c.id = d.campaign_id
          where c.scenario_id = ${row.id}::uuid and d.customer_id = j.customer_id and d.status = 'sent'))`,
    );
  });
}
