import { SENDING_DEFAULTS, type TCampaignHold } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { hostReach, inGuestHotels } from './queries.ts';
import { quietHoursRelease, wallClockOf } from './schedule-time.ts';

/**
 * Why a sending campaign sends nothing now, for reads (the list, one campaign, the dashboard): the
 * send leaves out the deliveries of hotels inside their quiet hours when it claims (send-queries.ts,
 * `claimBatch`); here the same rule is applied to what still waits, so the console can say "waiting
 * for quiet hours to end: 08:00 (さくら旅館 箱根)" with how many wait, instead of "sending" with
 * nothing sent. The send path itself is not involved: this only reads. A paused campaign has no
 * such hold: the pause holds it, until a person resumes it, so no quiet hours' end is said for it.
 */

export interface TWaitingGroup {
  campaign_id: string;
  /** The hotel of the waiting deliveries, or the campaign's host for those without a hotel. */
  host_id: string;
  host_name: string;
  /** `hotel`, or the campaign host's level (a brand or hotel group) for its guests allocated to no hotel. */
  host_level: string;
  timezone: string;
  start: string | null;
  end: string | null;
  waiting: number;
}

/**
 * The deliveries still to send (queued or deferred) of running campaigns not paused, per hotel,
 * with that hotel's quiet hours: its own setting, else its group's, else its brand's, in its time zone; for
 * deliveries without a hotel, the campaign host's (as the send's sending identity has them). For a
 * campaign seen for its own guests only, only those guests' deliveries. One statement over the
 * deliveries' (campaign, status) index.
 */
export async function waitingGroups(
  tx: TTx,
  campaignIds: string[],
  ctx: TActingContext | null,
): Promise<TWaitingGroup[]> {
  if (campaignIds.length === 0) return [];
  const mine = ctx ? sql`(${hostReach(ctx)} or ${inGuestHotels(ctx, sql`d.hotel_id`)})` : sql`true`;
  return selectRows<TWaitingGroup>(
    tx,
    sql`with waiting as (
        select d.campaign_id, coalesce(d.hotel_id, c.host_id) as host_id, count(*)::int as waiting
        from deliveries d join campaigns c on c.id = d.campaign_id join hosts h on h.id = c.host_id
        where d.campaign_id = any(${sql.param(campaignIds)}::uuid[]) and d.status in ('queued', 'deferred')
          and c.status = 'pending' and c.paused_at is null and ${mine}
        group by 1, 2
      )
      select w.campaign_id, w.host_id, x.name as host_name, x.level as host_level, x.timezone, w.waiting,
        coalesce(own.quiet_hours_start, grp.quiet_hours_start, brand.quiet_hours_start) as start,
        coalesce(own.quiet_hours_end, grp.quiet_hours_end, brand.quiet_hours_end) as end
      from waiting w join hosts x on x.id = w.host_id
      left join campaign_email_settings own on own.host_id = x.id
      left join campaign_email_settings grp on grp.host_id = x.hotel_group_id
      left join campaign_email_settings brand on brand.host_id = x.brand_id
      order by w.campaign_id, x.name, w.host_id`,
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The hold of one campaign at `now` from its waiting groups (pure): the hotels inside their quiet
 * hours, the one whose quiet hours end first named, and how many deliveries they hold. `inFlight`
 * (deliveries claimed and not answered) makes the hold partial. Null when nothing is held.
 * "And 2 more" counts hotels only: the campaign's own host (its guests allocated to no hotel) is
 * not one, and its held guests are counted among those waiting.
 */
export function holdOf(groups: TWaitingGroup[], inFlight: number, now: Date): TCampaignHold | null {
  let first: { until: Date; group: TWaitingGroup } | null = null;
  let held = 0;
  let heldHotels = 0;
  let free = 0;
  for (const group of groups) {
    const release = quietHoursRelease(now, {
      start: group.start ?? SENDING_DEFAULTS.quietHoursStart,
      end: group.end ?? SENDING_DEFAULTS.quietHoursEnd,
      timeZone: group.timezone,
    });
    if (!release) {
      free += group.waiting;
      continue;
    }
    held += group.waiting;
    if (group.host_level === 'hotel') heldHotels += 1;
    if (!first || release.getTime() < first.until.getTime()) first = { until: release, group };
  }
  if (!first || held === 0) return null;
  const wall = wallClockOf(first.until, first.group.timezone);
  return {
    reason: 'quiet_hours',
    until: first.until.toISOString(),
    localTime: `${pad(wall.hour)}:${pad(wall.minute)}`,
    timeZone: first.group.timezone,
    hostName: first.group.host_name,
    otherHosts: heldHotels - (first.group.host_level === 'hotel' ? 1 : 0),
    waiting: held,
    whole: free === 0 && inFlight === 0,
  };
}

/** The holds of some campaigns (those sending), by campaign id. */
export async function holdsOf(
  tx: TTx,
  campaigns: { id: string; status: string; inFlight: number }[],
  ctx: TActingContext | null,
  now = new Date(),
): Promise<Map<string, TCampaignHold>> {
  const sending = campaigns.filter((c) => c.status === 'pending');
  const groups = await waitingGroups(
    tx,
    sending.map((c) => c.id),
    ctx,
  );
  const holds = new Map<string, TCampaignHold>();
  for (const campaign of sending) {
    const hold = holdOf(
      groups.filter((g) => g.campaign_id === campaign.id),
      campaign.inFlight,
      now,
    );
    if (hold) holds.set(campaign.id, hold);
  }
  return holds;
}
