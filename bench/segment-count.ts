/**
 * segment-count: the live audience count of a segment filter through the real API
 * (POST /v1/segments/count, as the brand admin: auth, row-level security, the compiled statement),
 * on N customers (default 1,000,000) with about three bookings each, spread over four hotels, three
 * years, amounts, room types and sources. Baseline: the same counts written by hand in SQL over
 * `pg`, under the same tenant role and row-level security as the API, in the same run (and, for
 * reference only, as the owner without it).
 *   npm run bench -- segment-count [--size N] [--rounds 20]
 * The mix: a 5-condition and/or filter mixing customer and booking conditions, a name prefix, a
 * relative-date booking condition, and the marketer's "Shinjuku in summer, over ¥50,000, not back
 * for a year". Requests go one at a time (a console user's debounced edits).
 * value = our p95 in ms; ratio = baseline p95 ÷ ours (1.0: as fast as hand-written SQL).
 */
import pg from 'pg';
import { arg, benchDatabase, countRows, demoBrand, loginToken, percentile, seedOnce, startServer } from './_support.ts';

const size = arg('size', 1_000_000);
const rounds = arg('rounds', 20);
const port = arg('port', 3909);
// One database per size, so a small run never truncates the full-size seed another run reuses.
const DB = size === 1_000_000 ? 'yado_bench_segment_count' : `yado_bench_segment_count_${size}`;

async function seed(url: string): Promise<void> {
  const what = `${size.toLocaleString()} customers and about ${(size * 3).toLocaleString()} bookings`;
  await seedOnce(
    url,
    what,
    async (c) => (await countRows(c, 'customers')) === size,
    async (c, { brand, hotels }) => {
      await c.query('truncate customers cascade');
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
    },
  );
}

const cond = (field: string, operator: string, value: unknown = null) => ({
  kind: 'condition',
  field,
  operator,
  value,
});
const group = (join: 'and' | 'or', items: unknown[], bookings?: unknown) => ({
  kind: 'group',
  join,
  items,
  ...(bookings ? { bookings } : {}),
});

