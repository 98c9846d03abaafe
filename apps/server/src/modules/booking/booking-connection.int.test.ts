import { createBookingSim, createManualClock, DEMO_BOOKING_ACCOUNTS } from '@yado/booking-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';

const key = (id: string) => DEMO_BOOKING_ACCOUNTS.find((a) => a.id === id)!.apiKey;
const AS = {
  brand: (slug: string) => ({ 'x-user-role': 'admin', 'x-host-slug': slug, 'x-host-level': 'brand' }),
  group: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kanto', 'x-host-level': 'hotel_group' },
  hotel: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-shinjuku', 'x-host-level': 'hotel' },
};

let s: TTestServer;
beforeAll(async () => {
  const clock = createManualClock('2026-11-22T09:00:00+09:00');
  s = await startTestServer({
    bookingSim: createBookingSim({ seed: 3, guestsPerAccount: 40, now: clock.now, rateLimit: false }),
  });
});
afterAll(async () => {
  await s?.close();
});

const connect = (token: string, accountId: string, apiKey: string, headers?: Record<string, string>) =>
  s.call('POST', '/v1/booking/connection', { token, headers, body: { accountId, apiKey } });

describe('connecting a brand to the booking system', () => {
  it('is refused to every context but a brand, by the server, with the specification message', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    for (const headers of [AS.group, AS.hotel]) {
      for (const [method, path] of [
        ['GET', '/v1/booking/connection'],
        ['POST', '/v1/booking/sync'],
        ['DELETE', '/v1/booking/connection'],
      ] as const) {
        const res = await s.call(method, path, { token, headers });
        expect(res.status, `${method} ${path} ${headers['x-host-level']}`).toBe(403);
        expect(res.body.error).toEqual({ code: 'booking_brand_only', message: 'only brand can connect to DBK' });
      }
      const res = await connect(token, 'DBK-100234', key('DBK-100234'), headers);
      expect(res.body.error.message).toBe('only brand can connect to DBK');
    }
    const grand = await s.login(DEMO.grand);
    const res = await connect(grand.token, 'DBK-100234', key('DBK-100234'));
    expect(res.body.error.code).toBe('booking_brand_only');
  });

  it('is refused to staff and viewers on every endpoint', async () => {
    for (const email of [DEMO.hotelStaff, DEMO.hotelViewer]) {
      const { token } = await s.login(email);
      for (const [method, path] of [
        ['GET', '/v1/booking/connection'],
        ['POST', '/v1/booking/connection'],
        ['POST', '/v1/booking/sync'],
        ['DELETE', '/v1/booking/connection'],
      ] as const) {
        const res = await s.call(method, path, {
          token,
          body: method === 'POST' ? { accountId: 'DBK-100871', apiKey: key('DBK-100871') } : undefined,
        });
        expect(res.status, `${email} ${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    }
    // multi is a brand viewer of Harbor View: a viewer at brand level is refused too.
    const { token } = await s.login(DEMO.multi);
    const res = await s.call('GET', '/v1/booking/connection', {
      token,
      headers: { 'x-user-role': 'viewer', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a wrong key, a key of another account and a suspended account, and stores nothing', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const wrong = await connect(token, 'DBK-100234', 'dbk_wrong_key');
    expect([wrong.status, wrong.body.error.code]).toEqual([422, 'booking_invalid_credentials']);
    const mismatched = await connect(token, 'DBK-100234', key('DBK-100990'));
    expect([mismatched.status, mismatched.body.error.code]).toEqual([422, 'booking_invalid_credentials']);
    const suspended = await connect(token, 'DBK-100013', key('DBK-100013'));
    expect([suspended.status, suspended.body.error.code]).toEqual([422, 'booking_account_suspended']);
    expect(await s.sql(`select 1 from booking_connections`)).toEqual([]);
    const status = await s.call('GET', '/v1/booking/connection', { token });
    expect(status.body.data).toMatchObject({
      connection: null,
      runs: [],
      syncPending: false,
      schedule: { time: '01:00', timeZone: 'Asia/Tokyo' },
    });
  });

  it('connects, keeps the key encrypted and out of every answer and log line, and runs the first sync', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    // A hotel without a code takes the code of the account's hotel of the same name, and the audit log says so.
    const [shinjuku] = await s.sql(
      `update hosts set booking_hotel_code = null where slug = 'sakura-shinjuku' returning id`,
    );
    const res = await connect(token, 'DBK-100234', key('DBK-100234'));
    expect(res.status).toBe(200);
    const audit = await s.sql(
      `select action, target_type, target_id, changes from audit_log where action in ('connect', 'update') and (target_type = 'booking_connection' or target_id = $1) order by id`,
      [shinjuku.id],
    );
    expect(audit).toEqual([
      {
        action: 'update',
        target_type: 'hotel',
        target_id: shinjuku.id,
        changes: { bookingHotelCode: [null, 'SKR-SHINJUKU'] },
      },
      { action: 'connect', target_type: 'booking_connection', target_id: 'DBK-100234', changes: null },
    ]);
    expect(res.body.data.connection).toMatchObject({
      accountId: 'DBK-100234',
      accountName: 'さくらホテルズ株式会社',
      status: 'active',
      connectedByName: expect.any(String),
    });
    expect(res.body.data.connection.hotels).toContainEqual({ code: 'SKR-SHINJUKU', hotelName: 'さくらホテル 新宿' });
    expect(res.body.data.syncPending).toBe(true);
    const [row] = await s.sql(`select api_key_encrypted from booking_connections`);
    expect(row.api_key_encrypted).not.toContain(key('DBK-100234'));
    const status = await eventually(async () => {
      const r = await s.call('GET', '/v1/booking/connection', { token });
      // The watermark is waited for too: once, in a clean-clone CI run, it read null just after the run
      // showed succeeded (they commit together, so this is not understood yet; see the session note of
      // 2026-11-24). If it never comes, the assertion below still fails.
      const done = r.body.data.runs[0]?.status === 'succeeded' && !r.body.data.syncPending;
      return done && r.body.data.connection?.syncedUpTo ? r.body.data : null;
    }, 30_000);
    expect(status.runs[0]).toMatchObject({ trigger: 'connect', status: 'succeeded' });
    expect(status.runs[0].customersCreated).toBeGreaterThan(0);
    expect(status.connection.syncedUpTo).not.toBeNull();
    expect(JSON.stringify(status)).not.toContain(key('DBK-100234'));
    expect(s.logs.join('\n')).not.toContain(key('DBK-100234'));
    const customers = await s.call('GET', '/v1/customers?limit=1', { token });
    expect(customers.body.data.total).toBe(status.runs[0].customersCreated);
  });

  it('refuses another account for a connected brand, and an account another brand holds', async () => {
    const sakura = await s.login(DEMO.brandAdmin);
    const other = await connect(sakura.token, 'DBK-100990', key('DBK-100990'));
    expect([other.status, other.body.error]).toEqual([
      409,
      { code: 'booking_already_connected', message: 'brand is already connected to another account' },
    ]);
    const harbor = await s.login(DEMO.harborAdmin);
    const taken = await connect(harbor.token, 'DBK-100234', key('DBK-100234'));
    expect([taken.status, taken.body.error.message]).toEqual([409, 'brand is already connected to another account']);
    // Harbor View sees nothing of Sakura's connection.
    const status = await s.call('GET', '/v1/booking/connection', { token: harbor.token });
    expect(status.body.data).toMatchObject({ connection: null, runs: [] });
    expect((await s.call('POST', '/v1/booking/sync', { token: harbor.token })).body.error.code).toBe(
      'booking_not_connected',
    );
    expect((await s.call('DELETE', '/v1/booking/connection', { token: harbor.token })).body.error.code).toBe(
      'booking_not_connected',
    );
    expect(await s.sql(`select brand_id from booking_connections`)).toHaveLength(1);
  });

  it('syncs on demand, and disconnects keeping the synced customers', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const before = (await s.call('GET', '/v1/booking/connection', { token })).body.data.runs.length;
    const asked = await s.call('POST', '/v1/booking/sync', { token });
    expect(asked.status).toBe(200);
    expect(asked.body.data.syncPending).toBe(true);
    const status = await eventually(async () => {
      const r = await s.call('GET', '/v1/booking/connection', { token });
      return r.body.data.runs.length > before && !r.body.data.syncPending ? r.body.data : null;
    }, 30_000);
    expect(status.runs[0]).toMatchObject({
      trigger: 'manual',
      status: 'succeeded',
      customersCreated: 0,
      bookingsCreated: 0,
    });
    const customers = (await s.call('GET', '/v1/customers?limit=1', { token })).body.data.total;
    const gone = await s.call('DELETE', '/v1/booking/connection', { token });
    expect(gone.body.data.connection).toBeNull();
    expect((await s.call('GET', '/v1/customers?limit=1', { token })).body.data.total).toBe(customers);
    // Now Harbor View may take the account.
    const harbor = await s.login(DEMO.harborAdmin);
    expect((await connect(harbor.token, 'DBK-100234', key('DBK-100234'))).status).toBe(200);
    const audit = await s.sql(
      `select action, target_id from audit_log where target_type = 'booking_connection' order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['connect', 'disconnect', 'connect']);
  });
});
