import { createBookingSim, createManualClock, type TBookingSim } from '@yado/booking-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { syncBookings } from '../booking/sync-bookings.ts';

/**
 * A hotel's booking-system (DBK) code, set by hand in Management. The brand's account here has a
 * hotel no Yado hotel is named like (名古屋), so its reservations are unknown until a code is set.
 */
const ACCOUNT = {
  id: 'DBK-300100',
  name: 'さくらホテルズ（テスト）',
  apiKey: 'dbk_test_sakura_codes_1b2c3d4e5f60',
  hotels: [
    { code: 'SKR-SHINJUKU', name: 'さくらホテル 新宿', kind: 'city' as const },
    { code: 'SKR-NAGOYA', name: '名古屋さくら館', kind: 'city' as const },
  ],
  guests: 150,
};

let s: TTestServer;
let sim: TBookingSim;
let sakura: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const clock = createManualClock('2026-11-22T09:00:00+09:00');
  sim = createBookingSim({ seed: 11, accounts: [ACCOUNT], now: clock.now, rateLimit: false });
  s = await startTestServer({ bookingSim: sim });
  [{ id: sakura }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  for (const slug of ['sakura-shinjuku', 'sakura-kyoto', 'sakura-hakone', 'harbor-kobe'])
    [{ id: ids[slug] }] = await s.sql(`select id from hosts where slug = $1`, [slug]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** The hotel as the edit form sends it back, with a new code. */
async function putCode(token: string, slug: string, code: unknown, headers?: Record<string, string>) {
  const [row] = await s.sql(`select name, address, logo_url from hosts where slug = $1`, [slug]);
  return s.call('PUT', `/v1/hotels/${ids[slug]}`, {
    token,
    headers,
    body: { name: row.name, address: row.address, logoUrl: row.logo_url, bookingHotelCode: code },
  });
}
async function logo(token: string): Promise<string> {
  const form = new FormData();
  // A real 1×1 PNG: the server judges logos by their bytes.
  form.append(
    'file',
    new Blob([
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    ]),
    'logo.png',
  );
  return (await s.call('POST', '/v1/uploads/logo', { token, form })).body.data.logoUrl;
}
const codeOf = async (slug: string) =>
  (await s.sql(`select booking_hotel_code from hosts where slug = $1`, [slug]))[0].booking_hotel_code;

describe("a hotel's booking-system code", () => {
  it('is shown with the hotel and set by a brand admin, trimmed and folded from full width', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const shown = await s.call('GET', `/v1/hotels/${ids['sakura-kyoto']}`, { token });
    expect(shown.body.data.bookingHotelCode).toBe('SKR-KYOTO');
    const res = await putCode(token, 'sakura-kyoto', '  ＳＫＲ－ＫＹＯＴＯ２ ');
    expect(res.status).toBe(200);
    expect(res.body.data.bookingHotelCode).toBe('SKR-KYOTO2');
    expect(await codeOf('sakura-kyoto')).toBe('SKR-KYOTO2');
    const list = await s.call('GET', '/v1/hotels?search=%E4%BA%AC%E9%83%BD', { token });
    expect(list.body.data.items[0].bookingHotelCode).toBe('SKR-KYOTO2');
  });

  it('refuses a code with other characters or too long, in the field, with its text', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    for (const bad of ['SKR KYOTO', 'さくら京都', '-SKR', 'X'.repeat(33)]) {
      const res = await putCode(token, 'sakura-kyoto', bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.fields.bookingHotelCode).toEqual({
        code: 'booking_hotel_code_invalid',
        message:
          'Use up to 32 letters, numbers, hyphens (-), underscores (_) or dots (.), starting with a letter or number.',
      });
    }
    expect(await codeOf('sakura-kyoto')).toBe('SKR-KYOTO2');
  });

  it("refuses another hotel's code in the same brand, but not a code another brand uses", async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const taken = await putCode(token, 'sakura-kyoto', 'SKR-SHINJUKU');
    expect(taken.status).toBe(409);
    expect(taken.body.error.fields.bookingHotelCode.message).toBe(
      'Another hotel of this brand already has this booking system code.',
    );
    const created = await s.call('POST', '/v1/hotels', {
      token,
      body: {
        name: 'さくらホテル 新宿別館',
        address: '東京都新宿区1-1',
        logoUrl: await logo(token),
        bookingHotelCode: 'SKR-SHINJUKU',
      },
    });
    expect(created.status).toBe(409);
    expect(created.body.error.code).toBe('booking_hotel_code_taken');

    const harbor = await s.login(DEMO.harborAdmin);
    const elsewhere = await putCode(harbor.token, 'harbor-kobe', 'SKR-SHINJUKU');
    expect(elsewhere.status).toBe(200);
    expect(await codeOf('harbor-kobe')).toBe('SKR-SHINJUKU');
    await putCode(harbor.token, 'harbor-kobe', 'HBV-KOBE');
  });

  it('is freed when its hotel is deleted, and cleared with an empty value', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const logoUrl = await logo(token);
    const annex = await s.call('POST', '/v1/hotels', {
      token,
      body: { name: 'さくら別館', address: '東京都1-1', logoUrl, bookingHotelCode: 'SKR-ANNEX' },
    });
    expect(annex.status).toBe(200);
    expect(annex.body.data.bookingHotelCode).toBe('SKR-ANNEX');
    await s.call('DELETE', `/v1/hotels/${annex.body.data.id}`, { token, body: { confirmation: 'さくら別館' } });
    expect((await putCode(token, 'sakura-hakone', 'SKR-ANNEX')).status).toBe(200);
    const cleared = await putCode(token, 'sakura-hakone', '');
    expect(cleared.body.data.bookingHotelCode).toBeNull();
    await putCode(token, 'sakura-hakone', 'SKR-HAKONE');
  });

  it('is out of reach of another brand, of a group admin outside the group and of roles without hotel edit', async () => {
    const harbor = await s.login(DEMO.harborAdmin);
    expect((await putCode(harbor.token, 'sakura-kyoto', 'HBV-X')).status).toBe(404);
    expect((await s.call('GET', `/v1/hotels/${ids['sakura-kyoto']}`, { token: harbor.token })).status).toBe(404);
    const group = await s.login(DEMO.groupAdmin);
    expect((await putCode(group.token, 'sakura-kyoto', 'SKR-X')).status).toBe(404);
    for (const email of [DEMO.hotelAdmin, DEMO.hotelStaff]) {
      const { token } = await s.login(email);
      expect((await putCode(token, 'sakura-shinjuku', 'SKR-X')).status, email).toBe(403);
    }
    // A hotel admin edits the hotel's own information in settings, which leaves the code alone.
    const hotel = await s.login(DEMO.hotelAdmin);
    const [row] = await s.sql(`select name, address, logo_url from hosts where slug = 'sakura-shinjuku'`);
    const own = await s.call('PUT', '/v1/settings/host', {
      token: hotel.token,
      body: { name: row.name, address: row.address, logoUrl: row.logo_url, bookingHotelCode: 'SKR-X' },
    });
    expect(own.status).toBe(200);
    expect(own.body.data.bookingHotelCode).toBe('SKR-SHINJUKU');
    expect(await codeOf('sakura-kyoto')).toBe('SKR-KYOTO2');
  });

  it('is audited as a change of the hotel, before and after', async () => {
    const [entry] = await s.sql(
      `select action, target_type, changes from audit_log where target_id = $1 and changes ? 'bookingHotelCode' order by at asc limit 1`,
      [ids['sakura-kyoto']],
    );
    expect(entry).toMatchObject({
      action: 'update',
      target_type: 'hotel',
      changes: { bookingHotelCode: ['SKR-KYOTO', 'SKR-KYOTO2'] },
    });
  });
});

