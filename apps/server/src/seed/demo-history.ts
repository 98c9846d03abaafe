import { senderDomainOf } from '@yado/contracts';
import { zonedToInstant } from '@yado/contracts/scenarios';
import { sql } from 'drizzle-orm';
import { selectRows, withTenant } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { seededRandom } from '../seeded-random.ts';
import { audienceSql, snapshotAudience } from '../modules/campaigns/audience.ts';
import { holdUses, releaseUses } from '../modules/campaigns/campaign-uses.ts';
import { finishIfDone, markStarted, skippedAtStart } from '../modules/campaigns/send-queries.ts';
import { syncBookings } from '../modules/booking/sync-bookings.ts';
import { countUncountedSegments } from '../modules/segments/segment-operations.ts';
import { resolveSendingIdentity } from '../modules/sending/email-settings.ts';
import { attributeConversions } from '../modules/tracking/attribute-conversions.ts';
import { recordDeliveryOutcomes } from '../modules/tracking/rollups.ts';
import { addDays, localDay } from '../modules/dashboard/dashboard-window.ts';
import { countCustomers, saveCountDay, scopeHotels, type TScopeHost } from '../modules/dashboard/queries.ts';
import { DEMO_JOURNEY_DAYS, startDemoJourneys, type TDemoJourneys } from './demo-journeys.ts';
import {
  DAY,
  DEMO_HISTORY_MARK,
  drawTraits,
  HOUR,
  JST,
  jstDay,
  jstMidnight,
  hotelFilter,
  PastAftermath,
  sendInThePast,
  templateContents,
  type TPastSender,
  type TSent,
  type TTrait,
} from './demo-past.ts';

export { DEMO_HISTORY_MARK };

/**
 * The demo's history, on the first start of the embedded product: さくらホテルズ has sent
 * campaigns for the last 90 days, to its real (synced) guests, and has run a birthday scenario all
 * that time (demo-journeys.ts), so the dashboard, its charts, the week-before comparison, the
 * campaign statistics and the scenario's journeys show a hotel's email marketing in use.
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
 * The scenario's journeys are moved by the engine's own tick (`runScenarioTick`) at past moments.
 * One timeline (demo-past.ts): what followed each mail is applied when the timeline reaches its
 * moment, so a send or a journey's branch knows only what came before it.
 *
 * Marked as demo history: the campaigns' and the scenario's names end with DEMO_HISTORY_MARK, and
 * their templates and segments say so in their descriptions.
 */

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
  const sender: TPastSender = {
    brandId,
    fromAddress: identity.identity.from.address,
    frequencyCap: identity.identity.frequencyCap,
  };
  // The guests and their bookings first: the campaigns went to them. (The queued first sync then
  // finds nothing new.) Dated as the booking system's first sync 90 days before would have written them.
  await syncBookings(rt, { brandId, trigger: 'connect' });
  const from = jstMidnight(now, DEMO_HISTORY_DAYS);
  await dateTheGuests(rt, brandId, new Date(from + HOUR));
  const hotels = new Map(
    (
      await withTenant(db, { scopeAll: false, brandId }, (tx) =>
        selectRows<{ id: string; slug: string }>(
          tx,
          sql`select id, slug from hosts where brand_id = ${brandId} and level = 'hotel'`,
        ),
      )
    ).map((h) => [h.slug, h.id]),
  );
  const traits = await drawTraits(rt, brandId, from, now.getTime());
  const aftermath = new PastAftermath(rt, brandId, sender.fromAddress, traits, seededRandom(20_261_126));
  // One timeline, day by day: the scenario's ticks of the morning, then the day's campaign, each
  // after what followed earlier mails up to its moment.
  const writeDays = async (first: number, last: number, journeys?: TDemoJourneys) => {
    let sent = 0;
    for (let daysAgo = first; daysAgo >= last; daysAgo--) {
      await journeys?.runDay(jstMidnight(now, daysAgo), now);
      for (const plan of CAMPAIGNS.filter((c) => c.daysAgo === daysAgo)) {
        const sendAt = new Date(jstMidnight(now, daysAgo) + 10 * HOUR);
        if (sendAt.getTime() > now.getTime()) continue;
        await aftermath.reach(sendAt);
        const rows = await sendPastCampaign(rt, sender, traits, hotels, plan, sendAt);
        await aftermath.follow(rows, sendAt, plan.name, plan.href, plan.complaints ?? 0);
        sent++;
      }
    }
    return sent;
  };
  let sent = await writeDays(DEMO_HISTORY_DAYS, DEMO_JOURNEY_DAYS + 1);
  // From the scenario's start the worker's own ticks and dispatcher are held: they act at today's
  // time, and would take up the journeys and mails written here at past moments.
  const withJourneys = async () => {
    const journeys = await startDemoJourneys(
      rt,
      sender,
      traits,
      aftermath,
      new Date(jstMidnight(now, DEMO_JOURNEY_DAYS)),
    );
    sent += await writeDays(DEMO_JOURNEY_DAYS, 0, journeys);
    await aftermath.reach(now);
  };
  await (rt.clockHold ? rt.clockHold.during(withJourneys) : withJourneys());
  await attributePastBookings(rt, brandId, from, now);
  await keepPastCustomerCounts(rt, brandId, from, now);
  // The segments the seed wrote (the campaigns', the demo campaign's), counted over the synced guests.
  await countUncountedSegments(rt, brandId);
  return sent;
}

