import { z } from 'zod';
import { CAMPAIGN_PRE_HEADER_MAX, CAMPAIGN_SUBJECT_MAX } from './campaign-limits.ts';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Experiments (issue 26): A/B tests of a campaign's subject, pre-header, sender name and template,
 * and holdout groups that measure what a campaign or a scenario really caused.
 *
 * A/B test: a share of the audience (testPercent) is split evenly among the variants (A, the
 * control = the campaign's own texts, and B..D); the rest waits. The wait (waitHours) runs from the
 * moment the send started (`decideAt` = startedAt + waitHours, set when the send starts). When it
 * ends the server compares the variants on the metric (unique clicks, attributed bookings or unique
 * human opens, per mail sent) with a two-proportion test at 95 % (Bonferroni for 3 or 4 variants),
 * at least 500 sends per variant: the winner goes to the rest; otherwise the control A does and the
 * test is reported inconclusive. A marketer may pick the winner by hand while the test waits.
 *
 * Holdout: a share of the audience (holdoutPercent) is chosen at random, stored (deliveries skipped
 * with reason 'holdout', counted as `heldOut`, never as skipped) and never mailed; the report
 * compares bookings and revenue per guest of the mailed guests and of the holdout.
 *
 * Each guest's arm and variant follow from a hash of the campaign id and the guest id, computed
 * when the audience is snapshotted and stored on the delivery: a crash or a resume never changes it.
 */

export const EXPERIMENT_METRICS = ['clicks', 'bookings', 'opens'] as const;
export type TExperimentMetric = (typeof EXPERIMENT_METRICS)[number];
/** A is the control: the campaign's own subject, pre-header, sender name and template. */
export const VARIANT_KEYS = ['A', 'B', 'C', 'D'] as const;
export type TVariantKey = (typeof VARIANT_KEYS)[number];
export const ALTERNATIVE_KEYS = ['B', 'C', 'D'] as const;

export const EXPERIMENT_PHASES = ['none', 'testing', 'waiting', 'decided'] as const;
export type TExperimentPhase = (typeof EXPERIMENT_PHASES)[number];
export const WINNER_HOWS = ['significant', 'inconclusive', 'manual'] as const;
export type TWinnerHow = (typeof WINNER_HOWS)[number];
/** Where a delivery stands in the experiment: in the test, the rest (waits for the winner), held out. */
export const DELIVERY_ARMS = ['test', 'rest', 'holdout'] as const;
export type TDeliveryArm = (typeof DELIVERY_ARMS)[number];

export const EXPERIMENT_TEST_PERCENT = { min: 10, max: 50, default: 20 } as const;
export const EXPERIMENT_WAIT_HOURS = { min: 1, max: 72, default: 4 } as const;
export const HOLDOUT_PERCENT = { min: 1, max: 20, default: 10 } as const;
export const EXPERIMENT_MAX_ALTERNATIVES = 3;
export const VARIANT_SENDER_NAME_MAX = 100;

/** One alternative to the control (B, C or D): what differs. Nulls mean "same as the control". */
export const ZVariantInput = z.object({
  subject: z.string().trim().min(1).max(CAMPAIGN_SUBJECT_MAX),
  preHeader: z.string().trim().max(CAMPAIGN_PRE_HEADER_MAX).default(''),
  senderName: z.string().trim().min(1).max(VARIANT_SENDER_NAME_MAX).nullable().default(null),
  templateId: z.uuid().nullable().default(null),
});
export type TVariantInput = z.input<typeof ZVariantInput>;

export const ZHoldoutPercent = z.number().int().min(HOLDOUT_PERCENT.min).max(HOLDOUT_PERCENT.max).nullable();

/**
 * The experiment settings of a campaign, written with it (POST/PATCH /v1/campaigns[/:id] field
 * `experiment`), editable while draft or scheduled (409 experiment_locked after the send started).
 * `variants: []` is no A/B test; 1..3 alternatives make 2..4 variants with A.
 */
export const ZExperimentInput = z.object({
  variants: z.array(ZVariantInput).max(EXPERIMENT_MAX_ALTERNATIVES).default([]),
  testPercent: z
    .number()
    .int()
    .min(EXPERIMENT_TEST_PERCENT.min)
    .max(EXPERIMENT_TEST_PERCENT.max)
    .default(EXPERIMENT_TEST_PERCENT.default),
  waitHours: z
    .number()
    .int()
    .min(EXPERIMENT_WAIT_HOURS.min)
    .max(EXPERIMENT_WAIT_HOURS.max)
    .default(EXPERIMENT_WAIT_HOURS.default),
  /** 'opens' counts human unique opens only (machine opens apart), shown with a warning. */
  metric: z.enum(EXPERIMENT_METRICS).default('clicks'),
  /** null: no holdout (the console's switch defaults to 10 when turned on). */
  holdoutPercent: ZHoldoutPercent.default(null),
});
export type TExperimentInput = z.input<typeof ZExperimentInput>;
export type TExperimentValues = z.output<typeof ZExperimentInput>;

const ZPerson = z.object({ id: z.string(), name: z.string() });

export const ZCampaignVariant = z.object({
  key: z.enum(ALTERNATIVE_KEYS),
  subject: z.string(),
  preHeader: z.string(),
  senderName: z.string().nullable(),
  templateId: z.string().nullable(),
  templateName: z.string().nullable(),
});
export type TCampaignVariant = z.infer<typeof ZCampaignVariant>;

export const ZExperimentWinner = z.object({
  key: z.enum(VARIANT_KEYS),
  how: z.enum(WINNER_HOWS),
  decidedAt: z.string(),
  by: ZPerson.nullable(),
});
export type TExperimentWinner = z.infer<typeof ZExperimentWinner>;

/**
 * On ZCampaign: `experiment`. phase: none (no A/B test, holdout only or nothing), testing (the test
 * share is being sent), waiting (sent, the wait runs), decided (the winner goes or went to the rest).
 * A campaign with variants that has not started is 'none' too, with `decideAt` null.
 */
export const ZCampaignExperiment = z.object({
  variants: z.array(ZCampaignVariant),
  testPercent: z.number(),
  waitHours: z.number(),
  metric: z.enum(EXPERIMENT_METRICS),
  holdoutPercent: z.number().nullable(),
  phase: z.enum(EXPERIMENT_PHASES),
  /** When the wait ends (ISO): startedAt + waitHours, set when the send starts. */
  decideAt: z.string().nullable(),
  winner: ZExperimentWinner.nullable(),
});
export type TCampaignExperiment = z.infer<typeof ZCampaignExperiment>;

/** A 95 % interval: Wilson for a rate, normal (Welch) for a difference. */
export const ZInterval = z.object({ value: z.number(), low: z.number(), high: z.number() });
export type TInterval = z.infer<typeof ZInterval>;
/** A rate with its 95 % Wilson interval; null with 0 sends. */
export const ZRate = ZInterval.nullable();
export type TRate = z.infer<typeof ZRate>;

export const ZVariantReport = z.object({
  key: z.enum(VARIANT_KEYS),
  subject: z.string(),
  /** Mails handed to the relay (sent). */
  sends: z.number(),
  /** Unique human opens (machine opens, Apple MPP and the like, are left out). */
  humanOpens: z.number(),
  /** Unique clicks. */
  clicks: z.number(),
  /** Attributed bookings, and their revenue (yen). */
  bookings: z.number(),
  revenue: z.number(),
  openRate: ZRate,
  clickRate: ZRate,
  bookingRate: ZRate,
});
export type TVariantReport = z.infer<typeof ZVariantReport>;

export const ZExperimentDecision = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('winner'),
      key: z.enum(VARIANT_KEYS),
      metric: z.enum(EXPERIMENT_METRICS),
      /** The largest p-value of the winner against the others (each tested at 0.05 / (k - 1)). */
      pValue: z.number(),
      /** Relative lift of the winner's rate over the control's (0.25 = +25 %); null when A won or A's rate is 0. */
      lift: z.number().nullable(),
    }),
    z.object({
      kind: z.literal('inconclusive'),
      reason: z.enum(['too_few', 'not_significant']),
      key: z.literal('A'),
    }),
    z.object({ kind: z.literal('manual'), key: z.enum(VARIANT_KEYS), by: ZPerson.nullable() }),
  ])
  .nullable();
