import { randomUUID } from 'node:crypto';
import { senderDomainOf, ZTemplateContent } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { audienceSql, snapshotAudience } from '../modules/campaigns/audience.ts';
import { holdUses, releaseUses } from '../modules/campaigns/campaign-uses.ts';
import {
  claimBatch,
  finishIfDone,
  handSend,
  markStarted,
  recordOutcomes,
  skippedAtStart,
  type TClaimed,
  type TOutcome,
} from '../modules/campaigns/send-queries.ts';
import { applyFeedback, type TFeedback } from '../modules/deliverability/apply-feedback.ts';
import { classifyAnswer } from '../modules/deliverability/classify.ts';
import { feedbackOf } from '../modules/deliverability/feedback-receiver.ts';
import { complaintReport, deliveryStatusNotification } from '../modules/deliverability/report-messages.ts';
import { returnPathFor } from '../modules/deliverability/verp.ts';
import { syncBookings } from '../modules/booking/sync-bookings.ts';
import { resolveSendingIdentity } from '../modules/sending/email-settings.ts';
import { attributeConversions } from '../modules/tracking/attribute-conversions.ts';
import { keysOf, signUnsubscribe } from '../modules/tracking/links.ts';
import { writeEvents, type TPendingEvent } from '../modules/tracking/record-events.ts';
import { recordDeliveryOutcomes, type TDeliveryOutcome } from '../modules/tracking/rollups.ts';
import { unsubscribeGuest } from '../modules/tracking/unsubscribe.ts';

/**
 * The demo's history, on the first start of the embedded product: さくらホテルズ has sent
 * campaigns for the last 90 days, to its real (synced) guests, so the dashboard, its charts, the
 * week-before comparison and the campaign statistics show a hotel's email marketing in use.
 *
 * Everything goes through the product's own write paths with past instants: the audience snapshot
 * and the start of the send (`snapshotAudience`, `markStarted`), the send's claims, hand-overs and
 * relay answers (`claimBatch`, `handSend`, `recordOutcomes`) with their rollups
 * (`recordDeliveryOutcomes`), bounces and complaints (the relay's 5xx through `recordOutcomes`,
 * DSN and ARF reports read by the feedback receiver's `feedbackOf` and applied by `applyFeedback`),
 * opens, machine opens and clicks (`writeEvents`, the batch writer of the tracking routes),
 * unsubscribes (`unsubscribeGuest`, the guest's own one-click path) and conversions
 * (`attributeConversions`, the booking sync's attribution, run as the daily syncs of those days
 * would have run it over the simulator's bookings). No mail is sent: the relay's answers are the
 * ones given here, at their past time. Deterministic in who: seeded randoms draw whose address
 * dies or mailbox fills up and when, and who opens, clicks, unsubscribes and complains, over
 * guests in their external id order.
 *
 * Marked as demo history: the campaigns' names end with DEMO_HISTORY_MARK, and their template and
 * segments say so in their descriptions.
 */

export const DEMO_HISTORY_MARK = '（デモ履歴）';
export const DEMO_HISTORY_DAYS = 90;
/** The brand with a history (the one with a verified sending domain). */
export const DEMO_HISTORY_BRAND = 'sakura-hotels';

