import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZCampaignHold } from './campaign-hold.ts';
import { isAccountEmail } from './validation.ts';
import { CAMPAIGN_PRE_HEADER_MAX, CAMPAIGN_SUBJECT_MAX } from './campaign-limits.ts';
import { ZCampaignExperiment, ZExperimentInput } from './experiments.ts';

export { CAMPAIGN_HOLD_REASONS, ZCampaignHold, type TCampaignHold } from './campaign-hold.ts';

/**
 * Campaigns, the sending side (specification sections 1, 3, 4, 6 and 8; issue 13; DESIGN section 7).
 *
 * A campaign belongs to the host that made it (brand, hotel group or hotel); its audience is the
 * customers of its chosen segments within that host's reach (a hotel: its own customers; a group:
 * its hotels'; a brand: all), de-duplicated, minus the customers of the excluded segments. Only
 * active customers with an email that is not on the brand's suppression list (bounces, complaints:
 * issue 25) receive it; customers at the frequency cap are recorded as skipped.
 *
 * It is read whole by its host and the hosts above it; a hotel or hotel group also reads a campaign
 * of its brand (or group) that reached its guests, read-only and for those guests only (`scope`).
 *
 * States (section 4): draft -> scheduled -> pending (sending) -> sent | failed; draft or
 * scheduled -> cancelled. "Send now" schedules for the present moment. A campaign is sent when
 * sent + skipped + failed equals its audience. A sending (pending) campaign can be paused and
 * resumed by its host's users who may edit it (issue 24): paused, it stays pending and claims
 * nothing (`paused` says who and when); resumed, it goes on where it stopped, quiet hours applying.
 */

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'pending', 'sent', 'failed', 'cancelled'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * The statuses the campaign list shows on its badges, filters by and counts: the campaign's status,
 * but a sending (pending) campaign shows `paused` while paused (it waits for a person) and
 * `waiting` while quiet hours hold every delivery it has left (`hold.whole`: nothing is on its way).
 * A campaign partly held still sends, and stays `pending`.
 */
export const CAMPAIGN_LIST_STATUSES = [
  'draft',
  'scheduled',
  'pending',
  'waiting',
  'paused',
  'sent',
  'failed',
  'cancelled',
] as const;
export type TCampaignListStatus = (typeof CAMPAIGN_LIST_STATUSES)[number];

/** The list status of a campaign (see CAMPAIGN_LIST_STATUSES); the server filters by the same rule in SQL. */
export function listStatusOf(campaign: {
  status: TCampaignStatus;
  paused: unknown;
  hold: { whole: boolean } | null | undefined;
}): TCampaignListStatus {
  if (campaign.status !== 'pending') return campaign.status;
  if (campaign.paused) return 'paused';
  return campaign.hold?.whole === true ? 'waiting' : 'pending';
}

/** States in which the campaign's fields may still be edited. */
export const EDITABLE_STATUSES = ['draft', 'scheduled'] as const satisfies readonly TCampaignStatus[];

/** A delivery: one customer of one campaign. `sending` is in flight (claimed, SMTP not answered). */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'deferred', 'skipped', 'failed'] as const;
export type TDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why a delivery was skipped (counted apart in the statistics). */
/** `cancelled`: the campaign was cancelled while paused before this delivery was handed to the relay. */
export const SKIP_REASONS = ['frequency_cap', 'unsubscribed', 'no_email', 'bounced', 'inactive', 'cancelled'] as const;
/**
 * A held-out guest (issue 26, experiments): the delivery is stored as `skipped` with this reason,
 * never mailed, and counted apart as `heldOut` (never in `skipped` nor in the rates).
 */
export const HOLDOUT_SKIP_REASON = 'holdout';
export type TSkipReason = (typeof SKIP_REASONS)[number];

export const CAMPAIGN_NAME_MAX = 100;
export { CAMPAIGN_SUBJECT_MAX, CAMPAIGN_PRE_HEADER_MAX } from './campaign-limits.ts';
export const CAMPAIGN_MAX_SEGMENTS = 20;
export const CAMPAIGN_TEST_SEND_MAX = 5;

export const SCHEDULE_KINDS = ['now', 'at'] as const;

