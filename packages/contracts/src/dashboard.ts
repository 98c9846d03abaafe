import { z } from 'zod';
import { ZIncrementalRevenue } from './experiments.ts';
import { defineEndpoint, envelope } from './http.ts';
import { ZCampaignHold } from './campaign-hold.ts';
import { ZHostLevel } from './tenancy.ts';

/**
 * The dashboard (specification sections 2, 6 and 9; issue 15): the last 7 days of the acting
 * brand, hotel group or hotel, in the host's time zone, against the 7 days before. Each block is
 * its own endpoint with its own entitlement, so a role sees exactly the blocks it holds and the
 * console loads them side by side. Quick actions are links only and need no call.
 *
 * Figures are never invented: a value that cannot be known (nothing was sent, no count was kept
 * for the earlier week) is null, and the console says so.
 */

/** Specification section 9: the dashboard window is the last 7 days (today included). */
export const DASHBOARD_WINDOW_DAYS = 7;

/** The window in the host's local days ('YYYY-MM-DD', inclusive) and the 7 days before it. */
export const ZDashboardWindow = z.object({
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
});
export type TDashboardWindow = z.infer<typeof ZDashboardWindow>;

/** A figure of the window and the same figure for the 7 days before (null: not known). */
export const ZFigure = z.object({ current: z.number().nullable(), previous: z.number().nullable() });
export type TFigure = z.infer<typeof ZFigure>;

// ---- level information -------------------------------------------------------------------

const ZPanelHost = z.object({
  id: z.string(),
  level: ZHostLevel,
  name: z.string(),
  address: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  logoUrl: z.string().nullable(),
});
export const ZLevelInfo = z.object({
  host: ZPanelHost.extend({
    timezone: z.string(),
    brandName: z.string().nullable(),
    hotelGroupName: z.string().nullable(),
  }),
  /** A brand's hotel groups (a group or hotel: empty). */
  hotelGroups: z.array(ZPanelHost.extend({ hotelCount: z.number() })),
  /** A brand's or a group's hotels (a hotel: empty). */
  hotels: z.array(ZPanelHost.extend({ hotelGroupName: z.string().nullable() })),
});
export type TLevelInfo = z.infer<typeof ZLevelInfo>;

// ---- customer statistics -------------------------------------------------------------------

/**
 * Customers in the host's scope at the end of the window and at the end of the week before
 * (brand: all of the brand's; hotel group: those allocated to its hotels, each once; hotel: those
 * allocated to it). The earlier week's figures come from the daily customer counts (one row per
 * host and local day, taken after the day's end by an hourly job); before a count was kept they
 * are null. Today's figure is at most five minutes old.
 */
export const ZCustomerStatistics = z.object({
  window: ZDashboardWindow,
  customers: ZFigure,
  /** Customers a campaign can mail: email status active, with an email address, not on the suppression list. */
  activeCustomers: ZFigure,
  unsubscribedCustomers: ZFigure,
  /** When today's figures were counted (at most five minutes before the answer). */
  countedAt: z.string(),
  /** When customer data last synced from the booking system (the brand's last finished run). */
  lastSync: z
    .object({
      status: z.enum(['succeeded', 'failed']),
      finishedAt: z.string(),
    })
    .nullable(),
  /** Whether the brand is connected to the booking system at all. */
  bookingConnected: z.boolean(),
});
export type TCustomerStatistics = z.infer<typeof ZCustomerStatistics>;

// ---- campaign performance ------------------------------------------------------------------

export const ZDailyPerformance = z.object({
  day: z.string(),
  sent: z.number(),
  opened: z.number(),
  clicked: z.number(),
  bookings: z.number(),
  /** Yen, whole: the amount of the bookings attributed to a campaign mail. */
  revenue: z.number(),
});
export type TDailyPerformance = z.infer<typeof ZDailyPerformance>;

export const ZHotelPerformance = z.object({
  hotelId: z.string(),
  name: z.string(),
  sent: z.number(),
  opened: z.number(),
  clicked: z.number(),
  bookings: z.number(),
  revenue: z.number(),
});
export type THotelPerformance = z.infer<typeof ZHotelPerformance>;

export const ZScheduledCampaign = z.object({
  id: z.string(),
  name: z.string(),
  /** When it is due; for a campaign held by quiet hours, when the first held guests may go. */
  sendAt: z.string(),
  hostName: z.string(),
  /** A campaign that is sending but held (quiet hours), with why and until when; null when scheduled. */
  hold: ZCampaignHold.nullable(),
});

