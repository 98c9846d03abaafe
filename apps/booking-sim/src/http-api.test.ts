import { afterEach, describe, expect, it } from 'vitest';
import { MS_PER_HOUR } from './calendar.ts';
import { createBookingSim, type TBookingSimOptions, type TListeningSim } from './create-booking-sim.ts';
import { createManualClock } from './manual-clock.ts';
import type { TGuest, TReservation, TSimAccountConfig } from './types.ts';

const SAKURA: TSimAccountConfig = {
  id: 'DBK-A',
  name: 'さくらホテルズ株式会社',
  apiKey: 'key-a',
  guests: 150,
  hotels: [
    { code: 'A-SHINJUKU', name: 'さくらホテル 新宿' },
    { code: 'A-HAKONE', name: 'さくら旅館 箱根', kind: 'ryokan' },
  ],
};
const HARBOR: TSimAccountConfig = {
  id: 'DBK-B',
  name: 'Harbor View Hotels K.K.',
  apiKey: 'key-b',
  guests: 80,
  foreignGuestShare: 0.4,
  hotels: [{ code: 'B-KOBE', name: 'Harbor View Kobe', language: 'en' }],
};
const SUSPENDED: TSimAccountConfig = {
  id: 'DBK-C',
  name: '停止中',
  apiKey: 'key-c',
  guests: 5,
  suspended: true,
  hotels: [{ code: 'C-1', name: 'C' }],
};
const START = Date.parse('2026-11-10T09:00:00+09:00');

const servers: TListeningSim[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Partial<TBookingSimOptions> = {}) {
  const clock = createManualClock(new Date(START));
  const sim = createBookingSim({
    seed: 7,
    origin: '2026-11-01',
    accounts: [SAKURA, HARBOR, SUSPENDED],
    rateLimit: false,
    now: clock.now,
    ...options,
  });
  const server = await sim.listen(0);
  servers.push(server);
  const call = async (path: string, apiKey: string | null = 'key-a', init: RequestInit = {}) => {
    const headers: Record<string, string> = apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...headers, ...(init.headers as Record<string, string>) },
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return { sim, clock, call };
}

/** Walks every page of a list, running `between` after each page, as a slow client would. */
async function walk<T extends { id: string }>(
  call: Awaited<ReturnType<typeof start>>['call'],
  path: string,
  apiKey: string,
  between: () => void = () => {},
): Promise<{ items: T[]; asOf: string; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let asOf = '';
  let pages = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await call(cursor ? `${path}${separator}cursor=${cursor}` : path, apiKey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data);
    if (pages === 0) asOf = res.body.as_of;
    expect(res.body.as_of).toBe(asOf);
    expect(res.body.has_more).toBe(res.body.next_cursor !== null);
    cursor = res.body.next_cursor;
    pages += 1;
    between();
  } while (cursor);
  return { items, asOf, pages };
}

