import { z } from 'zod';
import { ZCampaignHold } from './campaign-hold.ts';
import { ZHoldoutPercent } from './experiments.ts';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Automations: scenarios and presets (specification sections 1 to 6; issue 14).
 *
 * A scenario is a graph of nodes (triggers, delays, branches, emails) joined by edges. The graph
 * below is the one shared contract for the console's editor, the API and the server's engine:
 * change it only by adding, and raise SCENARIO_GRAPH_VERSION when a meaning changes.
 *
 * Meaning of a graph:
 * - A trigger node lets customers in; every other node is reached by edges. A customer's place in
 *   the scenario is one journey row (server): it enters at the node after its trigger.
 * - A delay holds the customer until its time; an email sends and moves on along `next` (or
 *   along `error` when the send failed and the node has an error edge; otherwise along `next`);
 *   a branch moves on along `yes` or `no`.
 * - Booking triggers follow the booking: "N days before check-in" waits for the stay's check-in
 *   day at the scenario's send time in its time zone; when the stay moves the wait moves, and a
 *   cancelled booking takes the guest out of the journey.
 * - Customer data reaches Yado by the daily sync at 1 AM (section 1), so a booking made today
 *   can enter a scenario the next morning.
 */

export const SCENARIO_GRAPH_VERSION = 1;
export const SCENARIO_MAX_NODES = 100;
export const SCENARIO_NAME_MAX = 100;
export const SCENARIO_DESCRIPTION_MAX = 500;
export const SCENARIO_SUBJECT_MAX = 200;
/** The longest delay a node may hold a customer: anything longer is a mistake, not a plan. */
export const DELAY_MAX_DAYS = 5 * 365;
/** Days before check-in / after check-out a booking trigger may name. */
export const STAY_OFFSET_MAX_DAYS = 365;

/**
 * The typed sentence that confirms a stop (section 4, verbatim in English), in each language of the
 * console: a user types the one shown in their language. The server accepts either, so a user who
 * switched language with the dialog open is not refused; the console's catalogue shows the same
 * words (a web test compares them).
 */
export const STOP_SENTENCES = {
  en: 'I acknowledge that this action cannot be undone.',
  ja: 'この操作は元に戻せないことを了承します。',
} as const;
export const STOP_SENTENCE = STOP_SENTENCES.en;
/** Whether a typed confirmation is the stop sentence of one of the languages (outer spaces aside). */
export function isStopSentence(typed: string | undefined): boolean {
  const text = typed?.trim();
  return text === STOP_SENTENCES.en || text === STOP_SENTENCES.ja;
}

export const SCENARIO_STATUSES = ['draft', 'scheduled', 'running', 'completed', 'stopped', 'archived'] as const;
export type TScenarioStatus = (typeof SCENARIO_STATUSES)[number];

/** A running (or scheduled) scenario cannot be changed (section 4). */
export const SCENARIO_EDITABLE_STATUSES = ['draft'] as const satisfies readonly TScenarioStatus[];

/**
 * The actions of section 4 and the statuses each applies to.
 * - run ("finish and run"): a valid draft becomes scheduled (start in the future) or running.
 * - cancel: a scheduled scenario goes back to draft.
 * - stop (typed sentence): nobody new enters and the customers inside are halted; final.
 * - restart: a stopped or completed scenario becomes a draft again, its configuration the last
 *   saved one (unsaved changes in the editor are overridden); the next run starts fresh.
 * - resume: a completed scenario whose run period still has time left (long run, recurring, or
 *   an end moved later) runs again, keeping the journeys it has.
 * - delete: a scenario not running is archived; an archived one is deleted for good.
 * - restore: an archived scenario comes back as a draft.
 * - copy: any scenario, into a new draft of the acting host.
 */
export const SCENARIO_ACTIONS = ['run', 'cancel', 'stop', 'restart', 'resume', 'restore'] as const;
export type TScenarioAction = (typeof SCENARIO_ACTIONS)[number];
export const ACTION_FROM: Record<TScenarioAction, readonly TScenarioStatus[]> = {
  run: ['draft'],
  cancel: ['scheduled'],
  stop: ['scheduled', 'running'],
  restart: ['stopped', 'completed'],
  resume: ['completed'],
  restore: ['archived'],
};
export const DELETABLE_STATUSES = [
  'draft',
  'completed',
  'stopped',
  'archived',
] as const satisfies readonly TScenarioStatus[];

/**
 * Node states shown on the editor (section 4). `stopped`: the scenario was stopped while guests were
 * still at the step; they left because of the stop, so the step is no success (whoever passed it before).
 */
