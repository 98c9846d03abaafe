import {
  CAMPAIGN_LIST_STATUSES,
  EDITABLE_STATUSES,
  SENDING_DEFAULTS,
  fullName,
  type TAudiencePreview,
  type TCampaign,
  type TCampaignHold,
  type TCampaignListQuery,
  type TCampaignListStatus,
  type TCampaignUpdate,
  type TCampaignValues,
  type TDeliveryStatus,
  type TQuietHoursCheck,
  type TSchedule,
  type TTemplateContents,
  VARIANT_KEYS,
  type TCampaignExperiment,
  type TExperimentReport,
  type TVariantKey,
} from '@yado/contracts';
import { sendEachTest } from '../../mail/refused-address.ts';
import { sql } from 'drizzle-orm';
import { retryingConflicts, type TTx } from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { defaultCopyName } from '../../i18n/copy-name.ts';
import { CAMPAIGN_NAME_MAX } from '@yado/contracts/campaigns';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit, type TAuditEvent } from '../audit/record-audit.ts';
import { hostTimeZone } from '../management/queries.ts';
import { findSegmentRow } from '../segments/queries.ts';
import { resolveSendingIdentity } from '../sending/email-settings.ts';
import { sendableIdentity } from '../sending/sender-check.ts';
import { compiledTemplate, personalise, personalValues, chooseLanguage } from '../templates/render-template.ts';
import { findTemplate } from '../templates/queries.ts';
import { trackingFor } from '../tracking/links.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { audienceSql, previewCounts, type TAudienceOwner } from './audience.ts';
import { holdsOf } from './campaign-hold.ts';
import { holdUses, releaseUses } from './campaign-uses.ts';
import { campaignTemplate, composeMessage } from './compose-message.ts';
import { signedRaw } from './dkim-sign.ts';
import { recordDeliveryOutcomes } from '../tracking/rollups.ts';
import { deliveryErrorFor } from './delivery-error.ts';
import {
  cancelPausedRow,
  deleteCampaignRow,
  findCampaignRow,
  headlineOf,
  inGuestHotels,
  insertCampaign,
  listCampaignRows,
  listDeliveryRows,
  lockCampaignStats,
  sendingCampaignsInReach,
  setCampaignSegments,
  setPaused,
  setPlannedSchedule,
  setScheduled,
  setExperimentSettings,
  setStatusFromEditable,
  updateCampaignFields,
  type TCampaignRow,
} from './queries.ts';
import { instantOf, isRealLocalTime, quietHoursRelease } from './schedule-time.ts';
import type { TCampaignJob } from './send-campaign.ts';
import { storedVariantsOf, toCampaignExperiment } from '../experiments/experiment-state.ts';
import { recordDecision } from '../experiments/decide.ts';
import { campaignExperimentReport } from '../experiments/report.ts';

/** A minute of grace: "now" chosen in a form a moment ago is not in the past. */
const PAST_GRACE_MS = 60_000;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toCampaign(
  row: TCampaignRow,
  ctx: TActingContext,
  hold: TCampaignHold | null = null,
  scheduledHold: TCampaign['scheduledHold'] = null,
): TCampaign {
  const c = row.counts ?? {};
  const n = (k: keyof typeof c) => c[k] ?? 0;
  // Seen for its own guests only: the audience is theirs (their deliveries), not the campaign's.
  const audience =
    row.audience === null || row.scope === 'campaign'
      ? row.audience
      : Object.values(c).reduce((sum, v) => sum + (v ?? 0), 0);
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    preHeader: row.pre_header,
    senderEmail: row.sender_email,
    recipients: { segmentIds: row.segment_ids ?? [], excludeSegmentIds: row.exclude_segment_ids ?? [] },
    templateId: row.template_id,
    templateName: row.template_name,
    status: row.status,
    schedule: row.schedule_kind
      ? { kind: row.schedule_kind, localTime: row.schedule_local_time, timeZone: row.schedule_time_zone }
      : null,
    sendAt: iso(row.send_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    problem: row.problem,
    hold,
    scheduledHold,
    scope: row.scope,
    paused: row.paused_at
      ? {
          at: iso(row.paused_at) as string,
          by: row.paused_by ? { id: row.paused_by, name: row.paused_by_name ?? '' } : null,
          // Paused by the system (protection): no user, the reason kept.
          reason:
            !row.paused_by && row.paused_reason
              ? { kind: row.paused_reason.kind, rate: Number(row.paused_reason.rate) }
              : null,
        }
      : null,
    statistics: {
      audience,
      queued: n('queued'),
      sending: n('sending') + n('claimed' as keyof typeof c),
      claimed: n('claimed' as keyof typeof c),
      sent: n('sent'),
      deferred: n('deferred'),
      skipped: n('skipped'),
      heldOut: n('held_out' as keyof typeof c),
      failed: n('failed'),
      repeats: row.repeats ?? 0,
      // The tracking module's rollup (unique opens and clicks; rates of the delivered).
      opened: row.unique_opens,
      clicked: row.unique_clicks,
      conversions: row.conversions,
      openRate: row.delivered ? (row.unique_opens ?? 0) / row.delivered : null,
      clickRate: row.delivered ? (row.unique_clicks ?? 0) / row.delivered : null,
    },
    experiment: toCampaignExperiment(row),
    hostId: row.host_id,
    hostName: row.host_name,
    hostLevel: row.host_level,
    timeZone: row.host_time_zone,
    editable: row.host_id === ctx.host.id,
    createdAt: iso(row.created_at) as string,
    updatedAt: iso(row.updated_at) as string,
    createdBy: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    updatedBy: row.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
  };
}

