import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
let ids: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  const hosts = await s.sql(`select slug, id from hosts`);
  ids = Object.fromEntries(hosts.map((h) => [h.slug, h.id]));
  // 120 guests of Shinjuku, 30 of Kyoto and 5 of Harbor View Kobe, made with SQL for speed.
  await s.sql(`
    insert into customers (brand_id, first_name, last_name, phone, email, address, created_at)
    select $1, '太郎' || g, '山田', '0901000' || lpad(g::text, 4, '0'), 'taro' || g || '@example.jp', '東京都', now() - (g || ' minutes')::interval
    from generate_series(1, 120) g`, [ids['sakura-hotels']]);
  await s.sql(`insert into customer_allocations (customer_id, hotel_id, brand_id, source)
    select id, $1, brand_id, 'booking' from customers where phone like '0901000%'`, [ids['sakura-shinjuku']]);
  await s.sql(`
    insert into customers (brand_id, first_name, last_name, phone, email, address)
    select $1, '花子' || g, '鈴木', '0802000' || lpad(g::text, 4, '0'), null, '京都府'
    from generate_series(1, 30) g`, [ids['sakura-hotels']]);
  await s.sql(`insert into customer_allocations (customer_id, hotel_id, brand_id, source)
    select id, $1, brand_id, 'booking' from customers where phone like '0802000%'`, [ids['sakura-kyoto']]);
  await s.sql(`
    insert into customers (brand_id, first_name, last_name, phone, email, address)
    select $1, 'Guest' || g, 'Smith', '0703000' || lpad(g::text, 4, '0'), 'smith' || g || '@example.com', 'Kobe'
    from generate_series(1, 5) g`, [ids['harbor-view']]);
});
afterAll(async () => {
  await s?.close();
});

