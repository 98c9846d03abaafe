/**
 * Issue 26's "done when", run whole: a hotel marketer tests two subject lines on 20 % of 50,000
 * guests with a 10 % holdout, Yado sends the winner by bookings to the rest when the wait ends
 * ("the next morning": an 18-hour wait, brought forward in the database as the integration tests
 * bring a schedule forward), and the report says what the campaign caused, with the holdout to
 * prove it.
 *
 *   npx tsx scripts/experiment-story.ts [--size 50000] [--seed 26]
 *
 * The real product over PostgreSQL (a database of its own, `yado_story`, made afresh): the API
 * (campaign, send-now, report: HTTP with a signed-in brand admin), the worker (dispatcher, audience
 * snapshot with each guest's arm and variant, the send over SMTP into the embedded sink, the
 * decision), the tracking endpoint (clicks: HTTP GETs of the mails' own tracked links) and the
 * booking sync's attribution (`attributeConversions`) over bookings written as a sync writes them.
 *
 * What the guests do is drawn here with a seeded random, and is the only thing made up: every
 * guest books anyway with probability BASE over the days after the mail (the holdout too); a
 * mailed guest of variant A clicks and books because of the mail with probability LIFT_A, of B
 * with LIFT_B (a click on the mail's link, then a booking). The script prints the decision and the
 * report's sentence, and the truth it was drawn from, to compare.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ZTemplateContent } from '@yado/contracts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { withTenant } from '../apps/server/src/db/client.ts';
import { startRuntime } from '../apps/server/src/start.ts';
import { startWorker } from '../apps/server/src/worker.ts';
import { trackingFor } from '../apps/server/src/modules/tracking/links.ts';
import { recorderOf } from '../apps/server/src/modules/tracking/record-events.ts';
import { attributeConversions } from '../apps/server/src/modules/tracking/attribute-conversions.ts';
import { seededRandom } from '../apps/server/src/seeded-random.ts';
import { admin, arg, dbUrl, loginToken, seedGuests } from '../bench/_support.ts';

const size = arg('size', 50_000);
const seed = arg('seed', 26);
const DB = 'yado_story';
const PORT = 3917;
const BASE = 0.012;
const LIFT_A = 0.004;
const LIFT_B = 0.012;
const LINK = 'https://sakura-hotels.example.jp/winter';

const random = seededRandom(seed);

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  await admin(`drop database if exists ${DB} with (force)`);
  await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  const base = `http://127.0.0.1:${PORT}`;
  const config = loadConfig(
    {
      DATABASE_URL: url,
      SEED_DEMO: 'true',
      SEED_DEMO_HISTORY: 'false',
      LOG_LEVEL: 'warn',
      DATA_DIR: '/tmp/yado-story',
      WEB_DIST: '/nonexistent',
      BOOKING_API_URL: 'http://127.0.0.1:9',
      CAMPAIGN_DISPATCH_SECONDS: '1',
      PUBLIC_URL: base,
      PORT: String(PORT),
    },
    {},
  );
  const rt = await startRuntime(config, { bookingSim: false });
  const app = await buildApp(rt);
  await app.listen({ port: PORT, host: '127.0.0.1' });
  await startWorker(rt);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const q = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
  const token = await loginToken(base);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data?: any; error?: unknown };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
    return json.data;
  };
  try {
    const [brand] = await q(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await q(`select id from hosts where slug = 'sakura-shinjuku'`);
    await q(
      `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00', frequency_cap_count = 100 where host_id = $1`,
      [brand.id],
    );
    say(`seeding ${size.toLocaleString()} guests of さくらホテル 新宿...`);
    await seedGuests(pool, { brandId: brand.id, hotelId: hotel.id, size, domain: 'story.example.jp' });
    const segment = await api('POST', '/v1/segments', { name: '冬のご案内の対象', type: 'static' });
    await q(
      `insert into segment_members (segment_id, customer_id, brand_id) select $2, id, $1 from customers where brand_id = $1 and email like '%@story.example.jp'`,
      [brand.id, segment.id],
    );
    const template = await api('POST', '/v1/templates', {
      name: '冬のご案内',
      defaultLanguage: 'ja',
      contents: {
        ja: ZTemplateContent.parse({
          subject: '冬のご案内',
          preheader: '',
          document: {
            version: 1,
            sections: [
              {
                id: 's',
                columns: [{ id: 'c', blocks: [{ id: 'b', type: 'button', label: 'プランを見る', href: LINK }] }],
              },
            ],
          },
        }),
      },
    });
    const campaign = await api('POST', '/v1/campaigns', {
      name: '冬の特別プラン（件名テスト）',
      subject: '冬の特別プランのご案内',
      recipients: { segmentIds: [segment.id] },
      templateId: template.id,
      experiment: {
        variants: [{ subject: '【会員様限定】冬の特別プラン 最大30%オフ' }],
        testPercent: 20,
        waitHours: 18,
        metric: 'bookings',
        holdoutPercent: 10,
      },
    });
    const t0 = performance.now();
    await api('POST', `/v1/campaigns/${campaign.id}/send-now`, {});
    say(`campaign ${campaign.id}: sent now; the test share goes out, the rest waits 18 hours`);
    for (;;) {
      const c = await api('GET', `/v1/campaigns/${campaign.id}`);
      if (c.experiment?.phase === 'waiting') break;
      await sleep(500);
    }
    say(`test share answered in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const truth = { caused: 0, causedRevenue: 0, anyway: { mailed: 0, held: 0 } };
    let bookingNo = 0;
    /** What the guests of these deliveries do after their mail: clicks by HTTP, bookings as a sync writes them. */
    const behave = async (rows: { id: string; customer_id: string; arm: string; variant: number }[]) => {
      const clicks: string[] = [];
      const bookings: { customerId: string; amount: number }[] = [];
      for (const r of rows) {
        const amount = 20_000 + Math.round(random() * 60) * 1_000;
        const lift = r.variant === 1 ? LIFT_B : LIFT_A;
        if (r.arm !== 'holdout' && random() < lift) {
          clicks.push(r.id);
          bookings.push({ customerId: r.customer_id, amount });
          truth.caused++;
          truth.causedRevenue += amount;
        } else if (random() < BASE) {
          bookings.push({ customerId: r.customer_id, amount });
          if (r.arm === 'holdout') truth.anyway.held++;
          else truth.anyway.mailed++;
        }
      }
      for (let i = 0; i < clicks.length; i += 50)
        await Promise.all(
          clicks
            .slice(i, i + 50)
            .map((id) =>
              fetch(trackingFor(rt, id).clickUrl(LINK, 0), { redirect: 'manual' }).then((r) => r.body?.cancel()),
            ),
        );
      await recorderOf(rt).flush();
      const ids = bookings.map(() => `STORY-${++bookingNo}-${randomUUID().slice(0, 8)}`);
      await q(
        `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status, source)
         select $1, v.customer_id, $2, v.external_id, (now() at time zone 'Asia/Tokyo')::date,
           (now() at time zone 'Asia/Tokyo')::date + 30, (now() at time zone 'Asia/Tokyo')::date + 32, 2, 2, v.amount, 'confirmed', 'web'
         from unnest($3::uuid[], $4::text[], $5::int[]) as v(customer_id, external_id, amount)`,
        [brand.id, hotel.id, bookings.map((b) => b.customerId), ids, bookings.map((b) => b.amount)],
      );
      // As that night's booking sync attributes the bookings it brought.
      await withTenant(rt.database.db, { scopeAll: false, brandId: brand.id }, (tx) =>
        attributeConversions(tx, brand.id, ids),
      );
      return { clicks: clicks.length, bookings: bookings.length };
    };

    const tested = await q(
      `select id, customer_id, arm, variant from deliveries where campaign_id = $1 and arm in ('test', 'holdout') order by id`,
      [campaign.id],
    );
    const first = await behave(tested);
    say(`the test share and the holdout: ${first.clicks} clicks, ${first.bookings} bookings made`);

    // The next morning: the wait ends (brought forward) and the dispatcher decides by bookings.
    await q(`update campaigns set experiment_decide_at = now() where id = $1`, [campaign.id]);
    const t1 = performance.now();
    for (;;) {
      const c = await api('GET', `/v1/campaigns/${campaign.id}`);
      if (c.status === 'sent') break;
      await sleep(500);
    }
    say(`decided, and the rest sent, in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const rest = await q(
      `select id, customer_id, arm, variant from deliveries where campaign_id = $1 and arm = 'rest' order by id`,
      [campaign.id],
    );
    const second = await behave(rest);
    say(`the rest: ${second.clicks} clicks, ${second.bookings} bookings made`);

    const report = await api('GET', `/v1/campaigns/${campaign.id}/experiment`);
    const [counts] = await q(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where arm = 'holdout')::int as held,
        count(*) filter (where arm = 'rest' and variant = 1)::int as rest_b from deliveries where campaign_id = $1`,
      [campaign.id],
    );
    say('');
    say(
      `sent ${counts.sent.toLocaleString()}, held out ${counts.held.toLocaleString()}, the rest given B: ${counts.rest_b.toLocaleString()}`,
    );
    say(`decision: ${JSON.stringify(report.decision)}`);
    for (const v of report.variants)
      say(
        `  ${v.key}: sent ${v.sends}, clicks ${v.clicks}, bookings ${v.bookings}, revenue ¥${v.revenue.toLocaleString()}`,
      );
    const yen = (n: number) => `¥${Math.round(n).toLocaleString()}`;
    for (const w of report.holdout?.windows ?? []) {
      say(
        `holdout, ${w.window} (${w.days} days): mailed ${w.mailed.guests} guests ${w.mailed.bookings} bookings; held out ${w.holdout.guests} guests ${w.holdout.bookings} bookings`,
      );
      if (w.result.kind !== 'measured') {
        say(`  too small to say (${w.result.holdout} held out)`);
        continue;
      }
      const b = w.result.incrementalBookings;
      const r = w.result.incrementalRevenue;
      const bookings = `${Math.round(b.value)} (±${Math.round((b.high - b.low) / 2)})`;
      const revenue = `${yen(r.value)} (±${yen((r.high - r.low) / 2)})`;
      say(
        `  en: This campaign caused ${bookings} bookings and ${revenue} that would not have happened otherwise (95% confidence).`,
      );
      say(`  ja: このキャンペーンがなければ生まれなかった予約は${bookings}件、売上は${revenue}です（信頼度95%）。`);
      say(`  significant: ${w.result.significant}`);
    }
    say(
      `truth drawn: ${truth.caused} bookings (${yen(truth.causedRevenue)}) caused by the mail; ${truth.anyway.mailed} mailed and ${truth.anyway.held} held-out guests booked anyway`,
    );
  } finally {
    await pool.end();
    await app.close();
    await rt.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
