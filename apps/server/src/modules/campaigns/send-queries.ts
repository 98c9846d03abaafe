import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TQuietHold } from './schedule-time.ts';
import { applyFeedback, type TFeedback } from '../deliverability/apply-feedback.ts';
import { suppressedSql } from '../deliverability/suppression.ts';
import { mailableSql } from './audience.ts';

/** `at` given (the demo history's past sends), else the database's now. */
const instant = (at?: Date) => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);

/** The send's statements over deliveries: claim a batch, record outcomes, take stale claims back, finish. */

export interface TClaimed {
  id: string;
  customer_id: string;
  status: 'sending' | 'skipped';
  /** The relay's answers so far (4xx): a claim is not an attempt. */
  attempts: number;
  /** 1 once the message may have reached the relay without its answer being recorded (a crash, a timeout after DATA). */
  in_flight_repeats: number;
  email: string | null;
  hotel_id: string | null;
  hotel_name: string | null;
  first_name: string;
  last_name: string;
  country: string | null;
  /** The variant it is mailed (0 = A): a test delivery's own, a rest delivery's the winner's (issue 26). */
  variant: number;
}

// Per row: a claim's batch is small, so the list is probed, not joined.
const mailable = (at?: Date) => mailableSql('cu', { at });
const skipReason = (
  at?: Date,
) => sql`case when cu.email_status <> 'active' then 'unsubscribed' when nullif(cu.email, '') is null then 'no_email'
  when ${suppressedSql('cu', at)} then 'bounced' else d.skip_reason end`;

/**
 * Claims up to `limit` deliveries that are due (queued, or deferred past their retry time) for the
 * worker `claim.workerId` under `claim.token`, skipping rows another worker holds and those of
 * hotels in their quiet hours; deliveries put back after a crash come last, so a crash loop does
 * not keep meeting the same guests. Consent is checked here too: a customer who unsubscribed (or
 * lost their email, or hard-bounced) since the snapshot, or who reached the frequency cap with other
 * campaigns' mails, is marked skipped, with the reason. The
 * others are marked `sending` (reserved, not yet handed to SMTP: `handSend` does that one by one).
 * A claim is not a relay attempt: `attempts` counts the relay's answers only. `at`: the moment of
 * the claim (the demo history's past sends), else the database's now.
 */
export async function claimBatch(
  tx: TTx,
  campaignId: string,
  limit: number,
  quiet: TQuietHold = { hotelIds: [], unplaced: false },
  claim: TClaim,
  cap: { count: number; days: number } | null = null,
  at?: Date,
): Promise<TClaimed[]> {
  // The frequency cap again at each claim (a campaign resumed days later, a cap lowered meanwhile):
  // mails of other campaigns sent within the window.
  const capped = cap
    ? sql`(select count(*) from deliveries fd where fd.customer_id = cu.id and fd.status = 'sent' and fd.campaign_id <> d.campaign_id
        and fd.sent_at > ${instant(at)} - make_interval(days => ${cap.days}::int)) >= ${cap.count}::int`
    : sql`false`;
  const held =
    quiet.hotelIds.length || quiet.unplaced
      ? sql`and case when d.hotel_id is null then not ${quiet.unplaced}::boolean else not (d.hotel_id = any(${sql.param(quiet.hotelIds)}::uuid[])) end`
      : sql``;
  // Queued and due deferred deliveries are picked apart, each in claim order, then the first
  // `limit` of both: the queued ones from their own index (deliveries_claim_idx) in that order, so
  // a claim reads about `limit` rows. Together (status = 'queued' or a due deferred one) every claim
  // read and sorted the campaign's whole remaining queue: 100,000 rows for the first claim of a
  // 100,000-guest send, and the send slowed as its queue was long. A due deferred row locked here
  // and not among the first `limit` is left as it was (a skipped lock for the other lanes until
  // this transaction ends).
  const pickable = (status: SQL) => sql`select d.id, d.in_flight_repeats from deliveries d
        where d.campaign_id = ${campaignId}::uuid and ${status} ${held}
          and exists (select 1 from campaigns c where c.id = ${campaignId}::uuid and c.status = 'pending' and c.paused_at is null
            -- The rest of an A/B test waits for the winner (issue 26).
            and (d.arm is distinct from 'rest' or c.experiment_winner is not null))
        order by d.in_flight_repeats, d.id limit ${limit} for update skip locked`;
  return selectRows<TClaimed>(
    tx,
    sql`with queued as (${pickable(sql`d.status = 'queued'`)}),
      due as (${pickable(sql`d.status = 'deferred' and d.next_attempt_at <= ${instant(at)}`)}),
      picked as (
        select id from (select * from queued union all select * from due) p order by in_flight_repeats, id limit ${limit}
      ), claimed as (
        update deliveries d set
          status = case when ${mailable(at)} and not ${capped} then 'sending' else 'skipped' end,
          skip_reason = case when ${mailable(at)} and ${capped} then 'frequency_cap' else ${skipReason(at)} end,
          claimed_at = ${instant(at)}, claimed_by = ${claim.workerId}::uuid, claim_token = ${claim.token}::uuid, handed_at = null,
          email = coalesce(nullif(cu.email, ''), d.email)
        from picked, customers cu where d.id = picked.id and cu.id = d.customer_id
        returning d.id, d.customer_id, d.status, d.attempts, d.in_flight_repeats, d.email, d.hotel_id, cu.first_name, cu.last_name, cu.country, d.variant
      )
      select claimed.*, h.name as hotel_name from claimed left join hosts h on h.id = claimed.hotel_id`,
  );
}

