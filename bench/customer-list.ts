/**
 * customer-list: a 50-row page of the customer list through the real API at a fixed request
 * rate, on N customers (default 1,000,000) with one booking each. Baseline: the same queries
 * written by hand over `pg` (the brand's list prepared and searches planned for their values, the
 * capped totals remembered for 15 s, as ours does), at the same rate, in the same run. Both sides are warmed on the same
 * requests, then measured in alternating rounds (bench/_support.ts, alternateRounds).
 *   npm run bench -- customer-list [--size N] [--rate 1000] [--seconds 10] [--rounds 3]
 * value = the median round's p99 of ours in ms; baseline = the baseline's median round p99;
 * ratio = baseline ÷ ours (1.0: as fast as hand-written SQL).
 *
 * --first-minute [--restart-postgres] [--reps 2]: what a user meets in the first minute after a
 * start instead (docs/benchmarks.md, "A warm start"). The server is started afresh, with its
 * background warm-up off and on in alternation (--reps times each), the same request mix is sent
 * at --rate for six 10-second windows from the moment /healthz answers, and each window's p99 is
 * printed. --restart-postgres restarts the local PostgreSQL cluster before every start, so its
 * buffers are cold too (it drops every other connection: only on a machine nobody else is using).
 * value = the first window's median p99 with the warm-up; baseline = the last window's (steady
 * state); ratio = baseline ÷ value (1.0: the first ten seconds are as fast as the sixth).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  admin,
  alternateRounds,
  arg,
  dbUrl,
  getJson,
  openLoop,
  percentile,
  startServer,
  withSpread,
  type TLoadResult,
} from './_support.ts';

const size = arg('size', 1_000_000);
const rate = arg('rate', 1000);
const seconds = arg('seconds', 10);
const rounds = arg('rounds', 3);
const port = arg('port', 3907);
const DB = 'yado_bench_customer_list';
const firstMinuteMode = process.argv.includes('--first-minute');
const restartPostgres = process.argv.includes('--restart-postgres');
const reps = arg('reps', 2);

async function seed(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const [{ n }] = (await c.query(`select count(*)::int as n from customers`)).rows as [{ n: number }];
    if (n === size) return;
    process.stdout.write(`seeding ${size.toLocaleString()} customers and bookings...\n`);
    await c.query('truncate customers cascade');
    const brand = (await c.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    const hotels = (
      await c.query(`select id from hosts where brand_id = $1 and level = 'hotel' order by slug`, [brand])
    ).rows.map((r) => r.id as string);
    const t0 = Date.now();
    await c.query(
      `insert into customers (brand_id, first_name, last_name, phone, email, address, consent_source, created_at)
       select $1,
         (array['太郎','花子','健太','美咲','一郎','さくら','翔','陽菜','Emily','James'])[1 + g % 10],
         (array['山田','佐藤','鈴木','高橋','田中','伊藤','渡辺','中村','小林','Smith','加藤'])[1 + (g / 10) % 11],
         '090' || lpad(g::text, 8, '0'),
         'guest' || g || '@example.jp',
         '東京都新宿区',
         'booking_system',
         timestamptz '2026-01-01' + (g || ' seconds')::interval
       from generate_series(1, $2::int) g`,
      [brand, size],
    );
    await c.query(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
       select id, ($1::uuid[])[1 + (abs(hashtext(id::text)) % array_length($1::uuid[], 1))], brand_id, 'booking' from customers`,
      [hotels],
    );
    await c.query(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
       select a.brand_id, a.customer_id, a.hotel_id, 'B' || row_number() over (), date '2026-01-01', date '2026-02-01', date '2026-02-03', 2, 2, 30000, 'checked_out'
       from customer_allocations a`,
    );
    // As autovacuum would leave it: the visibility map set, so counts can be index-only scans.
    await c.query('vacuum analyze customers, customer_allocations, bookings');
    process.stdout.write(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  } finally {
    await c.end();
  }
}

// The API's page link: the keyset position.
const cursorOf = (createdAt: Date, id: string) =>
  Buffer.from(JSON.stringify({ k: [createdAt.toISOString(), id] })).toString('base64url');

async function main(): Promise<void> {
  // A client of its own, closed at once: left open, a PostgreSQL restart (--restart-postgres) would end it with an unhandled error.
  const probe = new pg.Client({ connectionString: dbUrl(DB) });
  const exists = await probe.connect().then(
    () => true,
    () => false,
  );
  if (exists) await probe.end();
  if (!exists) await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  let server = await startServer(url, port);
  try {
    await seed(url);
    // As ours' pool (db/client.ts): ten connections, idle ones kept a minute. With pg's default of
    // ten seconds, the baseline's connections closed while ours' round ran, and each of its rounds
    // began by opening and preparing them again under load (its p99 13 ms in a round that followed
    // its own, 475 and 491 ms in rounds that followed ours).
    const pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 60_000 });
    const brand = (await pool.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    // About a thousand rows' worth of pages, whatever the size (a fixed 0.1% found none in a few thousand).
    const marks = (
      await pool.query(
        `select created_at, id from customers tablesample system (${Math.min(100, 100_000 / size)}) limit 200`,
      )
    ).rows as { created_at: Date; id: string }[];
    const signIn = async () =>
      (
        await fetch(`http://127.0.0.1:${port}/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'brand.admin@demo.test', password: 'demo-pass-1' }),
        }).then((r) => r.json() as Promise<{ data: { accessToken: string } }>)
      ).data.accessToken;
    let token = await signIn();
    const base = `http://127.0.0.1:${port}/v1/customers?limit=50`;

    // The mix a console user makes: the first page, a later page, a phone search, a name search.
    const apiRequest = (i: number) => {
      const mark = marks[i % marks.length] as { created_at: Date; id: string };
      const phone = `0900${String((i * 7919) % 10000).padStart(4, '0')}`;
      const urls = [
        base,
        `${base}&cursor=${cursorOf(mark.created_at, mark.id)}`,
        `${base}&search=${phone}`,
        `${base}&search=${encodeURIComponent('山田')}`,
      ];
      return urls[i % 4] as string;
    };
    // The day the address hard-bounced, as ours reads it for each row of the page.
    const bounced = `(select s.created_at from suppressions s where s.brand_id = c.brand_id and s.email = c.email_key
      and s.lifted_at is null and s.reason = 'hard_bounce') as bounced_at`;
    const totals = `(select array[count(*) filter (where b.status <> 'cancelled'),
      coalesce(sum(b.amount) filter (where b.status in ('checked_in','checked_out')), 0)]::int[] from bookings b where b.customer_id = c.id) as totals`;
    const totalsSeen = new Map<string, { at: number; counting: boolean }>();
    const handQuery = async (i: number) => {
      const mark = marks[i % marks.length] as { created_at: Date; id: string };
      const phone = `0900${String((i * 7919) % 10000).padStart(4, '0')}`;
      const shapes: [string, unknown[]][] = [
        [`c.brand_id = $1`, [brand]],
        [`c.brand_id = $1 and (c.created_at, c.id) < ($2, $3)`, [brand, mark.created_at, mark.id]],
        [
          `c.brand_id = $1 and c.phone ~>=~ $2 and c.phone ~<~ $3`,
          [
            brand,
            phone,
            `${phone.slice(0, -1)}${String.fromCodePoint((phone.codePointAt(phone.length - 1) as number) + 1)}`,
          ],
        ],
        [
          // Ours' name search: the family and given names, and the full name in either order.
          `c.brand_id = $1 and ((c.last_name_key ~>=~ $2 and c.last_name_key ~<~ $3) or (c.first_name_key ~>=~ $2 and c.first_name_key ~<~ $3)
            or (c.full_name_key ~>=~ $2 and c.full_name_key ~<~ $3) or (c.full_name_key ~>=~ $2 and c.full_name_key ~<~ $3))`,
          [brand, '山田', `山${String.fromCodePoint(('田'.codePointAt(0) as number) + 1)}`],
        ],
      ];
      const shape = i % 4;
      const [where, params] = shapes[shape] as [string, unknown[]];
      // What the API does at the database, by hand: the brand's whole list and its later pages as
      // named prepared statements (ours prepares them once per connection and lets PostgreSQL keep
      // a plan); a search planned for its value every time (ours forces custom plans for it: a
      // plan kept for any phone prefix scanned the list's order for rare matches); and the capped total counted only when none
      // counted in the last 15 s is remembered, by one request at a time (ours' totals-cache.ts;
      // without it this baseline counted ten thousand rows on every first page and name search,
      // which ours does not, and saturated at a third of the rate ours held). A later page shows
      // the total its first page counted, so it counts none.
      const countKey = shape === 1 ? null : `${shape}|${JSON.stringify(params.slice(1))}`;
      const known = countKey ? totalsSeen.get(countKey) : undefined;
      const mustCount = countKey !== null && (!known || (!known.counting && Date.now() - known.at > 15_000));
      const client = await pool.connect();
      try {
        const search = shape >= 2;
        await client.query({
          ...(search ? {} : { name: `bench-page-${shape}` }),
          text: `select c.*, ${bounced}, ${totals} from customers c where ${where} order by c.created_at desc, c.id desc limit 51`,
          values: params,
        });
        if (mustCount && countKey) {
          const entry = { at: known?.at ?? 0, counting: true };
          totalsSeen.set(countKey, entry);
          try {
            await client.query({
              ...(search ? {} : { name: `bench-count-${shape}` }),
              text: `select count(*)::int from (select 1 from customers c where ${where} limit 10001) x`,
              values: params,
            });
            entry.at = Date.now();
          } finally {
            entry.counting = false;
          }
        }
      } finally {
        client.release();
      }
      return true;
    };

    const apiSide = async (i: number) => (await getJson(apiRequest(i), token)).status === 200;

    if (firstMinuteMode) {
      await pool.end();
      const restart = async (warm: boolean) => {
        server.kill('SIGTERM');
        await once(server, 'exit');
        if (restartPostgres) await restartLocalPostgres(url);
        process.env.WARM_ON_START = String(warm);
        const t0 = performance.now();
        server = await startServer(url, port);
        return performance.now() - t0;
      };
      const windows: Record<'off' | 'on', number[][]> = { off: [], on: [] };
      for (let rep = 0; rep < reps; rep++) {
        // Alternated in flipping pairs, as alternateRounds does, so a drift lands on both.
        for (const warm of rep % 2 === 0 ? [false, true] : [true, false]) {
          const healthzMs = await restart(warm);
          const s0 = performance.now();
          token = await signIn();
          const signInMs = performance.now() - s0;
          const p99s: number[] = [];
          for (let w = 0; w < 6; w++) p99s.push(percentile((await openLoop(rate, 10, apiSide)).latencies, 99));
          windows[warm ? 'on' : 'off'].push(p99s);
          process.stdout.write(
            `warm-up ${warm ? 'on ' : 'off'}: /healthz after ${healthzMs.toFixed(0)} ms, sign-in ${signInMs.toFixed(0)} ms, p99 per 10 s window: ${p99s.map((v) => v.toFixed(1)).join(' / ')} ms\n`,
          );
        }
      }
      const medianOf = (values: number[]) =>
        [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] as number;
      const column = (side: 'off' | 'on', w: number) => medianOf(windows[side].map((p) => p[w] as number));
      for (const side of ['off', 'on'] as const) {
        process.stdout.write(
          `warm-up ${side}: median p99 per window ${[0, 1, 2, 3, 4, 5].map((w) => column(side, w).toFixed(1)).join(' / ')} ms\n`,
        );
      }
      const first = column('on', 0);
      const steady = column('on', 5);
      process.stdout.write(
        `BENCH customer-list-first-minute value=${first.toFixed(1)} unit=ms baseline=${steady.toFixed(1)} ratio=${(steady / first).toFixed(2)}\n`,
      );
      return;
    }
    const p = (r: TLoadResult, q: number) => percentile(r.latencies, q).toFixed(1);
    const { ours, baseline } = await alternateRounds({
      rounds,
      // The whole request sequence of a round, at a modest rate: every page a round reads, on both sides.
      warmUp: {
        ours: () => openLoop(Math.min(rate, 200), (rate * seconds) / Math.min(rate, 200), apiSide),
        baseline: () => openLoop(Math.min(rate, 200), (rate * seconds) / Math.min(rate, 200), handQuery),
      },
      ours: () => openLoop(rate, seconds, apiSide),
      baseline: () => openLoop(rate, seconds, handQuery),
      measure: (r) => percentile(r.latencies, 99),
      label: (r) =>
        `p50=${p(r, 50)} ms p99=${p(r, 99)} ms errors=${r.errors}/${r.sent} achieved=${(r.sent / r.seconds).toFixed(0)} req/s`,
    });
    await pool.end();

    process.stdout.write(
      `ours     p99 ${withSpread(ours, 'ms')}, median round: p50=${p(ours.medianRound, 50)} ms errors=${ours.medianRound.errors}/${ours.medianRound.sent}\n`,
    );
    process.stdout.write(
      `baseline p99 ${withSpread(baseline, 'ms')}, median round: p50=${p(baseline.medianRound, 50)} ms errors=${baseline.medianRound.errors}/${baseline.medianRound.sent}\n`,
    );
    process.stdout.write(
      `BENCH customer-list value=${ours.median.toFixed(1)} unit=ms baseline=${baseline.median.toFixed(1)} ratio=${(baseline.median / ours.median).toFixed(2)}\n`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

/** Restarts the local cluster (Debian's pg_ctlcluster) and waits until it answers again. */
async function restartLocalPostgres(url: string): Promise<void> {
  const version = readdirSync('/etc/postgresql')[0] as string;
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], { stdio: 'ignore' });
  for (let i = 0; i < 60; i++) {
    const c = new pg.Client({ connectionString: url });
    const up = await c.connect().then(
      () => true,
      () => false,
    );
    await c.end().catch(() => undefined);
    if (up) return;
    await sleep(500);
  }
  throw new Error('PostgreSQL did not come back after the restart');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
