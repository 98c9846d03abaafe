import { z } from 'zod';
import { HOLDOUT_SKIP_REASON, SKIP_REASONS } from './campaigns.ts';
import { ZProtectionWarning } from './deliverability.ts';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Tracking, unsubscribe, conversions and campaign statistics (issue 13; DESIGN section 7).
 *
 * How SEND and TRACK meet (agreed here, read by both):
 * - SEND calls `trackingFor(rt, deliveryId, { mailto, language })` (server
 *   modules/tracking/links.ts) once per recipient while personalising: the open pixel, the click
 *   URL of each link (`planLinks(html, publicUrl)` once per compiled message, then
 *   `applyLinks(plan, tracking)` per recipient; or `rewriteLinks(rt, html, deliveryId)`), the
 *   one-click unsubscribe URL, the footer's page URL and the List-Unsubscribe headers (add them
 *   before DKIM signing so the signature covers them).
 * - SEND reports each delivery's outcome into the rollups with
 *   `recordDeliveryOutcomes(tx, outcomes)` (modules/tracking/rollups.ts), in the SAME transaction
 *   as its delivery status change, so a count can never drift from the deliveries: an outcome is
 *   `sent` (2xx: counts sent and delivered), `failed` (5xx or retries used up; `bounce: true` for a
 *   hard bounce, also counted as a bounce), `skipped` (unsubscribed or capped at send time).
 *   Each delivery is reported once per final outcome; a retried (4xx, deferred) attempt is not
 *   reported. SEND keeps its own audience count on `campaigns`; the campaign is sent when
 *   sent + skipped + failed equals it.
 * - Tracking totals of campaigns for a list (opened, clicked, conversions per campaign):
 *   `campaignTotalsOf(tx, campaignIds)` in modules/tracking/queries.ts, read from the rollups.
 * - TRACK writes opens, clicks, unsubscribes, conversions and bounces as events (append-only
 *   `tracking_events`) in batches and updates the same rollups as they arrive; statistics below
 *   read only the rollups (never raw events). The dashboard reads `host_daily_stats`.
 */

/** Kinds of the append-only event log. */
export const TRACKING_EVENT_KINDS = [
  'open',
  'machine_open',
  'click',
  'unsubscribe',
  'resubscribe',
  'conversion',
  'bounce',
] as const;
export type TTrackingEventKind = (typeof TRACKING_EVENT_KINDS)[number];

/** Where an unsubscribe came from: the mail client's one-click POST (RFC 8058) or the public page. */
export const UNSUBSCRIBE_SOURCES = ['one_click', 'page'] as const;
export type TUnsubscribeSource = (typeof UNSUBSCRIBE_SOURCES)[number];
/**
 * Where a guest's own consent change came from: their unsubscribe (one-click or page), or a
 * complaint their mailbox provider reported (ARF, issue 25), which unsubscribes them just the same.
 */
export const GUEST_CONSENT_SOURCES = [...UNSUBSCRIBE_SOURCES, 'complaint'] as const;
export type TGuestConsentSource = (typeof GUEST_CONSENT_SOURCES)[number];

/** Days after a click in which a synced booking counts as that campaign's conversion (per brand setting). */
export const DEFAULT_CONVERSION_WINDOW_DAYS = 7;
export const MAX_CONVERSION_WINDOW_DAYS = 90;

// ---- public (no login) ----

export const ZUnsubscribeQuery = z.object({
  token: z.string().min(1).max(4096),
  /** Set by the console's page; a mail client's one-click POST leaves it out. */
  source: z.enum(UNSUBSCRIBE_SOURCES).optional(),
});

/** What the public /unsubscribe page shows. */
export const ZUnsubscribePage = z.object({
  brandName: z.string(),
  /** The brand's logo (`/files/logos/...`), shown with its name instead of the product's; null when it has none. */
  brandLogoUrl: z.string().nullable(),
  /** The brand's (or hotel's) unsubscribed message in the guest's `language`; null when unset. */
  message: z.string().nullable(),
  /**
   * The unsubscribed message per language, for a page shown in another language than the guest's
   * (the link's `lang`, or the guest's choice). English is the Japanese one when no host sets an
   * English one; null when unset.
   */
  messages: z.object({ ja: z.string().nullable(), en: z.string().nullable() }),
  /** The guest's language (the customer's country, else the sender's default). */
  language: z.enum(['ja', 'en']),
  emailStatus: z.enum(['active', 'unsubscribed']),
  /** Whether the page may offer "undo": the guest's own unsubscribe (one-click or page). */
  canUndo: z.boolean(),
});
export type TUnsubscribePage = z.infer<typeof ZUnsubscribePage>;