/** Who holds a claim: the worker's lease and the claim's own token (the fence for its answers). */
export interface TClaim {
  workerId: string;
  token: string;
}

/**
 * Right before messages go to SMTP, each one's consent is checked once more and, if it holds, the
 * delivery is marked handed (in one statement for all the messages about to go). Deliveries whose
 * customer is no longer mailable (an unsubscribe answered before this moment) are marked skipped,
 * with the reason. Only rows still held by this claim are touched: one put back meanwhile is
 * neither handed nor skipped, and neither is anything of a campaign paused or cancelled meanwhile
 * (those stay claimed and unhanded, and go back to the queue at the end of the send). Returns each
 * id's verdict. `at`: the moment of the hand-over, else the database's now.
 */
export async function handSend(
  tx: TTx,
  campaignId: string,
  token: string,
  deliveryIds: string[],
  at?: Date,
): Promise<{ id: string; status: 'sending' | 'skipped'; hotel_id: string | null }[]> {
  if (deliveryIds.length === 0) return [];
  const { lock, hand } = handQueries(campaignId, token, deliveryIds, at);
  await tx.execute(lock);
  return selectRows(tx, hand);
}

/**
 * handSend's two statements, run in this order in one transaction. `lock` takes the campaign's row
 * under a share lock: a pause being committed is waited for, and a pause that comes later waits
 * until this step commits. `hand` then reads the campaign anew (its own snapshot, taken after the
 * lock was granted, so it sees that pause) and marks nothing once the campaign is paused or over.
 * So once a pause is committed no further mail is handed; those handed before it are in flight
 * and finish. `hand` returns each delivery it marked, with its status (sending: go; skipped).
 */
export function handQueries(campaignId: string, token: string, deliveryIds: string[], at?: Date) {
  return {
    lock: sql`select 1 from campaigns where id = ${campaignId}::uuid for share`,
    hand: sql`update deliveries d set
        status = case when ${mailable(at)} then 'sending' else 'skipped' end,
        skip_reason = ${skipReason(at)},
        handed_at = case when ${mailable(at)} then ${instant(at)} else null end
      from customers cu
      where d.id = any(${sql.param(deliveryIds)}::uuid[]) and d.claim_token = ${token}::uuid and d.status = 'sending' and cu.id = d.customer_id
        and exists (select 1 from campaigns c where c.id = ${campaignId}::uuid and c.status = 'pending' and c.paused_at is null)
      returning d.id, d.status, d.hotel_id`,
  };
}

