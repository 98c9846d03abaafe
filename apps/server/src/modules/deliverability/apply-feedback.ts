import { sql, type SQL } from 'drizzle-orm';
import { PROTECTION_DEFAULTS } from '@yado/contracts';
import { pipelineIn, queryPrepared, type TTx } from '../../db/client.ts';
import {
  applyRollups,
  domainRollupsQuery,
  rollupsQuery,
  undeliveredQuery,
  type TDomainCounter,
  type TRollupDelta,
  type TUndelivered,
} from '../tracking/rollups.ts';
import type { TFeedbackKind } from './classify.ts';
import { SOFT_BOUNCES, SOFT_SUPPRESSION_DAYS, SOFT_WINDOW } from './suppression.ts';

/**
 * Records what was learnt about deliveries (a synchronous answer, a DSN, a complaint report) and
 * applies the rules of issue 25 once: each delivery and kind is recorded at most once
 * (`feedback_events_delivery_kind_key`), and only a newly recorded event acts.
 *
 * - hard_bounce: the address goes on the brand's suppression list at once (which the customer shows
 *   as the day the address bounced: customers/queries.ts).
 * - soft_bounce: the address is suppressed for SOFT_SUPPRESSION_DAYS once SOFT_BOUNCES of the
 *   guest's last SOFT_WINDOW sends soft-bounced.
 * - complaint: the guest is unsubscribed from all of the brand's marketing (source "complaint",
 *   an event of the delivery and an audit entry) and the address is suppressed.
 * - policy_block, auto_reply, deferred, delivered: recorded only; never the guest's fault.
 *
 * A hard or soft bounce of a mail the relay had accepted (status `sent`: a DSN or a webhook after
 * the send) also takes that mail out of the campaign's and the sending domain's `delivered`, once
 * per delivery (`delivery_bounces`), so "delivered" is what reached a mailbox as far as we
 * know, and the rates of delivered (opens, clicks, complaints) follow.
 *
 * Runs in the caller's transaction under the brand's tenant context (or scope-all). `at`: when the
 * feedback arrived (the demo history's past reports), else the database's now: the event's
 * `received_at`, the statistics' hour, the suppression's start, the unsubscribe's time.
 */

export interface TFeedback {
  deliveryId: string;
  kind: TFeedbackKind;
  source: 'smtp' | 'dsn' | 'arf' | 'reply' | 'webhook';
  status: string | null;
  diagnostic: string | null;
  /** The From domain the mail went out from (policy blocks count against it). */
  sendingDomain?: string | null;
  /** The report as received (DSN, ARF). */
  raw?: Buffer | null;
}

const MAX_DIAGNOSTIC = 1000;

/** `at` given (the demo history's past reports), else the database's now. */
const instant = (at?: Date): SQL => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);

export interface TApplied {
  deliveryId: string;
  kind: TFeedbackKind;
}

/** An event newly recorded, with what its delivery says. */
interface TRecorded {
  delivery_id: string;
  brand_id: string;
  campaign_id: string;
  hotel_id: string | null;
  kind: TFeedbackKind;
  diagnostic: string | null;
  sending_domain: string | null;
  /**
   * When the relay accepted the delivery, if this event is the first bounce to come after that
   * (its `delivery_bounces` row inserted by this statement: the key makes it the first however many
   * reports of the mail arrive at once, a concurrent insert of the same key waiting for the other's
   * transaction and then doing nothing): the mail is then taken out of `delivered`. Null otherwise.
   */
  undelivered_sent_at: string | null;
  /** Its delivery was still `sending` (the relay's answer not yet committed) when this event was read. */
  in_flight: boolean;
}

const BOUNCES: TFeedbackKind[] = ['hard_bounce', 'soft_bounce'];