export const publicUnsubscribe = defineEndpoint({
  method: 'POST',
  path: '/v1/public/unsubscribe',
  summary:
    'One-click unsubscribe (RFC 8058: the List-Unsubscribe URL, body List-Unsubscribe=One-Click) or the public page: unsubscribes the guest brand-wide at once; a replay changes nothing; a forged token gives 404',
  query: ZUnsubscribeQuery,
  response: envelope(ZUnsubscribePage),
});

export const publicUnsubscribePage = defineEndpoint({
  method: 'GET',
  path: '/v1/public/unsubscribe',
  summary:
    "What the public /unsubscribe page shows: brand name, the brand's unsubscribed message, the guest's language (changes nothing)",
  query: ZUnsubscribeQuery.pick({ token: true }),
  response: envelope(ZUnsubscribePage),
});

export const publicUnsubscribeUndo = defineEndpoint({
  method: 'POST',
  path: '/v1/public/unsubscribe/undo',
  summary:
    'Undo from the public page: re-subscribes a guest whose own unsubscribe (one-click or page) holds; otherwise changes nothing',
  query: ZUnsubscribeQuery.pick({ token: true }),
  response: envelope(ZUnsubscribePage),
});

/** The tracking routes, described for the OpenAPI document (they answer a GIF and a redirect, not JSON). */
export const openPixel = defineEndpoint({
  method: 'GET',
  path: '/t/o/:token',
  summary: 'Open pixel: always a 1x1 GIF; signed opens are recorded (machine opens apart)',
  response: z.unknown(),
});
export const clickRedirect = defineEndpoint({
  method: 'GET',
  path: '/t/c/:token',
  summary: 'Click redirect: 302 to the signed link; 404 for an unsigned, altered or truncated token',
  response: z.unknown(),
});

// ---- the brand's tracking settings ----

export const ZTrackingSettings = z.object({
  /** Days after a click in which a synced booking is the campaign's conversion. */
  conversionWindowDays: z.number().int(),
  /** True while the brand has not chosen: the product's default applies. */
  isDefault: z.boolean(),
});
export type TTrackingSettings = z.infer<typeof ZTrackingSettings>;
export const ZTrackingSettingsInput = z.object({
  conversionWindowDays: z.number().int().min(1).max(MAX_CONVERSION_WINDOW_DAYS),
});

export const getSettings = defineEndpoint({
  method: 'GET',
  path: '/v1/tracking/settings',
  summary: "The brand's conversion window (days after a click in which a synced booking counts)",
  response: envelope(ZTrackingSettings),
});
export const updateSettings = defineEndpoint({
  method: 'PUT',
  path: '/v1/tracking/settings',
  summary: "Set the brand's conversion window, 1 to 90 days (brand context only: 403 tracking_brand_only)",
  body: ZTrackingSettingsInput,
  response: envelope(ZTrackingSettings),
});

// ---- statistics (campaign.view_campaign_report) ----

const count = z.number().int().nonnegative();

/** The counters every rollup keeps. */
export const ZStatCounters = z.object({
  sent: count,
  /** Accepted by the relay, less those that bounced afterwards (a DSN or a relay's event). */
  delivered: count,
  failed: count,
  skipped: count,
  /** Refused by the relay during the send as a hard bounce (5xx). */
  bounced: count,
  /**
   * Issue 25, by the deliverability rules: hard and soft bounces, whether the relay answered so
   * during the send or a DSN came later (then no longer counted as delivered), and complaints
   * (the guest reported the mail as spam).
   */
  hardBounces: count,
  softBounces: count,
  complaints: count,
  opens: count,
  uniqueOpens: count,
  machineOpens: count,
  clicks: count,
  uniqueClicks: count,
  unsubscribes: count,
  conversions: count,
  /** Yen, whole: the amounts of the converted bookings. */
  revenue: count,
});
export type TStatCounters = z.infer<typeof ZStatCounters>;
export const STAT_COUNTERS = Object.keys(ZStatCounters.shape) as (keyof TStatCounters)[];