export type TExperimentDecision = z.infer<typeof ZExperimentDecision>;

export const ZHoldoutGroup = z.object({
  guests: z.number(),
  bookings: z.number(),
  revenue: z.number(),
  bookingsPerGuest: z.number(),
  revenuePerGuest: z.number(),
});
export type THoldoutGroup = z.infer<typeof ZHoldoutGroup>;

export const HOLDOUT_WINDOWS = ['attribution', 'days_30'] as const;

export const ZHoldoutWindow = z.object({
  /** attribution: the brand's attribution window after each guest's mail (or hold-out); days_30: 30 days. */
  window: z.enum(HOLDOUT_WINDOWS),
  days: z.number(),
  mailed: ZHoldoutGroup,
  holdout: ZHoldoutGroup,
  result: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('measured'),
      /** Over the mailed guests: (per guest mailed - per guest held out) x mailed guests, with the 95 % interval. */
      incrementalBookings: ZInterval,
      incrementalRevenue: ZInterval,
      /** The interval of incremental bookings excludes 0. */
      significant: z.boolean(),
    }),
    /** Fewer than 100 guests in the holdout (or the mailed group): nothing can be said yet. */
    z.object({ kind: z.literal('too_small'), holdout: z.number() }),
  ]),
});
export type THoldoutWindow = z.infer<typeof ZHoldoutWindow>;