/**
 * Returns the events newly recorded (a repeat of one already recorded is left out). Two round trips
 * whatever the batch holds, three when a complaint unsubscribed someone: the events recorded, then
 * every rule's statement at once (pipelineIn: each sees what the ones before it did), then the
 * campaigns' unsubscribe counts of those who left. One statement a round trip, the rules were a
 * dozen writes to PostgreSQL's socket and as many waits a batch (issue 25's bench).
 */
export async function applyFeedback(
  tx: TTx,
  items: TFeedback[],
  at?: Date,
  /**
   * false: the caller weighs protection itself, once it has counted what the same answers mean for
   * the campaign's handed mails (the send's commit: its bounces are counted here before the
   * rollups count the mails as failed, so a rate taken here would run ahead of its denominator).
   */
  { protect = true }: { protect?: boolean } = {},
): Promise<TApplied[]> {
  if (items.length === 0) return [];
  const now = instant(at);
  // `at`, else now: the statistics' hour and the moment a complaint unsubscribes its guest.
  const when = at ?? new Date();
  // With each new event, its delivery's campaign and hotel, which its statistics are counted by. The
  // events as one JSON document (pg spells an array parameter out element by element).
  const events = items.map((i, n) => ({
    n,
    delivery_id: i.deliveryId,
    kind: i.kind,
    source: i.source,
    status: i.status,
    diagnostic: i.diagnostic?.slice(0, MAX_DIAGNOSTIC) ?? null,
    sending_domain: i.sendingDomain ?? null,
    raw_b64: i.raw ? i.raw.toString('base64') : null,
  }));
  // Each delivery read once (`src`: its first event of each kind, as the key keeps one), not once
  // for the insert, once for the bounce's mark and once for the answer: two probes of `deliveries`
  // an event fewer in the rules' largest statement (issue 25's bench).
  const recorded = await queryPrepared<TRecorded>(
    tx,
    sql`with src as materialized (
        select distinct on (v.delivery_id, v.kind) v.delivery_id, v.kind, v.source, v.status, v.diagnostic, v.sending_domain,
          v.raw_b64, d.brand_id, d.campaign_id, d.customer_id, d.hotel_id, d.sent_at,
          d.status = 'sent' and d.sent_at is not null as accepted, d.status = 'sending' as in_flight
        from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
          as v(n int, delivery_id uuid, kind text, source text, status text, diagnostic text, sending_domain text, raw_b64 text)
        join deliveries d on d.id = v.delivery_id
        order by v.delivery_id, v.kind, v.n
      ), recorded as (insert into feedback_events (brand_id, delivery_id, campaign_id, customer_id, kind, source, status, diagnostic, sending_domain, raw, received_at)
        select s.brand_id, s.delivery_id, s.campaign_id, s.customer_id, s.kind, s.source, s.status, s.diagnostic, s.sending_domain,
          decode(s.raw_b64, 'base64'), ${now}
        from src s
        on conflict (delivery_id, kind) do nothing
        returning delivery_id, brand_id, campaign_id, kind, diagnostic, sending_domain
      ), undelivered as (
        insert into delivery_bounces (delivery_id, brand_id, bounced_at)
        select r.delivery_id, r.brand_id, ${now} from recorded r join src s on s.delivery_id = r.delivery_id and s.kind = r.kind
        where r.kind = any(${sql.param(BOUNCES)}::text[]) and s.accepted
        on conflict (delivery_id) do nothing
        returning delivery_id)
      select r.*, s.hotel_id, case when u.delivery_id is not null then s.sent_at end as undelivered_sent_at, s.in_flight
        from recorded r join src s on s.delivery_id = r.delivery_id and s.kind = r.kind
        left join undelivered u on u.delivery_id = r.delivery_id and r.kind = any(${sql.param(BOUNCES)}::text[])`,
  );
  if (recorded.length === 0) return [];
  await settleInFlight(tx, recorded, now);
  const of = (kind: TFeedbackKind) => recorded.filter((r) => r.kind === kind);
  const hard = of('hard_bounce');
  const soft = of('soft_bounce');
  const complaints = of('complaint');
  // The campaign's rollups before the domain's, as every writer of both takes them (rollups.ts:
  // the send's step counts its mails in that order, and a step whose answers bounced runs this
  // first, in the same transaction): the other way round, two steps of one campaign deadlocked.
  const statements: SQL[] = [];
  const add = (...queries: (SQL | null)[]) => queries.forEach((q) => q && statements.push(q));
  add(statisticsQuery(recorded, when), domainsQuery(recorded, when), undelivered(recorded));
  if (protect) add(pauseQuery(campaignsAtRisk(recorded), now));
  if (hard.length) add(suppressQuery(listed(hard), 'hard_bounce', null, now));
  // Of each guest's last SOFT_WINDOW sends (answered: sent or failed), how many soft-bounced; asked
  // only of a guest with SOFT_BOUNCES soft bounces in all (counted on the index of guest and kind),
  // as most who soft-bounce once never do again. This batch's own are among them: recorded above.
  if (soft.length) {
    add(
      suppressQuery(
        sql`select v.delivery_id, v.diagnostic from (${listed(soft)}) v
          join deliveries d on d.id = v.delivery_id
          where case when (select count(*) from feedback_events f
              where f.customer_id = d.customer_id and f.kind = 'soft_bounce') < ${SOFT_BOUNCES}::int then false
            else (select count(*) from (
              select l.id from deliveries l where l.customer_id = d.customer_id and l.status in ('sent', 'failed')
              order by coalesce(l.sent_at, l.created_at) desc, l.id desc limit ${SOFT_WINDOW}::int) last
            where exists (select 1 from feedback_events f where f.delivery_id = last.id and f.kind = 'soft_bounce')) >= ${SOFT_BOUNCES}::int end`,
        'soft_bounces',
        SOFT_SUPPRESSION_DAYS,
        now,
      ),
    );
  }
  const complainAt = complaints.length ? statements.length : -1;
  if (complaints.length) {
    add(
      complainQuery(
        complaints.map((c) => c.delivery_id),
        when,
      ),
      suppressQuery(listed(complaints), 'complaint', null, now),
    );
  }
  const results = await pipelineIn(tx, statements);
  if (complainAt >= 0) {
    // Who left (a guest unsubscribed already did not), counted in their campaigns' statistics.
    const left = results[complainAt] as [string, string, string | null][];
    await applyRollups(
      tx,
      eachCounted(
        left.map(([campaign_id, brand_id, hotel_id]) => ({ campaign_id, brand_id, hotel_id })),
        when,
        () => 'unsubscribes',
      ),
    );
  }
  return recorded.map((r) => ({ deliveryId: r.delivery_id, kind: r.kind }));
}