/** Claimed deliveries this claim did not hand to SMTP (a stop, a failed lane): back to the queue as they were. */
export async function releaseUnhanded(tx: TTx, token: string): Promise<number> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update deliveries set status = 'queued', claimed_by = null, claim_token = null
      where claim_token = ${token}::uuid and status = 'sending' and handed_at is null returning id`,
  );
  return rows.length;
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
  /**
   * The relay's answer: sent (2xx), deferred (4xx, or no answer before DATA: tried again later),
   * failed (5xx, retries used up, or a mail that could not be built), unknown (no answer after the
   * message may have been taken: a timeout or a lost connection after the body went out; sent
   * again once, marked as a possible repeat), retry (the connection lost before the body went out:
   * the relay took nothing; deferred shortly, not an attempt, no repeat mark).
   */
  status: 'sent' | 'deferred' | 'failed' | 'unknown' | 'retry';
  messageId: string | null;
  error: string | null;
  nextAttemptAt: Date | null;
  /** A hard bounce (the classifier's, deliverability/classify.ts): the address is suppressed. */
  hardBounce: boolean;
  /** What the answer means for the guest when it is a final failure (deliverability/apply-feedback.ts). */
  feedback?: TFeedback | null;
}

/** The note on a delivery whose relay answer was lost twice: it is not sent a third time. */
export const ANSWER_LOST_TWICE = 'the relay answer was lost twice (worker stopped or timed out); not sent a third time';

/**
 * Records SMTP answers in one statement, fenced by the claim: a delivery put back meanwhile (its
 * worker's lease lapsed) is not touched, so a worker that lost its lease cannot overwrite what
 * another worker does with it. Each relay answer counts one attempt; an unknown answer does not,
 * nor does a connection lost before the body went out (retry: deferred shortly); an unknown one goes back to the queue once (marked as a possible repeat), then counts as sent. Final
 * failures are classified (hard bounce, soft bounce, policy block) and applied by
 * deliverability/apply-feedback.ts, all but protection, which the caller weighs once its rollups
 * counted the answers (`protectCampaigns`). Returns each recorded delivery's new status. `at`: the moment
 * of the answers (the demo history's past sends), else the database's now.
 */
export async function recordOutcomes(
  tx: TTx,
  token: string,
  outcomes: TOutcome[],
  at?: Date,
): Promise<{ id: string; status: string; hotel_id: string | null }[]> {
  if (outcomes.length === 0) return [];
  const updated = await selectRows<{ id: string; status: string; hotel_id: string | null }>(
    tx,
    recordOutcomesQuery(token, outcomes, at),
  );
  // The classified answers of the deliveries recorded here (never of a claim fenced off) go through
  // the deliverability rules: a hard bounce suppresses the address, soft bounces count, and so on.
  const recorded = new Set(updated.map((u) => u.id));
  // Protection is the caller's to weigh, after its rollups counted these answers (commitSendStep).
  await applyFeedback(
    tx,
    outcomes.flatMap((o) => (o.feedback && recorded.has(o.id) ? [o.feedback] : [])),
    at,
    { protect: false },
  );
  return updated;
}

/** recordOutcomes' update, returning each recorded delivery's id, new status and hotel. */
export function recordOutcomesQuery(token: string, outcomes: TOutcome[], at?: Date): SQL {
  return sql`update deliveries d set
      status = case when v.status = 'retry' then 'deferred' when v.status <> 'unknown' then v.status
        when d.in_flight_repeats > 0 then 'sent' else 'queued' end,
      in_flight_repeats = case when v.status = 'unknown' then 1 else d.in_flight_repeats end,
      attempts = d.attempts + case when v.status in ('unknown', 'retry') then 0 else 1 end,
      sent_at = case when v.status = 'sent' or (v.status = 'unknown' and d.in_flight_repeats > 0) then ${instant(at)} else d.sent_at end,
      message_id = coalesce(v.message_id, d.message_id),
      error = case when v.status = 'unknown' and d.in_flight_repeats > 0 then ${ANSWER_LOST_TWICE} else v.error end,
      next_attempt_at = v.next_at, claimed_by = null, claim_token = null, handed_at = null
    from unnest(${sql.param(outcomes.map((o) => o.id))}::uuid[], ${sql.param(outcomes.map((o) => o.status))}::text[],
      ${sql.param(outcomes.map((o) => o.messageId))}::text[], ${sql.param(outcomes.map((o) => o.error))}::text[],
      ${sql.param(outcomes.map((o) => o.nextAttemptAt?.toISOString() ?? null))}::timestamptz[]) as v(id, status, message_id, error, next_at)
    where d.id = v.id and d.status = 'sending' and d.claim_token = ${token}::uuid
    returning d.id, d.status, d.hotel_id`;
}

/**
 * Deliveries recorded as skipped when the audience was snapshotted (the frequency cap); not the
 * held-out guests (issue 26), who are counted apart and never in the rates.
 */
export async function skippedAtStart(tx: TTx, campaignId: string) {
  return selectRows<{ id: string; hotel_id: string | null }>(
    tx,
    sql`select id, hotel_id from deliveries where campaign_id = ${campaignId}::uuid and status = 'skipped'
      and skip_reason is distinct from 'holdout'`,
  );
}

/**
 * Deliveries left in flight by a worker whose lease lapsed (or by a claim from before leases were
 * recorded), never by claim age: a slow but live worker keeps its claims, except `ownWorkerId`'s,
 * which the caller (that worker, starting the campaign's only active run) knows to be left from an
 * earlier run that failed. One that was never handed
 * to SMTP goes back to the queue as it was. One that was handed may have reached the relay: it
 * goes back once, marked as a possible repeat (`in_flight_repeats` = 1); handed again and lost
 * again, it is not sent a third time but counted as sent with the reason. Returns the deliveries
 * that became sent here, for the statistics.
 */
export async function putBackLapsed(
  tx: TTx,
  campaignId: string,
  liveWorkerIds: string[],
  ownWorkerId: string,
): Promise<{ id: string; status: string; hotel_id: string | null }[]> {
  const handed = sql`(d.handed_at is not null or d.claimed_by is null)`;
  return selectRows(
    tx,
    sql`update deliveries d set
        status = case when ${handed} and d.in_flight_repeats > 0 then 'sent' else 'queued' end,
        sent_at = case when ${handed} and d.in_flight_repeats > 0 then now() else d.sent_at end,
        error = case when ${handed} and d.in_flight_repeats > 0 then ${ANSWER_LOST_TWICE} else d.error end,
        in_flight_repeats = case when ${handed} then greatest(d.in_flight_repeats, 1) else d.in_flight_repeats end,
        claimed_by = null, claim_token = null, handed_at = null
      where d.campaign_id = ${campaignId}::uuid and d.status = 'sending'
        and (d.claimed_by is null or d.claimed_by = ${ownWorkerId}::uuid or not (d.claimed_by = any(${sql.param(liveWorkerIds)}::uuid[])))
      returning d.id, d.status, d.hotel_id`,
  );
}

/**
 * The campaign becomes sent when sent + skipped + failed equals its audience; true when it did now.
 * A pause taken by the step that answered the last mails (a user a moment late; protection does
 * not pause a campaign with nothing left to hold) ends with the send, as with a cancel (its audit
 * entry stays on record). A protection reason not resumed goes with it: a sent campaign is not
 * "paused automatically", its report warns of its rates instead (a resumed one keeps its mark).
 */
export async function finishIfDone(tx: TTx, campaignId: string, at?: Date): Promise<boolean> {
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`update campaigns c set status = 'sent', finished_at = ${instant(at)}, problem = null, paused_at = null, paused_by = null,
        paused_reason = case when c.paused_reason->>'resumed' = 'true' then c.paused_reason end,
        updated_at = now()
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
export async function markStarted(tx: TTx, campaignId: string, audience: number, at?: Date): Promise<void> {
  // An A/B test starts its test phase with the send; the wait runs from the start (issue 26).
  await tx.execute(sql`update campaigns set status = 'pending', audience = ${audience}, started_at = ${instant(at)}, problem = null, updated_at = now(),
      experiment_phase = case when jsonb_array_length(experiment_variants) > 0 then 'testing' else 'none' end,
      experiment_decide_at = case when jsonb_array_length(experiment_variants) > 0
        then ${instant(at)} + make_interval(hours => experiment_wait_hours) end
    where id = ${campaignId}::uuid`);
}