/** A campaign belongs to a brand, hotel group or hotel: the platform itself has no customers. */
function owningHost(ctx: TActingContext): TAudienceOwner {
  if (ctx.host.level === 'grand_user') throw new AppError(403, 'brand_host_required');
  const brandId = ctx.host.level === 'brand' ? ctx.host.id : (ctx.host.brandId as string);
  return { brandId, hostId: ctx.host.id, hostLevel: ctx.host.level };
}

async function mustFind(tx: TTx, ctx: TActingContext, id: string): Promise<TCampaignRow> {
  const row = await findCampaignRow(tx, ctx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** Only the owner host changes a campaign; the hosts above it read it. */
async function mustOwn(tx: TTx, ctx: TActingContext, id: string): Promise<TCampaignRow> {
  const row = await mustFind(tx, ctx, id);
  if (row.host_id !== ctx.host.id) throw new AppError(403, 'forbidden');
  return row;
}

const isEditable = (status: string) => (EDITABLE_STATUSES as readonly string[]).includes(status);

/**
 * An audit entry of a campaign. Its name is recorded with every entry (as it was then), so the log
 * names a campaign that was renamed or deleted since.
 */
const auditCampaign = (
  tx: TTx,
  ctx: TActingContext,
  row: { id: string; brand_id: string; name: string },
  action: TAuditEvent['action'],
  changes: Record<string, unknown> = {},
) =>
  recordAudit(tx, ctx, {
    action,
    targetType: 'campaign',
    targetId: row.id,
    brandId: row.brand_id,
    changes: { name: row.name, ...changes },
  });

/** The fields an edit changed, named as the form names them (recipients as one). */
function changedFields(
  row: TCampaignRow,
  next: { subject: string; preHeader: string | null; senderEmail: string | null; templateId: string | null },
  recipients?: { segmentIds: string[]; excludeSegmentIds: string[] },
): string[] {
  const fields: string[] = [];
  if (next.subject !== row.subject) fields.push('subject');
  if ((next.preHeader ?? null) !== (row.pre_header ?? null)) fields.push('preHeader');
  if ((next.senderEmail ?? null) !== (row.sender_email ?? null)) fields.push('senderEmail');
  if ((next.templateId ?? null) !== (row.template_id ?? null)) fields.push('templateId');
  const same = (a: string[], b: string[]) =>
    a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);
  if (
    recipients &&
    (!same(recipients.segmentIds, row.segment_ids ?? []) ||
      !same(recipients.excludeSegmentIds, row.exclude_segment_ids ?? []))
  )
    fields.push('recipients');
  return fields;
}

/** A draft's planned schedule as stored; a date that does not exist (30 February) is refused, a time passed is kept. */
function plannedFieldsOf(planned: TSchedule | null) {
  if (!planned) return null;
  if (planned.kind === 'now') return { kind: planned.kind, localTime: null, timeZone: null };
  if (!isRealLocalTime(planned.localTime)) throw badRequest({ plannedSchedule: fieldError('invalid_date') });
  return { kind: planned.kind, localTime: planned.localTime, timeZone: planned.timeZone };
}

/** The chosen segments and template must be ones the acting context can use (else 404, as for another brand's). */
async function checkReferences(
  tx: TTx,
  ctx: TActingContext,
  segmentIds: string[],
  templateId: string | null,
): Promise<void> {
  for (const id of segmentIds)
    if (!(await findSegmentRow(tx, ctx, id))) throw badRequest({ recipients: fieldError('campaign_segment_deleted') });
  if (templateId && !(await findTemplate(tx, ctx, templateId)))
    throw badRequest({ templateId: fieldError('campaign_template_deleted') });
}

/** The experiment settings of a row, as the input names them (a copy, or to tell an edit that changed nothing). */
const experimentOf = (row: TCampaignRow): TCampaignValues['experiment'] => ({
  variants: (row.experiment_variants ?? []).map((v) => ({ ...v })),
  testPercent: row.experiment_test_percent,
  waitHours: row.experiment_wait_hours,
  metric: row.experiment_metric,
  holdoutPercent: row.holdout_percent,
});

/** A variant's own template must be one the acting context can use, as the campaign's. */
async function checkVariantTemplates(tx: TTx, ctx: TActingContext, experiment: TCampaignValues['experiment']) {
  for (const v of experiment.variants)
    if (v.templateId && !(await findTemplate(tx, ctx, v.templateId)))
      throw badRequest({ experiment: fieldError('campaign_template_deleted') });
}

/**
 * The list, filtered and counted by the status each campaign's badge shows: a sending campaign
 * that quiet hours hold whole is "Waiting", a paused one "Paused", neither is "Pending". The holds
 * come from the clock, so they are worked out first, once, for every sending campaign in reach.
 */
export async function listCampaigns(rt: TRuntime, ctx: TActingContext, q: TCampaignListQuery) {
  const page = await inTenant(rt, ctx, async (tx) => {
    const holds = await holdsOf(tx, await sendingCampaignsInReach(tx, ctx), ctx);
    const waiting = [...holds].filter(([, hold]) => hold.whole).map(([id]) => id);
    const { rows, total } = await listCampaignRows(tx, ctx, q, waiting);
    const headline = await headlineOf(tx, ctx, waiting);
    const byStatus = Object.fromEntries(CAMPAIGN_LIST_STATUSES.map((status) => [status, 0])) as Record<
      TCampaignListStatus,
      number
    >;
    for (const r of headline.byStatus) byStatus[r.status] = r.n;
    return { rows, holds, total, byStatus, sums: headline.sums };
  });
  const scheduled = await scheduledHoldsOf(rt, ctx, page.rows);
  return {
    items: page.rows.map((r) => toCampaign(r, ctx, page.holds.get(r.id) ?? null, scheduled.get(r.id) ?? null)),
    total: page.total,
    page: q.page,
    pageSize: q.pageSize,
    headline: { byStatus: page.byStatus, ...page.sums },
  };
}

export async function getCampaign(rt: TRuntime, ctx: TActingContext, id: string): Promise<TCampaign> {
  const { row, hold } = await inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    const holds = await holdsOfRows(tx, [row], ctx);
    return { row, hold: holds.get(row.id) ?? null };
  });
  const scheduled = await scheduledHoldsOf(rt, ctx, [row]);
  return toCampaign(row, ctx, hold, scheduled.get(row.id) ?? null);
}

