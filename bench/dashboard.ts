/**
 * dashboard: opening the dashboard of a brand, through the real API (the four blocks a brand
 * admin sees, asked side by side as the console does: level info, customer statistics, campaign
 * performance, running scenarios), on N customers (default 1,000,000) allocated to four hotels (one
 * in a hundred with a hard-bounced address on the suppression list, one in a hundred with soft
 * bounces whose suppression ended), 20 campaigns sent
 * over three weeks, 3 deliveries per customer and 10 delivery events per customer (default
 * 10,000,000: opens, clicks and attributed bookings). Baseline, in the same run: the same figures
 * computed by hand from the raw rows (deliveries and tracking events, customers and the
 * suppression list) in SQL over `pg` as the owner, the three parts side by side too.
 *   npm run bench -- dashboard [--size N] [--rounds 3] [--opens 30] [--baseline-opens 10] [--port 3915]
 *   (BENCH_DASHBOARD_DB=<name> for a database other than yado_bench_dashboard)
 * Before timing, the API's campaign figures (per day, per hotel, both weeks) and customer counts
 * (all, active, unsubscribed) must equal the ones computed by hand, or the run stops.
 * Rounds alternate ours and the baseline (bench/_support.ts alternateRounds).
 * value = our p95 in ms (median round); ratio = baseline p95 ÷ ours.
 *
 * The rollups the dashboard reads are kept by the tracking module as events arrive; here they are
 * filled once from the seeded rows with the same definitions, since replaying 10M events through
 * the writer is the tracking bench's subject, not this one's: per host and local day
 * (`host_daily_stats`) sends by the day sent, unique opens by the day of a mail's first open or
 * click (a click opens an unopened mail, as the tracking module counts it), unique clicks by the
 * day of its first click, bookings and revenue by the day attributed; per campaign and hotel
 * (`campaign_host_stats`, for the rates) the mails delivered, opened and clicked.
 */
import pg from 'pg';
import {
  alternateRounds,
  arg,
  benchDatabase,
  countRows,
  demoBrand,
  loginToken,
  percentile,
  seedOnce,
  startServer,
  withSpread,
  type TLoadResult,
} from './_support.ts';

const size = arg('size', 1_000_000);
/** Alternated rounds per side (docs/benchmarks.md, "Method"), and dashboard opens in each. */
const rounds = arg('rounds', 3);
const opens = arg('opens', 30);
// Computing from 10M raw events takes seconds a time: the baseline opens fewer per round.
const baselineOpens = arg('baseline-opens', 10);
const port = arg('port', 3915);
// Another database (and --port) lets a second run go beside one under way without touching its data.
const DB = process.env.BENCH_DASHBOARD_DB ?? 'yado_bench_dashboard';
const TZ = 'Asia/Tokyo';
const EVENTS_PER_CUSTOMER = 10;

