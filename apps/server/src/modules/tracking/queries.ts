import { STAT_COUNTERS, type TCampaignStatus, type TStatCounters, type TGuestConsentSource } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { campaignReach, hostReach, inGuestHotels, reachedGuests } from '../campaigns/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * The tracking module's SQL: its own tables (events, engagement, conversions, rollups, settings)
 * and the reads of deliveries, customers and campaign email settings that unsubscribes need.
 */

export interface TUnsubscribeTarget {
  /** Null when the delivery is gone (its campaign deleted): the guest is found by the signed customer id. */
  deliveryId: string | null;
  campaignId: string | null;
  /** The host whose unsubscribed message applies: the campaign's, else the brand. */
  campaignHostId: string;
  brandId: string;
  brandName: string;
  brandLogoUrl: string | null;
  hotelId: string | null;
  customerId: string;
  emailStatus: 'active' | 'unsubscribed';
  unsubscribeReason: string | null;
  country: string | null;
  defaultLanguage: 'ja' | 'en' | null;
}

/** The delivery's guest, campaign and brand; the customer's row locked when the status may change. */
export async function findUnsubscribeTarget(
  tx: TTx,
  deliveryId: string,
  options: { lock: boolean },
): Promise<TUnsubscribeTarget | null> {
  const [row] = await selectRows<TUnsubscribeTarget>(
    tx,
    sql`select d.id as "deliveryId", d.campaign_id as "campaignId", c.host_id as "campaignHostId", d.brand_id as "brandId",
        b.name as "brandName", b.logo_url as "brandLogoUrl", d.hotel_id as "hotelId", d.customer_id as "customerId", cu.email_status as "emailStatus",
        cu.unsubscribe_reason as "unsubscribeReason", cu.country,
        coalesce(sh.default_language, sg.default_language, sb.default_language) as "defaultLanguage"
      from deliveries d
      join campaigns c on c.id = d.campaign_id
      join customers cu on cu.id = d.customer_id
      join hosts b on b.id = d.brand_id
      join hosts h on h.id = c.host_id
      left join campaign_email_settings sh on sh.host_id = h.id
      left join campaign_email_settings sg on sg.host_id = h.hotel_group_id
      left join campaign_email_settings sb on sb.host_id = h.brand_id
      where d.id = ${deliveryId}
      ${options.lock ? sql`for update of cu` : sql``}`,
  );
  return row ?? null;
}

/** The guest alone, when the delivery is gone: the brand speaks for the deleted campaign. */
export async function findGuestTarget(
  tx: TTx,
  customerId: string,
  options: { lock: boolean },
): Promise<TUnsubscribeTarget | null> {
  const [row] = await selectRows<TUnsubscribeTarget>(
    tx,
    sql`select null as "deliveryId", null as "campaignId", cu.brand_id as "campaignHostId", cu.brand_id as "brandId", b.name as "brandName", b.logo_url as "brandLogoUrl",
        null as "hotelId", cu.id as "customerId", cu.email_status as "emailStatus", cu.unsubscribe_reason as "unsubscribeReason", cu.country,
        sb.default_language as "defaultLanguage"
      from customers cu join hosts b on b.id = cu.brand_id
      left join campaign_email_settings sb on sb.host_id = cu.brand_id
      where cu.id = ${customerId}
      ${options.lock ? sql`for update of cu` : sql``}`,
  );
  return row ?? null;
}

/**
 * The unsubscribed message in force for the campaign's host, per language: its own, its hotel
 * group's, its brand's. English falls back to the Japanese one when no host sets an English one.
 */
