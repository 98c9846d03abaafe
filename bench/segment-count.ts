/**
 * segment-count: the live audience count of a segment filter through the real API
 * (POST /v1/segments/count, as the brand admin: auth, row-level security, the compiled statement),
 * on N customers (default 1,000,000) with about three bookings each, spread over four hotels, three
 * years, amounts, room types and sources. Baseline: the same counts written by hand in SQL over
 * `pg` as the owner, in the same run.
 *   npm run bench -- segment-count [--size N] [--rounds 20]
 * The mix: a 5-condition and/or filter mixing customer and booking conditions, a name prefix, a
 * relative-date booking condition, and the marketer's "Shinjuku in summer, over ¥50,000, not back
 * for a year". Requests go one at a time (a console user's debounced edits).
 * value = our p95 in ms; ratio = baseline p95 ÷ ours (1.0: as fast as hand-written SQL).
 */
import pg from 'pg';
import { admin, arg, dbUrl, percentile, startServer } from './_support.ts';

const size = arg('size', 1_000_000);
const rounds = arg('rounds', 20);
const port = arg('port', 3908);
const DB = 'yado_bench_segment_count';

async function seed(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const [{ n }] = (await c.query(`select count(*)::int as n from customers`)).rows as [{ n: number }];
    if (n === size) return;
    process.stdout.write(`seeding ${size.toLocaleString()} customers and about ${(size * 3).toLocaleString()} bookings...\n`);
    await c.query('truncate customers cascade');
    const brand = (await c.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    const hotels = (await c.query(`select id from hosts where brand_id = $1 and level = 'hotel' order by slug`, [brand])).rows.map((r) => r.id as string);
    const t0 = Date.now();
    await c.query(
      `insert into customers (brand_id, first_name, last_name, phone, email, address, gender, date_of_birth, prefecture, consent_source, created_at)
       select $1,
         (array['太郎','花子','健太','美咲','一郎','さくら','翔','陽菜','Emily','James'])[1 + g % 10],
         (array['山田','佐藤','鈴木','高橋','田中','伊藤','渡辺','中村','小林','Smith','加藤'])[1 + (g / 10) % 11],
         '090' || lpad(g::text, 8, '0'),
         case when g % 7 = 0 then null else 'guest' || g || '@example.jp' end,
         '東京都新宿区',
         (array['male','female','prefer_not_to_say'])[1 + g % 3],
         date '1950-01-01' + ((g * 37) % 20000),
         (array['東京都','神奈川県','京都府','大阪府'])[1 + (g / 3) % 4],
         'booking_system',
         timestamptz '2024-01-01' + (g || ' seconds')::interval
       from generate_series(1, $2::int) g`,
      [brand, size],
    );
    // 1 to 5 bookings per customer (3 on average), like the simulator's: stays over the three years before today (and a few weeks ahead),
    // 1-7 nights, amounts 8,000 to 200,000 yen, four room types and four sources.
    await c.query(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_type, source, amount, status)
       select c.brand_id, c.id, ($1::uuid[])[1 + (h + k) % 4], 'B' || c.phone || '-' || k,
         d - 30, d, d + nights, nights, 1 + (h + k) % 4,
         (array['single','twin','double','suite'])[1 + (h / 7 + k) % 4],
         (array['web','phone','ota','walk_in'])[1 + (h / 3 + k) % 4],
         8000 + ((h::bigint * 31 + k * 7919) % 192000)::int,
         (array['checked_out','checked_out','checked_out','confirmed','cancelled','no_show'])[1 + (h + k * 5) % 6]
       from customers c,
         lateral (select (abs(hashtext(c.id::text)) % 1000000007)::int as h) x,
         lateral generate_series(1, 1 + (x.h % 5)) k,
         lateral (select current_date - 1050 + ((x.h / 11 + k * 173) % 1100) as d, 1 + (x.h + k) % 7 as nights) y`,
      [hotels],
    );
    await c.query(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source, booking_count)
       select customer_id, hotel_id, brand_id, 'booking', count(*) from bookings group by customer_id, hotel_id, brand_id`,
    );
    await c.query('vacuum analyze customers, customer_allocations, bookings');
    process.stdout.write(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  } finally {
    await c.end();
  }
}