export const ZHoldoutReport = z.object({ percent: z.number(), windows: z.array(ZHoldoutWindow) }).nullable();
export type THoldoutReport = z.infer<typeof ZHoldoutReport>;

export const ZExperimentReport = z.object({
  phase: z.enum(EXPERIMENT_PHASES),
  decideAt: z.string().nullable(),
  metric: z.enum(EXPERIMENT_METRICS),
  testPercent: z.number(),
  waitHours: z.number(),
  /** The variants of the test (A first), counted over the test deliveries only; [] without a test. */
  variants: z.array(ZVariantReport),
  decision: ZExperimentDecision,
  holdout: ZHoldoutReport,
});
export type TExperimentReport = z.infer<typeof ZExperimentReport>;

export const ZPickWinnerInput = z.object({ key: z.enum(VARIANT_KEYS) });
export type TPickWinnerInput = z.infer<typeof ZPickWinnerInput>;

/** The incremental revenue on the dashboard's attributed revenue (null when no holdout was measured). */
export const ZIncrementalRevenue = ZInterval.nullable();

/** The marketer picks the winner by hand while the test waits (same permission as pause; audited). */
export const pickWinner = defineEndpoint({
  method: 'POST',
  path: '/v1/campaigns/:id/experiment/winner',
  summary:
    'Pick the winner of the A/B test by hand while the test waits (409 experiment_not_waiting otherwise; 422 experiment_variant_unknown for a variant the campaign lacks); the rest is then sent the winner',
  body: ZPickWinnerInput,
  response: envelope(ZCampaignExperiment),
});

export const experimentReport = defineEndpoint({
  method: 'GET',
  path: '/v1/campaigns/:id/experiment',
  summary:
    'The A/B test and holdout report of a campaign: per variant sends, human opens, clicks, bookings, revenue with 95 % intervals, the decision, and the holdout comparison',
  response: envelope(ZExperimentReport),
});

export const scenarioHoldout = defineEndpoint({
  method: 'GET',
  path: '/v1/scenarios/:id/holdout',
  summary: "A scenario's holdout comparison (null without a holdout)",
  response: envelope(ZHoldoutReport),
});
