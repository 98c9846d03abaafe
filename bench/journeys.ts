/**
 * journeys: N guests with a stay 10 days ahead enter a pre-arrival scenario (3 days before
 * check-in) and pass a delay and a branch, through the real engine (runScenarioTick: entry from
 * the bookings, claims of due sets with SKIP LOCKED under row-level security, the per-node set
 * statements and the journey log), with the scenario clock moved by hand between ticks.
 * Baseline, in the same run and database: hand-written set-based SQL making the same state changes
 * (the same journey rows and log rows, one statement per change for all N at once).
 * The sides alternate over rounds (alternateRounds: a warm-up of each, then pairs whose order
 * flips); between rounds, untimed, the journeys are cleared and vacuumed. The N guests are seeded
 * once and kept in the database for the next run of the same size.
 *
 *   npm run bench -- journeys [--size 100000] [--rounds 3]
 *
 * value = our journey steps per second (a step: one customer entering or leaving a node, 7 per
 * guest), the median round; ratio = ours ÷ baseline. Sends are not part of it (the send benchmark
 * measures them).
 */
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { startRuntime } from '../apps/server/src/start.ts';
import { runScenarioTick } from '../apps/server/src/modules/scenarios/run-tick.ts';
import { admin, alternateRounds, arg, dbUrl, withSpread, type TLoadResult } from './_support.ts';

const size = arg('size', 100_000);
const rounds = arg('rounds', 3);
const DB = 'yado_bench_journeys';
const DAY = 86_400_000;
/** Steps per guest: enter and leave the trigger, the day's delay and the branch, and enter the last delay. */
const STEPS_PER_GUEST = 7;

const graph = {
  version: 1,
  nodes: [
    { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'before_check_in', days: 3 } },
    { id: 'wait', type: 'delay', position: { x: 0, y: 150 }, data: { kind: 'duration', amount: 1, unit: 'days' } },
    { id: 'booked', type: 'branch', position: { x: 0, y: 300 }, data: { condition: 'booked_since_entry' } },
    { id: 'yes', type: 'delay', position: { x: -150, y: 450 }, data: { kind: 'duration', amount: 1, unit: 'minutes' } },
    { id: 'no', type: 'delay', position: { x: 150, y: 450 }, data: { kind: 'duration', amount: 1, unit: 'minutes' } },
  ],
  edges: [
    { id: 'a', source: 'trigger', target: 'wait', handle: 'next' },
    { id: 'b', source: 'wait', target: 'booked', handle: 'next' },
    { id: 'c', source: 'booked', target: 'yes', handle: 'yes' },
    { id: 'd', source: 'booked', target: 'no', handle: 'no' },
  ],
};
const run = {
  period: { kind: 'long_run' },
  startDate: null,
  startTime: null,
  endDate: null,
  endTime: null,
  timeZone: 'Asia/Tokyo',
  sendTime: '09:00',
};