/**
 * The scheduled ones among `rows` due inside their host's quiet hours, with when they go out
 * instead: the quiet hours of each campaign's own host (not the reader's), so that a viewer reads
 * what the send will do. One sending-identity lookup per host on the page. Outside any transaction:
 * the lookup opens its own (PGlite has one session).
 */
async function scheduledHoldsOf(rt: TRuntime, ctx: TActingContext, rows: TCampaignRow[]) {
  const held = new Map<string, NonNullable<TCampaign['scheduledHold']>>();
  const due = rows.filter((r) => r.status === 'scheduled' && r.send_at);
  const quiet = new Map<string, TQuietHoursCheck['quietHours']>();
  for (const hostId of new Set(due.map((r) => r.host_id))) quiet.set(hostId, await quietHoursOf(rt, ctx, hostId));
  for (const r of due) {
    const hours = quiet.get(r.host_id)!;
    const release = quietHoursRelease(new Date(r.send_at!), hours);
    if (release) held.set(r.id, { quietHours: hours, until: release.toISOString() });
  }
  return held;
}

/** Why the sending ones among `rows` hold back (quiet hours), as the acting context sees them. */
function holdsOfRows(tx: TTx, rows: TCampaignRow[], ctx: TActingContext) {
  return holdsOf(
    tx,
    rows.map((r) => ({ id: r.id, status: r.status, inFlight: r.counts?.sending ?? 0 })),
    ctx,
  );
}

