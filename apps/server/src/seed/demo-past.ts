import { randomUUID } from 'node:crypto';
import { senderDomainOf, ZTemplateContent } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { seededRandom } from '../seeded-random.ts';
import {
  claimBatch,
  handSend,
  recordOutcomes,
  type TClaimed,
  type TOutcome,
} from '../modules/campaigns/send-queries.ts';
import { applyFeedback, type TFeedback } from '../modules/deliverability/apply-feedback.ts';
import { classifyAnswer } from '../modules/deliverability/classify.ts';
import { feedbackOf } from '../modules/deliverability/feedback-receiver.ts';
import { complaintReport, deliveryStatusNotification } from '../modules/deliverability/report-messages.ts';
import { returnPathFor } from '../modules/deliverability/verp.ts';
import { keysOf, signUnsubscribe } from '../modules/tracking/links.ts';
import { writeEvents, type TPendingEvent } from '../modules/tracking/record-events.ts';
import { recordDeliveryOutcomes, type TDeliveryOutcome } from '../modules/tracking/rollups.ts';
import { unsubscribeGuest } from '../modules/tracking/unsubscribe.ts';

/**
 * The demo history's past, one timeline (demo-history.ts writes it): the send of a mail at a past
 * moment by the send path's own statements with the relay's answers given here, and what followed
 * each mail (opens, clicks, unsubscribes, bounce and complaint reports), applied in the order of
 * their moments as the timeline passes them, so nothing written at a past moment already knows a
 * later one (a journey's branch sees the opens before it, a send sees the unsubscribes before it).
 */

/** Past campaigns' names end with it, and the demo scenario's; their templates and segments say so. */
export const DEMO_HISTORY_MARK = '（デモ履歴）';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Japan has no daylight saving: a JST wall time is UTC plus nine hours. */
export const JST = 9 * HOUR;

/** A hotel segment's filter: guests with a booking at one of these hotels. */
export function hotelFilter(hotelIds: string[]) {
  return {
    version: 1,
    join: 'and',
    groups: [
      {
        kind: 'group',
        join: 'and',
        items: [{ kind: 'condition', field: 'hotel', operator: 'is', value: hotelIds }],
      },
    ],
  };
}

/** Midnight JST of the day `daysAgo` before `now`'s JST day, as an instant. */
export function jstMidnight(now: Date, daysAgo: number): number {
  return Math.floor((now.getTime() + JST) / DAY) * DAY - JST - daysAgo * DAY;
}

export const jstDay = (t: number) => new Date(t + JST).toISOString().slice(0, 10);

const text = (value: string) => ({
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'personalTag', attrs: { key: 'full_name' } },
        { type: 'text', text: value },
      ],
    },
  ],
});

export function templateContents(name: string, preheader: string, href: string) {
  return {
    ja: ZTemplateContent.parse({
      subject: name,
      preheader,
      document: {
        version: 1,
        sections: [
          {
            id: 's1',
            columns: [
              {
                id: 'c1',
                blocks: [
                  {
                    id: 't1',
                    type: 'text',
                    content: text(`、いつもさくらホテルズをご利用いただきありがとうございます。${preheader}。`),
                  },
                  { id: 'b1', type: 'button', label: '詳しく見る', href },
                ],
              },
            ],
          },
        ],
      },
    }),
  };
}

/** A mail the relay accepted at a past moment. */
export interface TSent {
  id: string;
  customer_id: string;
  hotel_id: string | null;
  email: string;
  sent_at: string;
}

/**
 * Guests whose address died (the relay answers 550 5.1.1 at once: a hard bounce) or whose mailbox
 * filled up (accepted, then a DSN 5.2.2 half an hour later: a soft bounce) at some moment of the 90
 * days; drawn once per guest, in external id order, so a guest bounces in every mail that reaches
 * them from then on (until suppressed). Rates far below protection's thresholds (issue 25: 5 % hard
 * bounces).
 */
export interface TTrait {
  kind: 'dead' | 'full';
  since: number;
}
const DEAD_SHARE = 0.02;
const FULL_SHARE = 0.01;

/** Each guest's trait (see TTrait), drawn in external id order with its own seeded random. */
export async function drawTraits(
  rt: TRuntime,
  brandId: string,
  from: number,
  to: number,
): Promise<Map<string, TTrait>> {
  const guests = await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
    selectRows<{ id: string }>(
      tx,
      sql`select id from customers where brand_id = ${brandId}::uuid order by external_guest_id, id`,
    ),
  );
  const random = seededRandom(20_261_127);
  const traits = new Map<string, TTrait>();
  for (const g of guests) {
    const r = random();
    const since = from + random() * (to - from);
    if (r < DEAD_SHARE) traits.set(g.id, { kind: 'dead', since });
    else if (r < DEAD_SHARE + FULL_SHARE) traits.set(g.id, { kind: 'full', since });
  }
  return traits;
}

