import { createServer, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createBookingSim, createManualClock, type TBookingSim, type TGuest } from '@yado/booking-sim';
import { normalizePhone } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { dispatchDailySyncs } from './daily-sync.ts';
import { syncBookings } from './sync-bookings.ts';

/**
 * The sync against the booking simulator in-process, its clock in the test's hands. The sim sits
 * behind a small counting server, so a test can make the booking system fail after N calls.
 */
const clock = createManualClock('2026-11-22T09:00:00+09:00');
let sim: TBookingSim;
let s: TTestServer;
let proxy: Server;
let callsBeforeFault: number | null = null;
/** Set: the guests the booking system answers pass through it (a country it sends wrong, say). */
let rewriteGuest: ((guest: TGuest) => TGuest) | null = null;
let sakura: string;
const SAKURA = 'DBK-100234';
const SAKURA_KEY = 'dbk_demo_sakura_7f3c9a1e5b2d4068';

beforeAll(async () => {
  sim = createBookingSim({ seed: 7, guestsPerAccount: 1200, now: clock.now, rateLimit: false });
  proxy = createServer((req, res) => {
    if (callsBeforeFault !== null && --callsBeforeFault < 0) {
      callsBeforeFault = null;
      // As many failures as the client's attempts: this call fails for good, nothing is owed after.
      sim.failNext(s.rt.config.booking.attempts, { status: 500, accountId: SAKURA });
    }
    if (rewriteGuest && req.url?.startsWith('/api/v1/guests')) rewriteGuests(res, rewriteGuest);
    sim.handler(req, res);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const port = (proxy.address() as { port: number }).port;
  s = await startTestServer();
  s.rt.config.booking.apiUrl = `http://127.0.0.1:${port}`;
  s.rt.config.booking.attempts = 3;
  [{ id: sakura }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const { token } = await s.login(DEMO.brandAdmin);
  const res = await s.call('POST', '/v1/booking/connection', {
    token,
    body: { accountId: SAKURA, apiKey: SAKURA_KEY },
  });
  expect(res.status).toBe(200);
  // The connect sync runs in the worker.
  await eventually(
    async () =>
      (await s.sql(`select 1 from booking_sync_runs where brand_id = $1 and status <> 'running'`, [sakura]))[0],
    60_000,
  );
}, 120_000);

/** Answers the guests of a list page or of a single guest through `rewrite`. */
function rewriteGuests(res: ServerResponse, rewrite: (guest: TGuest) => TGuest): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers: OutgoingHttpHeaders) => ServerResponse;
  const end = res.end.bind(res) as (body: string) => ServerResponse;
  let head: [number, OutgoingHttpHeaders] = [200, {}];
  res.writeHead = ((status: number, headers: OutgoingHttpHeaders) => {
    head = [status, headers];
    return res;
  }) as typeof res.writeHead;
  res.end = ((json: string) => {
    const body = JSON.parse(json) as { data?: TGuest | TGuest[] };
    if (head[0] === 200 && body.data)
      body.data = Array.isArray(body.data) ? body.data.map(rewrite) : rewrite(body.data);
    const text = JSON.stringify(body);
    writeHead(head[0], { ...head[1], 'content-length': Buffer.byteLength(text) });
    return end(text);
  }) as typeof res.end;
}

afterAll(async () => {
  await s?.close();
  await new Promise((r) => proxy?.close(r));
});

const runs = () => s.sql(`select * from booking_sync_runs where brand_id = $1 order by started_at desc`, [sakura]);
const counts = async () => {
  const [c] = await s.sql(
    `select (select count(*)::int from customers where brand_id = $1) customers,
            (select count(*)::int from bookings where brand_id = $1) bookings,
            (select count(*)::int from bookings where brand_id = $1 and status = 'cancelled') cancelled,
            (select coalesce(sum(booking_count), 0)::int from customer_allocations where brand_id = $1) allocated,
            (select max(updated_at) from customers where brand_id = $1) customers_touched,
            (select max(updated_at) from bookings where brand_id = $1) bookings_touched`,
    [sakura],
  );
  return c;
};
const watermark = async () =>
  (await s.sql(`select watermark from booking_connections where brand_id = $1`, [sakura]))[0].watermark?.toISOString();

describe('a first sync', () => {
  it('makes a customer of every guest with a phone, a booking of every reservation, and allocates them', async () => {
    const [run] = await runs();
    expect(run.status).toBe('succeeded');
    expect(run.trigger).toBe('connect');
    const world = sim.inspect(SAKURA);
    const withPhone = world.guests.filter((g) => g.phone && normalizePhone(g.phone));
    const distinctPhones = new Set(withPhone.map((g) => normalizePhone(g.phone as string)));
    const c = await counts();
    // One customer per phone: the same person on file twice becomes one customer.
    expect(c.customers).toBe(distinctPhones.size);
    expect(run.customers_created).toBe(distinctPhones.size);
    expect(run.guests_read).toBe(world.guests.length);
    expect(run.reservations_read).toBe(world.reservations.length);
    const placed = world.reservations.filter((r) => withPhone.some((g) => g.id === r.guest_id));
    expect(c.bookings).toBe(placed.length);
    expect(c.allocated).toBe(placed.filter((r) => r.status !== 'cancelled').length);
    // Guests without a phone are skipped and said so, by id, in the log.
    const noPhone = world.guests.length - withPhone.length;
    if (noPhone > 0) expect(run.errors).toContainEqual(expect.objectContaining({ code: 'guest_without_phone' }));
    expect(await watermark()).toBe(new Date(run.as_of).toISOString());
  });

  it('maps a guest onto the customer fields', async () => {
    const world = sim.inspect(SAKURA);
    const guest =
      world.guests.find((g) => g.phone && g.email && g.gender === 'unspecified' && g.newsletter_opt_in === false) ??
      world.guests.find((g) => g.phone && g.email)!;
    const [c] = await s.sql(
      `select c.* from customers c join booking_guest_links l on l.customer_id = c.id where l.external_guest_id = $1`,
      [guest.id],
    );
    expect(c.phone).toBe(normalizePhone(guest.phone!));
    expect(c.email).toBe(guest.email!.trim().toLowerCase());
    expect(c.last_name).toBe(guest.family_name);
    expect(c.first_name).toBe(guest.given_name);
    expect(c.country).toBe(guest.country);
    expect(c.consent_source).toBe('booking_system');
    expect(c.email_status).toBe(guest.newsletter_opt_in ? 'active' : 'unsubscribed');
    if (guest.gender === 'unspecified') expect(c.gender).toBe('prefer_not_to_say');
  });

  it('shows the customers to the brand through the customer API', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/customers?limit=5', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe((await counts()).customers);
    const shinjuku = await s.call('GET', '/v1/customers?limit=1', {
      token,
      headers: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-shinjuku', 'x-host-level': 'hotel' },
    });
    expect(shinjuku.body.data.total).toBeGreaterThan(0);
    expect(shinjuku.body.data.total).toBeLessThan(res.body.data.total);
  });
});