/** Rates as fractions (0.25 = 25%) of delivered; null while nothing is delivered. */
export const ZStatRates = z.object({
  uniqueOpenRate: z.number().nullable(),
  totalOpenRate: z.number().nullable(),
  uniqueClickRate: z.number().nullable(),
  totalClickRate: z.number().nullable(),
  /** Unique clicks of unique opens. */
  clickToOpenRate: z.number().nullable(),
  unsubscribeRate: z.number().nullable(),
  conversionRate: z.number().nullable(),
  /** Hard and soft bounces of the mails handed to the relay (sent + failed), not of delivered. */
  hardBounceRate: z.number().nullable(),
  softBounceRate: z.number().nullable(),
  /** Complaints of delivered (mailbox providers' spam rate). */
  complaintRate: z.number().nullable(),
});
export type TStatRates = z.infer<typeof ZStatRates>;

export const ZCampaignReport = z.object({
  campaignId: z.string(),
  totals: ZStatCounters,
  /** Delivered minus uniquely opened (machine opens do not count as opened). */
  unopened: count,
  rates: ZStatRates,
  updatedAt: z.string().nullable(),
  /**
   * Issue 25: the hard-bounce or complaint rate at or past its warning level (half and a third of
   * the brand's pause thresholds), once the brand's minimum was handed to the relay; null
   * otherwise, and for a campaign seen for the acting host's own guests only.
   */
  warning: ZProtectionWarning.nullable(),
});
export type TCampaignReport = z.infer<typeof ZCampaignReport>;

export const ZSeriesQuery = z.object({
  interval: z.enum(['day', 'hour']).default('day'),
  /** IANA zone the days are cut in; default the brand's. */
  timeZone: z.string().max(64).optional(),
});
export const ZSeriesPoint = ZStatCounters.extend({ at: z.string() });
export const ZCampaignSeries = z.object({
  interval: z.enum(['day', 'hour']),
  timeZone: z.string(),
  points: z.array(ZSeriesPoint),
});
export type TCampaignSeries = z.infer<typeof ZCampaignSeries>;

export const ZLinkStat = z.object({ index: z.number().int(), url: z.string(), clicks: count, uniqueClicks: count });
export const ZCampaignLinks = z.object({ links: z.array(ZLinkStat) });
export type TLinkStat = z.infer<typeof ZLinkStat>;

export const ZHotelStat = ZStatCounters.extend({
  hostId: z.string(),
  hostName: z.string(),
  level: z.enum(['brand', 'hotel_group', 'hotel']),
});
export const ZCampaignHotels = z.object({ hotels: z.array(ZHotelStat) });
export type THotelStat = z.infer<typeof ZHotelStat>;

export const DELIVERY_STATUSES = ['queued', 'sent', 'skipped', 'failed', 'deferred'] as const;
export const RECIPIENT_FEEDBACK_KINDS = [
  'hard_bounce',
  'soft_bounce',
  'policy_block',
  'auto_reply',
  'complaint',
] as const;
export type TRecipientFeedbackKind = (typeof RECIPIENT_FEEDBACK_KINDS)[number];
export const ZRecipientsQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  status: z.enum(DELIVERY_STATUSES).optional(),
  /** `true`: only the recipients who may have received the mail twice (see `possibleRepeat`). */
  possibleRepeats: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  /**
   * Only the recipients whose delivery had this feedback (issue 25), whatever came after it: the
   * bounced, blocked or complaining guests a campaign's figures count, without paging through the sent.
   */
  feedback: z.enum(RECIPIENT_FEEDBACK_KINDS).optional(),
});
export const ZRecipientEvent = z.object({
  kind: z.enum(TRACKING_EVENT_KINDS),
  at: z.string(),
  /** The link of a click; the amount of a conversion; the source of an unsubscribe. */
  url: z.string().nullable(),
  amount: z.number().int().nullable(),
  source: z.string().nullable(),
});