export const ZCampaignPerformance = z.object({
  window: ZDashboardWindow,
  /**
   * Rates are fractions (0.25 = 25 %): unique opens or clicks per mail delivered, over the mails of
   * the campaigns whose send started in the week (so never above 100 % from an older mail); null
   * when no mail was delivered. Scenario mails are not in the rates (their hidden campaigns start
   * once and send for as long as the scenario runs, so they belong to no week).
   */
  openRate: ZFigure,
  clickRate: ZFigure,
  /**
   * Issue 25, over the same mails: hard bounces per mail handed to the relay (sent + failed), and
   * complaints per mail delivered; null when there were none.
   */
  bounceRate: ZFigure,
  complaintRate: ZFigure,
  /**
   * Campaigns of the scope whose send finished in the window: sent, and failed. Only campaigns: the
   * hidden campaigns that carry a scenario's mails are not counted here, nor in the rates; their
   * mails are in the daily figures (sends, opens, clicks, bookings) and the per-hotel figures.
   */
  campaignsSent: ZFigure,
  campaignsFailed: ZFigure,
  sent: ZFigure,
  bookings: ZFigure,
  revenue: ZFigure,
  /**
   * Issue 26: the revenue the holdouts say the mails caused (yen, over the campaigns and scenarios of
   * the window with a measured holdout, attribution window), with its 95 % interval; null when no
   * campaign or scenario in the period had a holdout measured.
   */
  incrementalRevenue: ZIncrementalRevenue,
  /**
   * One entry per local day of the window, oldest first (days without mail hold zeros): what
   * happened that day, sends by the day sent, opens and clicks by the day of a mail's first one,
   * bookings and their revenue by the day the booking was attributed.
   */
  daily: z.array(ZDailyPerformance),
  /** A brand or group: each of its hotels over the window (a hotel: null). */
  hotels: z.array(ZHotelPerformance).nullable(),
  /**
   * The next campaigns of the scope, soonest first (at most 5): those scheduled, and those sending
   * but held by quiet hours (by when the hold ends). A hotel or group also sees a campaign of its
   * brand or group held with its own guests waiting.
   */
  nextScheduled: z.array(ZScheduledCampaign),
});
export type TCampaignPerformance = z.infer<typeof ZCampaignPerformance>;

// ---- running scenarios ---------------------------------------------------------------------

export const ZRunningScenario = z.object({
  id: z.string(),
  name: z.string(),
  /** The host that owns the scenario (the acting host or one below it). */
  hostName: z.string(),
  /** When the current run started. */
  startedAt: z.string().nullable(),
  /** Customers who entered the scenario (every run). */
  entered: z.number(),
});
export type TRunningScenario = z.infer<typeof ZRunningScenario>;

export const ZRunningScenarios = z.object({
  /** The scope's running scenarios, most recently started first (at most 5). */
  scenarios: z.array(ZRunningScenario),
  /** How many scenarios of the scope are running in all. */
  total: z.number(),
});
export type TRunningScenarios = z.infer<typeof ZRunningScenarios>;

export const levelInfo = defineEndpoint({
  method: 'GET',
  path: '/v1/dashboard/level-info',
  summary: "The acting host's information panel: name, logo, address, contact, and its hotel groups and hotels",
  response: envelope(ZLevelInfo),
});
export const customerStatistics = defineEndpoint({
  method: 'GET',
  path: '/v1/dashboard/customer-statistics',
  summary:
    'Customers, active and unsubscribed customers over the last 7 days against the 7 before; the last booking-system sync',
  response: envelope(ZCustomerStatistics),
});
export const campaignPerformance = defineEndpoint({
  method: 'GET',
  path: '/v1/dashboard/campaign-performance',
  summary:
    'Open and click rates, campaigns sent and failed (campaigns only), the daily chart and per-hotel figures of the last 7 days (scenario mails included); next scheduled campaigns',
  response: envelope(ZCampaignPerformance),
});
export const runningScenarios = defineEndpoint({
  method: 'GET',
  path: '/v1/dashboard/running-scenarios',
  summary:
    "The running automation scenarios of the acting brand, hotel group or hotel (the scenario list's read entitlement)",
  response: envelope(ZRunningScenarios),
});