describe('a sync after the code is set', () => {
  it('allocates the reservations it logged at an unknown hotel code before', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const connected = await s.call('POST', '/v1/booking/connection', {
      token,
      body: { accountId: ACCOUNT.id, apiKey: ACCOUNT.apiKey },
    });
    expect(connected.status).toBe(200);
    await eventually(
      async () =>
        (await s.sql(`select 1 from booking_sync_runs where brand_id = $1 and status <> 'running'`, [sakura]))[0],
      60_000,
    );
    const [first] = await s.sql(
      `select status, errors from booking_sync_runs where brand_id = $1 order by started_at desc`,
      [sakura],
    );
    expect(first.status).toBe('succeeded');
    const unknown = first.errors.find((e: { code: string }) => e.code === 'unknown_hotel_code');
    expect(unknown.examples).toEqual(['SKR-NAGOYA']);

    // The reservations at 名古屋 of guests who became customers: what the hotel should get.
    const world = sim.inspect(ACCOUNT.id);
    const atNagoya = async () => {
      const linked = new Set(
        (await s.sql(`select external_guest_id from booking_guest_links where brand_id = $1`, [sakura])).map(
          (r) => r.external_guest_id,
        ),
      );
      return world.reservations.filter((r) => r.hotel_code === 'SKR-NAGOYA' && linked.has(r.guest_id));
    };
    expect(unknown.count).toBe((await atNagoya()).length);
    expect(unknown.count).toBeGreaterThan(0);

    expect((await putCode(token, 'sakura-kyoto', 'SKR-NAGOYA')).status).toBe(200);
    await syncBookings(s.rt, { brandId: sakura, trigger: 'manual' });
    const [second] = await s.sql(
      `select status, errors, bookings_created from booking_sync_runs where brand_id = $1 order by started_at desc`,
      [sakura],
    );
    expect(second.status).toBe('succeeded');
    expect(second.errors.some((e: { code: string }) => e.code === 'unknown_hotel_code')).toBe(false);
    // The re-read may place a few more (a phone-less guest now matched by a customer's email).
    const nagoya = await atNagoya();
    expect(nagoya.length).toBeGreaterThanOrEqual(unknown.count);
    expect(second.bookings_created).toBeGreaterThanOrEqual(nagoya.length);
    const [placed] = await s.sql(`select count(*)::int n from bookings where hotel_id = $1`, [ids['sakura-kyoto']]);
    expect(placed.n).toBe(nagoya.length);
    const [allocated] = await s.sql(
      `select coalesce(sum(booking_count), 0)::int n from customer_allocations where hotel_id = $1`,
      [ids['sakura-kyoto']],
    );
    expect(allocated.n).toBe(nagoya.filter((r) => r.status !== 'cancelled').length);

    // The customers of the hotel are now in the hotel's own list.
    const kyoto = await s.call('GET', '/v1/customers?limit=1', {
      token,
      headers: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kyoto', 'x-host-level': 'hotel' },
    });
    expect(kyoto.body.data.total).toBeGreaterThan(0);
  });
});