/** The relay's answer to one mail of the demo history, as the send records answers. */
function relayAnswer(d: TClaimed, trait: TTrait | undefined, at: Date, fromAddress: string): TOutcome {
  const base = { id: d.id, customerId: d.customer_id };
  if (trait?.kind !== 'dead' || at.getTime() < trait.since)
    return {
      ...base,
      status: 'sent',
      messageId: `<${d.id}@demo-history>`,
      error: null,
      nextAttemptAt: null,
      hardBounce: false,
    };
  const text = `550 5.1.1 <${d.email ?? ''}>: Recipient address rejected: User unknown in virtual mailbox table`;
  const classified = classifyAnswer({ smtpCode: 550, diagnostic: text, final: true });
  return {
    ...base,
    status: 'failed',
    messageId: null,
    error: text,
    nextAttemptAt: null,
    hardBounce: classified.kind === 'hard_bounce',
    feedback: {
      deliveryId: d.id,
      kind: classified.kind,
      source: 'smtp',
      status: classified.status,
      diagnostic: text,
      sendingDomain: fromAddress.slice(fromAddress.lastIndexOf('@') + 1),
    },
  };
}

/** Who sent the history's mails: the brand's sending identity. */
export interface TPastSender {
  brandId: string;
  fromAddress: string;
  frequencyCap: { count: number; days: number };
}

/** Claims of this many deliveries, this far apart: 300 mails a minute. */
const BATCH = 500;
const BATCH_MS = 100_000;

/**
 * The send of a campaign's queued deliveries from `sendAt`, by the send path's own statements at
 * past moments: a claim of BATCH deliveries every BATCH_MS (a few hundred a minute), handed over
 * and answered by the relay: 250 for most, 550 5.1.1 for a dead address (classified and applied by
 * the deliverability rules in recordOutcomes: a hard bounce, the address suppressed from then on).
 * Answers the mails accepted (in external id order) and the moment of the last answer.
 */
export async function sendInThePast(
  tx: TTx,
  campaign: TPastSender & { id: string },
  traits: Map<string, TTrait>,
  sendAt: Date,
): Promise<{ rows: TSent[]; finished: Date }> {
  const outcome = (
    d: { id: string; hotel_id: string | null },
    o: 'sent' | 'skipped' | 'failed',
    at: Date,
  ): TDeliveryOutcome => ({
    deliveryId: d.id,
    campaignId: campaign.id,
    brandId: campaign.brandId,
    hotelId: d.hotel_id,
    outcome: o,
    at,
    // The deliverability view per sending domain counts them against the sender's domain.
    sendingDomain: senderDomainOf(campaign.fromAddress),
  });
  const claim = { workerId: randomUUID(), token: randomUUID() };
  let finished = sendAt;
  for (let step = 0; ; step++) {
    const at = new Date(sendAt.getTime() + step * BATCH_MS);
    const claimed = await claimBatch(tx, campaign.id, BATCH, undefined, claim, campaign.frequencyCap, at);
    if (claimed.length === 0) break;
    const sending = claimed.filter((d) => d.status === 'sending');
    const handed = await handSend(
      tx,
      campaign.id,
      claim.token,
      sending.map((d) => d.id),
      at,
    );
    await recordDeliveryOutcomes(tx, [
      ...claimed.filter((d) => d.status === 'skipped').map((d) => outcome(d, 'skipped', at)),
      ...handed.filter((d) => d.status === 'skipped').map((d) => outcome(d, 'skipped', at)),
    ]);
    const answeredAt = new Date(at.getTime() + BATCH_MS / 2);
    finished = answeredAt;
    const go = new Set(handed.filter((d) => d.status === 'sending').map((d) => d.id));
    const answers: TOutcome[] = sending
      .filter((d) => go.has(d.id))
      .map((d) => relayAnswer(d, traits.get(d.customer_id), answeredAt, campaign.fromAddress));
    const recorded = await recordOutcomes(tx, claim.token, answers, answeredAt);
    const bounced = new Set(answers.filter((o) => o.hardBounce).map((o) => o.id));
    await recordDeliveryOutcomes(
      tx,
      recorded
        .filter((r) => r.status === 'sent' || r.status === 'failed')
        .map((r) => ({ ...outcome(r, r.status as 'sent' | 'failed', answeredAt), bounce: bounced.has(r.id) })),
    );
  }
  const rows = await selectRows<TSent>(
    tx,
    sql`select d.id, d.customer_id, d.hotel_id, d.email, to_char(d.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as sent_at
      from deliveries d join customers c on c.id = d.customer_id
      where d.campaign_id = ${campaign.id}::uuid and d.status = 'sent' and d.sent_at >= ${sendAt.toISOString()}::timestamptz
      order by c.external_guest_id, d.id`,
  );
  return { rows, finished };
}