const cond = (field: string, operator: string, value: unknown = null) => ({ kind: 'condition', field, operator, value });
const group = (join: 'and' | 'or', items: unknown[], bookings?: unknown) => ({ kind: 'group', join, items, ...(bookings ? { bookings } : {}) });

/** Today in Tokyo and N days from it, as the server computes them. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
const day = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const next = (s: string) => `${[...s].slice(0, -1).join('')}${String.fromCodePoint((s.codePointAt(s.length - 1) as number) + 1)}`;

interface TCase {
  name: string;
  filter: unknown;
  /** The same answer (the total, and each group's count when there are several), written by hand. */
  sql: string;
  params: unknown[];
}

function cases(brand: string, shinjuku: string): TCase[] {
  const summer = [`${Number(today.slice(0, 4)) - 1}-07-01`, `${Number(today.slice(0, 4)) - 1}-08-31`];
  return [
    {
      name: 'five conditions, and/or, customer and booking',
      filter: {
        version: 1,
        join: 'or',
        groups: [
          group('and', [cond('lastName', 'starts_with', '山'), cond('gender', 'is', ['female'])]),
          group('and', [cond('hotel', 'is', [shinjuku]), cond('checkInDate', 'between', summer), cond('amount', 'greater_than', 50000)]),
        ],
      },
      // The API answers the whole filter and each group: so does this, from the booking sets joined once.
      sql: `select count(*) filter (where a or b), count(*) filter (where a), count(*) filter (where b)
        from (select (c.last_name_key ~>=~ $2 and c.last_name_key ~<~ $3 and c.gender = 'female') as a, x.customer_id is not null as b
          from customers c left join (select distinct b.customer_id from bookings b
            where b.brand_id = $1 and b.hotel_id = $4 and b.check_in between $5 and $6 and b.amount > 50000) x on x.customer_id = c.id
          where c.brand_id = $1) s`,
      params: [brand, '山', next('山'), shinjuku, summer[0], summer[1]],
    },
    {
      name: 'name prefix',
      filter: { version: 1, join: 'and', groups: [group('and', [cond('lastName', 'starts_with', '佐')])] },
      sql: `select count(*) from customers c where c.brand_id = $1 and c.last_name_key ~>=~ $2 and c.last_name_key ~<~ $3`,
      params: [brand, '佐', next('佐')],
    },
    {
      name: 'booking in the last 90 days',
      filter: { version: 1, join: 'and', groups: [group('and', [cond('checkInDate', 'in_last_days', 90)])] },
      sql: `select count(*) from customers c where c.brand_id = $1 and exists (select 1 from bookings b where b.customer_id = c.id and b.brand_id = $1 and b.check_in between $2 and $3)`,
      params: [brand, day(-90), today],
    },
    {
      name: "Shinjuku in summer over ¥50,000, not back for a year",
      filter: {
        version: 1,
        join: 'and',
        groups: [
          group('and', [cond('hotel', 'is', [shinjuku]), cond('checkInDate', 'between', summer), cond('amount', 'greater_than', 50000)]),
          group('and', [cond('checkInDate', 'in_last_days', 365)], { quantifier: 'none' }),
        ],
      },
      sql: `select count(*) filter (where a and b), count(*) filter (where a), count(*) filter (where b)
        from (select x.customer_id is not null as a, y.customer_id is null as b
          from customers c
          left join (select distinct b.customer_id from bookings b where b.brand_id = $1 and b.hotel_id = $2 and b.check_in between $3 and $4 and b.amount > 50000) x on x.customer_id = c.id
          left join (select distinct b.customer_id from bookings b where b.brand_id = $1 and b.check_in between $5 and $6) y on y.customer_id = c.id
          where c.brand_id = $1) s`,
      params: [brand, shinjuku, summer[0], summer[1], day(-365), today],
    },
  ];
}

