import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TQuietHold } from './schedule-time.ts';

/** The send's statements over deliveries: claim a batch, record outcomes, take stale claims back, finish. */

export interface TClaimed {
  id: string;
  customer_id: string;
  status: 'sending' | 'skipped';
  attempts: number;
  email: string | null;
  hotel_id: string | null;
  hotel_name: string | null;
  first_name: string;
  last_name: string;
  country: string | null;
}

const MAILABLE = sql`cu.email_status = 'active' and nullif(cu.email, '') is not null and cu.email_bounced_at is null`;
const SKIP_REASON = sql`case when cu.email_status <> 'active' then 'unsubscribed' when nullif(cu.email, '') is null then 'no_email'
  when cu.email_bounced_at is not null then 'bounced' else d.skip_reason end`;

/**
 * Claims up to `limit` deliveries that are due (queued, or deferred past their retry time), skipping
 * rows another worker holds and those of hotels in their quiet hours. Consent is checked again here:
 * a customer who unsubscribed (or lost their email, or hard-bounced) since the snapshot is marked
 * skipped instead, with the reason. The others are marked `sending` (in flight) before any is sent.
 */
export async function claimBatch(
  tx: TTx,
  campaignId: string,
  limit: number,
  quiet: TQuietHold = { hotelIds: [], unplaced: false },
): Promise<TClaimed[]> {
  const held =
    quiet.hotelIds.length || quiet.unplaced
      ? sql`and case when d.hotel_id is null then not ${quiet.unplaced}::boolean else not (d.hotel_id = any(${sql.param(quiet.hotelIds)}::uuid[])) end`
      : sql``;
  return selectRows<TClaimed>(
    tx,
    sql`with picked as (
        select d.id from deliveries d
        where d.campaign_id = ${campaignId}::uuid and (d.status = 'queued' or (d.status = 'deferred' and d.next_attempt_at <= now())) ${held}
        order by d.id limit ${limit} for update skip locked
      ), claimed as (
        update deliveries d set
          status = case when ${MAILABLE} then 'sending' else 'skipped' end,
          skip_reason = ${SKIP_REASON},
          attempts = d.attempts + case when ${MAILABLE} then 1 else 0 end,
          claimed_at = now(),
          email = coalesce(nullif(cu.email, ''), d.email)
        from picked, customers cu where d.id = picked.id and cu.id = d.customer_id
        returning d.id, d.customer_id, d.status, d.attempts, d.email, d.hotel_id, cu.first_name, cu.last_name, cu.country
      )
      select claimed.*, h.name as hotel_name from claimed left join hosts h on h.id = claimed.hotel_id`,
  );
}

/**
 * The consent check again, right before a chunk of claimed deliveries goes to SMTP: those whose
 * customer is no longer mailable (an unsubscribe that came after the claim) are marked skipped,
 * with the reason, and returned. One statement, which usually changes nothing.
 */
export async function skipUnmailable(
  tx: TTx,
  deliveryIds: string[],
): Promise<{ id: string; hotel_id: string | null }[]> {
  if (deliveryIds.length === 0) return [];
  return selectRows(
    tx,
    sql`update deliveries d set status = 'skipped', skip_reason = ${SKIP_REASON}
      from customers cu
      where d.id = any(${sql.param(deliveryIds)}::uuid[]) and d.status = 'sending' and cu.id = d.customer_id and not (${MAILABLE})
      returning d.id, d.hotel_id`,
  );
}

/**
 * Each hotel's quiet hours among the campaign's deliveries still to send: its own setting, else its
 * hotel group's, else its brand's (each field inherited on its own, as the settings page shows),
 * in the hotel's time zone. Null fields: the product's default.
 */
export async function hotelQuietHours(tx: TTx, campaignId: string) {
  return selectRows<{ id: string; timezone: string; start: string | null; end: string | null }>(
    tx,
    sql`select h.id, h.timezone,
        coalesce(own.quiet_hours_start, grp.quiet_hours_start, brand.quiet_hours_start) as start,
        coalesce(own.quiet_hours_end, grp.quiet_hours_end, brand.quiet_hours_end) as end
      from hosts h
      left join campaign_email_settings own on own.host_id = h.id
      left join campaign_email_settings grp on grp.host_id = h.hotel_group_id
      left join campaign_email_settings brand on brand.host_id = h.brand_id
      where h.id in (select distinct hotel_id from deliveries
        where campaign_id = ${campaignId}::uuid and hotel_id is not null and status in ('queued', 'deferred', 'sending'))`,
  );
}

export interface TOutcome {
  id: string;
  customerId: string;
  status: 'sent' | 'deferred' | 'failed';
  messageId: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
  /** A 5xx answer: the address is suppressed. */
  hardBounce: boolean;
}