export async function markFailed(tx: TTx, campaignId: string, problem: string): Promise<void> {
  await tx.execute(
    sql`update campaigns set status = 'failed', problem = ${problem}, finished_at = now(), updated_at = now() where id = ${campaignId}::uuid`,
  );
}

/**
 * The campaigns the dispatcher queues a job for, across brands: scheduled ones that are due, and
 * sending ones. A scenario's hidden campaign stays pending for as long as its scenario runs (each
 * journey adds its delivery), so it is taken up only when it has a mail to send now or one in flight (a claim whose
 * worker may have died): queued, sending, or deferred and due. Dispatched at every look, each of
 * them was a send job every CAMPAIGN_DISPATCH_SECONDS that found nothing, for good. Its new mails
 * are queued with a send job of their own (advance-journeys.ts); a deferred one is found here
 * once due. A paused campaign is left alone: its send job would do nothing (prepareSend), and
 * resuming it queues one (pauseCampaign).
 */
export async function campaignsToDispatch(tx: TTx) {
  return selectRows<{ id: string; brand_id: string; status: 'scheduled' | 'pending' }>(
    tx,
    sql`select c.id, c.brand_id, c.status from campaigns c
      where (c.status = 'scheduled' and c.send_at <= now())
        or (c.status = 'pending' and c.paused_at is null and (c.scenario_id is null or exists (select 1 from deliveries d where d.campaign_id = c.id
          and (d.status in ('queued', 'sending') or (d.status = 'deferred' and d.next_attempt_at <= now())))))
      order by c.send_at limit 1000`,
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