/** An IANA time zone name the runtime knows (Asia/Tokyo, UTC, ...). */
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

/**
 * When to send: now, or a wall-clock date-time (`YYYY-MM-DDTHH:mm`, no offset) in `timeZone`.
 * The server turns it into an instant; the answer carries both.
 */
export const ZSchedule = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('now') }),
  z.object({
    kind: z.literal('at'),
    localTime: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, { message: 'invalid_date' }),
    timeZone: ZTimeZone,
  }),
]);
export type TSchedule = z.infer<typeof ZSchedule>;

export const ZRecipients = z.object({
  segmentIds: z.array(z.uuid()).max(CAMPAIGN_MAX_SEGMENTS).default([]),
  excludeSegmentIds: z.array(z.uuid()).max(CAMPAIGN_MAX_SEGMENTS).default([]),
});
export type TRecipients = z.infer<typeof ZRecipients>;

const ZPerson = z.object({ id: z.string(), name: z.string() }).nullable();

/** Exact counts of the send (from the deliveries), and the tracking statistics when TRACK fills them. */
export const ZCampaignStatistics = z.object({
  /** Recipients snapshotted when the send started; null before. */
  audience: z.number().nullable(),
  queued: z.number(),
  /** In flight: claimed by a worker, most of them in an SMTP conversation. */
  sending: z.number(),
  /**
   * Of `sending`, those claimed but not yet handed to the relay (a batch a worker holds for a
   * moment): a pause puts them back in the queue, a cancel skips them with the queued and deferred.
   */
  claimed: z.number(),
  sent: z.number(),
  deferred: z.number(),
  skipped: z.number(),
  /** Guests held back by the campaign's holdout (issue 26): never mailed, not in `skipped`. */
  heldOut: z.number(),
  failed: z.number(),
  /**
   * Mails handed to the relay a second time because the first answer was lost (a worker crash or a
   * timeout while in SMTP): these guests may have received it twice. Counted within `sent`, once.
   */
  repeats: z.number(),
  /** Opens, clicks, conversions: written by the tracking module's rollups; null until it does. */
  opened: z.number().nullable(),
  clicked: z.number().nullable(),
  conversions: z.number().nullable(),
  openRate: z.number().nullable(),
  clickRate: z.number().nullable(),
});
export type TCampaignStatistics = z.infer<typeof ZCampaignStatistics>;

/**
 * What the figures of a campaign cover for the acting host. `campaign`: the whole campaign (the
 * acting host's own campaigns and those of the hosts below it). `own_guests`: a campaign of a host
 * above (the brand's, the hotel group's) that reached the acting hotel's or group's guests, shown
 * read-only with the counts, statistics and recipients of those guests only.
 */
export const CAMPAIGN_SCOPES = ['campaign', 'own_guests'] as const;
export type TCampaignScope = (typeof CAMPAIGN_SCOPES)[number];

/** A host's quiet hours: wall-clock start and end in its time zone. */
const ZQuietHours = z.object({ start: z.string(), end: z.string(), timeZone: z.string() });