describe('customer list', () => {
  it('pages through every customer in reach exactly once with keyset cursors', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: { data: { items: { id: string }[]; nextCursor: string | null; total: number } } } = await s.call(
        'GET',
        `/v1/customers?limit=40${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(res.body.data.total).toBe(150);
      seen.push(...res.body.data.items.map((c) => c.id));
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(150);
  });

  it('sorts by name and by age of record', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const byName = await s.call('GET', '/v1/customers?sort=name&limit=100', { token });
    const names = byName.body.data.items.map((c: { lastName: string }) => c.lastName);
    expect(names).toEqual([...names].sort());
    const oldest = await s.call('GET', '/v1/customers?sort=created_at&limit=1', { token });
    const newest = await s.call('GET', '/v1/customers?sort=-created_at&limit=1', { token });
    expect(oldest.body.data.items[0].createdAt <= newest.body.data.items[0].createdAt).toBe(true);
  });

  it('searches by name, email and phone in any common form', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const find = async (q: string) =>
      (await s.call('GET', `/v1/customers?search=${encodeURIComponent(q)}&limit=100`, { token })).body.data.items.map((c: { phone: string }) => c.phone);
    expect(await find('090-1000-0007')).toEqual(['09010000007']);
    expect(await find('０９０１０００００１２')).toEqual(['09010000012']);
    expect(await find('+81 90 1000 0013')).toEqual(['09010000013']);
    expect(await find('taro7@EXAMPLE.jp')).toEqual(['09010000007']);
    expect((await find('鈴木')).length).toBe(30);
    expect((await find('山田 太郎11')).sort()).toEqual(['09010000011', '09010000110', '09010000111', '09010000112', '09010000113', '09010000114', '09010000115', '09010000116', '09010000117', '09010000118', '09010000119'].sort());
  });

  it('filters by email status and hotel', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const kyoto = await s.call('GET', `/v1/customers?hotelId=${ids['sakura-kyoto']}`, { token });
    expect(kyoto.body.data.total).toBe(30);
    const unsubscribed = await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token });
    expect(unsubscribed.body.data.total).toBe(0);
  });

  it('shows a hotel only its own guests, a group its hotels\' guests, another brand none', async () => {
    const hotel = await s.login(DEMO.hotelAdmin);
    expect((await s.call('GET', '/v1/customers', { token: hotel.token })).body.data.total).toBe(120);
    const group = await s.login(DEMO.groupAdmin);
    const groupPage = await s.call('GET', '/v1/customers?limit=100', { token: group.token });
    expect(groupPage.body.data.total).toBe(120);
    expect(groupPage.body.data.items).toHaveLength(100);
    expect(groupPage.body.data.items.every((c: { phone: string }) => c.phone.startsWith('0901000'))).toBe(true);
    const hotelPage = await s.call('GET', '/v1/customers?limit=100', { token: hotel.token });
    expect(hotelPage.body.data.items).toHaveLength(100);
    const harbor = await s.login(DEMO.harborAdmin);
    const theirs = await s.call('GET', '/v1/customers?limit=100', { token: harbor.token });
    expect(theirs.body.data.total).toBe(5);
    const [kyotoGuest] = await s.sql(`select id from customers where phone = '08020000001'`);
    expect((await s.call('GET', `/v1/customers/${kyotoGuest.id}`, { token: harbor.token })).status).toBe(404);
    expect((await s.call('GET', `/v1/customers/${kyotoGuest.id}`, { token: hotel.token })).status).toBe(404);
  });

  it('refuses an edited cursor with a clear message', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/customers?cursor=not-ours', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.cursor.code).toBe('invalid_cursor');
  });
});

describe('one customer', () => {
  it('is added with the rules and messages of the specification', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const empty = await s.call('POST', '/v1/customers', { token, body: { firstName: '', lastName: '', phone: '', address: '' } });
    expect(empty.status).toBe(400);
    for (const f of ['firstName', 'lastName', 'phone', 'address']) expect(empty.body.error.fields[f].message).toBe('This field is required to fill.');
    const letters = await s.call('POST', '/v1/customers', { token, body: { firstName: 'a', lastName: 'b', phone: '090-abcd', address: 'c' } });
    expect(letters.body.error.fields.phone.message).toBe('Use only numerical characters.');
    const dup = await s.call('POST', '/v1/customers', { token, body: { firstName: 'a', lastName: 'b', phone: '090-1000-0001', address: 'c' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields.phone.message).toBe('Phone number already exists.');

    const created = await s.call('POST', '/v1/customers', {
      token,
      body: { firstName: '健', lastName: '中村', phone: '０８０－１１１１－２２２２', email: 'ken@example.jp', gender: 'male', dateOfBirth: '1990-05-20', country: 'jp', prefecture: '東京都', city: '新宿区', address: '西新宿1-1' },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ fullName: '中村 健', phone: '08011112222', country: 'JP', emailStatus: 'active', consentSource: 'manual' });
    expect(created.body.data.age).toBeGreaterThanOrEqual(36);
    const future = await s.call('PUT', `/v1/customers/${created.body.data.id}`, { token, body: { ...created.body.data, dateOfBirth: '2999-01-01' } });
    expect(future.body.error.fields.dateOfBirth.code).toBe('invalid_date');
    const edited = await s.call('PUT', `/v1/customers/${created.body.data.id}`, {
      token,
      body: { firstName: '健一', lastName: '中村', phone: '08011112222', address: '西新宿1-2', email: null },
    });
    expect(edited.body.data).toMatchObject({ firstName: '健一', email: null });
    // Staff may not delete; the admin may.
    expect((await s.call('DELETE', `/v1/customers/${created.body.data.id}`, { token })).status).toBe(403);
    const admin = await s.login(DEMO.hotelAdmin);
    expect((await s.call('DELETE', `/v1/customers/${created.body.data.id}`, { token: admin.token })).status).toBe(200);
    const audit = await s.sql(`select action, changes from audit_log where target_id = $1 order by id`, [created.body.data.id]);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(JSON.stringify(audit)).not.toContain('08011112222');
  });

  it('is read by a viewer, who may change nothing', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    const [c] = await s.sql(`select id from customers where phone = '09010000001'`);
    expect((await s.call('GET', `/v1/customers/${c.id}`, { token: viewer.token })).status).toBe(200);
    expect((await s.call('PUT', `/v1/customers/${c.id}`, { token: viewer.token, body: { firstName: 'x', lastName: 'y', phone: '1234567', address: 'z' } })).status).toBe(403);
    expect((await s.call('PUT', '/v1/customers/email-status', { token: viewer.token, body: { ids: [c.id], emailStatus: 'unsubscribed' } })).status).toBe(403);
  });

  it('shows bookings in reach and the allocation summary', async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000002'`);
    await s.sql(`insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'booking')`, [c.id, ids['sakura-kyoto'], ids['sakura-hotels']]);
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_name, room_type, source, amount, status) values
       ($1, $2, $3, 'R-1', '2026-01-05', '2026-02-01', '2026-02-03', 2, 2, 'デラックスツイン', 'twin', 'Rakuten Travel', 48000, 'checked_out'),
       ($1, $2, $3, 'R-2', '2026-03-01', '2026-04-10', '2026-04-11', 1, 1, 'シングル', 'single', 'direct', 12000, 'cancelled'),
       ($1, $2, $4, 'R-3', '2026-05-01', '2026-06-10', '2026-06-12', 2, 2, '和室', 'japanese', 'Jalan', 60000, 'checked_out')`,
      [ids['sakura-hotels'], c.id, ids['sakura-shinjuku'], ids['sakura-kyoto']],
    );
    const brand = await s.login(DEMO.brandAdmin);
    const bookings = await s.call('GET', `/v1/customers/${c.id}/bookings`, { token: brand.token });
    expect(bookings.body.data.map((b: { checkIn: string }) => b.checkIn)).toEqual(['2026-06-10', '2026-04-10', '2026-02-01']);
    expect(bookings.body.data[0]).toMatchObject({ hotelName: 'さくらホテル 京都', hotelGroupName: '関西エリア', brandName: 'さくらホテルズ', amount: 60000 });
    const detail = await s.call('GET', `/v1/customers/${c.id}`, { token: brand.token });
    expect(detail.body.data).toMatchObject({ totalBookings: 2, totalPayments: 108000 });

    const hotel = await s.login(DEMO.hotelAdmin);
    const own = await s.call('GET', `/v1/customers/${c.id}/bookings`, { token: hotel.token });
    expect(own.body.data.map((b: { hotelName: string }) => b.hotelName)).toEqual(['さくらホテル 新宿', 'さくらホテル 新宿']);

    const summary = await s.call('GET', `/v1/customers/${c.id}/allocations`, { token: brand.token });
    expect(summary.body.data.brand).toEqual({ name: 'さくらホテルズ', bookingCount: 2 });
    expect(summary.body.data.hotels.map((h: { name: string; bookingCount: number }) => [h.name, h.bookingCount])).toEqual([
      ['さくらホテル 京都', 1],
      ['さくらホテル 新宿', 1],
    ]);
    expect(summary.body.data.hotelGroups.map((g: { name: string }) => g.name).sort()).toEqual(['関東エリア', '関西エリア'].sort());
  });
});

describe('email status', () => {
  it('is set for a selection, brand-wide, and refused whole when one customer is out of reach', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const picked = await s.sql(`select id from customers where phone in ('09010000003', '09010000004')`);
    const res = await s.call('PUT', '/v1/customers/email-status', { token, body: { ids: picked.map((p) => p.id), emailStatus: 'unsubscribed' } });
    expect(res.body.data).toEqual({ updated: 2 });
    const brand = await s.login(DEMO.brandAdmin);
    expect((await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token: brand.token })).body.data.total).toBe(2);

    const [kyotoOnly] = await s.sql(`select id from customers where phone = '08020000005'`);
    const mixed = await s.call('PUT', '/v1/customers/email-status', { token, body: { ids: [picked[0]?.id, kyotoOnly.id], emailStatus: 'active' } });
    expect(mixed.status).toBe(404);
    expect((await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token: brand.token })).body.data.total).toBe(2);
  });
});

describe('CSV export', () => {
  it('streams what the filters show, with a BOM, translated headers and defused formulas', async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000005'`);
    await s.sql(`update customers set address = '=HYPERLINK("x")', last_name = '山田, "本店"' where id = $1`, [c.id]);
    const { token } = await s.login(DEMO.hotelAdmin);
    const res = await fetch(`${s.url}/v1/customers/export.csv?sort=name`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('姓,名,電話番号,メールアドレス,身分証番号,性別,生年月日,年齢,国,都道府県,市区町村,住所,メール配信,予約数,支払総額,登録日時');
    expect(lines).toHaveLength(121);
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('"山田, ""本店"""');
    expect(text).not.toContain('鈴木');

    const english = await fetch(`${s.url}/v1/customers/export.csv?lang=en&emailStatus=unsubscribed`, { headers: { authorization: `Bearer ${token}` } });
    // text() decodes UTF-8 and drops the BOM itself.
    const rows = (await english.text()).trimEnd().split('\r\n');
    expect(rows[0]?.startsWith('Last name,First name,Phone number')).toBe(true);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('Unsubscribed');
  });

  it('is refused to a viewer and to another brand', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    expect((await fetch(`${s.url}/v1/customers/export.csv`, { headers: { authorization: `Bearer ${viewer.token}` } })).status).toBe(403);
    expect((await fetch(`${s.url}/v1/customers/export.csv`)).status).toBe(401);
  });
});