async function main(): Promise<void> {
  const exists = await new pg.Client({ connectionString: dbUrl(DB) }).connect().then(
    (client) => client.end().then(() => true),
    () => false,
  );
  if (!exists) await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  const server = await startServer(url, port);
  try {
    await seed(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const brand = (await pool.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    const shinjuku = (await pool.query(`select id from hosts where slug = 'sakura-shinjuku'`)).rows[0].id as string;
    const login = await fetch(`http://127.0.0.1:${port}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'brand.admin@demo.test', password: 'demo-pass-1' }),
    }).then((r) => r.json() as Promise<{ data: { accessToken: string } }>);
    const token = login.data.accessToken;
    const mix = cases(brand, shinjuku);

    const ours = async (c: TCase): Promise<number[]> => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/segments/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ filter: c.filter }),
      });
      const body = (await res.json()) as { data?: { total: number; groups: { count: number }[] } };
      if (res.status !== 200 || !body.data) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
      return [body.data.total, ...(body.data.groups.length > 1 ? body.data.groups.map((g) => g.count) : [])];
    };
    const hand = async (c: TCase): Promise<number[]> => {
      const client = await pool.connect();
      try {
        // The same memory for hashing as the API's count gets.
        await client.query(`set work_mem = '128MB'`);
        const row = (await client.query({ text: c.sql, values: c.params, rowMode: 'array' })).rows[0] as unknown[];
        return row.map(Number);
      } finally {
        client.release();
      }
    };

    // Both must give the same answer, or the timing compares different work.
    for (const c of mix) {
      const [a, b] = [await ours(c), await hand(c)];
      process.stdout.write(`${c.name}: ${a.map((n) => n.toLocaleString()).join(' / ')} customers\n`);
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${c.name}: the API counted ${a.join(' / ')}, the hand-written SQL ${b.join(' / ')}`);
    }

    const time = async (run: (c: TCase) => Promise<number[]>) => {
      const latencies: number[] = [];
      const perCase = new Map<string, number[]>();
      for (let r = 0; r < rounds; r++) {
        for (const c of mix) {
          const t0 = performance.now();
          await run(c);
          const ms = performance.now() - t0;
          latencies.push(ms);
          perCase.set(c.name, [...(perCase.get(c.name) ?? []), ms]);
        }
      }
      return { all: latencies.sort((a, b) => a - b), perCase };
    };
    process.stdout.write(`warming up...\n`);
    await time(ours);
    await time(hand);
    process.stdout.write(`ours: ${rounds} rounds of ${mix.length} counts through the API\n`);
    const o = await time(ours);
    process.stdout.write(`baseline: the same counts in hand-written SQL over pg\n`);
    const b = await time(hand);
    await pool.end();

    for (const c of mix) {
      const oc = (o.perCase.get(c.name) ?? []).sort((x, y) => x - y);
      const bc = (b.perCase.get(c.name) ?? []).sort((x, y) => x - y);
      process.stdout.write(`  ${c.name}: ours p50=${percentile(oc, 50).toFixed(1)} ms, baseline p50=${percentile(bc, 50).toFixed(1)} ms\n`);
    }
    const p = (r: number[], q: number) => percentile(r, q).toFixed(1);
    process.stdout.write(`ours     p50=${p(o.all, 50)} ms p95=${p(o.all, 95)} ms max=${p(o.all, 100)} ms\n`);
    process.stdout.write(`baseline p50=${p(b.all, 50)} ms p95=${p(b.all, 95)} ms max=${p(b.all, 100)} ms\n`);
    const ourP95 = percentile(o.all, 95);
    const baseP95 = percentile(b.all, 95);
    process.stdout.write(`BENCH segment-count value=${ourP95.toFixed(1)} unit=ms baseline=${baseP95.toFixed(1)} ratio=${(baseP95 / ourP95).toFixed(2)}\n`);
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