export async function unsubscribedMessageFor(
  tx: TTx,
  hostId: string,
): Promise<{ ja: string | null; en: string | null }> {
  const [row] = await selectRows<{ ja: string | null; en: string | null }>(
    tx,
    sql`select coalesce(sh.unsubscribed_message, sg.unsubscribed_message, sb.unsubscribed_message) as ja,
        coalesce(sh.unsubscribed_message_en, sg.unsubscribed_message_en, sb.unsubscribed_message_en) as en
      from hosts h
      left join campaign_email_settings sh on sh.host_id = h.id
      left join campaign_email_settings sg on sg.host_id = h.hotel_group_id
      left join campaign_email_settings sb on sb.host_id = h.brand_id
      where h.id = ${hostId}`,
  );
  const ja = row?.ja ?? null;
  return { ja, en: row?.en ?? ja };
}

/**
 * The guest's unsubscribe through a delivery's own link shows that its mail reached them. A
 * delivery whose relay answer was lost (handed to SMTP, then its worker died or the answer timed
 * out: in flight under a claim, or put back as a possible repeat) is then sent: recorded as such
 * now, and never handed again (its claim, if any, is released, so a late answer or a hand-over
 * under it finds nothing). Anything else is left as it is. Returns the delivery when it became sent.
 */
export async function sentByEvidence(
  tx: TTx,
  deliveryId: string,
): Promise<{ id: string; campaign_id: string; brand_id: string; hotel_id: string | null } | null> {
  const [row] = await selectRows<{ id: string; campaign_id: string; brand_id: string; hotel_id: string | null }>(
    tx,
    sql`update deliveries d set status = 'sent', sent_at = now(), error = null, next_attempt_at = null,
        claimed_by = null, claim_token = null, handed_at = null
      where d.id = ${deliveryId} and ((d.status = 'sending' and d.handed_at is not null)
        or (d.status in ('queued', 'deferred', 'sending') and d.in_flight_repeats > 0))
      returning d.id, d.campaign_id, d.brand_id, d.hotel_id`,
  );
  return row ?? null;
}

export async function setGuestEmailStatus(
  tx: TTx,
  target: TUnsubscribeTarget,
  status: 'active' | 'unsubscribed',
  source: TGuestConsentSource,
  at: Date,
): Promise<void> {
  await tx.execute(sql`update customers set email_status = ${status}, email_status_changed_at = ${at.toISOString()}::timestamptz,
      unsubscribe_reason = ${status === 'unsubscribed' ? source : null}, updated_at = now()
    where id = ${target.customerId}`);
}

/**
 * The guest's own consent change: an event of the delivery, and an audit entry with no actor (the
 * guest is no user) that names the source and the time; no address or name enters either.
 */
export async function recordGuestConsent(
  tx: TTx,
  target: TUnsubscribeTarget,
  kind: 'unsubscribe' | 'resubscribe',
  source: TGuestConsentSource,
  at: Date,
): Promise<void> {
  // Events belong to a delivery; a deleted campaign's guest leaves the audit entry only.
  if (target.deliveryId && target.campaignId) {
    await tx.execute(sql`insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, source)
      values (${at.toISOString()}::timestamptz, ${target.brandId}, ${target.campaignId}, ${target.deliveryId}, ${kind}, ${source})`);
  }
  const changes = {
    emailStatus: kind === 'unsubscribe' ? ['active', 'unsubscribed'] : ['unsubscribed', 'active'],
    source,
    campaignId: target.campaignId,
  };
  await tx.execute(sql`insert into audit_log (at, brand_id, action, target_type, target_id, changes)
    values (${at.toISOString()}::timestamptz, ${target.brandId}, ${kind === 'unsubscribe' ? 'guest_unsubscribe' : 'guest_resubscribe'}, 'customer',
      ${target.customerId}, ${JSON.stringify(changes)}::jsonb)`);
}

// ---- statistics: rollups only ----

const COLUMNS = STAT_COUNTERS.map((k) => `${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}::int as "${k}"`).join(
  ', ',
);
const SUMS = STAT_COUNTERS.map(
  (k) => `coalesce(sum(${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}), 0)::int as "${k}"`,
).join(', ');

