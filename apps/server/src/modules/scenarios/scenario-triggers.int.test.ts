import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { killWorkerProcess, startWorkerProcess } from '../../test/worker-process.ts';

/**
 * The entrances the pre-arrival test does not cover, on the manual clock over PostgreSQL: a booking
 * made while the scenario runs, a cancellation, customers who newly match a dynamic segment, and
 * recurring entries of a segment's members, the last across worker processes started and killed.
 * The clock moves through the dev route (which ticks the engine in the API process) or, for the
 * restarts, in the database alone, so only the worker processes tick. Each graph ends at a long
 * delay: who entered, and how often, is what these tests read.
 */

const LEASE = { WORKER_LEASE_SECONDS: '3', WORKER_LEASE_RENEW_SECONDS: '1' };
let s: TTestServer;
let token: string;
let grand: string;
let brand: { id: string };
let hotel: { id: string };
const workers: ChildProcess[] = [];
const tag = randomBytes(3).toString('hex');
const DAY = 24 * 60;

beforeAll(async () => {
  s = await startTestServer({ worker: false, env: { ...LEASE, SCENARIO_CLOCK: 'manual' } });
  if (!s.rt.config.databaseUrl)
    throw new Error('the restart test needs PostgreSQL: a worker process cannot share PGlite');
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
}, 120_000);
afterAll(async () => {
  for (const w of workers) await killWorkerProcess(w);
  await s?.close();
});