describe('a re-run', () => {
  it('with nothing new changes nothing', async () => {
    const before = await counts();
    const mark = await watermark();
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [run] = await runs();
    expect(run.status).toBe('succeeded');
    expect([
      run.customers_created,
      run.customers_updated,
      run.bookings_created,
      run.bookings_updated,
      run.bookings_cancelled,
    ]).toEqual([0, 0, 0, 0, 0]);
    expect(await counts()).toEqual(before);
    expect(await watermark()).toBe(mark);
  });

  it('a day later picks up new, changed and cancelled reservations and changed guests', async () => {
    const before = await counts();
    const previous = sim.inspect(SAKURA);
    clock.advanceDays(1);
    const now = sim.inspect(SAKURA);
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [run] = await runs();
    expect(run.status).toBe('succeeded');
    const after = await counts();
    const newReservations = now.reservations.filter((r) => !previous.reservations.some((p) => p.id === r.id));
    expect(newReservations.length).toBeGreaterThan(0);
    expect(run.bookings_created).toBeGreaterThan(0);
    expect(after.bookings).toBe(before.bookings + run.bookings_created);
    // Every reservation as the booking system has it now.
    const stored = await s.sql(`select external_id, status, check_in::text, amount from bookings where brand_id = $1`, [
      sakura,
    ]);
    const byId = new Map(stored.map((b) => [b.external_id, b]));
    const cancelledSince = now.reservations.filter(
      (r) =>
        r.status === 'cancelled' &&
        byId.has(r.id) &&
        previous.reservations.some((p) => p.id === r.id && p.status !== 'cancelled'),
    );
    expect(run.bookings_cancelled).toBe(cancelledSince.length);
    expect(run.bookings_cancelled + run.bookings_updated).toBeGreaterThan(0);
    for (const r of now.reservations) {
      const b = byId.get(r.id);
      if (!b) continue;
      expect([b.status, b.check_in, b.amount], r.id).toEqual([r.status, r.check_in, r.amount]);
    }
    // Each customer's check-in days (kept by PostgreSQL for segments, migration 0026) follow the
    // bookings the sync inserted and rewrote, under the tenant role the sync runs as.
    const days = await s.sql(
      `select count(*) filter (where c.check_ins is not null)::int as kept,
         count(*) filter (where (c.check_ins, c.first_check_in, c.last_check_in) is distinct from (d.days, d.first, d.last))::int as stale
       from customers c, lateral (select range_agg(daterange(b.check_in, b.check_in, '[]')) as days, min(b.check_in) as first, max(b.check_in) as last
         from bookings b where b.customer_id = c.id) d
       where c.brand_id = $1`,
      [sakura],
    );
    expect(days[0].kept).toBeGreaterThan(0);
    expect(days[0].stale).toBe(0);
    // And once more: nothing.
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [again] = await runs();
    expect([
      again.customers_created,
      again.customers_updated,
      again.bookings_created,
      again.bookings_updated,
      again.bookings_cancelled,
    ]).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('a run cut off by the booking system', () => {
  it('leaves the watermark where it was, and the next run completes without duplicates', async () => {
    clock.advanceDays(2);
    const mark = await watermark();
    const before = await counts();
    callsBeforeFault = 1; // the guest pass (one page) succeeds, the reservation pass fails
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [failed] = await runs();
    expect(failed.status).toBe('failed');
    expect(failed.errors).toContainEqual(expect.objectContaining({ code: 'booking_system_500' }));
    expect(await watermark()).toBe(mark);
    // The next run redoes the two days.
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [ok] = await runs();
    expect(ok.status).toBe('succeeded');
    expect(await watermark()).not.toBe(mark);
    const after = await counts();
    const world = sim.inspect(SAKURA);
    const customerIds = await s.sql(
      `select count(distinct external_id)::int n, count(*)::int total from bookings where brand_id = $1`,
      [sakura],
    );
    expect(customerIds[0].n).toBe(customerIds[0].total);
    expect(after.bookings).toBeGreaterThanOrEqual(before.bookings);
    expect(after.bookings).toBeLessThanOrEqual(world.reservations.length);
  });
});

describe('a guest whose country is no ISO 3166-1 code', () => {
  it('is synced without it, a customer keeps the country it had, and the log names the guest', async () => {
    // A day of new guests, and every guest read again (as after a hotel's code change): the
    // customers the sync made before come by too.
    clock.advanceDays(1);
    await s.sql(`update booking_connections set watermark = null where brand_id = $1`, [sakura]);
    const countryBefore = new Map(
      (await s.sql(`select id, country from customers where brand_id = $1`, [sakura])).map((c) => [c.id, c.country]),
    );
    const sent = new Set<string>();
    rewriteGuest = (guest) => {
      sent.add(guest.id);
      return { ...guest, country: guest.country === 'JP' ? 'Japan' : 'UK' };
    };
    try {
      await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    } finally {
      rewriteGuest = null;
    }
    const [run] = await runs();
    expect(run.status).toBe('succeeded');
    const placed = await s.sql(
      `select l.external_guest_id, c.id, c.country from booking_guest_links l join customers c on c.id = l.customer_id
        where l.brand_id = $1 and l.external_guest_id = any($2)`,
      [sakura, [...sent]],
    );
    const known = placed.filter((c) => countryBefore.has(c.id));
    const created = placed.filter((c) => !countryBefore.has(c.id));
    expect(known.length).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThan(0);
    // Never stored; a customer the sync had placed before keeps its (valid) country.
    for (const c of known) expect(c.country, c.external_guest_id).toBe(countryBefore.get(c.id));
    for (const c of created) expect(c.country, c.external_guest_id).toBeNull();
    // The guest and its bookings are synced all the same; the log counts each guest, by id.
    const invalid = run.errors.find((e: { code: string }) => e.code === 'country_invalid');
    expect(invalid.count).toBe(placed.length);
    expect(placed.map((c) => c.external_guest_id)).toEqual(expect.arrayContaining(invalid.examples));
    const world = sim.inspect(SAKURA);
    const theirs = world.reservations.filter((r) => created.some((c) => c.external_guest_id === r.guest_id));
    expect(theirs.length).toBeGreaterThan(0);
    const stored = await s.sql(`select external_id from bookings where brand_id = $1 and external_id = any($2)`, [
      sakura,
      theirs.map((r) => r.id),
    ]);
    expect(stored.length).toBe(theirs.length);
  });
});

describe("the connection's synced-up-to time", () => {
  it('stays when a hotel code change rewinds the watermark, and the next sync moves it on', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const syncedUpTo = async () =>
      (await s.call('GET', '/v1/booking/connection', { token })).body.data.connection.syncedUpTo;
    const [last] = await runs();
    expect(await syncedUpTo()).toBe(new Date(last.as_of).toISOString());

    const [{ id: hakone }] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    const hotel = (await s.call('GET', `/v1/hotels/${hakone}`, { token })).body.data;
    const setCode = async (bookingHotelCode: string) => {
      const { name, address, email, phone, logoUrl, timezone } = hotel;
      const res = await s.call('PUT', `/v1/hotels/${hakone}`, {
        token,
        body: { name, address, email, phone, logoUrl, timezone, bookingHotelCode },
      });
      expect(res.status).toBe(200);
    };
    await setCode('SKR-HAKONE-OLD');
    await setCode(hotel.bookingHotelCode);
    // The next sync reads everything again, but what the last one synced is still there.
    expect(await watermark()).toBeUndefined();
    expect(await syncedUpTo()).toBe(new Date(last.as_of).toISOString());

    clock.advanceDays(1);
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [next] = await runs();
    expect(next.status).toBe('succeeded');
    expect(await syncedUpTo()).toBe(new Date(next.as_of).toISOString());
    expect(await watermark()).toBe(new Date(next.as_of).toISOString());
  });
});

describe('the daily schedule', () => {
  it('queues each brand once a day at 01:00 in its own time zone', async () => {
    await s.sql(`update booking_connections set last_daily_on = null where brand_id = $1`, [sakura]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-25T00:59:00+09:00'))).toEqual([]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-25T01:00:00+09:00'))).toEqual([sakura]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-25T01:15:00+09:00'))).toEqual([]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-26T01:00:00+09:00'))).toEqual([sakura]);
    await s.sql(`update hosts set timezone = 'Europe/London' where id = $1`, [sakura]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-27T01:00:00+09:00'))).toEqual([]);
    expect(await dispatchDailySyncs(s.rt, new Date('2026-11-27T01:00:00Z'))).toEqual([sakura]);
    await s.sql(`update hosts set timezone = 'Asia/Tokyo' where id = $1`, [sakura]);
    const [schedule] = await s.sql(`select cron, timezone from pgboss.schedule where name = 'booking.sync-dispatch'`);
    expect(schedule).toEqual({ cron: '*/15 * * * *', timezone: 'UTC' });
  });
});