/**
 * The brand's guests as its booking system's first sync would have written them at `firstSync`
 * (01:00 JST on the history's first day): the history's campaigns and scenario went to them from
 * then on. Their consent from the booking system, and the opt-outs it brought, date from then too.
 */
async function dateTheGuests(rt: TRuntime, brandId: string, firstSync: Date): Promise<void> {
  const at = sql`${firstSync.toISOString()}::timestamptz`;
  await withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
    tx.execute(sql`update customers set created_at = ${at},
        consent_at = case when consent_source = 'booking_system' then ${at} else consent_at end,
        email_status_changed_at = case when email_status_changed_at is not null then ${at} end
      where brand_id = ${brandId}::uuid`),
  );
}

/**
 * The customer counts the hourly job keeps (keep-daily-customer-counts.ts), for each past day of
 * the history, of the brand, its hotel groups and its hotels: the counts at the day's end in the
 * host's time zone (`countCustomers` as of that moment: the guests' creation by the first sync, the
 * history's unsubscribes and complaints at their moments, the addresses its bounces and complaints
 * had suppressed by then), stored by `saveCountDay`. So the
 * dashboard's "week before" is the data's, not a guess and not missing. A transaction per host:
 * all of them in one held the embedded database's one session for 6 s (90 days of counts for each
 * of a dozen hosts), and every request of a product just started with it.
 */
async function keepPastCustomerCounts(rt: TRuntime, brandId: string, from: number, now: Date): Promise<void> {
  const tenant = { scopeAll: false, brandId };
  const hosts = await withTenant(rt.database.db, tenant, (tx) =>
    selectRows<{ id: string; level: TScopeHost['level']; timezone: string }>(
      tx,
      sql`select id, level, timezone from hosts where brand_id = ${brandId}::uuid and level in ('brand', 'hotel_group', 'hotel') and deleted_at is null`,
    ),
  );
  for (const h of hosts) {
    await withTenant(rt.database.db, tenant, async (tx) => {
      const host: TScopeHost = { id: h.id, level: h.level, brandId };
      const hotels = host.level === 'brand' ? [] : (await scopeHotels(tx, host)).map((x) => x.id);
      const today = localDay(now, h.timezone);
      for (let day = localDay(new Date(from), h.timezone); day < today; day = addDays(day, 1)) {
        const end = new Date(zonedToInstant(addDays(day, 1), '00:00', h.timezone));
        await saveCountDay(tx, host, day, await countCustomers(tx, host, hotels, end));
      }
    });
  }
}