/** Today in Tokyo and N days from it, as the server computes them. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
const day = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const next = (s: string) =>
  `${[...s].slice(0, -1).join('')}${String.fromCodePoint((s.codePointAt(s.length - 1) as number) + 1)}`;

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
          group('and', [
            cond('hotel', 'is', [shinjuku]),
            cond('checkInDate', 'between', summer),
            cond('amount', 'greater_than', 50000),
          ]),
        ],
      },
      // The API answers the whole filter and each group: so does this, each customer tested once
      // per group against the booking set hashed once, and the answers tallied by kind. (Joining the
      // distinct booking sets instead is slower serially, as row-level security keeps a count: case
      // 4 at 200,000 took 1.8 s that way against 1.1 s; a plain subquery of the answers is
      // flattened, testing each customer again for every count that uses an answer.)
      sql: `select sum(n) filter (where a or b), sum(n) filter (where a), sum(n) filter (where b)
        from (select (c.last_name_key ~>=~ $2 and c.last_name_key ~<~ $3 and c.gender = 'female') as a,
            c.id in (select b.customer_id from bookings b where b.brand_id = $1 and b.hotel_id = $4 and b.check_in between $5 and $6 and b.amount > 50000) as b,
            count(*) as n
          from customers c where c.brand_id = $1 group by 1, 2) s`,
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
      name: 'Shinjuku in summer over ¥50,000, not back for a year',
      filter: {
        version: 1,
        join: 'and',
        groups: [
          group('and', [
            cond('hotel', 'is', [shinjuku]),
            cond('checkInDate', 'between', summer),
            cond('amount', 'greater_than', 50000),
          ]),
          group('and', [cond('checkInDate', 'in_last_days', 365)], { quantifier: 'none' }),
        ],
      },
      sql: `select sum(n) filter (where a and b), sum(n) filter (where a), sum(n) filter (where b)
        from (select c.id in (select b.customer_id from bookings b where b.brand_id = $1 and b.hotel_id = $2 and b.check_in between $3 and $4 and b.amount > 50000) as a,
            c.id not in (select b.customer_id from bookings b where b.brand_id = $1 and b.check_in between $5 and $6) as b,
            count(*) as n
          from customers c where c.brand_id = $1 group by 1, 2) s`,
      params: [brand, shinjuku, summer[0], summer[1], day(-365), today],
    },
  ];
}

async function main(): Promise<void> {
  const url = await benchDatabase(DB);
  const server = await startServer(url, port);
  try {
    await seed(url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const { brand } = await demoBrand(pool);
    const shinjuku = (await pool.query(`select id from hosts where slug = 'sakura-shinjuku'`)).rows[0].id as string;
    const token = await loginToken(`http://127.0.0.1:${port}`);
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
    const hand = async (c: TCase, asOwner = false): Promise<number[]> => {
      const client = await pool.connect();
      try {
        if (asOwner) {
          await client.query(`set work_mem = '128MB'; set jit = off`);
          return ((await client.query({ text: c.sql, values: c.params, rowMode: 'array' })).rows[0] as unknown[]).map(
            Number,
          );
        }
        // Under the same rules as the API's count: the tenant role and settings, so row-level
        // security applies, the same memory for hashing, without JIT compilation and without
        // parallel workers (on two cores they slowed counts down several times). The hand-written
        // SQL reads the bookings, as one writes it against the raw tables; the product reads the
        // customers' kept check-in days where a group asks only about those.
        await client.query('begin');
        await client.query(
          `select set_config('work_mem', '128MB', true), set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('yado.scope_all', 'off', true), set_config('yado.brand_id', $1, true), set_config('role', 'yado_app', true)`,
          [brand],
        );
        const row = (await client.query({ text: c.sql, values: c.params, rowMode: 'array' })).rows[0] as unknown[];
        await client.query('commit');
        return row.map(Number);
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    };

    // Both must give the same answer, or the timing compares different work.
    for (const c of mix) {
      const [a, b] = [await ours(c), await hand(c)];
      process.stdout.write(`${c.name}: ${a.map((n) => n.toLocaleString()).join(' / ')} customers\n`);
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new Error(`${c.name}: the API counted ${a.join(' / ')}, the hand-written SQL ${b.join(' / ')}`);
    }

    type TSide = { all: number[]; perCase: Map<string, number[]> };
    const side = (): TSide => ({ all: [], perCase: new Map() });
    const timeOne = async (into: TSide, c: TCase, run: (c: TCase) => Promise<number[]>) => {
      const t0 = performance.now();
      await run(c);
      const ms = performance.now() - t0;
      into.all.push(ms);
      into.perCase.set(c.name, [...(into.perCase.get(c.name) ?? []), ms]);
    };
    // Each count is run by every side back to back, in an order that flips every round, so a drift
    // of a shared machine falls on all sides alike.
    const sides = async (n: number) => {
      const [o, b, owner] = [side(), side(), side()];
      for (let r = 0; r < n; r++) {
        for (const c of mix) {
          const order: [TSide, (c: TCase) => Promise<number[]>][] = [
            [o, ours],
            [b, (x) => hand(x)],
            // For reference only: the same SQL as the owner, without row-level security (in parallel where PostgreSQL chooses).
            [owner, (x) => hand(x, true)],
          ];
          for (const [into, run] of r % 2 === 0 ? order : order.reverse()) await timeOne(into, c, run);
        }
      }
      for (const x of [o, b, owner]) x.all.sort((p, q) => p - q);
      return { o, b, owner };
    };
    process.stdout.write(`warming up...\n`);
    await sides(2);
    process.stdout.write(
      `${rounds} rounds of ${mix.length} counts, alternating: ours through the API; the baseline in hand-written SQL over pg, under the tenant role and row-level security\n`,
    );
    const { o, b, owner } = await sides(rounds);
    await pool.end();

    for (const c of mix) {
      const oc = (o.perCase.get(c.name) ?? []).sort((x, y) => x - y);
      const bc = (b.perCase.get(c.name) ?? []).sort((x, y) => x - y);
      process.stdout.write(
        `  ${c.name}: ours p50=${percentile(oc, 50).toFixed(1)} ms (max ${percentile(oc, 100).toFixed(1)}), baseline p50=${percentile(bc, 50).toFixed(1)} ms (max ${percentile(bc, 100).toFixed(1)})\n`,
      );
    }
    const p = (r: number[], q: number) => percentile(r, q).toFixed(1);
    process.stdout.write(`ours     p50=${p(o.all, 50)} ms p95=${p(o.all, 95)} ms max=${p(o.all, 100)} ms\n`);
    process.stdout.write(`baseline p50=${p(b.all, 50)} ms p95=${p(b.all, 95)} ms max=${p(b.all, 100)} ms\n`);
    process.stdout.write(`(as owner, no row-level security: p50=${p(owner.all, 50)} ms p95=${p(owner.all, 95)} ms)\n`);
    const ourP95 = percentile(o.all, 95);
    const baseP95 = percentile(b.all, 95);
    process.stdout.write(
      `BENCH segment-count value=${ourP95.toFixed(1)} unit=ms baseline=${baseP95.toFixed(1)} ratio=${(baseP95 / ourP95).toFixed(2)}\n`,
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