export const NODE_STATES = ['success', 'running', 'error', 'stopped'] as const;
export type TNodeState = (typeof NODE_STATES)[number];

// ---------------------------------------------------------------------------------------------
// The graph

const ZNodeId = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'invalid_node_id' });
const ZPosition = z.object({ x: z.number().finite(), y: z.number().finite() });
const ZTimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'invalid_time' });
const ZLocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalid_date' });

export const TRIGGER_KINDS = [
  'segment_members',
  'segment_entered',
  'booking_made',
  'before_check_in',
  'check_in_day',
  'after_check_out',
  'booking_cancelled',
  'birthday',
] as const;
export type TTriggerKind = (typeof TRIGGER_KINDS)[number];
/** Triggers tied to one booking: the journey carries the booking and follows it. */
export const STAY_TRIGGERS = [
  'booking_made',
  'before_check_in',
  'check_in_day',
  'after_check_out',
  'booking_cancelled',
] as const satisfies readonly TTriggerKind[];
/** Triggers whose wait is relative to the stay's dates (moved stay moves the wait). */
export const STAY_RELATIVE_TRIGGERS = [
  'before_check_in',
  'check_in_day',
  'after_check_out',
] as const satisfies readonly TTriggerKind[];

export const ZTrigger = z.discriminatedUnion('kind', [
  /** Members of a segment when the scenario starts. */
  z.object({ kind: z.literal('segment_members'), segmentId: z.uuid().nullable() }),
  /** Customers who newly enter a dynamic segment while the scenario runs (existing_segment_automation). */
  z.object({ kind: z.literal('segment_entered'), segmentId: z.uuid().nullable() }),
  z.object({ kind: z.literal('booking_made') }),
  z.object({ kind: z.literal('before_check_in'), days: z.number().int().min(0).max(STAY_OFFSET_MAX_DAYS) }),
  z.object({ kind: z.literal('check_in_day') }),
  z.object({ kind: z.literal('after_check_out'), days: z.number().int().min(0).max(STAY_OFFSET_MAX_DAYS) }),
  z.object({ kind: z.literal('booking_cancelled') }),
  z.object({ kind: z.literal('birthday') }),
]);
export type TTrigger = z.infer<typeof ZTrigger>;

export const DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
export const DELAY_KINDS = ['duration', 'weekday', 'day_of_month', 'month', 'time_of_day', 'date'] as const;
export type TDelayKind = (typeof DELAY_KINDS)[number];
/** 0 = Sunday ... 6 = Saturday (as Date.getDay). */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export const MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/**
 * A delay. Amounts are not range-checked by the parser so that a zero or ten-year delay reaches
 * checkScenarioGraph and is refused at its node with a clear message. Calendar delays wait until
 * the next matching moment (in the scenario's time zone) at `time` (default 09:00).
 */
export const ZDelay = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('duration'), amount: z.number().int(), unit: z.enum(DELAY_UNITS) }),
  z.object({
    kind: z.literal('weekday'),
    weekdays: z.array(z.number().int().min(0).max(6)).max(7),
    time: ZTimeOfDay.optional(),
  }),
  z.object({ kind: z.literal('day_of_month'), day: z.number().int().min(1).max(31), time: ZTimeOfDay.optional() }),
  z.object({
    kind: z.literal('month'),
    months: z.array(z.number().int().min(1).max(12)).max(12),
    day: z.number().int().min(1).max(31).default(1),
    time: ZTimeOfDay.optional(),
  }),
  z.object({ kind: z.literal('time_of_day'), time: ZTimeOfDay }),
  /** Until one date (and time): refused at run when it has already passed (section 5). */
  z.object({ kind: z.literal('date'), date: ZLocalDate, time: ZTimeOfDay.optional() }),
]);
export type TDelay = z.infer<typeof ZDelay>;

export const BRANCH_CONDITIONS = ['opened_previous', 'clicked_previous', 'booked_since_entry'] as const;
export type TBranchCondition = (typeof BRANCH_CONDITIONS)[number];

export const ZEmailResponse = z.object({
  templateId: z.uuid().nullable(),
  subject: z.string().trim().max(SCENARIO_SUBJECT_MAX),
  senderEmail: z.string().trim().max(254).nullable(),
});
export type TEmailResponse = z.infer<typeof ZEmailResponse>;

const node = <TType extends string, TData extends z.ZodType>(type: TType, data: TData) =>
  z.object({
    id: ZNodeId,
    type: z.literal(type),
    position: ZPosition.default({ x: 0, y: 0 }),
    label: z.string().trim().max(100).optional(),
    data,
  });