describe('authentication and accounts', () => {
  it('refuses a missing, unknown or non-bearer key with 401', async () => {
    const { call } = await start();
    for (const [key, header] of [
      [null, undefined],
      ['nope', undefined],
      [null, 'Basic a2V5LWE6'],
      [null, 'Bearer'],
    ] as const) {
      const res = await call('/api/v1/guests', key, header ? { headers: { authorization: header } } : {});
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await call('/api/v1/account', null, { headers: { authorization: 'bearer key-a' } })).status).toBe(200);
  });

  it('describes the account and verifies the connection', async () => {
    const { call } = await start();
    const account = await call('/api/v1/account');
    expect(account.status).toBe(200);
    expect(account.body.data).toEqual({
      id: 'DBK-A',
      name: 'さくらホテルズ株式会社',
      time_zone: 'Asia/Tokyo',
      hotels: [
        { code: 'A-SHINJUKU', name: 'さくらホテル 新宿' },
        { code: 'A-HAKONE', name: 'さくら旅館 箱根' },
      ],
    });
    for (const method of ['POST', 'GET']) {
      const verify = await call('/api/v1/verify', 'key-b', { method });
      expect(verify.status).toBe(200);
      expect(verify.body.data).toMatchObject({
        ok: true,
        account_id: 'DBK-B',
        account_name: 'Harbor View Hotels K.K.',
      });
      expect(Date.parse(verify.body.data.verified_at)).toBe(START);
    }
  });

  it('answers 403 for a suspended contract', async () => {
    const { call } = await start();
    const res = await call('/api/v1/verify', 'key-c', { method: 'POST' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('account_suspended');
  });

  it("shows each key only its own account's guests and reservations", async () => {
    const { call } = await start();
    const a = await walk<TGuest>(call, '/api/v1/guests?limit=500', 'key-a');
    const b = await walk<TGuest>(call, '/api/v1/guests?limit=500', 'key-b');
    expect(a.items.length).toBeGreaterThan(100);
    expect(a.items.every((g) => g.id.startsWith('DBK-A-'))).toBe(true);
    expect(b.items.every((g) => g.id.startsWith('DBK-B-'))).toBe(true);
    const reservations = await walk<TReservation>(call, '/api/v1/reservations?limit=500', 'key-b');
    expect(reservations.items.every((r) => r.hotel_code === 'B-KOBE')).toBe(true);
    const someoneElses = a.items[0]!.id;
    expect((await call(`/api/v1/guests/${someoneElses}`, 'key-a')).body.data.id).toBe(someoneElses);
    expect((await call(`/api/v1/guests/${someoneElses}`, 'key-b')).status).toBe(404);
  });
});

describe('listing', () => {
  it('serves the same pages for the same seed', async () => {
    const first = await start();
    const second = await start();
    const third = await start({ seed: 8 });
    const page = '/api/v1/reservations?limit=50&updated_since=2025-01-01T00:00:00Z';
    const one = await first.call(page);
    expect((await second.call(page)).body).toEqual(one.body);
    expect((await third.call(page)).body.data).not.toEqual(one.body.data);
  });

  it('covers every record exactly once, as of the first page, even while the clock runs between pages', async () => {
    const { sim, clock, call } = await start();
    const truthAtStart = sim.inspect('DBK-A');
    // Each page is fetched six simulated hours after the one before: bookings are made,
    // changed and cancelled while the client walks.
    const guests = await walk<TGuest>(call, '/api/v1/guests?limit=20', 'key-a', () => clock.advance(6 * MS_PER_HOUR));
    // The reservations are read at the guests' snapshot, so that every guest_id is among the guests.
    const snapshot = encodeURIComponent(guests.asOf);
    const reservations = await walk<TReservation>(
      call,
      `/api/v1/reservations?limit=25&as_of=${snapshot}`,
      'key-a',
      () => clock.advance(6 * MS_PER_HOUR),
    );
    expect(guests.pages).toBeGreaterThan(5);
    expect(Date.parse(guests.asOf)).toBe(START);

    for (const [served, truth] of [
      [guests.items, truthAtStart.guests],
      [reservations.items, truthAtStart.reservations],
    ] as const) {
      const ids = served.map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...served].sort(byId)).toEqual([...truth].sort(byId));
    }
    // The data did move during the walk, so the test above proves something.
    const truthNow = sim.inspect('DBK-A');
    expect(truthNow.reservations.filter((r) => Date.parse(r.updated_at) > START).length).toBeGreaterThan(3);

    // The next sync starts from the snapshot and brings the copy up to date, exactly.
    const copy = new Map<string, TReservation>(reservations.items.map((r) => [r.id, r]));
    const since = encodeURIComponent(reservations.asOf);
    const delta = await walk<TReservation>(call, `/api/v1/reservations?limit=7&updated_since=${since}`, 'key-a', () =>
      clock.advance(MS_PER_HOUR),
    );
    expect(delta.items.length).toBeGreaterThan(0);
    expect(delta.items.every((r) => Date.parse(r.updated_at) > Date.parse(reservations.asOf))).toBe(true);
    for (const r of delta.items) copy.set(r.id, r);
    const truthAtDelta = sim
      .inspect('DBK-A')
      .reservations.filter((r) => Date.parse(r.updated_at) <= Date.parse(delta.asOf));
    expect([...copy.values()].sort(byId)).toEqual(truthAtDelta.sort(byId));
  });

  it('reads guests and reservations as one snapshot when the second pass passes the first pass as_of', async () => {
    const { clock, call } = await start();
    const guests = await walk<TGuest>(call, '/api/v1/guests?limit=500', 'key-a');
    clock.advanceDays(3);
    const reservations = await walk<TReservation>(
      call,
      `/api/v1/reservations?limit=500&as_of=${encodeURIComponent(guests.asOf)}`,
      'key-a',
    );
    const known = new Set(guests.items.map((g) => g.id));
    expect(reservations.items.every((r) => known.has(r.guest_id))).toBe(true);
    // Without as_of the reservations of guests created in those three days show up.
    const later = await walk<TReservation>(call, '/api/v1/reservations?limit=500', 'key-a');
    expect(later.items.some((r) => !known.has(r.guest_id))).toBe(true);
  });

  it('returns one record by id, as it is now or as it was', async () => {
    const { clock, call } = await start();
    const { body } = await call('/api/v1/reservations?limit=1');
    const first = body.data[0] as TReservation;
    const one = await call(`/api/v1/reservations/${first.id}`);
    expect(one.body.data).toEqual(first);
    clock.advanceDays(1);
    const before = await call(`/api/v1/reservations/${first.id}?as_of=${encodeURIComponent(first.updated_at)}`);
    expect(before.body.data).toEqual(first);
    const none = await call(`/api/v1/reservations/${first.id}?as_of=2020-01-01T00:00:00Z`);
    expect(none.status).toBe(404);
    expect((await call('/api/v1/guests/%E0%A4%A')).status).toBe(404);
  });
});

