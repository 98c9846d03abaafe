import { z } from 'zod';

/** Apart from campaigns.ts so the dashboard's chunk takes this alone. */

/**
 * Why a campaign that is sending sends nothing now (or sends only part of its guests): today only
 * quiet hours. Kept apart from the status so another reason can sit beside it. A paused campaign
 * has no hold (null): the pause holds it until a person resumes it (`paused` on the campaign).
 */
export const CAMPAIGN_HOLD_REASONS = ['quiet_hours'] as const;
export const ZCampaignHold = z.object({
  reason: z.enum(CAMPAIGN_HOLD_REASONS),
  /** When the first held guests may go (ISO): the end of the quiet hours that end soonest. */
  until: z.string(),
  /** That end on the wall clock of the host whose quiet hours they are (HH:MM), and its zone. */
  localTime: z.string(),
  timeZone: z.string(),
  /** The hotel (or, for guests allocated to no hotel, the campaign's host) whose quiet hours end first. */
  hostName: z.string(),
  /** How many other hotels hold guests of this campaign in their quiet hours. */
  otherHosts: z.number(),
  /** Deliveries waiting for quiet hours to end (queued or deferred, of the held hotels). */
  waiting: z.number(),
  /** True when nothing else is on its way: every delivery still to send waits for quiet hours. */
  whole: z.boolean(),
});
export type TCampaignHold = z.infer<typeof ZCampaignHold>;