async function main(): Promise<void> {
  const probe = new pg.Client({ connectionString: dbUrl(DB) });
  const exists = await probe.connect().then(
    async () => {
      await probe.end();
      return true;
    },
    () => false,
  );
  if (!exists) await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  const config = loadConfig(
    {
      DATABASE_URL: url,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      DATA_DIR: '/tmp/yado-bench-journeys',
      WEB_DIST: '/nonexistent',
      BOOKING_API_URL: 'http://127.0.0.1:9',
    },
    {},
  );
  const rt = await startRuntime(config, { bookingSim: false });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const q = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
    const [brand] = await q(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await q(`select id from hosts where slug = 'sakura-shinjuku'`);
    const start = new Date(Date.UTC(2027, 0, 5, 0, 0));
    const checkIn = new Date(start.getTime() + 10 * DAY).toISOString().slice(0, 10);
    const [{ n: seeded }] = await q(
      `select count(*)::int as n from customers where email like 'journey%@bench.example.jp'`,
    );
    if (seeded !== size) {
      process.stdout.write(`seeding ${size.toLocaleString()} guests with a stay 10 days ahead...\n`);
      // Only the bench's guests: the demo's own bookings would enter too.
      await q(`delete from bookings where brand_id = $1`, [brand.id]);
      await q(`delete from customers where email like 'journey%@bench.example.jp'`);
      await q(
        `insert into customers (brand_id, first_name, last_name, phone, email)
         select $1, '太郎', '山田', '091' || lpad(g::text, 8, '0'), 'journey' || g || '@bench.example.jp' from generate_series(1, $2::int) g`,
        [brand.id, size],
      );
      await q(
        `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
         select $1, c.id, $2, 'B' || c.phone, $3::date - 40, $3::date, $3::date + 2, 2, 2, 30000, 'confirmed' from customers c where c.email like 'journey%@bench.example.jp'`,
        [brand.id, hotel.id, checkIn],
      );
    } else {
      process.stdout.write(`reusing the ${size.toLocaleString()} seeded guests\n`);
    }
    const moments = [
      start,
      new Date(start.getTime() + 8 * DAY),
      new Date(start.getTime() + 9 * DAY),
      new Date(start.getTime() + 9 * DAY + 120_000),
    ];
    const [m0, m1, m2, m3] = moments as [Date, Date, Date, Date];
    const steps = STEPS_PER_GUEST * size;
    const yesExpected = Math.floor((size + 3) / 10);

    /** Untimed: no journeys, no extra bookings, vacuumed, so every round starts from the same tables. */
    const reset = async () => {
      await q(`update scenarios set status = 'stopped' where name like 'bench %'`);
      await q(`delete from journey_steps where scenario_id in (select id from scenarios where name like 'bench %')`);
      await q(`delete from journeys where scenario_id in (select id from scenarios where name like 'bench %')`);
      await q(`delete from scenarios where name like 'bench %'`);
      await q(`delete from bookings where brand_id = $1 and external_id like 'C%'`, [brand.id]);
      await q(`vacuum analyze journeys, journey_steps, bookings, scenarios`);
    };
    // A tenth book a short stay on the eighth day, so the branch goes both ways. Its stay is already
    // under way at the next tick, so it enters no pre-arrival journey itself.
    const shortStays = () =>
      q(
        `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
         select $1, c.id, $2, 'C' || c.phone, $3::date, $3::date, $3::date + 1, 1, 1, 20000, 'confirmed'
         from customers c where c.email like 'journey%@bench.example.jp' and right(c.phone, 1) = '7'`,
        [brand.id, hotel.id, new Date(start.getTime() + 8 * DAY + 9 * 3600_000).toISOString().slice(0, 10)],
      );
    const insertScenario = async (name: string) =>
      (
        await q(
          `insert into scenarios (brand_id, host_id, name, status, graph, run, run_number, starts_at, started_at, next_entry_at)
           values ($1, $1, $2, 'running', $3, $4, 1, $5, $5, $5) returning id`,
          [brand.id, name, JSON.stringify(graph), JSON.stringify(run), start.toISOString()],
        )
      )[0].id as string;
    const checkDone = async (scenarioId: string, side: string) => {
      const [done] = await q(
        `select count(*) filter (where state = 'done')::int as done, count(*) filter (where node_id = 'yes')::int as yes, count(*)::int as total from journeys where scenario_id = $1`,
        [scenarioId],
      );
      if (done.done !== size || done.total !== size)
        throw new Error(`${side} finished ${done.done} of ${done.total} journeys (expected ${size})`);
      if (done.yes !== yesExpected)
        throw new Error(`${side} took the yes way for ${done.yes}, expected ${yesExpected}`);
      const [logged] = await q(`select count(*)::int as n from journey_steps where scenario_id = $1`, [scenarioId]);
      return logged.n as number;
    };
    const result = (seconds: number): TLoadResult => ({ latencies: [], errors: 0, sent: steps, seconds });

    // Ours: the engine, ticked at the moments the journeys come due.
    const ours = async (): Promise<TLoadResult> => {
      await reset();
      const id = await insertScenario('bench ours');
      let seconds = 0;
      for (const [i, at] of moments.entries()) {
        if (i === 2) await shortStays();
        const t0 = performance.now();
        await runScenarioTick(rt, at);
        seconds += (performance.now() - t0) / 1000;
      }
      const logged = await checkDone(id, 'ours');
      process.stdout.write(`  ours: ${logged.toLocaleString()} log rows\n`);
      return result(seconds);
    };

    // Baseline: the same state changes as hand-written set statements over all N at once.
    const baseline = async (): Promise<TLoadResult> => {
      await reset();
      await shortStays();
      const base = await insertScenario('bench baseline');
      const t1 = performance.now();
      const log = (node: string, event: string, where: string, at: Date) =>
        q(
          `insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, at) select brand_id, scenario_id, id, $2, $3, $4 from journeys where scenario_id = $1 and ${where}`,
          [base, node, event, at.toISOString()],
        );
      await q(
        `insert into journeys (brand_id, scenario_id, customer_id, booking_id, entry_key, round, node_id, phase, state, due_at, entered_at, updated_at)
         select b.brand_id, $1, b.customer_id, b.id, 'booking:' || b.id, 0, 'trigger', 'wait', 'waiting', ((b.check_in - 3)::timestamp + time '09:00') at time zone 'Asia/Tokyo', $2, $2
         from bookings b where b.brand_id = $3 and b.check_in >= $4::date and b.status = 'confirmed'`,
        [base, m0.toISOString(), brand.id, checkIn],
      );
      await log('trigger', 'entered', 'true', m0);
      await log('trigger', 'done', `node_id = 'trigger'`, m1);
      await q(
        `update journeys set node_id = 'wait', phase = 'wait', due_at = $2::timestamptz + interval '1 day', updated_at = $2 where scenario_id = $1 and node_id = 'trigger'`,
        [base, m1.toISOString()],
      );
      await log('wait', 'entered', `node_id = 'wait'`, m1);
      await log('wait', 'waiting', `node_id = 'wait'`, m1);
      await log('wait', 'done', `node_id = 'wait'`, m2);
      await q(
        `update journeys set node_id = 'booked', phase = 'arrive', updated_at = $2 where scenario_id = $1 and node_id = 'wait'`,
        [base, m2.toISOString()],
      );
      await log('booked', 'entered', `node_id = 'booked'`, m2);
      const booked = `exists (select 1 from bookings b where b.customer_id = journeys.customer_id and b.status <> 'cancelled' and b.booking_date >= (journeys.entered_at at time zone 'Asia/Tokyo')::date)`;
      await q(
        `update journeys set node_id = case when ${booked} then 'yes' else 'no' end, phase = 'wait', due_at = $2::timestamptz + interval '1 minute', updated_at = $2 where scenario_id = $1 and node_id = 'booked'`,
        [base, m2.toISOString()],
      );
      await log('booked', 'yes', `node_id = 'yes'`, m2);
      await log('booked', 'no', `node_id = 'no'`, m2);
      await log('yes', 'entered', `node_id = 'yes'`, m2);
      await log('no', 'entered', `node_id = 'no'`, m2);
      await log('yes', 'waiting', `node_id = 'yes'`, m2);
      await log('no', 'waiting', `node_id = 'no'`, m2);
      await log('yes', 'done', `node_id = 'yes'`, m3);
      await log('no', 'done', `node_id = 'no'`, m3);
      await q(`update journeys set state = 'done', due_at = null, updated_at = $2 where scenario_id = $1`, [
        base,
        m3.toISOString(),
      ]);
      const seconds = (performance.now() - t1) / 1000;
      const logged = await checkDone(base, 'baseline');
      process.stdout.write(`  baseline: ${logged.toLocaleString()} log rows\n`);
      return result(seconds);
    };

    const rate = (r: TLoadResult) => r.sent / r.seconds;
    const sides = await alternateRounds({
      rounds,
      warmUp: { ours, baseline },
      ours,
      baseline,
      measure: rate,
      label: (r) => `${rate(r).toFixed(0)} steps/s (${r.seconds.toFixed(1)} s)`,
    });
    await reset();
    process.stdout.write(
      `ours: ${withSpread(sides.ours, 'steps/s', 0)}\nbaseline: ${withSpread(sides.baseline, 'steps/s', 0)}\n`,
    );
    const value = sides.ours.median;
    const base = sides.baseline.median;
    process.stdout.write(
      `BENCH journeys value=${value.toFixed(1)} unit=steps/s baseline=${base.toFixed(1)} ratio=${(value / base).toFixed(3)}\n`,
    );
  } finally {
    await pool.end();
    await rt.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench journeys failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