export async function createCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  input: TCampaignValues,
  copyOf?: TCampaignRow,
): Promise<TCampaign> {
  const owner = owningHost(ctx);
  const created = await inTenant(rt, ctx, async (tx) => {
    await checkReferences(
      tx,
      ctx,
      [...input.recipients.segmentIds, ...input.recipients.excludeSegmentIds],
      input.templateId,
    );
    await checkVariantTemplates(tx, ctx, input.experiment);
    const planned = plannedFieldsOf(input.plannedSchedule);
    const id = await insertCampaign(tx, ctx, owner.brandId, input);
    if (planned) await setPlannedSchedule(tx, id, planned);
    await setCampaignSegments(tx, id, owner.brandId, input.recipients.segmentIds, input.recipients.excludeSegmentIds);
    await setExperimentSettings(tx, id, { ...input.experiment, variants: storedVariantsOf(input.experiment) });
    const created = { id, brand_id: owner.brandId, name: input.name };
    await (copyOf
      ? auditCampaign(tx, ctx, created, 'duplicate', { copyOf: copyOf.name })
      : auditCampaign(tx, ctx, created, 'create'));
    return id;
  });
  // A schedule given with the draft is applied through the same checks as the schedule action.
  if (input.schedule) return scheduleCampaign(rt, ctx, created, input.schedule);
  return getCampaign(rt, ctx, created);
}

export async function updateCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: TCampaignUpdate,
): Promise<TCampaign> {
  const wasScheduled = await inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    // Issue 26: the variants and shares are stored on the deliveries once the send starts.
    if (input.experiment && !isEditable(row.status)) throw new AppError(409, 'experiment_locked');
    if (!isEditable(row.status)) throw new AppError(409, 'campaign_not_editable');
    // The editor's autosave names the version it last saw: another tab's change is never overwritten.
    if (input.updatedAt !== undefined && Date.parse(input.updatedAt) !== new Date(row.updated_at).getTime())
      throw new AppError(409, 'campaign_stale');
    // A scheduled campaign's time changes only when it is scheduled again (checked, audited), never by a save.
    if (input.plannedSchedule !== undefined && row.status !== 'draft') throw new AppError(409, 'campaign_not_draft');
    const planned = input.plannedSchedule === undefined ? undefined : plannedFieldsOf(input.plannedSchedule);
    const recipients = input.recipients ?? {
      segmentIds: row.segment_ids ?? [],
      excludeSegmentIds: row.exclude_segment_ids ?? [],
    };
    const templateId = input.templateId === undefined ? row.template_id : input.templateId;
    await checkReferences(
      tx,
      ctx,
      input.recipients ? [...recipients.segmentIds, ...recipients.excludeSegmentIds] : [],
      input.templateId ? input.templateId : null,
    );
    const next = {
      name: input.name ?? row.name,
      subject: input.subject ?? row.subject,
      preHeader: input.preHeader ?? row.pre_header,
      senderEmail: input.senderEmail === undefined ? row.sender_email : input.senderEmail,
      templateId,
    };
    await updateCampaignFields(tx, id, ctx.user.id, next);
    if (input.experiment) {
      await checkVariantTemplates(tx, ctx, input.experiment);
      await setExperimentSettings(tx, id, { ...input.experiment, variants: storedVariantsOf(input.experiment) });
    }
    if (input.recipients)
      await setCampaignSegments(tx, id, row.brand_id, recipients.segmentIds, recipients.excludeSegmentIds);
    if (planned !== undefined) await setPlannedSchedule(tx, id, planned);
    // An edit that changed nothing (a form saved as it was) is not an event of the log.
    const fields = changedFields(row, next, input.recipients);
    if (
      planned !== undefined &&
      ((planned?.kind ?? null) !== row.schedule_kind ||
        (planned?.localTime ?? null) !== row.schedule_local_time ||
        (planned?.timeZone ?? null) !== row.schedule_time_zone)
    )
      fields.push('plannedSchedule');
    if (input.experiment && JSON.stringify(experimentOf(row)) !== JSON.stringify(input.experiment))
      fields.push('experiment');
    if (next.name !== row.name)
      await auditCampaign(tx, ctx, row, 'update', {
        name: [row.name, next.name],
        ...(fields.length ? { fields } : {}),
      });
    else if (fields.length) await auditCampaign(tx, ctx, row, 'update', { fields });
    return row.status === 'scheduled';
  });
  // A scheduled campaign stays scheduled only if it still passes the checks (with its new schedule, if one came).
  const schedule = input.schedule ?? null;
  if (schedule) return scheduleCampaign(rt, ctx, id, schedule);
  if (wasScheduled) {
    const row = await inTenant(rt, ctx, (tx) => mustOwn(tx, ctx, id));
    // The same schedule checked again: not a new scheduling in the audit log.
    const same: TSchedule =
      row.schedule_kind === 'at'
        ? { kind: 'at', localTime: row.schedule_local_time as string, timeZone: row.schedule_time_zone as string }
        : { kind: 'now' };
    return scheduleCampaign(rt, ctx, id, same, { audit: false });
  }
  return getCampaign(rt, ctx, id);
}