export const ZScenarioNode = z.discriminatedUnion('type', [
  node('trigger', ZTrigger),
  node('delay', ZDelay),
  node('branch', z.object({ condition: z.enum(BRANCH_CONDITIONS) })),
  node('email', ZEmailResponse),
]);
export type TScenarioNode = z.infer<typeof ZScenarioNode>;
export type TNodeType = TScenarioNode['type'];

/** Which way an edge leaves its source: `next` (trigger, delay, email), `yes`/`no` (branch), `error` (email). */
export const EDGE_HANDLES = ['next', 'yes', 'no', 'error'] as const;
export type TEdgeHandle = (typeof EDGE_HANDLES)[number];

export const ZScenarioEdge = z.object({
  id: z.string().trim().min(1).max(130),
  source: ZNodeId,
  target: ZNodeId,
  handle: z.enum(EDGE_HANDLES).default('next'),
});
export type TScenarioEdge = z.infer<typeof ZScenarioEdge>;

export const ZScenarioGraph = z.object({
  version: z.literal(SCENARIO_GRAPH_VERSION).default(SCENARIO_GRAPH_VERSION),
  nodes: z.array(ZScenarioNode).max(SCENARIO_MAX_NODES),
  edges: z.array(ZScenarioEdge).max(SCENARIO_MAX_NODES * 3),
});
export type TScenarioGraph = z.infer<typeof ZScenarioGraph>;
export const emptyGraph = (): TScenarioGraph => ({ version: SCENARIO_GRAPH_VERSION, nodes: [], edges: [] });

// ---------------------------------------------------------------------------------------------
// Validation (section 5)

/**
 * Faults of a graph. The first three are section 5's reasons a run fails; the rest say which part
 * of "not configured" is wrong. Each names its node (null: the whole workflow or the run period).
 */
export const GRAPH_FAULTS = [
  'workflow_not_configured',
  'email_incomplete',
  'delay_passed',
  'no_trigger',
  'trigger_needs_segment',
  'trigger_leads_nowhere',
  'orphan_node',
  'cycle',
  'duplicate_node_id',
  'edge_unknown_node',
  'edge_wrong_handle',
  'edge_duplicate_handle',
  'edge_into_trigger',
  'branch_incomplete',
  'delay_zero',
  'delay_too_long',
  'delay_no_choice',
  'start_passed',
  'end_before_start',
] as const;
export type TGraphFaultCode = (typeof GRAPH_FAULTS)[number];

export interface TGraphFault {
  nodeId: string | null;
  code: TGraphFaultCode;
}

const HANDLES_OF: Record<TNodeType, readonly TEdgeHandle[]> = {
  trigger: ['next'],
  delay: ['next'],
  branch: ['yes', 'no'],
  email: ['next', 'error'],
};

const MINUTES_OF = { minutes: 1, hours: 60, days: 24 * 60 } as const;

