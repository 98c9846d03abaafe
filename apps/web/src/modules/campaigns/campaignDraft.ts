import {
  CAMPAIGN_NAME_MAX,
  CAMPAIGN_PRE_HEADER_MAX,
  CAMPAIGN_SUBJECT_MAX,
  type TCampaign,
  type TCampaignInput,
  type TSchedule,
} from '@yado/contracts/campaigns';
import {
  EXPERIMENT_TEST_PERCENT,
  EXPERIMENT_WAIT_HOURS,
  HOLDOUT_PERCENT,
  VARIANT_SENDER_NAME_MAX,
  type TExperimentMetric,
} from '@yado/contracts/experiments';
import { wallClockToInstant } from './zonedTime';

/** The steps of the campaign editor, in order (issue 13). */
export const CAMPAIGN_STEPS = ['details', 'recipients', 'content', 'schedule', 'review'] as const;
export type TCampaignStep = (typeof CAMPAIGN_STEPS)[number];

/** The editor's working copy: what the user has typed, not yet what the server holds. */
export interface TCampaignDraft {
  name: string;
  subject: string;
  preHeader: string;
  senderEmail: string | null;
  segmentIds: string[];
  excludeSegmentIds: string[];
  templateId: string | null;
  scheduleKind: 'now' | 'at';
  date: string;
  time: string;
  timeZone: string;
  /** The A/B test and the holdout (issue 26), saved with the campaign. */
  experiment: TExperimentDraft;
}

/** One alternative to the control (B, C, D) as typed: '' and null mean "same as A". */
export interface TVariantDraft {
  subject: string;
  preHeader: string;
  senderName: string;
  templateId: string | null;
}

export interface TExperimentDraft {
  /** B..D; none: no A/B test. */
  variants: TVariantDraft[];
  testPercent: number;
  waitHours: number;
  metric: TExperimentMetric;
  /** null: no holdout. */
  holdoutPercent: number | null;
}

export const noExperiment = (): TExperimentDraft => ({
  variants: [],
  testPercent: EXPERIMENT_TEST_PERCENT.default,
  waitHours: EXPERIMENT_WAIT_HOURS.default,
  metric: 'clicks',
  holdoutPercent: null,
});

/** A field's problem: a catalogue key and its values. */
export interface TProblem {
  key: string;
  values?: Record<string, unknown>;
}
export type TProblems = Partial<Record<keyof TCampaignDraft, TProblem>>;

export function emptyDraft(timeZone: string, senderEmail: string | null): TCampaignDraft {
  return {
    name: '',
    subject: '',
    preHeader: '',
    senderEmail,
    segmentIds: [],
    excludeSegmentIds: [],
    templateId: null,
    scheduleKind: 'now',
    date: '',
    time: '',
    timeZone,
    experiment: noExperiment(),
  };
}

/** The draft of a stored campaign; a campaign never scheduled offers the host's zone. */
export function draftFromCampaign(campaign: TCampaign, timeZone: string, senderEmail: string | null): TCampaignDraft {
  const at = campaign.schedule?.kind === 'at' && campaign.schedule.localTime ? campaign.schedule.localTime : null;
  return {
    name: campaign.name,
    subject: campaign.subject,
    preHeader: campaign.preHeader,
    senderEmail: campaign.senderEmail ?? senderEmail,
    segmentIds: campaign.recipients.segmentIds,
    excludeSegmentIds: campaign.recipients.excludeSegmentIds,
    templateId: campaign.templateId,
    scheduleKind: at ? 'at' : 'now',
    date: at ? at.slice(0, 10) : '',
    time: at ? at.slice(11, 16) : '',
    timeZone: campaign.schedule?.timeZone ?? timeZone,
    experiment: {
      variants: campaign.experiment.variants.map((v) => ({
        subject: v.subject,
        preHeader: v.preHeader,
        senderName: v.senderName ?? '',
        templateId: v.templateId,
      })),
      testPercent: campaign.experiment.testPercent,
      waitHours: campaign.experiment.waitHours,
      metric: campaign.experiment.metric,
      holdoutPercent: campaign.experiment.holdoutPercent,
    },
  };
}

const tooLong = (max: number): TProblem => ({ key: 'campaign.details.too_long', values: { max } });

/**
 * What keeps a step from being complete. `now` is when the check runs (the schedule must lie
 * after it). Saving a draft needs only a name; sending needs every step.
 */
export function stepProblems(draft: TCampaignDraft, step: TCampaignStep, now: number): TProblems {
  const problems: TProblems = {};
  if (step === 'details') {
    if (!draft.name.trim()) problems.name = { key: 'validation.required' };
    else if (draft.name.trim().length > CAMPAIGN_NAME_MAX) problems.name = tooLong(CAMPAIGN_NAME_MAX);
    if (!draft.subject.trim()) problems.subject = { key: 'validation.required' };
    else if (draft.subject.trim().length > CAMPAIGN_SUBJECT_MAX) problems.subject = tooLong(CAMPAIGN_SUBJECT_MAX);
    if (draft.preHeader.trim().length > CAMPAIGN_PRE_HEADER_MAX) problems.preHeader = tooLong(CAMPAIGN_PRE_HEADER_MAX);
    if (!draft.senderEmail) problems.senderEmail = { key: 'campaign.details.settings_missing' };
  }
  if (step === 'recipients') {
    if (draft.segmentIds.length === 0) problems.segmentIds = { key: 'campaign.recipients.none_chosen' };
    if (draft.excludeSegmentIds.some((id) => draft.segmentIds.includes(id))) {
      problems.excludeSegmentIds = { key: 'campaign.recipients.both' };
    }
  }
  if (step === 'content' && !draft.templateId) problems.templateId = { key: 'campaign.content.none_chosen' };
  if (step === 'content' && variantProblems(draft.experiment).some((p) => Object.keys(p).length > 0)) {
    problems.experiment = { key: 'experiments.editor.variants_incomplete' };
  }
  if (step === 'schedule' && draft.scheduleKind === 'at') {
    const instant = wallClockToInstant({ date: draft.date, time: draft.time }, draft.timeZone);
    if (!instant) problems.date = { key: 'campaign.schedule.invalid' };
    else if (Date.parse(instant) <= now) problems.date = { key: 'campaign.schedule.in_past' };
  }
  if (step === 'review') {
    for (const earlier of CAMPAIGN_STEPS.slice(0, -1)) Object.assign(problems, stepProblems(draft, earlier, now));
  }
  return problems;
}