function sendAtOf(schedule: TSchedule, now = new Date()): Date {
  if (schedule.kind === 'now') return now;
  if (!isRealLocalTime(schedule.localTime)) throw badRequest({ schedule: fieldError('invalid_date') });
  const at = instantOf(schedule.localTime, schedule.timeZone);
  if (at.getTime() < now.getTime() - PAST_GRACE_MS)
    throw new AppError(400, 'campaign_schedule_past', { schedule: fieldError('campaign_schedule_past') });
  return at;
}

/**
 * Schedule, reschedule or send now: everything a send needs is checked here, so a scheduled
 * campaign fails later only if something changes meanwhile (and then it says why).
 */
export async function scheduleCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  schedule: TSchedule,
  options: { audit?: boolean } = {},
): Promise<TCampaign> {
  const owner = owningHost(ctx);
  const sendAt = sendAtOf(schedule);
  const row = await inTenant(rt, ctx, (tx) => mustOwn(tx, ctx, id));
  if (!isEditable(row.status)) throw new AppError(409, 'campaign_not_editable');
  if (!row.subject.trim()) throw badRequest({ subject: fieldError('campaign_subject_required') });
  if (!row.template_id) throw badRequest({ templateId: fieldError('campaign_template_required') });
  if (!(row.segment_ids ?? []).length) throw badRequest({ recipients: fieldError('campaign_segments_required') });
  const identity = await sendableIdentity(rt, owner, [{ address: row.sender_email, field: 'senderEmail' }]);
  await inTenant(rt, ctx, async (tx) => {
    if (!(await findTemplate(tx, ctx, row.template_id as string))) throw new AppError(409, 'campaign_template_deleted');
    const audience = await audienceSql(tx, owner, row.segment_ids ?? [], row.exclude_segment_ids ?? []);
    const counts = await previewCounts(tx, audience, identity.frequencyCap);
    if (counts.recipients + counts.frequencyCapped === 0) throw new AppError(422, 'campaign_audience_empty');
    await setScheduled(tx, id, ctx.user.id, {
      kind: schedule.kind,
      localTime: schedule.kind === 'at' ? schedule.localTime : null,
      timeZone: schedule.kind === 'at' ? schedule.timeZone : null,
      sendAt,
    });
    await holdUses(tx, id, 'scheduled');
    if (options.audit !== false) {
      await (schedule.kind === 'now'
        ? auditCampaign(tx, ctx, row, 'send_now')
        : auditCampaign(tx, ctx, row, 'schedule', {
            sendAt: schedule.localTime.replace('T', ' '),
            timeZone: schedule.timeZone,
          }));
    }
  });
  // Due now: started at once rather than at the dispatcher's next look.
  if (sendAt.getTime() <= Date.now())
    await rt.queue.send(QUEUES.campaignStart, { campaignId: id, brandId: owner.brandId } satisfies TCampaignJob, {
      singletonKey: id,
    });
  return getCampaign(rt, ctx, id);
}