async function seed(url: string): Promise<void> {
  const what = `${size.toLocaleString()} customers, ${(size * 3).toLocaleString()} deliveries and ${(size * EVENTS_PER_CUSTOMER).toLocaleString()} delivery events`;
  const seeded = async (c: pg.Client) =>
    (await countRows(c, 'customers')) === size &&
    (await countRows(c, 'suppressions')) > 0 &&
    (await countRows(c, 'tracking_events')) === size * EVENTS_PER_CUSTOMER;
  await seedOnce(url, what, seeded, async (c, { brand, hotels }) => {
    await c.query(
      'truncate customers, suppressions, campaigns, tracking_events, host_daily_stats, campaign_host_stats, customer_count_days cascade',
    );
    await c.query(
      `insert into customers (brand_id, first_name, last_name, phone, email, email_status, consent_source, created_at)
       select $1, '太郎', (array['山田','佐藤','鈴木','高橋'])[1 + g % 4], '090' || lpad(g::text, 8, '0'), 'guest' || g || '@example.jp',
         case when g % 9 = 0 then 'unsubscribed' else 'active' end, 'booking_system', now() - ((g % 60) || ' days')::interval
       from generate_series(1, $2::int) g`,
      [brand, size],
    );
    // The suppression list: one guest in a hundred hard-bounced (not mailable), one in a hundred
    // soft-bounced whose 30 days are over (mailable again). Active customers leave out the first.
    await c.query(
      `insert into suppressions (brand_id, email, customer_id, reason, until, created_at)
       select brand_id, lower(email), id, case when n % 100 = 0 then 'hard_bounce' else 'soft_bounces' end,
         case when n % 100 = 50 then now() - interval '1 day' end, now() - interval '40 days'
       from (select c.*, substr(c.phone, 4)::int as n from customers c where c.brand_id = $1) c where n % 100 in (0, 50)`,
      [brand],
    );
    await c.query(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source, booking_count)
       select id, ($2::uuid[])[1 + substr(phone, 4)::int % 4], brand_id, 'booking', 1 from customers where brand_id = $1`,
      [brand, hotels],
    );
    // 20 campaigns of the brand, one finished each day of the last three weeks.
    const campaigns = (
      await c.query(
        `insert into campaigns (brand_id, host_id, name, status, send_at, started_at, finished_at, audience)
         select $1, $1, 'Bench campaign ' || g, 'sent', t, t, t + interval '1 hour', 0
         from generate_series(1, 20) g, lateral (select now() - (g || ' days')::interval + interval '2 hours' as t) x
         returning id`,
        [brand],
      )
    ).rows.map((r) => r.id as string);
    // Each customer gets three of them; the delivery is the customer's hotel's.
    await c.query(
      `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, status, attempts, sent_at)
       select ($2::uuid[])[1 + (x.n + k * 7) % 20], c.brand_id, c.id, ($3::uuid[])[1 + x.n % 4], 'sent', 1, cp.finished_at - interval '1 hour' + ((x.n % 3000) || ' seconds')::interval
       from customers c, lateral (select substr(c.phone, 4)::int as n) x, generate_series(0, 2) k,
         lateral (select finished_at from campaigns where id = ($2::uuid[])[1 + (x.n + k * 7) % 20]) cp
       where c.brand_id = $1`,
      [brand, campaigns, hotels],
    );
    await c.query(
      `create temp table numbered as select id, campaign_id, sent_at, row_number() over (order by id) as rn from deliveries`,
    );
    await c.query(`create unique index on numbered (rn)`);
    const [{ d }] = (await c.query(`select count(*)::int as d from numbered`)).rows as [{ d: number }];
    // Events: 70 % opens, 25 % clicks, 5 % attributed bookings, within three days of the send.
    await c.query(
      `insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, amount)
       select least(n.sent_at + ((g % 71) || ' hours')::interval + ((g % 3593) || ' seconds')::interval, now() - interval '1 minute'),
         $1, n.campaign_id, n.id,
         case when g % 20 < 14 then 'open' when g % 20 < 19 then 'click' else 'conversion' end,
         case when g % 20 = 19 then 10000 + (g * 37) % 90000 end
       from generate_series(1, $2::int) g join numbered n on n.rn = 1 + (g::bigint * 7919) % $3`,
      [brand, size * EVENTS_PER_CUSTOMER, d],
    );
    // The rollup as the tracking module keeps it, from the same rows.
    await c.query(
      `insert into host_daily_stats (host_id, day, brand_id, sent, delivered, opens, unique_opens, clicks, unique_clicks, conversions, revenue)
       select host_id, day, $1, sum(sent), sum(sent), sum(opens), sum(unique_opens), sum(clicks), sum(unique_clicks), sum(conversions), sum(revenue)
       from (
         select hotel_id as host_id, (sent_at at time zone '${TZ}')::date as day, count(*) as sent, 0 as opens, 0 as unique_opens, 0 as clicks, 0 as unique_clicks, 0 as conversions, 0 as revenue
           from deliveries where brand_id = $1 and status = 'sent' group by 1, 2
         union all
         select d.hotel_id, (f.occurred_at at time zone '${TZ}')::date, 0,
           count(*) filter (where f.kind = 'open'), count(*) filter (where f.kind in ('open', 'click') and f.engaged = 1),
           count(*) filter (where f.kind = 'click'), count(*) filter (where f.kind = 'click' and f.nth = 1),
           count(*) filter (where f.kind = 'conversion'), coalesce(sum(f.amount) filter (where f.kind = 'conversion'), 0)
           from (select e.*, row_number() over (partition by e.delivery_id, e.kind order by e.occurred_at, e.id) as nth,
               row_number() over (partition by e.delivery_id, e.kind in ('open', 'click') order by e.occurred_at, e.id) as engaged
             from tracking_events e where e.brand_id = $1) f
           join deliveries d on d.id = f.delivery_id group by 1, 2
       ) parts group by host_id, day`,
      [brand],
    );
    // And the rollup per campaign and hotel that the rates are read from.
    await c.query(
      `insert into campaign_host_stats (campaign_id, host_id, brand_id, sent, delivered, unique_opens, unique_clicks)
       select d.campaign_id, d.hotel_id, $1, count(*), count(*),
         count(*) filter (where exists (select 1 from tracking_events e where e.delivery_id = d.id and e.kind in ('open', 'click'))),
         count(*) filter (where exists (select 1 from tracking_events e where e.delivery_id = d.id and e.kind = 'click'))
       from deliveries d where d.brand_id = $1 and d.status = 'sent' group by 1, 2`,
      [brand],
    );
    await c.query(
      'vacuum analyze customers, suppressions, customer_allocations, campaigns, deliveries, tracking_events, host_daily_stats, campaign_host_stats',
    );
  });
}

/** The window as the server cuts it: today and the six days before in Tokyo, and the seven before. */
function windowNow() {
  const to = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
  const shift = (day: string, n: number) => {
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };
  return { from: shift(to, -6), to, previousFrom: shift(to, -13) };
}

/** The same figures by hand from the raw rows: sends from deliveries, the rest from the events. */
const HAND = {
  level: `select h.name, h.address, h.phone, h.email, h.logo_url,
      (select json_agg(json_build_object('id', x.id, 'name', x.name, 'level', x.level) order by x.name) from hosts x
        where x.brand_id = h.id and x.level in ('hotel_group', 'hotel') and x.deleted_at is null) as children
    from hosts h where h.id = $1`,
  // Active: mailable, so with an address and not on the brand's suppression list (an entry not
  // lifted and not ended), as a campaign's audience.
  customers: `select count(*)::int,
      count(*) filter (where c.email_status = 'active' and nullif(c.email, '') is not null and x.id is null)::int,
      count(*) filter (where c.email_status = 'unsubscribed')::int
    from customers c left join suppressions x on x.brand_id = c.brand_id and x.email = lower(c.email)
      and x.lifted_at is null and (x.until is null or x.until > now())
    where c.brand_id = $1`,
  campaigns: `with bounds as (select ($2::date)::timestamp at time zone '${TZ}' as lo, ($3::date + 1)::timestamp at time zone '${TZ}' as hi),
    touched as (select distinct e.delivery_id from tracking_events e, bounds b where e.brand_id = $1 and e.occurred_at >= b.lo and e.occurred_at < b.hi),
    firsts as (select e.delivery_id, e.kind, e.occurred_at, e.amount, row_number() over (partition by e.delivery_id, e.kind order by e.occurred_at, e.id) as nth,
        row_number() over (partition by e.delivery_id, e.kind in ('open', 'click') order by e.occurred_at, e.id) as engaged
      from tracking_events e join touched t using (delivery_id) where e.brand_id = $1)
    select to_char(day, 'YYYY-MM-DD') as day, host_id, sum(sent)::int, sum(opened)::int, sum(clicked)::int, sum(bookings)::int, sum(revenue)::int from (
      select (d.sent_at at time zone '${TZ}')::date as day, d.hotel_id as host_id, count(*) as sent, 0 as opened, 0 as clicked, 0 as bookings, 0 as revenue
        from deliveries d, bounds b where d.brand_id = $1 and d.status = 'sent' and d.sent_at >= b.lo and d.sent_at < b.hi group by 1, 2
      union all
      select (f.occurred_at at time zone '${TZ}')::date, d.hotel_id, 0, count(*) filter (where f.kind in ('open', 'click') and f.engaged = 1),
        count(*) filter (where f.kind = 'click' and f.nth = 1), count(*) filter (where f.kind = 'conversion'), coalesce(sum(f.amount) filter (where f.kind = 'conversion'), 0)
        from firsts f join deliveries d on d.id = f.delivery_id, bounds b where f.occurred_at >= b.lo and f.occurred_at < b.hi group by 1, 2
    ) parts group by 1, 2`,
  rates: `select count(*)::int, count(*) filter (where exists (select 1 from tracking_events e where e.delivery_id = d.id and e.kind in ('open', 'click')))::int,
      count(*) filter (where exists (select 1 from tracking_events e where e.delivery_id = d.id and e.kind = 'click'))::int
    from deliveries d join campaigns c on c.id = d.campaign_id
    where d.brand_id = $1 and d.status = 'sent' and c.scenario_id is null and c.started_at >= ($2::date)::timestamp at time zone '${TZ}' and c.started_at < ($3::date + 1)::timestamp at time zone '${TZ}'`,
  scenarios: `select s.id, s.name, s.started_at, (select count(*) from journeys j where j.scenario_id = s.id) as entered
    from scenarios s where s.brand_id = $1 and s.status = 'running' order by s.started_at desc nulls last limit 5`,
  finished: `select count(*) filter (where status = 'sent' and finished_at >= ($2::date)::timestamp at time zone '${TZ}')::int,
      count(*) filter (where status = 'sent' and finished_at < ($2::date)::timestamp at time zone '${TZ}')::int
    from campaigns where brand_id = $1 and scenario_id is null and status in ('sent', 'failed') and finished_at >= ($3::date)::timestamp at time zone '${TZ}'
      and finished_at < ($4::date + 1)::timestamp at time zone '${TZ}'`,
};

async function main(): Promise<void> {
  const url = await benchDatabase(DB);
  const server = await startServer(url, port);
  try {
    await seed(url);
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    const { brand } = await demoBrand(pool);
    const token = await loginToken(`http://127.0.0.1:${port}`);

    const block = async (name: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/dashboard/${name}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { data?: any };
      if (res.status !== 200 || !body.data) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
      return body.data;
    };
    const ours = async () => {
      const [, customers, campaigns, scenarios] = await Promise.all([
        block('level-info'),
        block('customer-statistics'),
        block('campaign-performance'),
        block('running-scenarios'),
      ]);
      return { customers, campaigns, scenarios };
    };
    const hand = async () => {
      const w = windowNow();
      const q = (text: string, values: unknown[]) =>
        pool.query({ text, values, rowMode: 'array' }).then((r) => r.rows as unknown[][]);
      const [, scenarios, customers, cells, finished, rates] = await Promise.all([
        q(HAND.level, [brand]),
        q(HAND.scenarios, [brand]),
        q(HAND.customers, [brand]),
        q(HAND.campaigns, [brand, w.previousFrom, w.to]),
        q(HAND.finished, [brand, w.from, w.previousFrom, w.to]),
        q(HAND.rates, [brand, w.from, w.to]),
      ]);
      return {
        scenarios,
        customers: customers[0] as number[],
        cells,
        finished: finished[0] as number[],
        rates: rates[0] as number[],
      };
    };

    // Both must give the same figures, or the timing compares different work.
    const a = await ours();
    const b = await hand();
    const w = windowNow();
    const current = (day: string) => day >= w.from;
    const byDay = new Map<string, number[]>();
    const byHotel = new Map<string, number[]>();
    const before = [0, 0, 0, 0, 0];
    for (const [day, host, ...v] of b.cells as [string, string, ...number[]][]) {
      if (!current(day)) {
        v.forEach((x, i) => (before[i]! += x));
        continue;
      }
      byDay.set(
        day,
        (byDay.get(day) ?? [0, 0, 0, 0, 0]).map((x, i) => x + v[i]!),
      );
      byHotel.set(
        host,
        (byHotel.get(host) ?? [0, 0, 0, 0, 0]).map((x, i) => x + v[i]!),
      );
    }
    const fields = ['sent', 'opened', 'clicked', 'bookings', 'revenue'] as const;
    for (const d of a.campaigns.daily) {
      const want = byDay.get(d.day) ?? [0, 0, 0, 0, 0];
      fields.forEach((f, i) => {
        if (d[f] !== want[i]) throw new Error(`${d.day} ${f}: the API says ${d[f]}, the raw events ${want[i]}`);
      });
    }
    for (const h of a.campaigns.hotels) {
      const want = byHotel.get(h.hotelId) ?? [0, 0, 0, 0, 0];
      fields.forEach((f, i) => {
        if (h[f] !== want[i]) throw new Error(`${h.name} ${f}: the API says ${h[f]}, the raw events ${want[i]}`);
      });
    }
    if (a.campaigns.sent.previous !== before[0] || a.campaigns.revenue.previous !== before[4])
      throw new Error(
        `the week before: the API says ${a.campaigns.sent.previous} sent / ¥${a.campaigns.revenue.previous}, the raw events ${before[0]} / ¥${before[4]}`,
      );
    if (a.campaigns.campaignsSent.current !== b.finished[0] || a.campaigns.campaignsSent.previous !== b.finished[1])
      throw new Error(
        `campaigns sent: the API says ${JSON.stringify(a.campaigns.campaignsSent)}, by hand ${b.finished.join(' / ')}`,
      );
    const [mails, opened, clicked] = b.rates as [number, number, number];
    if (
      Math.abs(a.campaigns.openRate.current - opened / mails) > 1e-9 ||
      Math.abs(a.campaigns.clickRate.current - clicked / mails) > 1e-9
    )
      throw new Error(
        `rates: the API says ${a.campaigns.openRate.current} / ${a.campaigns.clickRate.current}, the raw rows ${opened / mails} / ${clicked / mails}`,
      );
    const counted = [a.customers.customers, a.customers.activeCustomers, a.customers.unsubscribedCustomers].map(
      (f: { current: number }) => f.current,
    );
    if (counted.some((n, i) => n !== b.customers[i]))
      throw new Error(
        `customers (all / active / unsubscribed): the API says ${counted.join(' / ')}, by hand ${b.customers.join(' / ')}`,
      );
    if (a.scenarios.scenarios.length !== b.scenarios.length)
      throw new Error(
        `running scenarios: the API lists ${a.scenarios.scenarios.length}, by hand ${b.scenarios.length}`,
      );
    const sentNow = a.campaigns.sent.current as number;
    process.stdout.write(
      `figures agree: ${sentNow.toLocaleString()} sent in the last 7 days, open rate ${((a.campaigns.openRate.current ?? 0) * 100).toFixed(1)} %, ` +
        `${(a.campaigns.bookings.current as number).toLocaleString()} bookings, ¥${(a.campaigns.revenue.current as number).toLocaleString()}; ${b.customers[0]!.toLocaleString()} customers\n`,
    );

    // One round: a run of dashboard opens one after another (a person opens it, reads, opens again).
    const round = async (run: () => Promise<unknown>, times: number): Promise<TLoadResult> => {
      const latencies: number[] = [];
      const start = performance.now();
      for (let r = 0; r < times; r++) {
        const t0 = performance.now();
        await run();
        latencies.push(performance.now() - t0);
      }
      return {
        latencies: latencies.sort((x, y) => x - y),
        errors: 0,
        sent: times,
        seconds: (performance.now() - start) / 1000,
      };
    };
    process.stdout.write(
      `ours: ${opens} dashboard opens a round through the API (four blocks side by side); baseline: ${baselineOpens} a round, the same figures by hand from the raw rows over pg\n`,
    );
    const { ours: o, baseline: h } = await alternateRounds({
      rounds,
      warmUp: { ours: () => round(ours, 3), baseline: () => round(hand, 2) },
      ours: () => round(ours, opens),
      baseline: () => round(hand, baselineOpens),
      measure: (r) => percentile(r.latencies, 95),
      label: (r) =>
        `p50=${percentile(r.latencies, 50).toFixed(1)} ms p95=${percentile(r.latencies, 95).toFixed(1)} ms max=${percentile(r.latencies, 100).toFixed(1)} ms`,
    });
    await pool.end();
    process.stdout.write(`ours     p95 ${withSpread(o, 'ms')}\n`);
    process.stdout.write(`baseline p95 ${withSpread(h, 'ms')}\n`);
    process.stdout.write(
      `BENCH dashboard value=${o.median.toFixed(1)} unit=ms baseline=${h.median.toFixed(1)} ratio=${(h.median / o.median).toFixed(2)}\n`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