/** The history's campaigns: days before today, the hotels they went to (by slug), subject, link. */
const CAMPAIGNS: {
  daysAgo: number;
  hotels: string[];
  name: string;
  preheader: string;
  href: string;
  /** Guests who pressed "report spam" on it (an ARF report from their provider). */
  complaints?: number;
}[] = [
  {
    daysAgo: 88,
    hotels: ['sakura-kyoto'],
    name: '京都 秋の紅葉プラン',
    preheader: '東山の紅葉と朝食付きプラン',
    href: 'https://sakura-hotels.example.jp/kyoto/autumn',
  },
  {
    daysAgo: 74,
    hotels: ['sakura-hakone'],
    name: '箱根 露天風呂付き客室のご案内',
    preheader: '平日限定の特別料金',
    href: 'https://sakura-hotels.example.jp/hakone/rooms',
  },
  {
    daysAgo: 60,
    hotels: ['sakura-shinjuku', 'sakura-yokohama'],
    name: '関東エリア 週末ステイ',
    preheader: 'レイトチェックアウト無料',
    href: 'https://sakura-hotels.example.jp/kanto/weekend',
    complaints: 1,
  },
  {
    daysAgo: 46,
    hotels: ['sakura-kyoto', 'sakura-hakone'],
    name: '年末年始のご予約受付開始',
    preheader: 'お早めのご予約で10%オフ',
    href: 'https://sakura-hotels.example.jp/new-year',
  },
  {
    daysAgo: 32,
    hotels: ['sakura-yokohama'],
    name: '横浜 クリスマスディナー付きプラン',
    preheader: 'みなとみらいの夜景とともに',
    href: 'https://sakura-hotels.example.jp/yokohama/christmas',
  },
  {
    daysAgo: 18,
    hotels: ['sakura-shinjuku'],
    name: '新宿 ビジネス連泊プラン',
    preheader: '3泊以上で朝食無料',
    href: 'https://sakura-hotels.example.jp/shinjuku/business',
  },
  {
    daysAgo: 11,
    hotels: ['sakura-kyoto'],
    name: '京都 冬の特別拝観と宿泊',
    preheader: '非公開文化財の特別公開',
    href: 'https://sakura-hotels.example.jp/kyoto/winter',
  },
  {
    daysAgo: 4,
    hotels: ['sakura-shinjuku', 'sakura-yokohama', 'sakura-kyoto'],
    name: '会員様限定 冬のタイムセール',
    preheader: '72時間限定 最大30%オフ',
    href: 'https://sakura-hotels.example.jp/sale',
    complaints: 1,
  },
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Japan has no daylight saving: a JST wall time is UTC plus nine hours. */
const JST = 9 * HOUR;

/** A small seeded generator (mulberry32): the same history on every first start. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Midnight JST of the day `daysAgo` before `now`'s JST day, as an instant. */
function jstMidnight(now: Date, daysAgo: number): number {
  return Math.floor((now.getTime() + JST) / DAY) * DAY - JST - daysAgo * DAY;
}

const jstDay = (t: number) => new Date(t + JST).toISOString().slice(0, 10);

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

function templateContents(name: string, preheader: string, href: string) {
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

interface TSent {
  id: string;
  customer_id: string;
  hotel_id: string | null;
  email: string;
  sent_at: string;
}

/** Claims of this many deliveries, this far apart: 300 mails a minute. */
const BATCH = 500;
const BATCH_MS = 100_000;

/**
 * Guests whose address died (the relay answers 550 5.1.1 at once: a hard bounce) or whose mailbox
 * filled up (accepted, then a DSN 5.2.2 half an hour later: a soft bounce) at some moment of the 90
 * days; drawn once per guest, in external id order, so a guest bounces in every campaign that
 * reaches them from then on (until suppressed). Rates far below protection's thresholds (issue 25:
 * 5 % hard bounces).
 */
interface TTrait {
  kind: 'dead' | 'full';
  since: number;
}
const DEAD_SHARE = 0.02;
const FULL_SHARE = 0.01;

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

/** Seeds the history once (first start only); answers how many campaigns it sent. */
export async function seedDemoHistory(rt: TRuntime, now = new Date()): Promise<number> {
  const db = rt.database.db;
  const [brand] = await withTenant(db, { scopeAll: true, brandId: null }, (tx) =>
    selectRows<{ id: string }>(
      tx,
      sql`select b.id from hosts b join booking_connections c on c.brand_id = b.id where b.slug = ${DEMO_HISTORY_BRAND}`,
    ),
  );
  if (!brand) return 0;
  const brandId = brand.id;
  const identity = await resolveSendingIdentity(rt, brandId);
  if (!identity.ok) return 0;
  const inBrand = <T>(fn: (tx: TTx) => Promise<T>) => withTenant(db, { scopeAll: false, brandId }, fn);
  // The guests and their bookings first: the campaigns went to them. (The queued first sync then
  // finds nothing new.)
  await syncBookings(rt, { brandId, trigger: 'connect' });
  const hotels = new Map(
    (
      await inBrand((tx) =>
        selectRows<{ id: string; slug: string }>(
          tx,
          sql`select id, slug from hosts where brand_id = ${brandId} and level = 'hotel'`,
        ),
      )
    ).map((h) => [h.slug, h.id]),
  );
  const traits = await drawTraits(rt, brandId, jstMidnight(now, DEMO_HISTORY_DAYS), now.getTime());
  const random = seeded(20_261_126);
  const keys = keysOf(rt);
  let sent = 0;
  for (const plan of CAMPAIGNS) {
    const sendAt = new Date(jstMidnight(now, plan.daysAgo) + 10 * HOUR);
    if (sendAt.getTime() > now.getTime()) continue;
    const hotelIds = plan.hotels.map((slug) => hotels.get(slug)).filter((id): id is string => !!id);
    const deliveries = await inBrand(async (tx) => {
      const filter = {
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
      const [segment] = await selectRows<{ id: string }>(
        tx,
        sql`insert into segments (brand_id, host_id, name, description, type, filter)
          values (${brandId}::uuid, ${brandId}::uuid, ${`${plan.name}の対象`}, 'デモ履歴: 過去のキャンペーンの対象', 'dynamic', ${JSON.stringify(filter)}::jsonb) returning id`,
      );
      const [template] = await selectRows<{ id: string }>(
        tx,
        sql`insert into templates (brand_id, host_id, name, description, default_language, contents)
          values (${brandId}::uuid, ${brandId}::uuid, ${plan.name}, 'デモ履歴のテンプレート', 'ja', ${JSON.stringify(templateContents(plan.name, plan.preheader, plan.href))}::jsonb) returning id`,
      );
      const [campaign] = await selectRows<{ id: string }>(
        tx,
        sql`insert into campaigns (brand_id, host_id, name, subject, pre_header, template_id, status, schedule_kind, send_at, created_at, updated_at)
          values (${brandId}::uuid, ${brandId}::uuid, ${plan.name + DEMO_HISTORY_MARK}, ${plan.name}, ${plan.preheader}, ${template!.id}::uuid, 'scheduled', 'at',
            ${sendAt.toISOString()}::timestamptz, ${new Date(sendAt.getTime() - 3 * DAY).toISOString()}::timestamptz, ${sendAt.toISOString()}::timestamptz) returning id`,
      );
      const campaignId = campaign!.id;
      await tx.execute(
        sql`insert into campaign_segments (campaign_id, segment_id, brand_id) values (${campaignId}::uuid, ${segment!.id}::uuid, ${brandId}::uuid)`,
      );
      await holdUses(tx, campaignId, 'scheduled');
      // The send's start, at its past moment: the audience snapshot and the frequency cap then.
      const audience = await audienceSql(
        tx,
        { brandId, hostId: brandId, hostLevel: 'brand' },
        [segment!.id],
        [],
        sendAt,
      );
      const size = await snapshotAudience(tx, campaignId, audience, identity.identity.frequencyCap, sendAt);
      await markStarted(tx, campaignId, size, sendAt);
      const outcome = (
        d: { id: string; hotel_id: string | null },
        o: 'sent' | 'skipped' | 'failed',
        at: Date,
      ): TDeliveryOutcome => ({
        deliveryId: d.id,
        campaignId,
        brandId,
        hotelId: d.hotel_id,
        outcome: o,
        at,
        // The deliverability view per sending domain counts them against the sender's domain.
        sendingDomain: senderDomainOf(identity.identity.from.address),
      });
      await recordDeliveryOutcomes(
        tx,
        (await skippedAtStart(tx, campaignId)).map((d) => outcome(d, 'skipped', sendAt)),
      );
      // The send, by the send path's own statements at past moments: a claim of BATCH deliveries
      // every BATCH_MS (a few hundred a minute), handed over and answered by the relay: 250 for
      // most, 550 5.1.1 for a dead address (classified and applied by the deliverability rules in
      // recordOutcomes: a hard bounce, the address suppressed from then on).
      const claim = { workerId: randomUUID(), token: randomUUID() };
      const cap = identity.identity.frequencyCap;
      let finished = sendAt;
      for (let step = 0; ; step++) {
        const at = new Date(sendAt.getTime() + step * BATCH_MS);
        const claimed = await claimBatch(tx, campaignId, BATCH, undefined, claim, cap, at);
        if (claimed.length === 0) break;
        const sending = claimed.filter((d) => d.status === 'sending');
        const handed = await handSend(
          tx,
          campaignId,
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
          .map((d) => relayAnswer(d, traits.get(d.customer_id), answeredAt, identity.identity.from.address));
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
          where d.campaign_id = ${campaignId}::uuid and d.status = 'sent' order by c.external_guest_id, d.id`,
      );
      if (await finishIfDone(tx, campaignId, finished)) await releaseUses(tx, campaignId, 'sent');
      return { campaignId, rows };
    });
    sent++;
    const full = (d: TSent) => {
      const t = traits.get(d.customer_id);
      return t?.kind === 'full' && Date.parse(d.sent_at) >= t.since;
    };
    const delivered = deliveries.rows.filter((d) => !full(d));
    const complaints = await engage(rt, brandId, plan.href, sendAt, delivered, random, keys, now, plan.complaints ?? 0);
    // What came back after the relay accepted: full mailboxes' DSNs half an hour later, and the
    // complaints' ARF reports, read and applied as the feedback receiver does.
    const reports: TReport[] = [
      ...deliveries.rows
        .filter(full)
        .map((d) => ({ kind: 'dsn' as const, delivery: d, at: new Date(Date.parse(d.sent_at) + 30 * 60_000) })),
      ...complaints.map((c) => ({ kind: 'arf' as const, delivery: c.delivery, at: c.at })),
    ];
    await receiveReports(rt, brandId, identity.identity.from.address, plan.name, reports, now);
  }
  await attributePastBookings(rt, brandId, jstMidnight(now, DEMO_HISTORY_DAYS), now);
  return sent;
}

/**
 * Who opened, clicked and unsubscribed: about a quarter of the mails fetched at once by Apple's
 * privacy proxy (machine opens), about a third opened by a person (some twice), a fifth of those
 * clicked, a few unsubscribed; and a guest who booked within the week after the mail clicked it
 * before booking with a probability of one half (the bookings the attribution then finds).
 */
async function engage(
  rt: TRuntime,
  brandId: string,
  href: string,
  sendAt: Date,
  rows: TSent[],
  random: () => number,
  keys: ReturnType<typeof keysOf>,
  now: Date,
  complaintsWanted: number,
): Promise<{ delivery: TSent; at: Date }[]> {
  if (rows.length === 0) return [];
  const sendDay = jstDay(sendAt.getTime());
  const lastDay = jstDay(sendAt.getTime() + 6 * DAY);
  const booked = new Map(
    (
      await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
        selectRows<{ customer_id: string; day: string }>(
          tx,
          sql`select customer_id, to_char(min(booking_date), 'YYYY-MM-DD') as day from bookings
            where brand_id = ${brandId} and status <> 'cancelled' and booking_date between ${sendDay}::date and ${lastDay}::date
              and customer_id = any(${sql.param(rows.map((r) => r.customer_id))}::uuid[])
            group by customer_id`,
        ),
      )
    ).map((b) => [b.customer_id, b.day]),
  );
  const events: TPendingEvent[] = [];
  const unsubscribes: { deliveryId: string; customerId: string; at: Date }[] = [];
  const uncaring: { delivery: TSent; at: Date }[] = [];
  const hours = () => -Math.log(1 - random() * 0.999) * 10;
  for (const d of rows) {
    const sentAt = Date.parse(d.sent_at);
    if (random() < 0.25)
      events.push({
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
    events.push({ kind: 'open', deliveryId: d.id, at: new Date(openAt) });
    if (random() < 0.2) events.push({ kind: 'open', deliveryId: d.id, at: new Date(openAt + hours() * HOUR * 3) });
    if (converts || random() < 0.2)
      events.push({ kind: 'click', deliveryId: d.id, at: new Date(openAt + 30_000), linkIndex: 0, url: href });
    else if (random() < 0.012)
      unsubscribes.push({ deliveryId: d.id, customerId: d.customer_id, at: new Date(openAt + 90_000) });
    else uncaring.push({ delivery: d, at: new Date(openAt + 2 * HOUR) });
  }
  // Who reported it as spam: guests who opened it and neither clicked nor unsubscribed.
  const complaints: { delivery: TSent; at: Date }[] = [];
  for (let i = 0; i < complaintsWanted && uncaring.length > 0; i++)
    complaints.push(...uncaring.splice(Math.floor(random() * uncaring.length), 1));
  const past = events.filter((e) => e.at.getTime() <= now.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());
  await writeEvents(rt, past);
  for (const u of unsubscribes.filter((x) => x.at.getTime() <= now.getTime()))
    await unsubscribeGuest(rt, signUnsubscribe(keys, u.deliveryId, u.customerId), 'one_click', u.at);
  return complaints.filter((c) => c.at.getTime() <= now.getTime());
}

/** Each guest's trait (see TTrait), drawn in external id order with its own seeded random. */
async function drawTraits(rt: TRuntime, brandId: string, from: number, to: number): Promise<Map<string, TTrait>> {
  const guests = await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
    selectRows<{ id: string }>(
      tx,
      sql`select id from customers where brand_id = ${brandId}::uuid order by external_guest_id, id`,
    ),
  );
  const random = seeded(20_261_127);
  const traits = new Map<string, TTrait>();
  for (const g of guests) {
    const r = random();
    const since = from + random() * (to - from);
    if (r < DEAD_SHARE) traits.set(g.id, { kind: 'dead', since });
    else if (r < DEAD_SHARE + FULL_SHARE) traits.set(g.id, { kind: 'full', since });
  }
  return traits;
}

interface TReport {
  kind: 'dsn' | 'arf';
  delivery: TSent;
  at: Date;
}

/**
 * The reports that came back to the deliveries' return paths (VERP), made as the embedded sink
 * makes them (report-messages.ts), read by the feedback receiver's own reader (`feedbackOf`) and
 * applied by the deliverability rules at their past moment (`applyFeedback` with `at`): a full
 * mailbox soft-bounces (suppressed for 30 days once 3 of the guest's last 5 sends did), a
 * complaint unsubscribes the guest from all of the brand's marketing and suppresses the address.
 */
async function receiveReports(
  rt: TRuntime,
  brandId: string,
  fromAddress: string,
  subject: string,
  reports: TReport[],
  now: Date,
): Promise<void> {
  const sendingDomain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const due = reports.filter((r) => r.at.getTime() <= now.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());
  if (due.length === 0) return;
  // Reports that arrived at the same moment (a batch's DSNs) are applied together, as a
  // receiver's batch would be; in order of arrival.
  const found: { feedback: TFeedback; at: Date }[] = [];
  for (const r of due) {
    const to = returnPathFor(rt, r.delivery.id, fromAddress);
    const input = {
      to,
      recipient: r.delivery.email,
      reportingMta: `mx.${r.delivery.email.slice(r.delivery.email.lastIndexOf('@') + 1)}`,
      originalHeaders: [
        `Return-Path: <${to}>`,
        `From: ${fromAddress}`,
        `To: ${r.delivery.email}`,
        `Subject: ${subject}`,
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
    const read = feedbackOf(raw, { address: to, deliveryId: r.delivery.id, brandId, sendingDomain });
    if ('unparsed' in read) throw new Error(`demo history: an unreadable ${r.kind} report (${read.unparsed})`);
    found.push({ feedback: read, at: r.at });
  }
  await withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) => {
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

/**
 * The bookings of each past day, attributed as that day's booking sync would have (at 01:00 JST
 * the next morning), by the sync's own attribution; today's at the moment of the seed.
 */
async function attributePastBookings(rt: TRuntime, brandId: string, from: number, now: Date): Promise<void> {
  const days = await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
    selectRows<{ day: string; ids: string[] }>(
      tx,
      sql`select to_char(b.booking_date, 'YYYY-MM-DD') as day, array_agg(b.external_id order by b.external_id) as ids
        from bookings b where b.brand_id = ${brandId} and b.booking_date >= ${jstDay(from)}::date and b.status <> 'cancelled'
          and exists (select 1 from delivery_engagement e where e.brand_id = ${brandId} and e.customer_id = b.customer_id and e.clicked_at is not null)
        group by b.booking_date order by b.booking_date`,
    ),
  );
  for (const { day, ids } of days) {
    const at = new Date(Math.min(Date.parse(`${day}T01:00:00Z`) - JST + DAY, now.getTime()));
    await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) => attributeConversions(tx, brandId, ids, at));
  }
}