/**
 * One past campaign, whole, in one transaction at its past moments: its segment and template, the
 * start of its send (the audience snapshot and the frequency cap then) and the send itself
 * (demo-past.ts). Answers the mails the relay accepted.
 */
async function sendPastCampaign(
  rt: TRuntime,
  sender: TPastSender,
  traits: Map<string, TTrait>,
  hotels: Map<string, string>,
  plan: (typeof CAMPAIGNS)[number],
  sendAt: Date,
): Promise<TSent[]> {
  const { brandId } = sender;
  const hotelIds = plan.hotels.map((slug) => hotels.get(slug)).filter((id): id is string => !!id);
  return withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) => {
    const filter = hotelFilter(hotelIds);
    // Its segment and template made with it, three days before its send (not on the day of the seed).
    const madeAt = new Date(sendAt.getTime() - 3 * DAY).toISOString();
    const [segment] = await selectRows<{ id: string }>(
      tx,
      sql`insert into segments (brand_id, host_id, name, description, type, filter, created_at, updated_at)
        values (${brandId}::uuid, ${brandId}::uuid, ${`${plan.name}の対象`}, 'デモ履歴: 過去のキャンペーンの対象', 'dynamic', ${JSON.stringify(filter)}::jsonb,
          ${madeAt}::timestamptz, ${madeAt}::timestamptz) returning id`,
    );
    const [template] = await selectRows<{ id: string }>(
      tx,
      sql`insert into templates (brand_id, host_id, name, description, default_language, contents, created_at, updated_at)
        values (${brandId}::uuid, ${brandId}::uuid, ${plan.name}, 'デモ履歴のテンプレート', 'ja', ${JSON.stringify(templateContents(plan.name, plan.preheader, plan.href))}::jsonb,
          ${madeAt}::timestamptz, ${madeAt}::timestamptz) returning id`,
    );
    const [campaign] = await selectRows<{ id: string }>(
      tx,
      sql`insert into campaigns (brand_id, host_id, name, subject, pre_header, template_id, status, schedule_kind, send_at, created_at, updated_at)
        values (${brandId}::uuid, ${brandId}::uuid, ${plan.name + DEMO_HISTORY_MARK}, ${plan.name}, ${plan.preheader}, ${template!.id}::uuid, 'scheduled', 'at',
          ${sendAt.toISOString()}::timestamptz, ${madeAt}::timestamptz, ${sendAt.toISOString()}::timestamptz) returning id`,
    );
    const campaignId = campaign!.id;
    await tx.execute(
      sql`insert into campaign_segments (campaign_id, segment_id, brand_id) values (${campaignId}::uuid, ${segment!.id}::uuid, ${brandId}::uuid)`,
    );
    await holdUses(tx, campaignId, 'scheduled');
    // The send's start, at its past moment: the audience snapshot and the frequency cap then.
    const audience = await audienceSql(tx, { brandId, hostId: brandId, hostLevel: 'brand' }, [segment!.id], [], sendAt);
    const size = await snapshotAudience(tx, campaignId, audience, sender.frequencyCap, sendAt);
    await markStarted(tx, campaignId, size, sendAt);
    await recordDeliveryOutcomes(
      tx,
      (await skippedAtStart(tx, campaignId)).map((d) => ({
        deliveryId: d.id,
        campaignId,
        brandId,
        hotelId: d.hotel_id,
        outcome: 'skipped' as const,
        at: sendAt,
        // The deliverability view per sending domain counts them against the sender's domain.
        sendingDomain: senderDomainOf(sender.fromAddress),
      })),
    );
    const { rows, finished } = await sendInThePast(tx, { ...sender, id: campaignId }, traits, sendAt);
    if (await finishIfDone(tx, campaignId, finished)) await releaseUses(tx, campaignId, 'sent');
    return rows;
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