export const ZCampaign = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  preHeader: z.string(),
  /** The sender address, one of the campaign email settings' (null in a draft without one). */
  senderEmail: z.string().nullable(),
  recipients: z.object({ segmentIds: z.array(z.string()), excludeSegmentIds: z.array(z.string()) }),
  templateId: z.string().nullable(),
  templateName: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  /** When it goes out: the schedule of a scheduled campaign; a draft's only as planned (see `plannedSchedule`). */
  schedule: z
    .object({
      kind: z.enum(SCHEDULE_KINDS),
      localTime: z.string().nullable(),
      timeZone: z.string().nullable(),
    })
    .nullable(),
  /** The instant the send is due (ISO), when scheduled; null for a draft, whose `schedule` is only planned. */
  sendAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Why a scheduled campaign waits or a send failed (an error code of the catalogue). */
  problem: z.string().nullable(),
  /** A sending campaign held back, and why (null when nothing is held). */
  hold: ZCampaignHold.nullable(),
  /**
   * A scheduled campaign due inside its host's quiet hours: those hours and when it goes out
   * instead (their end, ISO). Null when not scheduled or not due in them. Worked out by the server
   * for every reader, as the send will apply it.
   */
  scheduledHold: z.object({ quietHours: ZQuietHours, until: z.string() }).nullable(),
  /** What its figures cover for the acting host (see CAMPAIGN_SCOPES). */
  scope: z.enum(CAMPAIGN_SCOPES),
  /** A sending campaign paused by a user: "Paused by <name> at <time>" (null when not paused). */
  paused: z
    .object({
      at: z.string(),
      by: ZPerson,
      /**
       * Set when the campaign paused itself (issue 25, protection; `by` is null): the rate that
       * crossed the brand's threshold, as a fraction of the mails handed to the relay (hard
       * bounces) or of delivered (complaints).
       */
      reason: z
        .object({ kind: z.enum(['hard_bounce', 'complaint']), rate: z.number() })
        .nullable()
        .optional(),
    })
    .nullable(),
  statistics: ZCampaignStatistics,
  /** The A/B test and holdout of the campaign (issue 26; see experiments.ts). */
  experiment: ZCampaignExperiment,
  hostId: z.string(),
  hostName: z.string(),
  hostLevel: z.enum(['brand', 'hotel_group', 'hotel']),
  /** The owning host's time zone: the campaign's statistics are shown in it. */
  timeZone: z.string(),
  /** True when the acting context owns the campaign and may change it. */
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: ZPerson,
  updatedBy: ZPerson,
});
export type TCampaign = z.infer<typeof ZCampaign>;

export const CAMPAIGN_SORTS = [
  'name',
  '-name',
  'created_at',
  '-created_at',
  'send_at',
  '-send_at',
  'status',
  '-status',
] as const;