interface TReport {
  kind: 'dsn' | 'arf';
  delivery: TSent;
  subject: string;
  at: Date;
}

/**
 * What follows the mails of the past, waiting for the timeline to reach its moment: opens, machine
 * opens and clicks (written by the tracking routes' batch writer, `writeEvents`), unsubscribes (the
 * guest's own one-click path, `unsubscribeGuest`), and the reports that came back to the
 * deliveries' return paths (full mailboxes' DSNs, complaints' ARF reports).
 */
export class PastAftermath {
  #events: TPendingEvent[] = [];
  #unsubscribes: { deliveryId: string; customerId: string; at: Date }[] = [];
  #reports: TReport[] = [];
  readonly #keys: ReturnType<typeof keysOf>;

  constructor(
    private readonly rt: TRuntime,
    private readonly brandId: string,
    private readonly fromAddress: string,
    private readonly traits: Map<string, TTrait>,
    private readonly random: () => number,
  ) {
    this.#keys = keysOf(rt);
  }

  /**
   * What follows one send: about a quarter of the mails fetched at once by Apple's privacy proxy
   * (machine opens), about a third opened by a person (some twice), a fifth of those clicked, a
   * few unsubscribed; a guest who booked within the week after the mail clicked it before booking
   * with a probability of one half (the bookings the attribution then finds); `complaints` of those
   * who opened it and neither clicked nor unsubscribed reported it as spam; a full mailbox's DSN
   * half an hour after the mail.
   */
  async follow(rows: TSent[], sendAt: Date, subject: string, href: string, complaints = 0): Promise<void> {
    const full = (d: TSent) => {
      const t = this.traits.get(d.customer_id);
      return t?.kind === 'full' && Date.parse(d.sent_at) >= t.since;
    };
    for (const d of rows.filter(full))
      this.#reports.push({ kind: 'dsn', delivery: d, subject, at: new Date(Date.parse(d.sent_at) + 30 * 60_000) });
    const delivered = rows.filter((d) => !full(d));
    if (delivered.length === 0) return;
    const random = this.random;
    const booked = await this.bookedWithinAWeek(delivered, sendAt);
    const uncaring: { delivery: TSent; at: Date }[] = [];
    const hours = () => -Math.log(1 - random() * 0.999) * 10;
    for (const d of delivered) {
      const sentAt = Date.parse(d.sent_at);
      if (random() < 0.25)
        this.#events.push({
          kind: 'open',
          deliveryId: d.id,
          at: new Date(sentAt + 1000 + random() * 60_000),
          machine: 'apple_privacy_proxy',
        });
      const bookingDay = booked.get(d.customer_id);
      const converts = bookingDay !== undefined && random() < 0.5;
      const opens = converts || random() < 0.32;
      if (!opens) continue;
      let openAt = sentAt + 60_000 + hours() * HOUR;
      if (converts) {
        // Clicked on or before the day of booking (the booking day's end in JST at the latest).
        const dayEnd = Date.parse(`${bookingDay}T00:00:00Z`) - JST + DAY - 60_000;
        openAt = Math.min(openAt, sentAt + 60_000 + random() * Math.max(0, dayEnd - sentAt - 120_000));
      }
      this.#events.push({ kind: 'open', deliveryId: d.id, at: new Date(openAt) });
      if (random() < 0.2)
        this.#events.push({ kind: 'open', deliveryId: d.id, at: new Date(openAt + hours() * HOUR * 3) });
      if (converts || random() < 0.2)
        this.#events.push({ kind: 'click', deliveryId: d.id, at: new Date(openAt + 30_000), linkIndex: 0, url: href });
      else if (random() < 0.012)
        this.#unsubscribes.push({ deliveryId: d.id, customerId: d.customer_id, at: new Date(openAt + 90_000) });
      else uncaring.push({ delivery: d, at: new Date(openAt + 2 * HOUR) });
    }
    for (let i = 0; i < complaints && uncaring.length > 0; i++) {
      const [c] = uncaring.splice(Math.floor(random() * uncaring.length), 1);
      if (c) this.#reports.push({ kind: 'arf', delivery: c.delivery, subject, at: c.at });
    }
  }

  private async bookedWithinAWeek(rows: TSent[], sendAt: Date): Promise<Map<string, string>> {
    const rowsOf = await withTenant(this.rt.database.db, { scopeAll: false, brandId: this.brandId }, (tx) =>
      selectRows<{ customer_id: string; day: string }>(
        tx,
        sql`select customer_id, to_char(min(booking_date), 'YYYY-MM-DD') as day from bookings
          where brand_id = ${this.brandId} and status <> 'cancelled'
            and booking_date between ${jstDay(sendAt.getTime())}::date and ${jstDay(sendAt.getTime() + 6 * DAY)}::date
            and customer_id = any(${sql.param(rows.map((r) => r.customer_id))}::uuid[])
          group by customer_id`,
      ),
    );
    return new Map(rowsOf.map((b) => [b.customer_id, b.day]));
  }

  /** Applies what happened up to `until`, in order of its moments; later things keep waiting. */
  async reach(until: Date): Promise<void> {
    const t = until.getTime();
    const due = <T extends { at: Date }>(list: T[]): [T[], T[]] => [
      list.filter((x) => x.at.getTime() <= t).sort((a, b) => a.at.getTime() - b.at.getTime()),
      list.filter((x) => x.at.getTime() > t),
    ];
    const [events, laterEvents] = due(this.#events);
    const [unsubscribes, laterUnsubscribes] = due(this.#unsubscribes);
    const [reports, laterReports] = due(this.#reports);
    this.#events = laterEvents;
    this.#unsubscribes = laterUnsubscribes;
    this.#reports = laterReports;
    if (events.length) await writeEvents(this.rt, events);
    for (const u of unsubscribes)
      await unsubscribeGuest(this.rt, signUnsubscribe(this.#keys, u.deliveryId, u.customerId), 'one_click', u.at);
    await this.receive(reports);
  }

  /**
   * The reports that came back to the deliveries' return paths (VERP), made as the embedded sink
   * makes them (report-messages.ts), read by the feedback receiver's own reader (`feedbackOf`) and
   * applied by the deliverability rules at their past moment (`applyFeedback` with `at`): a full
   * mailbox soft-bounces (suppressed for 30 days once 3 of the guest's last 5 sends did), a
   * complaint unsubscribes the guest from all of the brand's marketing and suppresses the address.
   */
  private async receive(reports: TReport[]): Promise<void> {
    if (reports.length === 0) return;
    const fromAddress = this.fromAddress;
    const sendingDomain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
    const found: { feedback: TFeedback; at: Date }[] = [];
    for (const r of reports) {
      const to = returnPathFor(this.rt, r.delivery.id, fromAddress);
      const input = {
        to,
        recipient: r.delivery.email,
        reportingMta: `mx.${r.delivery.email.slice(r.delivery.email.lastIndexOf('@') + 1)}`,
        originalHeaders: [
          `Return-Path: <${to}>`,
          `From: ${fromAddress}`,
          `To: ${r.delivery.email}`,
          `Subject: ${r.subject}`,
          `Message-ID: <${r.delivery.id}@demo-history>`,
        ].join('\r\n'),
      };
      const raw =
        r.kind === 'dsn'
          ? deliveryStatusNotification({
              ...input,
              status: '5.2.2',
              diagnostic: `552 5.2.2 <${r.delivery.email}>: Mailbox full (quota exceeded)`,
            })
          : complaintReport(input);
      const read = feedbackOf(raw, { address: to, deliveryId: r.delivery.id, brandId: this.brandId, sendingDomain });
      if ('unparsed' in read) throw new Error(`demo history: an unreadable ${r.kind} report (${read.unparsed})`);
      found.push({ feedback: read, at: r.at });
    }
    // Reports that arrived at the same moment (a batch's DSNs) are applied together, as a
    // receiver's batch would be; in order of arrival.
    await withTenant(this.rt.database.db, { scopeAll: false, brandId: this.brandId }, async (tx) => {
      for (let i = 0; i < found.length;) {
        const at = found[i]!.at.getTime();
        let j = i;
        while (j < found.length && found[j]!.at.getTime() === at) j++;
        await applyFeedback(
          tx,
          found.slice(i, j).map((f) => f.feedback),
          new Date(at),
        );
        i = j;
      }
    });
  }
}