async function clockNow(): Promise<Date> {
  return new Date((await s.call('GET', '/v1/dev/scenario-clock', { token: grand })).body.data.now);
}
async function advance(minutes: number): Promise<void> {
  const r = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
/** The local date in Tokyo, `days` after `base`. */
const tokyoDate = (base: Date, days = 0) =>
  new Date(base.getTime() + 9 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

let phoneSeq = 0;
async function customer(name: string): Promise<string> {
  phoneSeq += 1;
  const phone = `080${String(parseInt(tag, 16) % 10_000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '入口', $3, $4) returning id`,
    [brand.id, name, phone, `${name}.${tag}@guest.example.jp`],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return row.id;
}
/** A booking as the daily sync writes it: made on `bookingDate`, for a stay from `checkIn`. */
async function booking(
  customerId: string,
  bookingDate: string,
  checkIn: string,
  status = 'confirmed',
): Promise<string> {
  const [row] = await s.sql(
    `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
     values ($1, $2, $3, $4, $5::date, $6::date, $6::date + 2, 2, 2, 40000, $7) returning id`,
    [brand.id, customerId, hotel.id, `E-${tag}-${randomBytes(4).toString('hex')}`, bookingDate, checkIn, status],
  );
  return row.id;
}
/** The sync changes a booking: its status, or only its guests (a change that is not an entrance). */
const resync = (id: string, status?: string) =>
  s.sql(`update bookings set status = coalesce($2, status), guests = guests + 1, updated_at = now() where id = $1`, [
    id,
    status ?? null,
  ]);

const holdGraph = (trigger: Record<string, unknown>) => ({
  nodes: [
    { id: 'in', type: 'trigger', data: trigger },
    { id: 'hold', type: 'delay', data: { kind: 'duration', amount: 300, unit: 'days' } },
  ],
  edges: [{ id: 'a', source: 'in', target: 'hold' }],
});

async function runScenario(name: string, graph: unknown, run?: unknown): Promise<string> {
  const created = await s.call('POST', '/v1/scenarios', {
    token,
    body: { name: `${name} ${tag}`, graph, ...(run ? { run } : {}) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const started = await s.call('POST', `/v1/scenarios/${created.body.data.id}/actions`, {
    token,
    body: { action: 'run' },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.data.status).toBe('running');
  return created.body.data.id;
}

/** Journeys per customer of ours (the demo's own guests may enter too), with their booking and round. */
async function entries(
  scenarioId: string,
  customerIds: string[],
): Promise<Record<string, { bookingId: string | null; round: number }[]>> {
  const rows = await s.sql(
    `select customer_id, booking_id, round from journeys where scenario_id = $1 and customer_id = any($2::uuid[]) order by round`,
    [scenarioId, customerIds],
  );
  const out: Record<string, { bookingId: string | null; round: number }[]> = Object.fromEntries(
    customerIds.map((id) => [id, []]),
  );
  for (const r of rows) out[r.customer_id]?.push({ bookingId: r.booking_id, round: r.round });
  return out;
}

describe('booking made', () => {
  it('lets in a guest whose booking is made while the scenario runs, once per booking; earlier and cancelled bookings do not', async () => {
    const now = await clockNow();
    const earlier = await customer('earlier');
    const later = await customer('later');
    const undone = await customer('undone');
    await booking(earlier, tokyoDate(now, -3), tokyoDate(now, 20));
    const id = await runScenario('予約した', holdGraph({ kind: 'booking_made' }));
    await advance(1);
    expect(await entries(id, [earlier, later, undone])).toEqual({ [earlier]: [], [later]: [], [undone]: [] });

    const at = await clockNow();
    const made = await booking(later, tokyoDate(at), tokyoDate(at, 30));
    await booking(undone, tokyoDate(at), tokyoDate(at, 30), 'cancelled');
    await advance(1);
    expect(await entries(id, [earlier, later, undone])).toEqual({
      [earlier]: [],
      [later]: [{ bookingId: made, round: 0 }],
      [undone]: [],
    });

    // The next syncs touch the same booking: nobody enters again.
    await resync(made);
    await advance(1);
    await resync(made);
    await advance(DAY);
    expect((await entries(id, [later]))[later]).toEqual([{ bookingId: made, round: 0 }]);

    // A second booking is a second entrance, in the guest's next round.
    const again = await booking(later, tokyoDate(await clockNow()), tokyoDate(await clockNow(), 40));
    await advance(1);
    expect((await entries(id, [later]))[later]).toEqual([
      { bookingId: made, round: 0 },
      { bookingId: again, round: 1 },
    ]);
  }, 60_000);
});

describe('cancellation', () => {
  it('lets in a guest whose booking is cancelled while the scenario runs, once; one cancelled before it started does not enter', async () => {
    const now = await clockNow();
    const before = await customer('cancelled-before');
    const during = await customer('cancelled-during');
    const kept = await customer('kept');
    await booking(before, tokyoDate(now, -10), tokyoDate(now, 20), 'cancelled');
    const duringBooking = await booking(during, tokyoDate(now, -10), tokyoDate(now, 20));
    const keptBooking = await booking(kept, tokyoDate(now, -10), tokyoDate(now, 20));
    const id = await runScenario('キャンセル', holdGraph({ kind: 'booking_cancelled' }));
    await advance(1);
    await advance(1);
    expect(await entries(id, [before, during, kept])).toEqual({ [before]: [], [during]: [], [kept]: [] });

    await resync(duringBooking, 'cancelled');
    await resync(keptBooking);
    await advance(1);
    expect(await entries(id, [before, during, kept])).toEqual({
      [before]: [],
      [during]: [{ bookingId: duringBooking, round: 0 }],
      [kept]: [],
    });
    // The cancelled booking synced again: still one entrance.
    await resync(duringBooking, 'cancelled');
    await advance(DAY);
    expect((await entries(id, [during]))[during]).toHaveLength(1);
  }, 60_000);
});

describe('customers who newly enter a dynamic segment while the scenario runs', () => {
  it('lets in a customer who changes so that the filter matches, once; one inside from the start does not enter', async () => {
    const mark = `VIP${tag}`;
    const inside = await customer(`${mark}-inside`);
    const joining = await customer('joining');
    const filter = {
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          items: [{ kind: 'condition', field: 'firstName', operator: 'contains', value: mark }],
        },
      ],
    };
    const segment = await s.call('POST', '/v1/segments', {
      token,
      body: { name: `新しい VIP ${tag}`, type: 'dynamic', filter },
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(200);
    const id = await runScenario('新しい VIP', holdGraph({ kind: 'segment_entered', segmentId: segment.body.data.id }));
    // The first look records who is inside already; they are not new.
    await advance(1);
    await advance(1);
    expect(await entries(id, [inside, joining])).toEqual({ [inside]: [], [joining]: [] });

    await s.sql(`update customers set first_name = $2, updated_at = now() where id = $1`, [joining, `${mark}-joining`]);
    await advance(1);
    expect(await entries(id, [inside, joining])).toEqual({ [inside]: [], [joining]: [{ bookingId: null, round: 0 }] });

    // Leaving the segment and coming back, or changing again while inside, is no new entrance.
    await s.sql(`update customers set first_name = 'left', updated_at = now() where id = $1`, [joining]);
    await advance(1);
    await s.sql(`update customers set first_name = $2, updated_at = now() where id = $1`, [joining, `${mark}-back`]);
    await s.sql(`update customers set last_name = '変更', updated_at = now() where id = $1`, [inside]);
    await advance(DAY);
    expect(await entries(id, [inside, joining])).toEqual({ [inside]: [], [joining]: [{ bookingId: null, round: 0 }] });
  }, 60_000);
});

describe('a recurring run', () => {
  /** A worker process of this server's database, ticking on the manual clock twice a second. */
  async function startWorker(): Promise<ChildProcess> {
    const child = await startWorkerProcess(
      {
        DATABASE_URL: s.rt.config.databaseUrl as string,
        DATA_DIR: s.rt.config.dataDir,
        SMTP_URL: `smtp://127.0.0.1:${s.rt.sink?.port}`,
        SCENARIO_CLOCK: 'manual',
        SCENARIO_TICK_SECONDS: '0.5',
        ...LEASE,
      },
      { debugVariable: 'YADO_DEBUG_WORKER' },
    );
    workers.push(child);
    return child;
  }
  /** Moves the clock in the database only: no tick in this process, the worker's ticks see it. */
  const moveClock = (minutes: number) =>
    s.sql(`update scenario_clock set now = now + make_interval(mins => $1::int) where id = 1`, [minutes]);

  it('enters the then-current members at each recurrence, once per period, across worker processes killed and started again', async () => {
    const first = await customer('member-first');
    const second = await customer('member-second');
    const segment = await staticSegment(s, token, `毎週 ${tag}`, [first]);
    const id = await runScenario('毎週', holdGraph({ kind: 'segment_members', segmentId: segment }), {
      period: { kind: 'recurring', every: 1, unit: 'weeks' },
    });
    const [{ next_entry_at: firstNext }] = await s.sql(`select next_entry_at from scenarios where id = $1`, [id]);

    let worker = await startWorker();
    await eventually(async () => ((await entries(id, [first]))[first]?.length === 1 ? true : null), 30_000);
    const [{ next_entry_at: afterFirst }] = await s.sql(`select next_entry_at from scenarios where id = $1`, [id]);
    expect(new Date(afterFirst).getTime() - new Date(firstNext).getTime()).toBe(7 * 86_400_000);

    // The worker dies; the segment changes; a week passes while no worker runs; a new one starts.
    await killWorkerProcess(worker);
    await s.call('POST', `/v1/segments/${segment}/members`, { token, body: { customerIds: [second] } });
    await moveClock(7 * DAY + 1);
    worker = await startWorker();
    await eventually(async () => ((await entries(id, [second]))[second]?.length === 1 ? true : null), 30_000);
    expect(await entries(id, [first, second])).toEqual({
      [first]: [
        { bookingId: null, round: 0 },
        { bookingId: null, round: 1 },
      ],
      [second]: [{ bookingId: null, round: 0 }],
    });

    // Three weeks pass with no worker: the next one enters them once, not once per missed week.
    await killWorkerProcess(worker);
    await moveClock(3 * 7 * DAY);
    const moved = await clockNow();
    worker = await startWorker();
    await eventually(async () => ((await entries(id, [second]))[second]?.length === 2 ? true : null), 30_000);
    // A few more ticks at the same moment change nothing.
    await new Promise((r) => setTimeout(r, 2_000));
    const after = await entries(id, [first, second]);
    expect(after[first]).toHaveLength(3);
    expect(after[second]).toHaveLength(2);
    const [{ next_entry_at: next }] = await s.sql(`select next_entry_at from scenarios where id = $1`, [id]);
    expect(new Date(next).getTime()).toBeGreaterThan(moved.getTime());
    expect(new Date(next).getTime() - moved.getTime()).toBeLessThanOrEqual(7 * 86_400_000);
    await killWorkerProcess(worker);
  }, 180_000);
});
