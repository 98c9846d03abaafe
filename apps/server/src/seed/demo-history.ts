import { senderDomainOf, ZTemplateContent } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { audienceSql, snapshotAudience } from '../modules/campaigns/audience.ts';
import { holdUses, releaseUses } from '../modules/campaigns/campaign-uses.ts';
import { finishIfDone, markStarted, skippedAtStart } from '../modules/campaigns/send-queries.ts';
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
 * and the start of the send (`snapshotAudience`, `markStarted`), each delivery's outcome with its
 * rollups (`recordDeliveryOutcomes`), opens, machine opens and clicks (`writeEvents`, the batch
 * writer of the tracking routes), unsubscribes (`unsubscribeGuest`, the guest's own one-click
 * path) and conversions (`attributeConversions`, the booking sync's attribution, run as the daily
 * syncs of those days would have run it over the simulator's bookings). No mail is sent: the past
 * deliveries are recorded as the relay's 2xx answer, at their past time. Deterministic: a seeded
 * random draws who opens, clicks and unsubscribes, over guests in their external id order.
 *
 * Marked as demo history: the campaigns' names end with DEMO_HISTORY_MARK, and their template and
 * segments say so in their descriptions.
 */

export const DEMO_HISTORY_MARK = '（デモ履歴）';
export const DEMO_HISTORY_DAYS = 90;
/** The brand with a history (the one with a verified sending domain). */
export const DEMO_HISTORY_BRAND = 'sakura-hotels';

/** The history's campaigns: days before today, the hotels they went to (by slug), subject, link. */
const CAMPAIGNS: { daysAgo: number; hotels: string[]; name: string; preheader: string; href: string }[] = [
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
  sent_at: string;
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
        o: 'sent' | 'skipped',
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
      // The relay's 2xx answers, a few hundred a minute, as the send records them.
      const rows = await selectRows<TSent>(
        tx,
        sql`with ordered as (
            select d.id, row_number() over (order by c.external_guest_id, d.id) as n
            from deliveries d join customers c on c.id = d.customer_id
            where d.campaign_id = ${campaignId}::uuid and d.status = 'queued')
          update deliveries d set status = 'sent', attempts = 1,
            sent_at = ${sendAt.toISOString()}::timestamptz + o.n * interval '200 milliseconds'
          from ordered o where d.id = o.id
          returning d.id, d.customer_id, d.hotel_id, d.sent_at`,
      );
      rows.sort((a, b) => Date.parse(a.sent_at) - Date.parse(b.sent_at) || a.id.localeCompare(b.id));
      await recordDeliveryOutcomes(
        tx,
        rows.map((d) => outcome(d, 'sent', new Date(d.sent_at))),
      );
      const last = rows.at(-1);
      if (await finishIfDone(tx, campaignId, last ? new Date(last.sent_at) : sendAt))
        await releaseUses(tx, campaignId, 'sent');
      return { campaignId, rows };
    });
    sent++;
    await engage(rt, brandId, plan.href, sendAt, deliveries.rows, random, keys, now);
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
): Promise<void> {
  if (rows.length === 0) return;
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
  }
  const past = events.filter((e) => e.at.getTime() <= now.getTime()).sort((a, b) => a.at.getTime() - b.at.getTime());
  await writeEvents(rt, past);
  for (const u of unsubscribes.filter((x) => x.at.getTime() <= now.getTime()))
    await unsubscribeGuest(rt, signUnsubscribe(keys, u.deliveryId, u.customerId), 'one_click', u.at);
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