export async function moveCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  to: 'draft' | 'cancelled',
): Promise<TCampaign> {
  // A conflict all the same (none is known since the cancel takes the statistics first) is run
  // again, whole: nothing here acts outside the transaction.
  await retryingConflicts(
    () =>
      inTenant(rt, ctx, async (tx) => {
        const row = await mustOwn(tx, ctx, id);
        if (to === 'cancelled' && row.status === 'pending') return cancelPaused(tx, ctx, row);
        if (!(await setStatusFromEditable(tx, id, ctx.user.id, to)))
          throw new AppError(409, to === 'cancelled' ? 'campaign_not_cancellable' : 'campaign_not_editable');
        await releaseUses(tx, row.id, to);
        if (row.status !== to) await auditCampaign(tx, ctx, row, to === 'cancelled' ? 'cancel' : 'unschedule');
      }),
    { log: rt.log, what: 'a campaign moved' },
  );
  return getCampaign(rt, ctx, id);
}

/**
 * A paused campaign (by a user, or by protection) cancelled rather than resumed (issue 25): what
 * was not handed to the relay is skipped and counted so (the statistics stay a sum of the
 * audience), what is in flight finishes. Audited with the number skipped and the pause's reason.
 */
async function cancelPaused(tx: TTx, ctx: TActingContext, row: TCampaignRow): Promise<void> {
  // The statistics before the campaign's row, as the send's steps take them (their rollups, then
  // the row under a share lock for the hand-over): a step still recording the answers of the mails
  // in flight is waited for here. The other way round, the cancel held the row and waited for the
  // rollups while the step held them and waited for the row: a deadlock, broken after PostgreSQL's
  // deadlock_timeout (a second) by failing one of them.
  await lockCampaignStats(tx, row.id, row.brand_id);
  const skipped = await cancelPausedRow(tx, row.id, ctx.user.id);
  if (!skipped) throw new AppError(409, 'campaign_not_cancellable');
  await recordDeliveryOutcomes(
    tx,
    skipped.map((d) => ({
      deliveryId: d.id,
      campaignId: row.id,
      brandId: row.brand_id,
      hotelId: d.hotel_id,
      outcome: 'skipped' as const,
    })),
  );
  await releaseUses(tx, row.id, 'cancelled');
  await auditCampaign(tx, ctx, row, 'cancel', {
    skipped: skipped.length,
    ...(row.paused_reason ? { pausedReason: row.paused_reason.kind } : {}),
  });
}

/**
 * Pauses a sending campaign (its host's users who may edit it): from the next claim on it claims
 * nothing, and the mails already in an SMTP conversation finish. Resuming goes on where it
 * stopped; quiet hours are read again at each claim, so they apply at once. Both are audited; a
 * second pause or resume changes nothing.
 */
export async function pauseCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  to: 'paused' | 'resumed',
): Promise<TCampaign> {
  const resumed = await inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    if (to === 'paused') {
      if (row.status !== 'pending') throw new AppError(409, 'campaign_not_sending');
      if (await setPaused(tx, id, ctx.user.id)) await auditCampaign(tx, ctx, row, 'pause');
      return null;
    }
    if (row.status !== 'pending' || !row.paused_at) throw new AppError(409, 'campaign_not_paused');
    if (await setPaused(tx, id, null)) await auditCampaign(tx, ctx, row, 'resume');
    return row.brand_id;
  });
  // Taken up at once rather than at the dispatcher's next look.
  if (resumed)
    await rt.queue.send(QUEUES.campaignSend, { campaignId: id, brandId: resumed } satisfies TCampaignJob, {
      singletonKey: id,
    });
  return getCampaign(rt, ctx, id);
}

export async function deleteCampaign(rt: TRuntime, ctx: TActingContext, id: string): Promise<{ id: string }> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    if (!(await deleteCampaignRow(tx, id))) throw new AppError(409, 'campaign_sending');
    await releaseUses(tx, id, 'deleted');
    await auditCampaign(tx, ctx, row, 'delete');
    return { id };
  });
}