/**
 * Campaigns an acting context may read, as the campaign list has them (campaigns/queries.ts): its
 * own host's and those of the hosts below it whole, and for a hotel or hotel group a campaign of a
 * host above that reached its guests, for those guests only (`guestsOnly`).
 */
export interface TCampaignRef {
  id: string;
  brandId: string;
  hostId: string;
  timezone: string;
  guestsOnly: boolean;
  /**
   * Protection paused it (issue 25), whether or not an admin resumed it since, and it still sends:
   * it will not warn again. A finished one warns of its rates past the limits all the same.
   */
  protectionPaused: boolean;
}

/** The campaign if the context reaches it (row-level security narrows to the brand as well). */
export async function findCampaignInReach(tx: TTx, ctx: TActingContext, id: string): Promise<TCampaignRef | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await selectRows<TCampaignRef>(
    tx,
    sql`select c.id, c.brand_id as "brandId", c.host_id as "hostId", h.timezone, not ${hostReach(ctx)} as "guestsOnly",
        c.paused_reason is not null and c.status = 'pending' as "protectionPaused"
      from campaigns c join hosts h on h.id = c.host_id
      where c.id = ${id} and (${hostReach(ctx)} or (c.scenario_id is null and ${reachedGuests(ctx)}))`,
  );
  return row ?? null;
}

/** A campaign's totals over the acting hotel's (or group's hotels') guests only, from the per-hotel rollup. */
export async function campaignTotalsOfGuests(
  tx: TTx,
  ctx: TActingContext,
  campaignId: string,
): Promise<TStatCounters & { updatedAt: Date | null }> {
  const [row] = await selectRows<TStatCounters & { updatedAt: Date | null }>(
    tx,
    sql`select ${sql.raw(SUMS)}, null as "updatedAt" from campaign_host_stats
      where campaign_id = ${campaignId} and ${inGuestHotels(ctx, sql`host_id`)}`,
  );
  return row as TStatCounters & { updatedAt: Date | null };
}

export async function campaignTotals(
  tx: TTx,
  campaignId: string,
): Promise<(TStatCounters & { updatedAt: Date | null }) | null> {
  const [row] = await selectRows<TStatCounters & { updatedAt: Date | null }>(
    tx,
    sql`select ${sql.raw(COLUMNS)}, updated_at as "updatedAt" from campaign_stats where campaign_id = ${campaignId}`,
  );
  return row ?? null;
}

/** Tracking totals of many campaigns at once (for the campaign list and the template report). */
export async function campaignTotalsOf(tx: TTx, campaignIds: string[]): Promise<Map<string, TStatCounters>> {
  if (campaignIds.length === 0) return new Map();
  const rows = await selectRows<TStatCounters & { campaignId: string }>(
    tx,
    sql`select campaign_id as "campaignId", ${sql.raw(COLUMNS)} from campaign_stats where campaign_id = any(${sql.param(campaignIds)}::uuid[])`,
  );
  return new Map(rows.map(({ campaignId, ...counters }) => [campaignId, counters]));
}

export interface TCampaignSummary {
  status: TCampaignStatus;
  paused: boolean;
  audience: number | null;
  sentAt: Date | string | null;
  delivered: number;
  uniqueOpens: number;
  uniqueClicks: number;
}

/**
 * What a template's report shows of each campaign that used it, as the acting context reads it on
 * the campaign list (`campaignReach`): a campaign of its own reach whole; one of a host above that
 * reached its guests with those guests' audience and tracking sums only (as the list's
 * `own_guests` scope); any other is left out, so a hotel never sees another hotel's campaign.
 */