/** Why a recipient was never mailed: a skip reason of the send, or held out to measure the campaign (issue 26). */
export const RECIPIENT_SKIP_REASONS = [...SKIP_REASONS, HOLDOUT_SKIP_REASON] as const;
export type TRecipientSkipReason = (typeof RECIPIENT_SKIP_REASONS)[number];

export const ZRecipient = z.object({
  deliveryId: z.string(),
  customerId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  status: z.enum(DELIVERY_STATUSES),
  /** Set when `status` is skipped. */
  skipReason: z.enum(RECIPIENT_SKIP_REASONS).nullable(),
  sentAt: z.string().nullable(),
  /**
   * Why the delivery failed or waits: an error code of the catalogue, or the relay's reply as
   * received (an unclassified failure's only explanation), any address but `email` hidden.
   */
  error: z.string().nullable(),
  openedAt: z.string().nullable(),
  clickedAt: z.string().nullable(),
  /**
   * The mail was handed to the relay and came back after a crash before its answer was recorded,
   * so the guest may have received it twice (counted in the statistics' "Possibly sent twice").
   */
  possibleRepeat: z.boolean(),
  /**
   * Issue 25: the delivery's latest bounce, policy block, auto-reply or complaint, as the rules
   * classified it, with the relay's or the report's diagnostic text as received (any address but
   * `email` hidden).
   */
  feedback: z
    .object({
      kind: z.enum(RECIPIENT_FEEDBACK_KINDS),
      status: z.string().nullable(),
      diagnostic: z.string().nullable(),
      at: z.string(),
    })
    .nullable(),
  /** The delivery's latest events, newest first (at most 20). */
  events: z.array(ZRecipientEvent),
});
export const ZRecipientPage = z.object({ items: z.array(ZRecipient), nextCursor: z.string().nullable() });
export type TRecipient = z.infer<typeof ZRecipient>;
export type TRecipientPage = z.infer<typeof ZRecipientPage>;

const byCampaign = '/v1/campaigns/:id';

export const statistics = defineEndpoint({
  method: 'GET',
  path: `${byCampaign}/statistics`,
  summary:
    'A campaign’s totals and rates (unique and total opens and clicks, machine opens apart), from rollups; of the acting host’s own guests for a campaign of a host above it',
  response: envelope(ZCampaignReport),
});
export const series = defineEndpoint({
  method: 'GET',
  path: `${byCampaign}/statistics/series`,
  summary:
    'A campaign’s counters over time, per day or per hour (none for a campaign seen for the acting host’s own guests only: the series is kept for the whole campaign)',
  query: ZSeriesQuery,
  response: envelope(ZCampaignSeries),
});
export const links = defineEndpoint({
  method: 'GET',
  path: `${byCampaign}/statistics/links`,
  summary:
    'Clicks per link of a campaign (none for a campaign seen for the acting host’s own guests only: they are kept for the whole campaign)',
  response: envelope(ZCampaignLinks),
});
export const hotels = defineEndpoint({
  method: 'GET',
  path: `${byCampaign}/statistics/hotels`,
  summary: 'A campaign’s counters per hotel (the brand itself for guests not allocated to a hotel)',
  response: envelope(ZCampaignHotels),
});
export const recipients = defineEndpoint({
  method: 'GET',
  path: `${byCampaign}/recipients`,
  summary: 'A campaign’s recipients, keyset pages: each delivery’s status and its events',
  query: ZRecipientsQuery,
  response: envelope(ZRecipientPage),
});

/** Rates from counters (shared by the server and the console). */
export function ratesOf(c: TStatCounters): TStatRates {
  const of = (n: number, d: number) => (d > 0 ? n / d : null);
  return {
    uniqueOpenRate: of(c.uniqueOpens, c.delivered),
    totalOpenRate: of(c.opens, c.delivered),
    uniqueClickRate: of(c.uniqueClicks, c.delivered),
    totalClickRate: of(c.clicks, c.delivered),
    clickToOpenRate: of(c.uniqueClicks, c.uniqueOpens),
    unsubscribeRate: of(c.unsubscribes, c.delivered),
    conversionRate: of(c.conversions, c.delivered),
    hardBounceRate: of(c.hardBounces, c.sent + c.failed),
    softBounceRate: of(c.softBounces, c.sent + c.failed),
    complaintRate: of(c.complaints, c.delivered),
  };
}