/** Records a batch's SMTP answers in one statement; hard bounces mark the customer's address. */
export async function recordOutcomes(
  tx: TTx,
  outcomes: TOutcome[],
): Promise<{ id: string; status: string; hotel_id: string | null }[]> {
  if (outcomes.length === 0) return [];
  const updated = await selectRows<{ id: string; status: string; hotel_id: string | null }>(
    tx,
    sql`update deliveries d set status = v.status,
      sent_at = case when v.status = 'sent' then now() else d.sent_at end,
      message_id = coalesce(v.message_id, d.message_id), error = v.error, next_attempt_at = v.next_at
    from unnest(${sql.param(outcomes.map((o) => o.id))}::uuid[], ${sql.param(outcomes.map((o) => o.status))}::text[],
      ${sql.param(outcomes.map((o) => o.messageId))}::text[], ${sql.param(outcomes.map((o) => o.error))}::text[],
      ${sql.param(outcomes.map((o) => o.nextAttemptAt?.toISOString() ?? null))}::timestamptz[]) as v(id, status, message_id, error, next_at)
    where d.id = v.id and d.status = 'sending'
    returning d.id, d.status, d.hotel_id`,
  );
  const bounced = outcomes.filter((o) => o.hardBounce).map((o) => o.customerId);
  if (bounced.length)
    await tx.execute(
      sql`update customers set email_bounced_at = now() where id = any(${sql.param(bounced)}::uuid[]) and email_bounced_at is null`,
    );
  return updated;
}

/** Deliveries recorded as skipped when the audience was snapshotted (the frequency cap). */
export async function skippedAtStart(tx: TTx, campaignId: string) {
  return selectRows<{ id: string; hotel_id: string | null }>(
    tx,
    sql`select id, hotel_id from deliveries where campaign_id = ${campaignId}::uuid and status = 'skipped'`,
  );
}

/**
 * Deliveries left in flight by a worker that died (claimed longer ago than a lease): back to the
 * queue, counted as in-flight repeats, since the SMTP server may have taken them before the crash.
 */
export async function requeueStale(tx: TTx, campaignId: string, olderThanSeconds: number): Promise<number> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update deliveries set status = 'queued', in_flight_repeats = in_flight_repeats + 1
      where campaign_id = ${campaignId}::uuid and status = 'sending' and claimed_at < now() - make_interval(secs => ${olderThanSeconds}::double precision)
      returning id`,
  );
  return rows.length;
}

/** The campaign becomes sent when sent + skipped + failed equals its audience; true when it did now. */
export async function finishIfDone(tx: TTx, campaignId: string): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update campaigns c set status = 'sent', finished_at = now(), problem = null, updated_at = now()
      where c.id = ${campaignId}::uuid and c.status = 'pending' and c.audience =
        (select count(*) from deliveries d where d.campaign_id = c.id and d.status in ('sent', 'skipped', 'failed'))
      returning c.id`,
  );
  return rows.length > 0;
}

/** The earliest retry time of the campaign's deferred deliveries, if any. */
export async function nextRetryAt(tx: TTx, campaignId: string): Promise<Date | null> {
  const [row] = await selectRows<{ at: Date | null }>(
    tx,
    sql`select min(next_attempt_at) as at from deliveries where campaign_id = ${campaignId}::uuid and status = 'deferred'`,
  );
  return row?.at ?? null;
}

export async function setProblem(tx: TTx, campaignId: string, problem: string | null): Promise<void> {
  await tx.execute(
    sql`update campaigns set problem = ${problem} where id = ${campaignId}::uuid and problem is distinct from ${problem}`,
  );
}

/** Scheduled -> pending with the snapshot's size; false when the campaign was no longer scheduled. */
export async function markStarted(tx: TTx, campaignId: string, audience: number): Promise<void> {
  await tx.execute(sql`update campaigns set status = 'pending', audience = ${audience}, started_at = now(), problem = null, updated_at = now()
    where id = ${campaignId}::uuid`);
}

export async function markFailed(tx: TTx, campaignId: string, problem: string): Promise<void> {
  await tx.execute(
    sql`update campaigns set status = 'failed', problem = ${problem}, finished_at = now(), updated_at = now() where id = ${campaignId}::uuid`,
  );
}

/** Campaigns to act on, across brands: due scheduled ones and those sending. */
export async function campaignsToDispatch(tx: TTx) {
  return selectRows<{ id: string; brand_id: string; status: 'scheduled' | 'pending' }>(
    tx,
    sql`select id, brand_id, status from campaigns where (status = 'scheduled' and send_at <= now()) or status = 'pending' order by send_at limit 1000`,
  );
}

/** Locks the campaign row for the start (two starts of one campaign wait for each other). */
export async function lockCampaign(tx: TTx, campaignId: string) {
  const [row] = await selectRows<{ status: string }>(
    tx,
    sql`select status from campaigns where id = ${campaignId}::uuid for update`,
  );
  return row?.status ?? null;
}

export async function templateForSend(tx: TTx, templateId: string) {
  const [row] = await selectRows<{
    id: string;
    version: number;
    default_language: 'ja' | 'en';
    contents: unknown;
    name: string;
  }>(tx, sql`select id, version, default_language, contents, name from templates where id = ${templateId}::uuid`);
  return row ?? null;
}

export async function brandNameOf(tx: TTx, brandId: string): Promise<string> {
  const [row] = await selectRows<{ name: string }>(tx, sql`select name from hosts where id = ${brandId}::uuid`);
  return row?.name ?? '';
}