export async function campaignSummaries(
  tx: TTx,
  ctx: TActingContext,
  campaignIds: string[],
): Promise<Map<string, TCampaignSummary>> {
  if (campaignIds.length === 0) return new Map();
  const whole = hostReach(ctx);
  const mine = (column: string) => inGuestHotels(ctx, sql.raw(column));
  const rows = await selectRows<{
    id: string;
    status: TCampaignStatus;
    paused: boolean;
    audience: number | null;
    sentAt: Date | string | null;
    delivered: number | null;
    uniqueOpens: number | null;
    uniqueClicks: number | null;
  }>(
    tx,
    sql`select c.id, c.status, c.paused_at is not null as paused,
        case when c.audience is null or ${whole} then c.audience
          else (select count(*)::int from deliveries d where d.campaign_id = c.id and ${mine('d.hotel_id')}) end as audience,
        coalesce(c.finished_at, c.started_at) as "sentAt",
        case when ${whole} then s.delivered else gs.delivered end as delivered,
        case when ${whole} then s.unique_opens else gs.unique_opens end as "uniqueOpens",
        case when ${whole} then s.unique_clicks else gs.unique_clicks end as "uniqueClicks"
      from campaigns c join hosts h on h.id = c.host_id
      left join campaign_stats s on s.campaign_id = c.id
      left join lateral (select sum(hs.delivered)::int as delivered, sum(hs.unique_opens)::int as unique_opens,
          sum(hs.unique_clicks)::int as unique_clicks
        from campaign_host_stats hs where hs.campaign_id = c.id and ${mine('hs.host_id')}) gs on true
      where c.id = any(${sql.param(campaignIds)}::uuid[]) and ${campaignReach(ctx)}`,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        status: r.status,
        paused: r.paused,
        audience: r.audience,
        sentAt: r.sentAt,
        delivered: r.delivered ?? 0,
        uniqueOpens: r.uniqueOpens ?? 0,
        uniqueClicks: r.uniqueClicks ?? 0,
      },
    ]),
  );
}

/** Hourly rollup rows, or days cut in `timeZone`, oldest first. */
export async function campaignSeries(
  tx: TTx,
  campaignId: string,
  interval: 'day' | 'hour',
  timeZone: string,
): Promise<(TStatCounters & { at: string })[]> {
  if (interval === 'hour') {
    return selectRows(
      tx,
      sql`select to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at, ${sql.raw(COLUMNS)}
        from campaign_stats_hourly where campaign_id = ${campaignId} order by hour`,
    );
  }
  return selectRows(
    tx,
    sql`select to_char((hour at time zone ${timeZone})::date, 'YYYY-MM-DD') as at, ${sql.raw(SUMS)}
      from campaign_stats_hourly where campaign_id = ${campaignId} group by 1 order by 1`,
  );
}

export async function campaignLinks(tx: TTx, campaignId: string) {
  return selectRows<{ index: number; url: string; clicks: number; uniqueClicks: number }>(
    tx,
    sql`select link_index as index, url, clicks, unique_clicks as "uniqueClicks" from campaign_link_stats
      where campaign_id = ${campaignId} order by link_index`,
  );
}

export async function campaignHosts(tx: TTx, campaignId: string, guestsOf: TActingContext | null = null) {
  return selectRows<TStatCounters & { hostId: string; hostName: string; level: 'brand' | 'hotel_group' | 'hotel' }>(
    tx,
    sql`select s.host_id as "hostId", h.name as "hostName", h.level, ${sql.raw(STAT_COUNTERS.map((k) => `s.${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}::int as "${k}"`).join(', '))}
      from campaign_host_stats s join hosts h on h.id = s.host_id where s.campaign_id = ${campaignId}
        ${guestsOf ? sql`and ${inGuestHotels(guestsOf, sql`s.host_id`)}` : sql``}
      order by h.name, s.host_id`,
  );
}

export interface TRecipientRow {
  deliveryId: string;
  customerId: string;
  lastName: string;
  firstName: string;
  email: string | null;
  status: string;
  skipReason: string | null;
  sentAt: Date | null;
  error: string | null;
  openedAt: Date | null;
  clickedAt: Date | null;
  possibleRepeat: boolean;
  feedbackKind: string | null;
  feedbackStatus: string | null;
  feedbackDiagnostic: string | null;
  feedbackAt: Date | null;
}