/** Wall-clock `YYYY-MM-DD` + `HH:mm` in a time zone -> epoch ms (DST-safe by a second pass). */
export const zonedToInstant = (date: string, time: string, timeZone: string): number => {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  const offsetAt = (instant: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(new Date(instant));
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - instant;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
};

/**
 * Faults of a graph and run period (section 5). `now` (epoch ms) checks dated delays and the start;
 * leave it out to check the shape only (saving a draft never fails on time).
 */
export const checkScenarioGraph = (
  graph: TScenarioGraph,
  options: {
    now?: number;
    timeZone?: string;
    run?: Pick<TScenarioRun, 'startDate' | 'startTime' | 'endDate' | 'endTime' | 'period'>;
  } = {},
): TGraphFault[] => {
  const faults: TGraphFault[] = [];
  const add = (nodeId: string | null, code: TGraphFaultCode) => faults.push({ nodeId, code });
  const byId = new Map<string, TScenarioNode>();
  for (const n of graph.nodes) {
    if (byId.has(n.id)) add(n.id, 'duplicate_node_id');
    byId.set(n.id, n);
  }
  const triggers = graph.nodes.filter((n) => n.type === 'trigger');
  if (graph.nodes.length === 0) add(null, 'workflow_not_configured');
  else if (triggers.length === 0) add(null, 'no_trigger');

  const outgoing = new Map<string, TScenarioEdge[]>();
  const incoming = new Map<string, number>();
  for (const e of graph.edges) {
    const source = byId.get(e.source);
    const target = byId.get(e.target);
    if (!source || !target) {
      add(source ? e.source : target ? e.target : null, 'edge_unknown_node');
      continue;
    }
    if (!HANDLES_OF[source.type].includes(e.handle)) add(source.id, 'edge_wrong_handle');
    if (target.type === 'trigger') add(target.id, 'edge_into_trigger');
    const list = outgoing.get(source.id) ?? [];
    if (list.some((other) => other.handle === e.handle)) add(source.id, 'edge_duplicate_handle');
    list.push(e);
    outgoing.set(source.id, list);
    incoming.set(target.id, (incoming.get(target.id) ?? 0) + 1);
  }

  const tz = options.timeZone ?? 'Asia/Tokyo';
  for (const n of graph.nodes) {
    const out = outgoing.get(n.id) ?? [];
    switch (n.type) {
      case 'trigger':
        if (out.length === 0) add(n.id, 'trigger_leads_nowhere');
        if ((n.data.kind === 'segment_members' || n.data.kind === 'segment_entered') && !n.data.segmentId)
          add(n.id, 'trigger_needs_segment');
        break;
      case 'email':
        if (!n.data.templateId || !n.data.subject || !n.data.senderEmail) add(n.id, 'email_incomplete');
        break;
      case 'branch':
        if (!out.some((e) => e.handle === 'yes') || !out.some((e) => e.handle === 'no')) add(n.id, 'branch_incomplete');
        break;
      case 'delay': {
        const d = n.data;
        if (d.kind === 'duration') {
          const minutes = d.amount * MINUTES_OF[d.unit];
          if (minutes <= 0) add(n.id, 'delay_zero');
          else if (minutes > DELAY_MAX_DAYS * 24 * 60) add(n.id, 'delay_too_long');
        } else if ((d.kind === 'weekday' && d.weekdays.length === 0) || (d.kind === 'month' && d.months.length === 0)) {
          add(n.id, 'delay_no_choice');
        } else if (d.kind === 'date') {
          const at = zonedToInstant(d.date, d.time ?? '09:00', tz);
          if (options.now !== undefined && at <= options.now) add(n.id, 'delay_passed');
          else if (options.now !== undefined && at - options.now > DELAY_MAX_DAYS * 86_400_000)
            add(n.id, 'delay_too_long');
        }
        break;
      }
    }
    if (n.type !== 'trigger' && !incoming.get(n.id)) add(n.id, 'orphan_node');
  }

  // Cycles: a customer must reach the end of the graph; a loop would hold or resend forever.
  const colour = new Map<string, 1 | 2>();
  const visit = (id: string): void => {
    colour.set(id, 1);
    for (const e of outgoing.get(id) ?? []) {
      const c = colour.get(e.target);
      if (c === 1) add(e.target, 'cycle');
      else if (c === undefined) visit(e.target);
    }
    colour.set(id, 2);
  };
  for (const n of graph.nodes) if (!colour.has(n.id)) visit(n.id);

  const run = options.run;
  if (run && run.startDate) {
    const start = zonedToInstant(run.startDate, run.startTime ?? '00:00', tz);
    if (
      options.now !== undefined &&
      run.period.kind !== 'long_run' &&
      start < options.now - 60_000 &&
      run.period.kind === 'one_time'
    )
      add(null, 'start_passed');
    if (run.endDate) {
      const end = zonedToInstant(run.endDate, run.endTime ?? '23:59', tz);
      if (end <= start) add(null, 'end_before_start');
      else if (options.now !== undefined && end <= options.now) add(null, 'delay_passed');
    }
  }
  // One fault per node and code is enough for the editor's marks.
  const seen = new Set<string>();
  return faults.filter((f) => {
    const key = `${f.nodeId ?? ''}|${f.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

// ---------------------------------------------------------------------------------------------
// Scenario fields (section 3)

export const RUN_PERIOD_KINDS = ['one_time', 'custom', 'recurring', 'long_run'] as const;
export const REPEAT_UNITS = ['minutes', 'days', 'weeks', 'months', 'years'] as const;
export type TRepeatUnit = (typeof REPEAT_UNITS)[number];

/**
 * - one_time: enters the segment members once at the start; ends when every journey has ended.
 * - custom: lets customers in from the start date-time to the end date-time.
 * - recurring: enters the segment members again every N units from the start (until the end, if any).
 * - long_run: runs from the start without end until stopped.
 */
export const ZRunPeriod = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('one_time') }),
  z.object({ kind: z.literal('custom') }),
  z.object({ kind: z.literal('recurring'), every: z.number().int().min(1).max(1000), unit: z.enum(REPEAT_UNITS) }),
  z.object({ kind: z.literal('long_run') }),
]);
export type TRunPeriod = z.infer<typeof ZRunPeriod>;

const ZTimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'invalid_time_zone' },
  );

export const ZScenarioRunInput = z.object({
  period: ZRunPeriod.default({ kind: 'long_run' }),
  /** Wall-clock start in `timeZone`; null: when run. */
  startDate: ZLocalDate.nullable().default(null),
  startTime: ZTimeOfDay.nullable().default(null),
  endDate: ZLocalDate.nullable().default(null),
  endTime: ZTimeOfDay.nullable().default(null),
  timeZone: ZTimeZone.default('Asia/Tokyo'),
  /** Time of day stay-relative and birthday sends go out, in `timeZone`. */
  sendTime: ZTimeOfDay.default('09:00'),
});
export type TScenarioRun = z.output<typeof ZScenarioRunInput>;

const ZPerson = z.object({ id: z.string(), name: z.string() }).nullable();

export const ZNodeCounts = z.object({
  entered: z.number(),
  waiting: z.number(),
  done: z.number(),
  /**
   * Of done: guests who passed an email step without its mail (not mailable then: unsubscribed,
   * suppressed, no address). An email step's sent mails are done less these.
   */
  skipped: z.number(),
  failed: z.number(),
  left: z.number(),
  /**
   * Of left: guests still at this step (waiting for its time, or for its mail) when the scenario
   * was stopped, who left because of the stop. The others left for a reason of their own (a
   * cancelled booking, an unsubscribe).
   */
  stopped: z.number(),
});
export type TNodeCounts = z.infer<typeof ZNodeCounts>;

/**
 * Why the mails queued at an email step are not going out now: the quiet hours of the hotel whose
 * quiet hours end first (the campaigns' hold; counted over the step's hidden campaigns). null: none.
 */
export const ZScenarioHold = ZCampaignHold;
export type TScenarioHold = z.infer<typeof ZScenarioHold>;

export const ZNodeStatus = z.object({
  nodeId: z.string(),
  state: z.enum(NODE_STATES).nullable(),
  /** An error code of the catalogue when state is error (the last failure's reason). */
  message: z.string().nullable(),
  counts: ZNodeCounts,
  /** Of those waiting here on a date (a delay, a stay's moment at the entrance): the earliest end (ISO); null: none. */
  nextDueAt: z.string().nullable(),
  /** The quiet hours holding this email step's queued mails now; null: none held. */
  hold: ZScenarioHold.nullable(),
});
export type TNodeStatus = z.infer<typeof ZNodeStatus>;

export const ZScenario = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(SCENARIO_STATUSES),
  graph: ZScenarioGraph,
  run: ZScenarioRunInput,
  /** Faults of the saved graph (shape only; the run adds the time checks). */
  faults: z.array(z.object({ nodeId: z.string().nullable(), code: z.enum(GRAPH_FAULTS) })),
  /** Per node state and live counts (empty for a draft that never ran). */
  nodes: z.array(ZNodeStatus),
  presetId: z.string().nullable(),
  /**
   * Issue 26: the share (1..20 %) of the guests entering the scenario held out: they enter, are
   * recorded, and are never mailed by it (GET /v1/scenarios/:id/holdout compares them). null: none.
   */
  holdoutPercent: z.number().nullable(),
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Instant the scenario starts (scheduled) or started. */
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  hostId: z.string(),
  hostName: z.string(),
  hostLevel: z.enum(['brand', 'hotel_group', 'hotel']),
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: ZPerson,
  updatedBy: ZPerson,
});
export type TScenario = z.infer<typeof ZScenario>;

export const SCENARIO_SORTS = [
  'name',
  '-name',
  'created_at',
  '-created_at',
  'updated_at',
  '-updated_at',
  'status',
  '-status',
] as const;

export const ZScenarioListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  status: z.enum(SCENARIO_STATUSES).optional(),
  sort: z.enum(SCENARIO_SORTS).default('-updated_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TScenarioListQuery = z.infer<typeof ZScenarioListQuery>;

export const ZScenarioSummaryRow = ZScenario.pick({
  id: true,
  name: true,
  description: true,
  status: true,
  hostId: true,
  hostName: true,
  hostLevel: true,
  editable: true,
  startsAt: true,
  endsAt: true,
  createdAt: true,
  updatedAt: true,
  createdBy: true,
  updatedBy: true,
}).extend({
  run: ZScenarioRunInput,
  /** Customers in journeys: entered in all, and still inside. */
  entered: z.number(),
  active: z.number(),
});
export type TScenarioListItem = z.infer<typeof ZScenarioSummaryRow>;

export const ZScenarioPage = z.object({
  items: z.array(ZScenarioSummaryRow),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  byStatus: z.record(z.enum(SCENARIO_STATUSES), z.number()),
});

export const ZScenarioInput = z.object({
  name: z.string().trim().min(1).max(SCENARIO_NAME_MAX),
  description: z.string().trim().max(SCENARIO_DESCRIPTION_MAX).default(''),
  graph: ZScenarioGraph.default(emptyGraph),
  /** Left out: the defaults, in the time zone of the creating host (`hosts.timezone`). */
  run: ZScenarioRunInput.optional(),
  holdoutPercent: ZHoldoutPercent.default(null),
});
export type TScenarioInput = z.input<typeof ZScenarioInput>;
export type TScenarioValues = z.output<typeof ZScenarioInput>;

export const ZScenarioUpdate = z.object({
  name: z.string().trim().min(1).max(SCENARIO_NAME_MAX).optional(),
  description: z.string().trim().max(SCENARIO_DESCRIPTION_MAX).optional(),
  graph: ZScenarioGraph.optional(),
  run: ZScenarioRunInput.optional(),
  holdoutPercent: ZHoldoutPercent.optional(),
  /**
   * The scenario's `updatedAt` as the editor last saw it: a scenario changed since (in another tab)
   * is refused with 409 scenario_stale rather than overwritten. Left out, the change is made as is.
   */
  updatedAt: z.string().datetime({ offset: true }).optional(),
});
export type TScenarioUpdate = z.output<typeof ZScenarioUpdate>;

export const ZScenarioActionBody = z.object({
  action: z.enum(SCENARIO_ACTIONS),
  /** Stop only: the typed sentence, exactly. */
  confirmation: z.string().max(200).optional(),
});

// ---------------------------------------------------------------------------------------------
// Summary: execution log and email details

export const JOURNEY_STATES = ['waiting', 'processing', 'done', 'left', 'failed'] as const;
export type TJourneyState = (typeof JOURNEY_STATES)[number];
/** Why a journey ended before the end of the graph. */
export const LEAVE_REASONS = [
  'booking_cancelled',
  'scenario_stopped',
  'unsubscribed',
  'customer_deleted',
  'node_error',
] as const;
/**
 * Why a pre-arrival journey ("N days before check-in", "check-in day") was skipped at its trigger
 * (a `skipped` step whose detail is one of these; the journey leaves), in the order tested:
 * the stay has ended, the guest has checked in, check-in (15:00 in the hotel's time zone) has
 * passed, the scenario's send time on the day is itself at or after check-in ("check-in day" sent
 * at 16:00), the booking was read so late that the next send time is at or after check-in.
 */
export const STAY_SKIP_REASONS = [
  'stay_ended',
  'checked_in',
  'check_in_passed',
  'send_time_after_check_in',
  'late_booking',
] as const;
export type TStaySkipReason = (typeof STAY_SKIP_REASONS)[number];

/**
 * The events of a customer's path: entered a step, waiting (until the instant in the detail),
 * moved (a stay-relative wait moved with the stay), queued (the mail of an email step is on its
 * way), sent, skipped, failed, yes/no (a branch's path), done (passed on), left.
 */
export const JOURNEY_EVENTS = [
  'entered',
  'waiting',
  'moved',
  'queued',
  'sent',
  'skipped',
  'failed',
  'yes',
  'no',
  'done',
  'left',
] as const;
export type TJourneyEvent = (typeof JOURNEY_EVENTS)[number];

export const ZJourneyStep = z.object({
  nodeId: z.string(),
  event: z.enum(JOURNEY_EVENTS),
  detail: z
    .string()
    .nullable()
    .describe(
      'waiting: the instant waited for; moved: "from/to", two instants; skipped: the reason (a delivery skip reason, or one of STAY_SKIP_REASONS at a pre-arrival trigger or email step); left: a LEAVE_REASONS code; failed: the error',
    ),
  at: z.string(),
});
export type TJourneyStep = z.infer<typeof ZJourneyStep>;

export const ZJourney = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  bookingId: z.string().nullable(),
  nodeId: z.string().nullable(),
  state: z.enum(JOURNEY_STATES),
  /** When a wait on a date ends (a delay, a stay's moment); null while a mail is on its way. */
  dueAt: z.string().nullable(),
  /** A waiting mail held by the quiet hours of its hotel (or the scenario's host): until when, on whose clock. */
  hold: ZCampaignHold.pick({ reason: true, until: true, localTime: true, timeZone: true, hostName: true }).nullable(),
  enteredAt: z.string(),
  path: z.array(ZJourneyStep),
});
export type TJourney = z.infer<typeof ZJourney>;

export const ZScenarioRunLog = z.object({
  run: z.number(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  entered: z.number(),
});

export const ZExecutionLog = z.object({
  runs: z.array(ZScenarioRunLog),
  nodes: z.array(ZNodeStatus),
});
export type TExecutionLog = z.infer<typeof ZExecutionLog>;

export const ZJourneyQuery = z.object({
  nodeId: z.string().max(64).optional(),
  state: z.enum(JOURNEY_STATES).optional(),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const ZEmailDetail = z.object({
  nodeId: z.string(),
  label: z.string().nullable(),
  subject: z.string(),
  /** The hidden campaign that carries this node's deliveries (its statistics). */
  campaignId: z.string().nullable(),
  sent: z.number(),
  /** Not sent to a guest not mailable then (unsubscribed, suppressed, at the frequency cap, held out). */
  skipped: z.number(),
  skippedBy: z
    .array(z.object({ reason: z.string(), count: z.number() }))
    .describe(
      'skipped by reason: one entry per delivery skip reason met (SKIP_REASONS but cancelled, or holdout), most first; the counts add up to skipped',
    ),
  /** Not sent because the scenario was stopped while they were still queued. */
  cancelled: z.number(),
  failed: z.number(),
  /** On their way: queued, being sent, or deferred for a retry. */
  queued: z.number(),
  opened: z.number().nullable(),
  clicked: z.number().nullable(),
  /** Unique opens and clicks as fractions of the mails delivered (0.25 = 25%); null before any. */
  openRate: z.number().nullable(),
  clickRate: z.number().nullable(),
});
export type TEmailDetail = z.infer<typeof ZEmailDetail>;

// ---------------------------------------------------------------------------------------------
// Presets

export const PRESET_NAME_MAX = 100;
export const PRESET_COLOURS = [
  'gray',
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
] as const;
export const BUILT_IN_PRESETS = [
  'pre_arrival',
  'check_in_welcome',
  'post_stay_thanks',
  'birthday',
  'win_back',
] as const;
export type TBuiltInPreset = (typeof BUILT_IN_PRESETS)[number];
/** The languages a built-in preset's texts (name, description, email step's label) come in. */
export const PRESET_LANGUAGES = ['ja', 'en'] as const;
export type TPresetLanguage = (typeof PRESET_LANGUAGES)[number];

export const ZPreset = z.object({
  /** A uuid for a host's own preset; `builtin:<key>` for the built-in ones. */
  id: z.string(),
  /** The key of a built-in preset, whose texts are in the language asked (else the user's own). */
  builtIn: z.enum(BUILT_IN_PRESETS).nullable(),
  name: z.string(),
  description: z.string(),
  emoji: z.string(),
  colour: z.enum(PRESET_COLOURS),
  graph: ZScenarioGraph,
  run: ZScenarioRunInput,
  hostId: z.string().nullable(),
  editable: z.boolean(),
  createdAt: z.string().nullable(),
});
export type TPreset = z.infer<typeof ZPreset>;

export const ZPresetInput = z.object({
  name: z.string().trim().min(1).max(PRESET_NAME_MAX),
  description: z.string().trim().max(SCENARIO_DESCRIPTION_MAX).default(''),
  emoji: z.string().trim().min(1).max(16).default('✉️'),
  colour: z.enum(PRESET_COLOURS).default('blue'),
  /** Start from a scenario of the host (its graph and run period), or from an empty graph. */
  scenarioId: z.uuid().nullable().default(null),
});
export type TPresetInput = z.input<typeof ZPresetInput>;

// ---------------------------------------------------------------------------------------------
// Endpoints

const byId = '/v1/scenarios/:id';
const one = envelope(ZScenario);

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/scenarios',
  summary: 'Scenarios in reach, filtered by status, searched, sorted, paged',
  query: ZScenarioListQuery,
  response: envelope(ZScenarioPage),
});
export const create = defineEndpoint({
  method: 'POST',
  path: '/v1/scenarios',
  summary:
    "Create a draft scenario owned by the acting host; without `run`, the default run period in the host's time zone (at the platform, which owns no brand data: 403 brand_host_required)",
  body: ZScenarioInput,
  response: one,
});
export const get = defineEndpoint({
  method: 'GET',
  path: byId,
  summary: 'One scenario with its graph, faults and per-node state and counts',
  response: one,
});
export const update = defineEndpoint({
  method: 'PUT',
  path: byId,
  summary:
    'Change a draft scenario (409 scenario_not_editable once it is scheduled or running; 409 scenario_stale when updatedAt names an older version than the stored one)',
  body: ZScenarioUpdate,
  response: one,
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: byId,
  summary: 'Archive a scenario that is not running; delete an archived one for good',
  response: envelope(z.object({ id: z.string(), status: z.enum(SCENARIO_STATUSES).nullable() })),
});
export const copy = defineEndpoint({
  method: 'POST',
  path: `${byId}/copy`,
  summary:
    'Copy a scenario into a new draft of the acting host; the name defaults to "<name> (copy)" in `language` (else the user\'s language): "<name>（コピー）" in Japanese',
  body: z.object({
    name: z.string().trim().min(1).max(SCENARIO_NAME_MAX).optional(),
    /** The console's language: a user may read it in another than their profile's. */
    language: z.enum(['ja', 'en']).optional(),
  }),
  response: one,
});
export const action = defineEndpoint({
  method: 'POST',
  path: `${byId}/actions`,
  summary:
    "run, cancel, stop (typed sentence), restart, resume, restore (409 scenario_action_not_allowed from another status; 400 scenario_invalid with per-node fields on a failed run; a run checks its email steps' senders as scheduling a campaign does: 422 sending_settings_missing, domain_not_verified, footer_missing, or sender_domain_not_verified on nodes.<id>)",
  body: ZScenarioActionBody,
  response: one,
});
export const validate = defineEndpoint({
  method: 'POST',
  path: '/v1/scenarios/validate',
  summary: 'Faults of a graph and run period as a run would see them now (nothing is saved)',
  body: z.object({ graph: ZScenarioGraph, run: ZScenarioRunInput.optional() }),
  response: envelope(
    z.object({ faults: z.array(z.object({ nodeId: z.string().nullable(), code: z.enum(GRAPH_FAULTS) })) }),
  ),
});
export const executionLog = defineEndpoint({
  method: 'GET',
  path: `${byId}/summary`,
  summary: 'Execution log: runs, and per node entered, waiting, done, failed, left',
  response: envelope(ZExecutionLog),
});
export const journeys = defineEndpoint({
  method: 'GET',
  path: `${byId}/journeys`,
  summary: "Customers' journeys, each with its path through the scenario and times",
  query: ZJourneyQuery,
  response: envelope(z.object({ items: z.array(ZJourney), total: z.number(), page: z.number(), pageSize: z.number() })),
});
export const emailDetails = defineEndpoint({
  method: 'GET',
  path: `${byId}/emails`,
  summary:
    'Per email node: the send counts (the skipped ones also by reason) and tracking statistics of its hidden campaigns',
  response: envelope(z.object({ items: z.array(ZEmailDetail) })),
});

export const presetList = defineEndpoint({
  method: 'GET',
  path: '/v1/presets',
  summary:
    "Built-in presets and the presets of the acting host and its ancestors; the built-in ones' texts in `lang` (else the user's language)",
  query: z.object({ lang: z.enum(PRESET_LANGUAGES).optional() }),
  response: envelope(z.object({ items: z.array(ZPreset) })),
});
export const presetCreate = defineEndpoint({
  method: 'POST',
  path: '/v1/presets',
  summary:
    "Create a preset of the acting host (from one of its scenarios' graph, or empty; at the platform: 403 brand_host_required)",
  body: ZPresetInput,
  response: envelope(ZPreset),
});
export const presetRemove = defineEndpoint({
  method: 'DELETE',
  path: '/v1/presets/:id',
  summary: 'Delete a preset of the acting host (built-in presets cannot be deleted)',
  response: envelope(z.object({ id: z.string() })),
});
export const presetUse = defineEndpoint({
  method: 'POST',
  path: '/v1/presets/:id/scenarios',
  summary:
    "Create a draft scenario from a preset, to adjust, in the acting host's time zone; a built-in preset's name, description and step label are written in `language` (else the user's language)",
  body: z.object({
    name: z.string().trim().min(1).max(SCENARIO_NAME_MAX).optional(),
    /** The console's language: a user may read it in another than their profile's. */
    language: z.enum(PRESET_LANGUAGES).optional(),
  }),
  response: one,
});

/** Development and test only (SCENARIO_CLOCK=manual): the engine's clock. */
export const ZScenarioClock = z.object({ now: z.string(), manual: z.boolean() });
export const clockGet = defineEndpoint({
  method: 'GET',
  path: '/v1/dev/scenario-clock',
  summary: 'The scenario engine clock (dev and test)',
  response: envelope(ZScenarioClock),
});
export const clockAdvance = defineEndpoint({
  method: 'POST',
  path: '/v1/dev/scenario-clock',
  summary:
    'Run engine ticks at the manual scenario clock as it stands, advance it by minutes or set it, then run ticks until nothing is due (dev and test; 404 unless SCENARIO_CLOCK=manual)',
  body: z.object({
    minutes: z
      .number()
      .int()
      .min(0)
      .max(5 * 366 * 24 * 60)
      .optional(),
    to: z.iso.datetime().optional(),
  }),
  response: envelope(ZScenarioClock.extend({ steps: z.number() })),
});