export const ZCampaignListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  /** As the list's badges say it (CAMPAIGN_LIST_STATUSES): `pending` leaves out the paused and the waiting. */
  status: z.enum(CAMPAIGN_LIST_STATUSES).optional(),
  sort: z.enum(CAMPAIGN_SORTS).default('-created_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TCampaignListQuery = z.infer<typeof ZCampaignListQuery>;

/** Headline statistics of the list: campaigns by list status (as the filter finds them) and sums of the sends in reach. */
export const ZCampaignHeadline = z.object({
  byStatus: z.record(z.enum(CAMPAIGN_LIST_STATUSES), z.number()),
  sent: z.number(),
  failed: z.number(),
  skipped: z.number(),
});

export const ZCampaignPage = z.object({
  items: z.array(ZCampaign),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  headline: ZCampaignHeadline,
});

/** Create: everything but the name may stay empty in a draft; scheduling checks the rest. */
export const ZCampaignInput = z.object({
  name: z.string().trim().min(1).max(CAMPAIGN_NAME_MAX),
  subject: z.string().trim().max(CAMPAIGN_SUBJECT_MAX).default(''),
  preHeader: z.string().trim().max(CAMPAIGN_PRE_HEADER_MAX).default(''),
  senderEmail: z.string().trim().max(254).nullable().default(null),
  recipients: ZRecipients.default({ segmentIds: [], excludeSegmentIds: [] }),
  templateId: z.uuid().nullable().default(null),
  schedule: ZSchedule.nullable().default(null),
  /** The time the draft is meant to go out, kept as typed without scheduling it (see ZCampaignUpdate). */
  plannedSchedule: ZSchedule.nullable().default(null),
  /** The A/B test and holdout (issue 26); left out: none. */
  experiment: ZExperimentInput.default(() => ZExperimentInput.parse({})),
});
export type TCampaignInput = z.input<typeof ZCampaignInput>;
export type TCampaignValues = z.output<typeof ZCampaignInput>;

/** Update: only the fields given change (no defaults, unlike create). */
export const ZCampaignUpdate = z.object({
  name: z.string().trim().min(1).max(CAMPAIGN_NAME_MAX).optional(),
  subject: z.string().trim().max(CAMPAIGN_SUBJECT_MAX).optional(),
  preHeader: z.string().trim().max(CAMPAIGN_PRE_HEADER_MAX).optional(),
  senderEmail: z.string().trim().max(254).nullable().optional(),
  recipients: z
    .object({
      segmentIds: z.array(z.uuid()).max(CAMPAIGN_MAX_SEGMENTS),
      excludeSegmentIds: z.array(z.uuid()).max(CAMPAIGN_MAX_SEGMENTS).default([]),
    })
    .optional(),
  templateId: z.uuid().nullable().optional(),
  schedule: ZSchedule.nullable().optional(),
  /**
   * A draft's planned schedule: the time the user typed, kept with the draft (`schedule`) so the
   * editor opens it again, while the campaign stays a draft that is never sent (no `sendAt`) until
   * it is scheduled. Its time may have passed. A scheduled campaign's time changes only by
   * scheduling it again: given for one, 409 campaign_not_draft.
   */
  plannedSchedule: ZSchedule.nullable().optional(),
  /** The A/B test and holdout, whole (issue 26); 409 experiment_locked once the send started. */
  experiment: ZExperimentInput.optional(),
  /**
   * The campaign's `updatedAt` as the editor last saw it: a campaign changed since (in another tab)
   * is refused with 409 campaign_stale rather than overwritten. Left out, the change is made as is.
   */
  updatedAt: z.string().datetime({ offset: true }).optional(),
});
export type TCampaignUpdate = z.output<typeof ZCampaignUpdate>;

/** The de-duplicated audience of a set of recipients, as counts (before the send). */
export const ZAudiencePreview = z.object({
  /** Distinct customers of the chosen segments, minus the excluded, in the campaign's reach. */
  matched: z.number(),
  unsubscribed: z.number(),
  noEmail: z.number(),
  /** Addresses on the brand's suppression list (hard bounces, repeated soft bounces: issue 25). */
  bounced: z.number(),
  /** Held by the frequency cap (at the cap now). */
  frequencyCapped: z.number(),
  /** matched minus all of the above: who would receive it now (less `heldOut`, when asked with a holdout). */
  recipients: z.number(),
  /**
   * Asked with a holdout: the mailable guests it holds out (the same hash of the campaign and the
   * guest as the send's snapshot, before the frequency cap), never mailed.
   */
  heldOut: z.number().optional(),
});
export type TAudiencePreview = z.infer<typeof ZAudiencePreview>;

/** The audience preview's question: the recipients, and for a saved campaign with a holdout, its id and share. */
export const ZAudienceQuestion = ZRecipients.extend({
  holdout: z.object({ campaignId: z.uuid(), percent: z.number().int().min(1).max(20) }).optional(),
});
export type TAudienceQuestion = z.infer<typeof ZAudienceQuestion>;

export const ZQuietHoursCheck = z.object({
  /** The instant the campaign would be sent. */
  sendAt: z.string(),
  inQuietHours: z.boolean(),
  quietHours: ZQuietHours,
  /** When sends due in quiet hours go out (the end of the quiet hours), ISO; null when not in them. */
  deferredTo: z.string().nullable(),
});
export type TQuietHoursCheck = z.infer<typeof ZQuietHoursCheck>;

export const ZCampaignTestSend = z.object({
  emails: z
    .array(z.string().trim().max(254).refine(isAccountEmail, { message: 'invalid_email' }))
    .min(1)
    .max(CAMPAIGN_TEST_SEND_MAX),
  language: z.enum(['ja', 'en']).optional(),
});

/** A delivery row for the recipient list. */
export const ZDelivery = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  email: z.string().nullable(),
  hotelId: z.string().nullable(),
  status: z.enum(DELIVERY_STATUSES),
  skipReason: z.string().nullable(),
  attempts: z.number(),
  sentAt: z.string().nullable(),
  /** An error code of the catalogue, or the relay's reply as received, any address but `email` hidden. */
  error: z.string().nullable(),
});
export type TDelivery = z.infer<typeof ZDelivery>;
export const ZDeliveryQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});