describe('bad requests', () => {
  it('answers 400 with a JSON error naming the field', async () => {
    const { call } = await start();
    const cases: [string, string, string][] = [
      ['/api/v1/guests?limit=0', 'invalid_query', 'limit'],
      ['/api/v1/guests?limit=501', 'invalid_query', 'limit'],
      ['/api/v1/guests?limit=ten', 'invalid_query', 'limit'],
      ['/api/v1/guests?limit=1.5', 'invalid_query', 'limit'],
      ['/api/v1/guests?updated_since=yesterday', 'invalid_query', 'updated_since'],
      ['/api/v1/guests?updated_since=2026-11-01T00:00:00', 'invalid_query', 'updated_since'],
      ['/api/v1/guests?updated_since=2026-02-30T00:00:00Z', 'invalid_query', 'updated_since'],
      ['/api/v1/reservations?as_of=2030-01-01T00:00:00Z', 'invalid_query', 'as_of'],
      ['/api/v1/reservations?page=2', 'invalid_query', 'page'],
      ['/api/v1/reservations?limit=5&limit=6', 'invalid_query', 'limit'],
      ['/api/v1/reservations?cursor=not-a-cursor', 'invalid_cursor', 'cursor'],
      ['/api/v1/account?verbose=1', 'invalid_query', 'verbose'],
    ];
    for (const [path, code, field] of cases) {
      const res = await call(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toMatchObject({ code, field });
      expect(typeof res.body.error.message).toBe('string');
    }
  });

  it('refuses a cursor used on the other list or with changed filters', async () => {
    const { call } = await start();
    const guests = await call('/api/v1/guests?limit=1&updated_since=2024-01-01T00:00:00Z');
    const cursor = guests.body.next_cursor as string;
    expect((await call(`/api/v1/reservations?cursor=${cursor}`)).body.error.code).toBe('invalid_cursor');
    expect((await call(`/api/v1/guests?cursor=${cursor}&updated_since=2025-01-01T00:00:00Z`)).status).toBe(400);
    expect((await call(`/api/v1/guests?cursor=${cursor}&updated_since=2024-01-01T09:00:00%2B09:00`)).status).toBe(200);
  });

  it('answers 404 for unknown paths and 405 for wrong methods, in JSON, without authentication', async () => {
    const { call } = await start();
    const missing = await call('/api/v2/guests', null);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const wrong = await call('/api/v1/guests', 'key-a', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await call('/healthz', null)).body).toEqual({ status: 'ok' });
  });

  it('keeps answering after a bug inside a request: 500 in JSON, reported through onError', async () => {
    const reported: unknown[] = [];
    let broken = false;
    const { call } = await start({
      now: () => (broken ? new Date(Number.NaN) : new Date(START)),
      onError: (error) => reported.push(error),
    });
    broken = true;
    const res = await call('/api/v1/guests');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(reported).toHaveLength(1);
    broken = false;
    expect((await call('/api/v1/guests?limit=1')).status).toBe(200);
  });
});