/**
 * A bounce of a mail whose relay answer was not yet committed when the event was read (status
 * `sending`: a relay quicker than the send's commit). The send's count takes such a mail out
 * itself when it sees the bounce (rollups.ts `bouncedBeforeCountQuery`), but it cannot see this
 * one until this transaction commits, and this one saw nothing counted to take out: both would
 * commit and the mail would stay in `delivered`. So the delivery is locked (`for share`, in key
 * order), which the send's status change conflicts with: either the send has changed it, and the
 * lock waits for its commit, then reads it `sent` and counted, and the mail is taken out here; or
 * it has not, and the send's change waits for this commit, after which its count (a later
 * statement of its transaction) sees this bounce. A mail still `sending` once locked is the send's
 * to settle. Rare (the send commits within milliseconds of the answer), and only then a round trip.
 */
async function settleInFlight(tx: TTx, recorded: TRecorded[], now: SQL): Promise<void> {
  const waiting = recorded.filter((r) => r.in_flight && BOUNCES.includes(r.kind));
  if (waiting.length === 0) return;
  const settled = await queryPrepared<{ delivery_id: string; sent_at: string }>(
    tx,
    sql`with locked as materialized (
        select d.id, d.brand_id, d.status, d.sent_at from deliveries d
        where d.id = any(${sql.param([...new Set(waiting.map((r) => r.delivery_id))])}::uuid[])
        order by d.id for share
      ), marked as (
        insert into delivery_bounces (delivery_id, brand_id, bounced_at)
        select l.id, l.brand_id, ${now} from locked l where l.status = 'sent' and l.sent_at is not null
        on conflict (delivery_id) do nothing
        returning delivery_id
      )
      select m.delivery_id, l.sent_at from marked m join locked l on l.id = m.delivery_id`,
  );
  for (const { delivery_id, sent_at } of settled) {
    const first = waiting.find((r) => r.delivery_id === delivery_id);
    if (first) first.undelivered_sent_at = sent_at;
  }
}