/** A new draft of the acting host; its default name is in the console's language (else the profile's). */
export async function duplicateCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  { name, language = ctx.user.language }: { name?: string; language?: 'ja' | 'en' } = {},
): Promise<TCampaign> {
  const row = await inTenant(rt, ctx, (tx) => mustFind(tx, ctx, id));
  // Another host's campaign seen for the acting host's guests only: its segments are not the acting host's to use.
  if (row.scope !== 'campaign') throw new AppError(403, 'forbidden');
  return createCampaign(
    rt,
    ctx,
    {
      name: name ?? defaultCopyName(row.name, language, CAMPAIGN_NAME_MAX),
      subject: row.subject,
      preHeader: row.pre_header,
      senderEmail: row.sender_email,
      recipients: { segmentIds: row.segment_ids ?? [], excludeSegmentIds: row.exclude_segment_ids ?? [] },
      templateId: row.template_id,
      schedule: null,
      plannedSchedule: null,
      experiment: experimentOf(row),
    },
    row,
  );
}

export async function previewAudience(
  rt: TRuntime,
  ctx: TActingContext,
  recipients: {
    segmentIds: string[];
    excludeSegmentIds: string[];
    holdout?: { campaignId: string; percent: number } | undefined;
  },
): Promise<TAudiencePreview> {
  const owner = owningHost(ctx);
  const resolution = await resolveSendingIdentity(rt, owner.hostId);
  const cap = resolution.ok ? resolution.identity.frequencyCap : { count: 3, days: 7 };
  // The holdout is drawn by a hash seeded with the campaign's id (experiments/assignment.ts): the
  // preview counts the same guests the snapshot will hold out, the id being only a seed here.
  const holdout = recipients.holdout
    ? { seed: recipients.holdout.campaignId, share: recipients.holdout.percent / 100 }
    : null;
  return inTenant(rt, ctx, async (tx) => {
    await checkReferences(tx, ctx, [...recipients.segmentIds, ...recipients.excludeSegmentIds], null);
    return previewCounts(
      tx,
      await audienceSql(tx, owner, recipients.segmentIds, recipients.excludeSegmentIds),
      cap,
      holdout,
    );
  });
}

export async function checkQuietHours(
  rt: TRuntime,
  ctx: TActingContext,
  schedule: TSchedule,
): Promise<TQuietHoursCheck> {
  const owner = owningHost(ctx);
  const sendAt =
    schedule.kind === 'now'
      ? new Date()
      : isRealLocalTime(schedule.localTime)
        ? instantOf(schedule.localTime, schedule.timeZone)
        : null;
  if (!sendAt) throw badRequest({ schedule: fieldError('invalid_date') });
  const quiet = await quietHoursOf(rt, ctx, owner.hostId);
  const release = quietHoursRelease(sendAt, quiet);
  return { sendAt: sendAt.toISOString(), inQuietHours: release !== null, quietHours: quiet, deferredTo: iso(release) };
}

/** A host's quiet hours as its sends apply them; the defaults in its own zone while its settings are missing. */
async function quietHoursOf(
  rt: TRuntime,
  ctx: TActingContext,
  hostId: string,
): Promise<TQuietHoursCheck['quietHours']> {
  const resolution = await resolveSendingIdentity(rt, hostId);
  if (resolution.ok) return resolution.identity.quietHours;
  return {
    start: SENDING_DEFAULTS.quietHoursStart,
    end: SENDING_DEFAULTS.quietHoursEnd,
    timeZone: (await inTenant(rt, ctx, (tx) => hostTimeZone(tx, hostId))) ?? 'Asia/Tokyo',
  };
}

const TEST_PREFIX = { ja: '[テスト] ', en: '[TEST] ' } as const;

/**
 * The campaign as a recipient would get it (its sender, DKIM, footer, unsubscribe headers), to up to
 * five addresses, the subject marked as a test; no delivery is recorded and its links lead nowhere
 * (their delivery does not exist).
 */