/** Each alternative's problems (its subject is required; lengths as the server keeps them). */
export function variantProblems(experiment: TExperimentDraft): Partial<Record<keyof TVariantDraft, TProblem>>[] {
  return experiment.variants.map((variant) => {
    const problems: Partial<Record<keyof TVariantDraft, TProblem>> = {};
    if (!variant.subject.trim()) problems.subject = { key: 'validation.required' };
    else if (variant.subject.trim().length > CAMPAIGN_SUBJECT_MAX) problems.subject = tooLong(CAMPAIGN_SUBJECT_MAX);
    if (variant.preHeader.trim().length > CAMPAIGN_PRE_HEADER_MAX)
      problems.preHeader = tooLong(CAMPAIGN_PRE_HEADER_MAX);
    if (variant.senderName.trim().length > VARIANT_SENDER_NAME_MAX)
      problems.senderName = tooLong(VARIANT_SENDER_NAME_MAX);
    return problems;
  });
}

export function isStepComplete(draft: TCampaignDraft, step: TCampaignStep, now: number): boolean {
  return Object.keys(stepProblems(draft, step, now)).length === 0;
}

/** The first step that still needs something, or null when the campaign can be sent. */
export function firstIncompleteStep(draft: TCampaignDraft, now: number): TCampaignStep | null {
  return CAMPAIGN_STEPS.slice(0, -1).find((step) => !isStepComplete(draft, step, now)) ?? null;
}

/** What the editor saves: every field, for create and update alike. */
export interface TCampaignSave extends Required<Omit<TCampaignInput, 'schedule' | 'plannedSchedule' | 'recipients'>> {
  recipients: { segmentIds: string[]; excludeSegmentIds: string[] };
  /** A draft's planned schedule; left out, the stored one stays (see inputOf). */
  plannedSchedule?: TSchedule;
}

/** The schedule the draft asks for. */
export function scheduleOf(draft: TCampaignDraft): TSchedule {
  return draft.scheduleKind === 'now'
    ? { kind: 'now' }
    : { kind: 'at', localTime: `${draft.date}T${draft.time}`, timeZone: draft.timeZone };
}

/**
 * The schedule a draft keeps as planned: now, or a date and time once they are one (a time half
 * typed is not saved; the one saved before stays). A time passed is kept: the draft is never sent by it.
 */
export function plannedScheduleOf(draft: TCampaignDraft): TSchedule | undefined {
  if (draft.scheduleKind === 'at' && !wallClockToInstant({ date: draft.date, time: draft.time }, draft.timeZone))
    return undefined;
  return scheduleOf(draft);
}

/**
 * What is saved (create or update). The schedule is set by its own call (schedule, send now), so
 * saving keeps the campaign a draft until the user says when; a draft keeps the time typed as its
 * planned schedule (`draft`: the campaign is one). A scheduled campaign's time changes only when the
 * user schedules it again, so it is left out for one.
 */
export function inputOf(draft: TCampaignDraft, campaign: { draft: boolean }): TCampaignSave {
  const planned = campaign.draft ? plannedScheduleOf(draft) : undefined;
  return {
    ...(planned ? { plannedSchedule: planned } : {}),
    name: draft.name.trim(),
    subject: draft.subject.trim(),
    preHeader: draft.preHeader.trim(),
    senderEmail: draft.senderEmail,
    recipients: { segmentIds: draft.segmentIds, excludeSegmentIds: draft.excludeSegmentIds },
    templateId: draft.templateId,
    experiment: experimentInputOf(draft.experiment),
  };
}

/**
 * The experiment as saved. A variant whose subject is still blank is left out of an autosave (the
 * server needs a subject), and the content step keeps the campaign from being sent until it has one.
 */
export function experimentInputOf(experiment: TExperimentDraft): TCampaignSave['experiment'] {
  return {
    variants: experiment.variants
      .filter((v) => v.subject.trim() !== '')
      .map((v) => ({
        subject: v.subject.trim(),
        preHeader: v.preHeader.trim(),
        senderName: v.senderName.trim() || null,
        templateId: v.templateId,
      })),
    // A number half typed (the 1 of 15) is saved within the range; the field shows it so once left.
    testPercent: clamp(experiment.testPercent, EXPERIMENT_TEST_PERCENT),
    waitHours: clamp(experiment.waitHours, EXPERIMENT_WAIT_HOURS),
    metric: experiment.metric,
    holdoutPercent: experiment.holdoutPercent === null ? null : clamp(experiment.holdoutPercent, HOLDOUT_PERCENT),
  };
}

const clamp = (value: number, range: { min: number; max: number }) =>
  Math.min(range.max, Math.max(range.min, Math.round(value)));