/** Deliveries and their diagnostics as rows to select from (`delivery_id`, `diagnostic`). */
const listed = (rows: { delivery_id: string; diagnostic: string | null }[]): SQL =>
  sql`select * from jsonb_to_recordset(${JSON.stringify(
    rows.map((r) => ({ delivery_id: r.delivery_id, diagnostic: r.diagnostic })),
  )}::jsonb) as v(delivery_id uuid, diagnostic text)`;

const DOMAIN_COUNTED: Partial<Record<TFeedbackKind, TDomainCounter>> = {
  hard_bounce: 'hardBounces',
  soft_bounce: 'softBounces',
  complaint: 'complaints',
  policy_block: 'policyBlocks',
  auto_reply: 'autoReplies',
};

/**
 * The deliverability view per sending domain (`sending_domain_stats_hourly`): each newly recorded
 * bounce, complaint, policy block and auto-reply counts against the domain it was sent from, by
 * the hour it came in (`at`, as the campaign statistics count it: the demo history's past reports
 * in their own hours, not all in the hour they were written). An event whose report named no
 * sending domain is not counted there.
 */
function domainsQuery(recorded: TRecorded[], at: Date): SQL | null {
  return domainRollupsQuery(
    recorded.flatMap((r) => {
      const counter = DOMAIN_COUNTED[r.kind];
      return counter && r.sending_domain
        ? [{ brandId: r.brand_id, domain: r.sending_domain, at, counters: { [counter]: 1 } }]
        : [];
    }),
  );
}

type TStatCounter = keyof TRollupDelta['counters'];

/** One of a counter in the campaign's rollups (by the hotel, else the brand) for each delivery's row. */
function eachCounted<T extends { campaign_id: string; brand_id: string; hotel_id: string | null }>(
  rows: T[],
  at: Date,
  counter: (row: T) => TStatCounter,
): TRollupDelta[] {
  return rows.map((r) => ({
    campaignId: r.campaign_id,
    brandId: r.brand_id,
    hostId: r.hotel_id ?? r.brand_id,
    at,
    counters: { [counter(r)]: 1 },
  }));
}

const COUNTED: Partial<Record<TFeedbackKind, 'hardBounces' | 'softBounces' | 'complaints'>> = {
  hard_bounce: 'hardBounces',
  soft_bounce: 'softBounces',
  complaint: 'complaints',
};

/**
 * The campaign statistics' hard and soft bounces and complaints (TRACK's rollups, in the same
 * transaction), by the hour the report came in.
 */
function statisticsQuery(recorded: TRecorded[], at: Date): SQL | null {
  return rollupsQuery(
    eachCounted(
      recorded.filter((r) => COUNTED[r.kind]),
      at,
      (r) => COUNTED[r.kind] as TStatCounter,
    ),
  );
}

/**
 * The mails this batch takes out of `delivered` (rollups.ts undeliveredQuery: the campaign's, its
 * hour's, hotel's and day's, and the sending domain's), once each: a hard and a soft bounce of one
 * delivery in one batch both carry its time. Before protection weighs the complaint rate of them.
 */