const byId = '/v1/campaigns/:id';
const one = envelope(ZCampaign);

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/campaigns',
  summary: 'Campaigns in reach, filtered by status, searched, sorted, paged, with headline statistics',
  query: ZCampaignListQuery,
  response: envelope(ZCampaignPage),
});
export const create = defineEndpoint({
  method: 'POST',
  path: '/v1/campaigns',
  summary:
    'Create a draft campaign owned by the acting host (at the platform, which owns no brand data: 403 brand_host_required)',
  body: ZCampaignInput,
  response: one,
});
export const get = defineEndpoint({
  method: 'GET',
  path: byId,
  summary: 'One campaign with its exact send counts',
  response: one,
});
export const update = defineEndpoint({
  method: 'PUT',
  path: byId,
  summary:
    'Change a draft or scheduled campaign (409 campaign_not_editable otherwise; 409 campaign_stale when updatedAt names an older version than the stored one; 409 campaign_not_draft for a planned schedule on a campaign that is not a draft)',
  body: ZCampaignUpdate,
  response: one,
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: byId,
  summary: 'Delete a campaign that is not sending (409 campaign_sending while pending)',
  response: envelope(z.object({ id: z.string() })),
});
export const schedule = defineEndpoint({
  method: 'POST',
  path: `${byId}/schedule`,
  summary:
    'Schedule or reschedule (checks sender settings 422, time in the past 400, empty audience 422, deleted segment or template 409)',
  body: z.object({ schedule: ZSchedule }),
  response: one,
});
export const sendNow = defineEndpoint({
  method: 'POST',
  path: `${byId}/send-now`,
  summary: 'Schedule for now (same checks as schedule)',
  body: z.object({}).optional(),
  response: one,
});
export const saveDraft = defineEndpoint({
  method: 'POST',
  path: `${byId}/draft`,
  summary: 'Take a scheduled campaign back to draft (its time kept as planned, no longer due)',
  body: z.object({}).optional(),
  response: one,
});
export const cancel = defineEndpoint({
  method: 'POST',
  path: `${byId}/cancel`,
  summary:
    'Cancel a draft or scheduled campaign, or a paused one (issue 25): its deliveries not yet handed to the relay become skipped (reason cancelled), those in flight finish and count; 409 campaign_not_cancellable otherwise',
  body: z.object({}).optional(),
  response: one,
});
export const pause = defineEndpoint({
  method: 'POST',
  path: `${byId}/pause`,
  summary: 'Pause a sending campaign: it claims nothing until resumed (409 campaign_not_sending unless sending)',
  body: z.object({}).optional(),
  response: one,
});
export const resume = defineEndpoint({
  method: 'POST',
  path: `${byId}/resume`,
  summary: 'Resume a paused campaign where it stopped (409 campaign_not_paused unless paused)',
  body: z.object({}).optional(),
  response: one,
});
export const duplicate = defineEndpoint({
  method: 'POST',
  path: `${byId}/duplicate`,
  summary:
    'Copy a campaign into a new draft of the acting host; the name defaults to "<name> (copy)" in `language` (else the user\'s language): "<name>（コピー）" in Japanese',
  body: z.object({
    name: z.string().trim().min(1).max(CAMPAIGN_NAME_MAX).optional(),
    /** The console's language: a user may read it in another than their profile's. */
    language: z.enum(['ja', 'en']).optional(),
  }),
  response: one,
});
export const audience = defineEndpoint({
  method: 'POST',
  path: '/v1/campaigns/audience',
  summary:
    'Audience preview of a recipients choice: de-duplicated, minus unsubscribed, without email, bounced and frequency-capped (and with `holdout`, minus those the saved campaign holds out: `heldOut`)',
  body: ZAudienceQuestion,
  response: envelope(ZAudiencePreview),
});
export const quietHours = defineEndpoint({
  method: 'POST',
  path: '/v1/campaigns/quiet-hours',
  summary: "Whether a schedule falls in the acting host's quiet hours",
  body: z.object({ schedule: ZSchedule }),
  response: envelope(ZQuietHoursCheck),
});
export const testSend = defineEndpoint({
  method: 'POST',
  path: `${byId}/test-send`,
  summary: 'Send the campaign to up to 5 addresses (subject marked as a test; no delivery is recorded)',
  body: ZCampaignTestSend,
  response: envelope(z.object({ sent: z.number() })),
});
export const deliveries = defineEndpoint({
  method: 'GET',
  path: `${byId}/deliveries`,
  summary: "The campaign's recipients, each delivery's status",
  query: ZDeliveryQuery,
  response: envelope(
    z.object({ items: z.array(ZDelivery), total: z.number(), page: z.number(), pageSize: z.number() }),
  ),
});