describe('throttling and failures', () => {
  it('answers 429 with Retry-After when a key calls faster than its rate, and recovers after waiting', async () => {
    let wallMs = 0;
    const { call } = await start({ rateLimit: { burst: 3, perSecond: 0.5, clock: () => wallMs } });
    for (let n = 0; n < 3; n += 1) expect((await call('/api/v1/account')).status).toBe(200);
    const throttled = await call('/api/v1/account');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('2');
    expect(throttled.body.error).toMatchObject({ code: 'rate_limited', retry_after_seconds: 2 });
    // Another key has its own allowance.
    expect((await call('/api/v1/account', 'key-b')).status).toBe(200);
    wallMs += 1000;
    expect((await call('/api/v1/account')).status).toBe(429);
    wallMs += 1000;
    expect((await call('/api/v1/account')).status).toBe(200);
  });

  it('fails the next requests on demand, with Retry-After on 503', async () => {
    const { sim, call } = await start();
    sim.failNext(2, { accountId: 'DBK-A' });
    const first = await call('/api/v1/guests');
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect(first.body.error.code).toBe('service_unavailable');
    expect((await call('/api/v1/guests', 'key-b')).status).toBe(200);
    expect((await call('/api/v1/guests')).status).toBe(503);
    expect((await call('/api/v1/guests')).status).toBe(200);
    sim.failNext(1, { status: 500 });
    expect((await call('/api/v1/guests', 'key-b')).status).toBe(500);
  });

  it('fails intermittently at a configured rate, at the same requests in every run', async () => {
    const statuses = async () => {
      const { call } = await start({ faults: { failureRate: 0.3, statuses: [500, 503] } });
      const seen: number[] = [];
      for (let n = 0; n < 30; n += 1) seen.push((await call('/api/v1/account')).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(200);
    expect(first.some((s) => s === 500 || s === 503)).toBe(true);
    expect(await statuses()).toEqual(first);
  });

  it('lets a client that retries on 5xx and 429 still read every record once', async () => {
    let wallMs = 0;
    const { sim, call } = await start({
      faults: { failureRate: 0.25 },
      rateLimit: { burst: 4, perSecond: 2, clock: () => wallMs },
    });
    const seen: TGuest[] = [];
    let cursor: string | null = null;
    let retries = 0;
    do {
      const res = await call(`/api/v1/guests?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      if (res.status !== 200) {
        expect([429, 500, 503]).toContain(res.status);
        wallMs += Number(res.headers.get('retry-after') ?? 1) * 1000;
        retries += 1;
        continue;
      }
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(retries).toBeGreaterThan(0);
    expect(seen.sort(byId)).toEqual(sim.inspect('DBK-A').guests.sort(byId));
  });
});

function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