function undelivered(recorded: TRecorded[]): SQL | null {
  const seen = new Map<string, TUndelivered>();
  for (const r of recorded) {
    if (r.undelivered_sent_at === null || seen.has(r.delivery_id)) continue;
    seen.set(r.delivery_id, {
      campaignId: r.campaign_id,
      brandId: r.brand_id,
      hostId: r.hotel_id ?? r.brand_id,
      sentAt: new Date(r.undelivered_sent_at),
      sendingDomain: r.sending_domain,
    });
  }
  return undeliveredQuery([...seen.values()]);
}

/** The campaigns that a hard bounce or a complaint may have pushed over a threshold. */
const campaignsAtRisk = (recorded: TRecorded[]): string[] => [
  ...new Set(recorded.filter((r) => r.kind === 'hard_bounce' || r.kind === 'complaint').map((r) => r.campaign_id)),
];

/**
 * Protection (issue 25): a sending campaign that has handed at least the brand's `pause_min_sent`
 * mails to the relay (sent + failed) pauses itself, in the transaction that counted the event,
 * when its hard-bounce rate (of those mails) or complaint rate (of delivered) reaches the brand's
 * threshold: the user pause (`paused_at`, claims stop at the next claim) with `paused_by` null and
 * the reason, and an audit entry without an actor. A scenario's hidden campaign is left alone: its
 * journeys have no one to resume them. Once an admin resumed a campaign that paused itself, it is
 * not paused by protection again (`paused_reason` stays, marked resumed). Nor is a campaign with
 * nothing left to hold (every mail handed to the relay): it finishes as sent, without a pause on
 * record, and its report and the brand admins' banner show its rate past the limit instead.
 */
export async function protectCampaigns(tx: TTx, campaignIds: string[], at?: Date): Promise<void> {
  const query = pauseQuery(campaignIds, instant(at));
  if (query) await queryPrepared(tx, query);
}

/** Pauses the campaigns over a threshold and audits each pause, in one statement; null: none to weigh. */
function pauseQuery(campaignIds: string[], now: SQL): SQL | null {
  if (campaignIds.length === 0) return null;
  return sql`with t as (
        select c.id, st.sent + st.failed as handed, st.delivered, st.hard_bounces, st.complaints,
          coalesce(s.pause_min_sent, ${PROTECTION_DEFAULTS.minSent}) as min_sent,
          coalesce(s.pause_hard_bounce_pct, ${PROTECTION_DEFAULTS.hardBouncePct}) as hard_pct,
          coalesce(s.pause_complaint_pct, ${PROTECTION_DEFAULTS.complaintPct}) as complaint_pct
        from campaigns c join campaign_stats st on st.campaign_id = c.id
          left join campaign_email_settings s on s.host_id = c.brand_id
        where c.id = any(${sql.param(campaignIds)}::uuid[]) and c.status = 'pending' and c.paused_at is null
          and c.scenario_id is null and c.paused_reason is null
          -- A pause holds what is not yet handed to the relay: with nothing left (the last mails
          -- answered, reports still coming in), the campaign finishes and its report warns instead.
          and exists (select 1 from deliveries d where d.campaign_id = c.id
            and (d.status in ('queued', 'deferred') or (d.status = 'sending' and d.handed_at is null)))
      ), hit as (
        select id,
          case when hard_bounces * 100.0 >= hard_pct * handed then 'hard_bounce'
            when delivered > 0 and complaints * 100.0 >= complaint_pct * delivered then 'complaint' end as kind,
          case when hard_bounces * 100.0 >= hard_pct * handed then hard_bounces::float8 / handed
            when delivered > 0 then complaints::float8 / delivered end as rate
        from t where handed > 0 and handed >= min_sent
      ), paused as (
        update campaigns c set paused_at = ${now}, paused_by = null, updated_at = ${now},
          paused_reason = jsonb_build_object('kind', hit.kind, 'rate', round(hit.rate::numeric, 4))
        from hit where c.id = hit.id and hit.kind is not null and c.paused_at is null
        returning c.id, c.brand_id, c.name, hit.kind, round(hit.rate::numeric, 4) as rate
      )
      insert into audit_log (at, brand_id, action, target_type, target_id, changes)
      select ${now}, p.brand_id, 'pause', 'campaign', p.id,
        jsonb_build_object('name', p.name, 'pausedReason', p.kind, 'rate', to_char(p.rate * 100, 'FM990.0') || '%')
      from paused p`;
}