/** A keyset page of a campaign's deliveries (by delivery id), with what each has seen. */
export async function recipientPage(
  tx: TTx,
  campaignId: string,
  options: {
    after: string | null;
    limit: number;
    status?: string;
    possibleRepeats?: boolean;
    /** Only the deliveries with a feedback event of this kind (one probe of its unique index each). */
    feedback?: string;
    guestsOf?: TActingContext | null;
  },
): Promise<TRecipientRow[]> {
  return selectRows<TRecipientRow>(
    tx,
    sql`select d.id as "deliveryId", d.customer_id as "customerId", cu.last_name as "lastName", cu.first_name as "firstName",
        coalesce(d.email, cu.email) as email, case when d.status = 'sending' then 'queued' else d.status end as status,
        case when d.status = 'skipped' then d.skip_reason end as "skipReason", d.sent_at as "sentAt", d.error,
        e.opened_at as "openedAt", e.clicked_at as "clickedAt", d.in_flight_repeats > 0 as "possibleRepeat",
        fb.kind as "feedbackKind", fb.status as "feedbackStatus", fb.diagnostic as "feedbackDiagnostic", fb.received_at as "feedbackAt"
      from deliveries d join customers cu on cu.id = d.customer_id
      left join delivery_engagement e on e.delivery_id = d.id
      -- The latest bounce, block, auto-reply or complaint of the delivery (issue 25), by its own index.
      left join lateral (select f.kind, f.status, f.diagnostic, f.received_at from feedback_events f
        where f.delivery_id = d.id and f.kind in ('hard_bounce', 'soft_bounce', 'policy_block', 'auto_reply', 'complaint')
        order by f.id desc limit 1) fb on true
      where d.campaign_id = ${campaignId}
        ${options.after ? sql`and d.id > ${options.after}` : sql``}
        ${options.status ? sql`and d.status = ${options.status}` : sql``}
        ${options.possibleRepeats === undefined ? sql`` : options.possibleRepeats ? sql`and d.in_flight_repeats > 0` : sql`and d.in_flight_repeats = 0`}
        ${options.feedback ? sql`and exists (select 1 from feedback_events f where f.delivery_id = d.id and f.kind = ${options.feedback})` : sql``}
        ${options.guestsOf ? sql`and ${inGuestHotels(options.guestsOf, sql`d.hotel_id`)}` : sql``}
      order by d.id limit ${options.limit}`,
  );
}

/** The latest events of some deliveries (each delivery's own index: no scan of the log). */
export async function eventsOfDeliveries(tx: TTx, deliveryIds: string[], perDelivery: number) {
  if (deliveryIds.length === 0) return [];
  return selectRows<{
    deliveryId: string;
    kind: string;
    at: Date;
    url: string | null;
    amount: number | null;
    source: string | null;
  }>(
    tx,
    sql`select ids.id as "deliveryId", ev.kind, ev.occurred_at as at, ev.url, ev.amount, ev.source
      from unnest(${sql.param(deliveryIds)}::uuid[]) as ids(id)
      cross join lateral (
        select kind, occurred_at, url, amount, source from tracking_events t
        where t.delivery_id = ids.id order by t.occurred_at desc limit ${perDelivery}
      ) ev`,
  );
}

/** The brand's own conversion window in days; null while it has not chosen one. */
export async function conversionWindowOf(tx: TTx, brandId: string): Promise<number | null> {
  const [row] = await selectRows<{ days: number }>(
    tx,
    sql`select conversion_window_days as days from tracking_settings where brand_id = ${brandId}`,
  );
  return row?.days ?? null;
}

export async function saveConversionWindow(tx: TTx, brandId: string, days: number): Promise<void> {
  await tx.execute(sql`insert into tracking_settings (brand_id, conversion_window_days) values (${brandId}, ${days})
    on conflict (brand_id) do update set conversion_window_days = excluded.conversion_window_days, updated_at = now()`);
}