export async function testSendCampaign(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: { emails: string[]; language?: 'ja' | 'en' },
  imageUrl: (src: string) => string,
) {
  const owner = owningHost(ctx);
  const { row, template } = await inTenant(rt, ctx, async (tx) => {
    const found = await mustOwn(tx, ctx, id);
    const t = found.template_id ? await findTemplate(tx, ctx, found.template_id) : null;
    return { row: found, template: t };
  });
  if (!template) throw badRequest({ templateId: fieldError('campaign_template_required') });
  const identity = await sendableIdentity(rt, owner, []);
  const versioned = campaignTemplate(
    {
      id: template.id,
      version: template.version,
      defaultLanguage: template.defaultLanguage,
      contents: template.contents as TTemplateContents,
    },
    { id: row.id, subject: row.subject, preHeader: row.pre_header },
  );
  const language = chooseLanguage(versioned, input.language ?? identity.defaultLanguage);
  const compiled = await compiledTemplate(versioned, language, imageUrl);
  const message = personalise(
    compiled,
    personalValues({ firstName: ctx.user.firstName, lastName: ctx.user.lastName }, compiled.language),
  );
  const recipients = [...new Set(input.emails.map((e) => e.toLowerCase()))];
  return sendEachTest(
    recipients,
    async (to) => {
      const deliveryId = crypto.randomUUID();
      const mail = composeMessage({
        campaignId: row.id,
        deliveryId,
        to,
        language: compiled.language,
        subject: `${TEST_PREFIX[compiled.language]}${message.subject}`,
        message,
        publicUrl: rt.config.publicUrl,
        identity,
        dkim: identity.dkim,
        tracking: trackingFor(rt, deliveryId, {
          mailto: identity.replyTo ?? identity.from.address,
          language: compiled.language,
        }),
      });
      // Built and signed as the campaign's own mails are, so the test shows what guests will get.
      await rt.mailer.sendMail(await signedRaw(mail));
    },
    (error) =>
      rt.log.warn(
        { code: (error as { code?: string }).code, responseCode: (error as { responseCode?: number }).responseCode },
        'campaign test send failed',
      ),
  );
}

export async function listDeliveries(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  q: { status?: TDeliveryStatus; page: number; pageSize: number },
) {
  return inTenant(rt, ctx, async (tx) => {
    const campaign = await mustFind(tx, ctx, id);
    const { rows, total } = await listDeliveryRows(tx, id, q, campaign.scope === 'campaign' ? null : ctx);
    return {
      items: rows.map((r) => ({
        id: r.id,
        customerId: r.customer_id,
        // The customer's own full name, as the customer list writes it.
        customerName: fullName(r.first_name, r.last_name),
        email: r.email,
        hotelId: r.hotel_id,
        status: r.status,
        skipReason: r.skip_reason,
        attempts: r.attempts,
        sentAt: iso(r.sent_at),
        error: deliveryErrorFor(r.error, r.email),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  });
}

/**
 * Issue 26: the marketer picks the A/B test's winner by hand while the test runs or waits (409
 * experiment_not_waiting otherwise; 422 experiment_variant_unknown for a variant the campaign
 * lacks). Audited; the rest is released to the send at once.
 */
export async function pickExperimentWinner(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  key: TVariantKey,
): Promise<TCampaignExperiment> {
  const brandId = await inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    if (
      row.status !== 'pending' ||
      !['testing', 'waiting'].includes(row.experiment_phase) ||
      row.experiment_winner !== null
    )
      throw new AppError(409, 'experiment_not_waiting');
    const variant = VARIANT_KEYS.indexOf(key);
    if (variant > (row.experiment_variants ?? []).length) throw new AppError(422, 'experiment_variant_unknown');
    const decided = await recordDecision(tx, id, async () => ({ how: 'manual', winner: variant }), {
      userId: ctx.user.id,
      hostId: ctx.host.id,
      role: ctx.role,
    });
    if (!decided) throw new AppError(409, 'experiment_not_waiting');
    return row.brand_id;
  });
  await rt.queue.send(QUEUES.campaignSend, { campaignId: id, brandId } satisfies TCampaignJob, { singletonKey: id });
  return (await getCampaign(rt, ctx, id)).experiment;
}

/** Issue 26: the experiment's report (variants, decision, holdout), as the acting context sees the campaign. */
export async function getExperimentReport(rt: TRuntime, ctx: TActingContext, id: string): Promise<TExperimentReport> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    const hotels = row.scope === 'campaign' ? sql`true` : inGuestHotels(ctx, sql`d.hotel_id`);
    return campaignExperimentReport(tx, row, hotels);
  });
}