/**
 * Puts the deliveries' addresses on their brand's list. An active suppression stays as it is,
 * except that an expired soft one is renewed and a soft one becomes hard (or complaint) when the
 * stronger reason arrives.
 */
function suppressQuery(
  /** Rows of `delivery_id` and `diagnostic`. */
  source: SQL,
  reason: 'hard_bounce' | 'soft_bounces' | 'complaint',
  days: number | null,
  now: SQL,
): SQL {
  const until = days === null ? sql`null::timestamptz` : sql`${now} + make_interval(days => ${days}::int)`;
  return sql`insert into suppressions (brand_id, email, customer_id, reason, diagnostic, delivery_id, campaign_id, scenario_id, until, created_at)
    select distinct on (d.brand_id, lower(d.email)) d.brand_id, lower(d.email), d.customer_id, ${reason}, v.diagnostic, d.id, d.campaign_id, c.scenario_id, ${until}, ${now}
    from (${source}) v join deliveries d on d.id = v.delivery_id join campaigns c on c.id = d.campaign_id
    where nullif(d.email, '') is not null
    order by d.brand_id, lower(d.email), d.id
    on conflict (brand_id, email) where lifted_at is null do update set
      reason = excluded.reason, diagnostic = excluded.diagnostic, customer_id = excluded.customer_id, delivery_id = excluded.delivery_id,
      campaign_id = excluded.campaign_id, scenario_id = excluded.scenario_id, created_at = ${now}, until = excluded.until
    where suppressions.until is not null and (suppressions.until <= ${now} or excluded.until is null)`;
}

/**
 * Complaints: each guest leaves all of the brand's marketing at once, as their own unsubscribe
 * does (consent is brand-wide), with "complaint" as the source: shown on the customer, an event of
 * the delivery and an audit entry; its rows are those who left, for the campaign's unsubscribe
 * count. One statement for all of a batch's complaints (it was five round trips each); the guests
 * still subscribed are locked in id order, and a guest who complained twice in the batch leaves once.
 */
function complainQuery(deliveryIds: string[], at: Date): SQL {
  const when = sql`${at.toISOString()}::timestamptz`;
  return sql`with locked as (
        select cu.id from customers cu
        where cu.id in (select d.customer_id from deliveries d where d.id = any(${sql.param(deliveryIds)}::uuid[]))
          and cu.email_status = 'active'
        order by cu.id for update
      ), target as (
        select distinct on (l.id) d.id as delivery_id, d.campaign_id, d.brand_id, d.hotel_id, l.id as customer_id
        from locked l join deliveries d on d.customer_id = l.id and d.id = any(${sql.param(deliveryIds)}::uuid[])
        order by l.id, d.id
      ), changed as (
        update customers cu set email_status = 'unsubscribed', email_status_changed_at = ${when},
          unsubscribe_reason = 'complaint', updated_at = now()
        from target t where cu.id = t.customer_id
      ), events as (
        insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, source)
        select ${when}, t.brand_id, t.campaign_id, t.delivery_id, 'unsubscribe', 'complaint' from target t
      ), audited as (
        insert into audit_log (at, brand_id, action, target_type, target_id, changes)
        select ${when}, t.brand_id, 'guest_unsubscribe', 'customer', t.customer_id,
          jsonb_build_object('emailStatus', jsonb_build_array('active', 'unsubscribed'), 'source', 'complaint', 'campaignId', t.campaign_id)
        from target t
      )
      select campaign_id, brand_id, hotel_id from target`;
}
