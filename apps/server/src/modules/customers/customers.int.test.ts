import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { actingContextOf } from '../auth/authenticate.ts';
import { createExportLink } from './export-link.ts';

let s: TTestServer;
let ids: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  const hosts = await s.sql(`select slug, id from hosts`);
  ids = Object.fromEntries(hosts.map((h) => [h.slug, h.id]));
  // 120 guests of Shinjuku, 30 of Kyoto and 5 of Harbor View Kobe, made with SQL for speed.
  await s.sql(
    `
    insert into customers (brand_id, first_name, last_name, phone, email, address, created_at)
    select $1, '太郎' || g, '山田', '0901000' || lpad(g::text, 4, '0'), 'taro' || g || '@example.jp', '東京都', now() - (g || ' minutes')::interval
    from generate_series(1, 120) g`,
    [ids['sakura-hotels']],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
    select id, $1, brand_id, 'booking' from customers where phone like '0901000%'`,
    [ids['sakura-shinjuku']],
  );
  await s.sql(
    `
    insert into customers (brand_id, first_name, last_name, phone, email, address)
    select $1, '花子' || g, '鈴木', '0802000' || lpad(g::text, 4, '0'), null, '京都府'
    from generate_series(1, 30) g`,
    [ids['sakura-hotels']],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
    select id, $1, brand_id, 'booking' from customers where phone like '0802000%'`,
    [ids['sakura-kyoto']],
  );
  await s.sql(
    `
    insert into customers (brand_id, first_name, last_name, phone, email, address)
    select $1, 'Guest' || g, 'Smith', '0703000' || lpad(g::text, 4, '0'), 'smith' || g || '@example.com', 'Kobe'
    from generate_series(1, 5) g`,
    [ids['harbor-view']],
  );
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
      const res: { body: { data: { items: { id: string }[]; nextCursor: string | null; total: number } } } =
        await s.call('GET', `/v1/customers?limit=40${cursor ? `&cursor=${cursor}` : ''}`, { token });
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
      (await s.call('GET', `/v1/customers?search=${encodeURIComponent(q)}&limit=100`, { token })).body.data.items.map(
        (c: { phone: string }) => c.phone,
      );
    expect(await find('090-1000-0007')).toEqual(['09010000007']);
    expect(await find('０９０１０００００１２')).toEqual(['09010000012']);
    expect(await find('+81 90 1000 0013')).toEqual(['09010000013']);
    expect(await find('taro7@EXAMPLE.jp')).toEqual(['09010000007']);
    expect((await find('鈴木')).length).toBe(30);
    expect((await find('山田 太郎11')).sort()).toEqual(
      [
        '09010000011',
        '09010000110',
        '09010000111',
        '09010000112',
        '09010000113',
        '09010000114',
        '09010000115',
        '09010000116',
        '09010000117',
        '09010000118',
        '09010000119',
      ].sort(),
    );
  });

  it('finds with full-width letters, digits and symbols as a Japanese IME types them, and kana and kanji as typed', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    // As booking systems hand some names over: half-width kana, a compatibility ideograph (U+FA19).
    const kami = `${String.fromCodePoint(0xfa19)}田`;
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values
        ($1, 'ﾊﾅｺ', 'ﾔﾏﾀﾞ', '09099980001', 'setsuko.suzuki@example.jp'), ($1, '一郎', $2, '09099980002', null)`,
      [ids['sakura-hotels'], kami],
    );
    try {
      const find = async (q: string) =>
        (await s.call('GET', `/v1/customers?search=${encodeURIComponent(q)}&limit=100`, { token })).body.data.items.map(
          (c: { phone: string }) => c.phone,
        );
      expect(await find('ｔａｒｏ７＠ＥＸＡＭＰＬＥ．ｊｐ')).toEqual(['09010000007']);
      expect(await find('ｓｅｔｓｕｋｏ．ｓｕｚｕｋｉ＠')).toEqual(['09099980001']);
      expect(await find('０９０－１０００－０００７')).toEqual(['09010000007']);
      expect(await find('０９０ー９９９８ー０００２')).toEqual(['09099980002']);
      expect(await find('山田　太郎１１９')).toEqual(['09010000119']);
      expect(await find('ﾔﾏﾀﾞ')).toEqual(['09099980001']);
      expect(await find('ﾔﾏﾀﾞ　ﾊﾅｺ')).toEqual(['09099980001']);
      expect(await find(kami)).toEqual(['09099980002']);
    } finally {
      await s.sql(`delete from customers where phone in ('09099980001', '09099980002')`);
    }
  });

  it('finds a family name that starts with a character outside the Basic Multilingual Plane (𠮷田)', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone) values ($1, '一郎', '𠮷田', '09099990001'), ($1, '次郎', '吉田', '09099990002')`,
      [ids['sakura-hotels']],
    );
    try {
      const find = async (q: string) =>
        (await s.call('GET', `/v1/customers?search=${encodeURIComponent(q)}&limit=100`, { token })).body.data.items.map(
          (c: { lastName: string }) => c.lastName,
        );
      expect(await find('𠮷')).toEqual(['𠮷田']);
      expect(await find('𠮷田')).toEqual(['𠮷田']);
      expect(await find('𠮷田 一郎')).toEqual(['𠮷田']);
      expect(await find('吉')).toEqual(['吉田']);
    } finally {
      await s.sql(`delete from customers where phone in ('09099990001', '09099990002')`);
    }
  });

  it('filters by email status and hotel', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const kyoto = await s.call('GET', `/v1/customers?hotelId=${ids['sakura-kyoto']}`, { token });
    expect(kyoto.body.data.total).toBe(30);
    const unsubscribed = await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token });
    expect(unsubscribed.body.data.total).toBe(0);
  });

  it("shows a hotel only its own guests, a group its hotels' guests, another brand none", async () => {
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

  it("gives with a page, and with one customer, the acting host's time zone the console shows their times in", async () => {
    const hotel = await s.login(DEMO.hotelAdmin);
    const harbor = await s.login(DEMO.harborAdmin);
    const [tokyoGuest] = await s.sql(`select id from customers where phone = '09010000001'`);
    const [kobeGuest] = await s.sql(`select id from customers where phone = '07030000001'`);
    const [{ timezone: harborZone }] = await s.sql(`select timezone from hosts where slug = 'harbor-view'`);
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    try {
      const zones = async (token: string, id: string) => [
        (await s.call('GET', '/v1/customers?limit=1', { token })).body.data.timeZone,
        (await s.call('GET', '/v1/customers?search=nobody-at-all', { token })).body.data.timeZone,
        (await s.call('GET', `/v1/customers/${id}`, { token })).body.data.timeZone,
      ];
      expect(await zones(hotel.token, tokyoGuest.id)).toEqual(['Asia/Tokyo', 'Asia/Tokyo', 'Asia/Tokyo']);
      // Another host keeps its own zone, on an empty page too.
      expect(await zones(harbor.token, kobeGuest.id)).toEqual([
        'Pacific/Honolulu',
        'Pacific/Honolulu',
        'Pacific/Honolulu',
      ]);
    } finally {
      await s.sql(`update hosts set timezone = $1 where slug = 'harbor-view'`, [harborZone]);
    }
  });

  it('pages past customers made in one statement (one timestamp to the microsecond)', async () => {
    const { token } = await s.login(DEMO.harborAdmin);
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, address) select $1, 'Batch' || g, 'Lee', '0704000' || lpad(g::text, 4, '0'), 'Kobe' from generate_series(1, 60) g`,
      [ids['harbor-view']],
    );
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const res: { body: { data: { items: { id: string }[]; nextCursor: string | null } } } = await s.call(
        'GET',
        `/v1/customers?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      for (const c of res.body.data.items) seen.add(c.id);
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen.size).toBe(65);
    await s.sql(`delete from customers where phone like '0704000%'`);
  });

  it('refuses an edited cursor with a clear message', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/customers?cursor=not-ours', { token });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.cursor.code).toBe('invalid_cursor');
  });
});

describe('customer list in one round trip', () => {
  // The list acts on the session this process remembers and confirms it in the same round trip as
  // the page; these show that a change is still felt at the very next request.
  it('refuses a user at the next request once deactivated, stripped of the role, or after a password change', async () => {
    const { token } = await s.login(DEMO.hotelViewer);
    const list = () => s.call('GET', '/v1/customers?limit=5', { token });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);

    await s.sql(`update users set status = 'inactive' where email = $1`, [DEMO.hotelViewer]);
    expect((await list()).status).toBe(403);
    await s.sql(`update users set status = 'active' where email = $1`, [DEMO.hotelViewer]);
    expect((await list()).status).toBe(200);

    const [assignment] = await s.sql(
      `select ra.* from role_assignments ra join users u on u.id = ra.user_id where u.email = $1`,
      [DEMO.hotelViewer],
    );
    await s.sql(`delete from role_assignments where user_id = $1`, [assignment.user_id]);
    expect((await list()).status).toBe(403);
    await s.sql(`insert into role_assignments select * from json_populate_record(null::role_assignments, $1)`, [
      JSON.stringify(assignment),
    ]);
    expect((await list()).status).toBe(200);

    await s.sql(`update users set tokens_valid_after = now() + interval '1 second' where email = $1`, [
      DEMO.hotelViewer,
    ]);
    expect((await list()).status).toBe(401);
    await s.sql(`update users set tokens_valid_after = now() - interval '1 day' where email = $1`, [DEMO.hotelViewer]);
  });

  it('answers for the context the session has now, not the one remembered', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const list = async () => (await s.call('GET', '/v1/customers?limit=5', { token })).body.data.total as number;
    expect(await list()).toBe(120);
    // The admin's hotel is moved to Kyoto behind the server's back: the answer follows at once.
    const [user] = await s.sql(`select id from users where email = $1`, [DEMO.hotelAdmin]);
    await s.sql(`update role_assignments set host_id = $1 where user_id = $2`, [ids['sakura-kyoto'], user.id]);
    try {
      expect(await list()).toBe(30);
    } finally {
      await s.sql(`update role_assignments set host_id = $1 where user_id = $2`, [ids['sakura-shinjuku'], user.id]);
    }
    expect(await list()).toBe(120);
  });

  it('shows on a later page the total after a bulk change, not the one the first page counted', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const search = encodeURIComponent('鈴木');
    const first = await s.call('GET', `/v1/customers?limit=10&emailStatus=active&search=${search}`, { token });
    expect(first.body.data.total).toBe(30);
    const picked = first.body.data.items.slice(0, 2).map((c: { id: string }) => c.id);
    expect(
      (await s.call('PUT', '/v1/customers/email-status', { token, body: { ids: picked, emailStatus: 'unsubscribed' } }))
        .status,
    ).toBe(200);
    try {
      const next = await s.call(
        'GET',
        `/v1/customers?limit=10&emailStatus=active&search=${search}&cursor=${first.body.data.nextCursor}`,
        { token },
      );
      expect(next.body.data.total).toBe(28);
    } finally {
      await s.call('PUT', '/v1/customers/email-status', { token, body: { ids: picked, emailStatus: 'active' } });
    }
  });

  it('shows a total that follows a change made through the console at once', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const total = async () =>
      (await s.call('GET', '/v1/customers?limit=5&search=0909', { token })).body.data.total as number;
    expect(await total()).toBe(0);
    const made = await s.call('POST', '/v1/customers', {
      token,
      body: {
        firstName: '一郎',
        lastName: '総数',
        phone: '09099990000',
        address: '東京都',
        hotelId: ids['sakura-shinjuku'],
      },
    });
    expect(made.status).toBe(200);
    expect(await total()).toBe(1);
    expect((await s.call('DELETE', `/v1/customers/${made.body.data.id}`, { token })).status).toBe(200);
    expect(await total()).toBe(0);
  });

  it('keeps a total remembered through transactions that change no customer, and forgets it at one that does', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const total = async () =>
      (await s.call('GET', '/v1/customers?limit=5&search=0606', { token })).body.data.total as number;
    expect(await total()).toBe(0);
    // A guest added behind this server's back, as another process would: the total remembered stands.
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, address) values ($1, '六郎', '記憶', '06060000001', '大阪府')`,
      [ids['sakura-hotels']],
    );
    try {
      const db = s.rt.database.db;
      const everyBrand = { scopeAll: true, brandId: null };
      // The worker's sweeps and ticks: transactions across brands that read, or write elsewhere.
      await withTenant(db, everyBrand, (tx) => tx.execute(sql`select count(*) from customers`));
      await withTenant(db, everyBrand, (tx) =>
        tx.execute(
          sql`insert into tracking_settings (brand_id) values (${ids['sakura-hotels']})
            on conflict (brand_id) do update set updated_at = now()`,
        ),
      );
      expect(await total()).toBe(0);
      // One that changes a customer, of any brand, forgets every brand's totals.
      await withTenant(db, everyBrand, (tx) =>
        tx.execute(sql`update customers set updated_at = now() where phone = '06060000001'`),
      );
      expect(await total()).toBe(1);
    } finally {
      await s.sql(`delete from customers where phone = '06060000001'`);
    }
  });
});

describe('one customer', () => {
  it('may have an address at a real top-level domain of any length (DESIGN section 6)', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const body = {
      firstName: '花子',
      lastName: '旅館',
      phone: '08033334444',
      address: '東京都',
      hotelId: ids['sakura-shinjuku'],
    };
    const dotted = await s.call('POST', '/v1/customers', { token, body: { ...body, email: 'hanako@ryokan..tokyo' } });
    expect(dotted.status).toBe(400);
    expect(dotted.body.error.fields.email.message).toBe('Please enter a valid email');
    const made = await s.call('POST', '/v1/customers', { token, body: { ...body, email: 'hanako@ryokan.tokyo' } });
    expect(made.status).toBe(200);
    expect(made.body.data.email).toBe('hanako@ryokan.tokyo');
    expect((await s.call('DELETE', `/v1/customers/${made.body.data.id}`, { token })).status).toBe(200);
  });

  it('is added with the rules and messages of the specification', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const empty = await s.call('POST', '/v1/customers', {
      token,
      body: { firstName: '', lastName: '', phone: '', address: '' },
    });
    expect(empty.status).toBe(400);
    for (const f of ['firstName', 'lastName', 'phone', 'address'])
      expect(empty.body.error.fields[f].message).toBe('This field is required to fill.');
    const letters = await s.call('POST', '/v1/customers', {
      token,
      body: { firstName: 'a', lastName: 'b', phone: '090-abcd', address: 'c' },
    });
    expect(letters.body.error.fields.phone.message).toBe('Use only numerical characters.');
    const dup = await s.call('POST', '/v1/customers', {
      token,
      body: { firstName: 'a', lastName: 'b', phone: '090-1000-0001', address: 'c' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.fields.phone.message).toBe('Phone number already exists.');

    const created = await s.call('POST', '/v1/customers', {
      token,
      body: {
        firstName: '健',
        lastName: '中村',
        phone: '０８０－１１１１－２２２２',
        email: 'ken@example.jp',
        gender: 'male',
        dateOfBirth: '1990-05-20',
        country: 'jp',
        prefecture: '東京都',
        city: '新宿区',
        address: '西新宿1-1',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      fullName: '中村 健',
      phone: '08011112222',
      country: 'JP',
      emailStatus: 'active',
      consentSource: 'manual',
    });
    expect(created.body.data.age).toBeGreaterThanOrEqual(36);
    const future = await s.call('PUT', `/v1/customers/${created.body.data.id}`, {
      token,
      body: { ...created.body.data, dateOfBirth: '2999-01-01' },
    });
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
    const audit = await s.sql(`select action, changes from audit_log where target_id = $1 order by id`, [
      created.body.data.id,
    ]);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
    expect(JSON.stringify(audit)).not.toContain('08011112222');
  });

  it('has an ISO 3166-1 country or none: any other two letters are refused; a code stored before is kept', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const body = { firstName: '明', lastName: '国井', phone: '08055556666', address: '東京都' };
    const unknown = await s.call('POST', '/v1/customers', { token, body: { ...body, country: 'ZZ' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({
      country: { code: 'country_invalid', message: 'Not a country code. Choose a country from the list.' },
    });
    expect(await s.sql(`select count(*)::int as n from customers where phone = '08055556666'`)).toEqual([{ n: 0 }]);
    const made = await s.call('POST', '/v1/customers', { token, body: { ...body, country: 'kr' } });
    expect(made.body.data.country).toBe('KR');
    const id = made.body.data.id;
    // UK is reserved for GB, not a country code of its own.
    const uk = await s.call('PUT', `/v1/customers/${id}`, { token, body: { ...body, country: 'UK' } });
    expect([uk.status, uk.body.error.fields.country?.code]).toEqual([400, 'country_invalid']);
    expect(
      (await s.call('PUT', `/v1/customers/${id}`, { token, body: { ...body, country: 'GB' } })).body.data.country,
    ).toBe('GB');
    // A code stored before the check (an import took any two letters) stays through an edit of other fields.
    await s.sql(`update customers set country = 'XK' where id = $1`, [id]);
    const kept = await s.call('PUT', `/v1/customers/${id}`, {
      token,
      body: { ...body, address: '大阪府', country: 'XK' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ country: 'XK', address: '大阪府' });
    const other = await s.call('PUT', `/v1/customers/${id}`, { token, body: { ...body, country: 'ZZ' } });
    expect(other.body.error.fields.country.code).toBe('country_invalid');
    expect((await s.call('DELETE', `/v1/customers/${id}`, { token })).status).toBe(200);
  });

  it('is read by a viewer, who may change nothing', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    const [c] = await s.sql(`select id from customers where phone = '09010000001'`);
    expect((await s.call('GET', `/v1/customers/${c.id}`, { token: viewer.token })).status).toBe(200);
    expect(
      (
        await s.call('PUT', `/v1/customers/${c.id}`, {
          token: viewer.token,
          body: { firstName: 'x', lastName: 'y', phone: '1234567', address: 'z' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await s.call('PUT', '/v1/customers/email-status', {
          token: viewer.token,
          body: { ids: [c.id], emailStatus: 'unsubscribed' },
        })
      ).status,
    ).toBe(403);
  });

  it('shows bookings in reach and the allocation summary', async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000002'`);
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'booking')`,
      [c.id, ids['sakura-kyoto'], ids['sakura-hotels']],
    );
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_name, room_type, source, amount, status) values
       ($1, $2, $3, 'R-1', '2026-01-05', '2026-02-01', '2026-02-03', 2, 2, 'デラックスツイン', 'twin', 'Rakuten Travel', 48000, 'checked_out'),
       ($1, $2, $3, 'R-2', '2026-03-01', '2026-04-10', '2026-04-11', 1, 1, 'シングル', 'single', 'direct', 12000, 'cancelled'),
       ($1, $2, $4, 'R-3', '2026-05-01', '2026-06-10', '2026-06-12', 2, 2, '和室', 'japanese', 'Jalan', 60000, 'checked_out')`,
      [ids['sakura-hotels'], c.id, ids['sakura-shinjuku'], ids['sakura-kyoto']],
    );
    const brand = await s.login(DEMO.brandAdmin);
    const bookings = await s.call('GET', `/v1/customers/${c.id}/bookings`, { token: brand.token });
    expect(bookings.body.data.map((b: { checkIn: string }) => b.checkIn)).toEqual([
      '2026-06-10',
      '2026-04-10',
      '2026-02-01',
    ]);
    expect(bookings.body.data[0]).toMatchObject({
      hotelName: 'さくらホテル 京都',
      hotelGroupName: '関西エリア',
      brandName: 'さくらホテルズ',
      amount: 60000,
    });
    const detail = await s.call('GET', `/v1/customers/${c.id}`, { token: brand.token });
    expect(detail.body.data).toMatchObject({ totalBookings: 2, totalPayments: 108000 });

    const hotel = await s.login(DEMO.hotelAdmin);
    const own = await s.call('GET', `/v1/customers/${c.id}/bookings`, { token: hotel.token });
    expect(own.body.data.map((b: { hotelName: string }) => b.hotelName)).toEqual([
      'さくらホテル 新宿',
      'さくらホテル 新宿',
    ]);

    const summary = await s.call('GET', `/v1/customers/${c.id}/allocations`, { token: brand.token });
    expect(summary.body.data.brand).toEqual({ name: 'さくらホテルズ', bookingCount: 2 });
    expect(
      summary.body.data.hotels.map((h: { name: string; bookingCount: number }) => [h.name, h.bookingCount]),
    ).toEqual([
      ['さくらホテル 京都', 1],
      ['さくらホテル 新宿', 1],
    ]);
    expect(summary.body.data.hotelGroups.map((g: { name: string }) => g.name).sort()).toEqual(
      ['関東エリア', '関西エリア'].sort(),
    );
  });

  it("counts in its totals the bookings its booking history shows: a hotel's own, a brand's all", async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000009'`);
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'booking')`,
      [c.id, ids['sakura-kyoto'], ids['sakura-hotels']],
    );
    // Shinjuku: a stay (30,000) and a booking not yet stayed; Kyoto: two stays (50,000 and 7,000).
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, source, amount, status) values
       ($1, $2, $3, 'T-1', '2026-01-05', '2026-02-01', '2026-02-02', 1, 1, 'direct_web', 30000, 'checked_out'),
       ($1, $2, $3, 'T-2', '2026-01-06', '2026-09-01', '2026-09-02', 1, 1, 'phone', 20000, 'confirmed'),
       ($1, $2, $4, 'T-3', '2026-03-01', '2026-04-10', '2026-04-12', 2, 2, 'jalan', 50000, 'checked_out'),
       ($1, $2, $4, 'T-4', '2026-03-02', '2026-05-10', '2026-05-11', 1, 1, 'jalan', 7000, 'checked_in')`,
      [ids['sakura-hotels'], c.id, ids['sakura-shinjuku'], ids['sakura-kyoto']],
    );
    try {
      const seen = async (token: string, headers: Record<string, string> = {}) => {
        const history = await s.call('GET', `/v1/customers/${c.id}/bookings`, { token, headers });
        const detail = await s.call('GET', `/v1/customers/${c.id}`, { token, headers });
        const list = await s.call('GET', '/v1/customers?search=09010000009', { token, headers });
        const row = list.body.data.items.find((i: { id: string }) => i.id === c.id);
        const csv = await fetch(`${s.url}/v1/customers/export.csv?search=09010000009&lang=en`, {
          headers: { authorization: `Bearer ${token}`, ...headers },
        });
        const [, line = ''] = (await csv.text()).trimEnd().split('\r\n');
        const cells = line.split(',');
        return {
          history: history.body.data.length,
          detail: [detail.body.data.totalBookings, detail.body.data.totalPayments],
          list: [row?.totalBookings, row?.totalPayments],
          csv: cells.slice(13, 15),
        };
      };
      const hotel = await s.login(DEMO.hotelAdmin);
      expect(await seen(hotel.token)).toEqual({
        history: 2,
        detail: [2, 30000],
        list: [2, 30000],
        csv: ['2', '30000'],
      });
      const group = await s.login(DEMO.groupAdmin);
      expect(await seen(group.token)).toEqual({
        history: 2,
        detail: [2, 30000],
        list: [2, 30000],
        csv: ['2', '30000'],
      });
      const brand = await s.login(DEMO.brandAdmin);
      expect(await seen(brand.token)).toEqual({
        history: 4,
        detail: [4, 87000],
        list: [4, 87000],
        csv: ['4', '87000'],
      });
      // The brand admin acting as Kyoto: Kyoto's bookings only.
      const kyoto = { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kyoto', 'x-host-level': 'hotel' };
      expect(await seen(brand.token, kyoto)).toEqual({
        history: 2,
        detail: [2, 57000],
        list: [2, 57000],
        csv: ['2', '57000'],
      });
    } finally {
      await s.sql(`delete from bookings where customer_id = $1 and external_id like 'T-%'`, [c.id]);
      await s.sql(`delete from customer_allocations where customer_id = $1 and hotel_id = $2`, [
        c.id,
        ids['sakura-kyoto'],
      ]);
    }
  });
});

describe('allocation summary', () => {
  it("shows a hotel only its own allocation and figures, a group its hotels', a brand all", async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000020'`);
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $4, 'booking'), ($1, $3, $4, 'import')`,
      [c.id, ids['sakura-yokohama'], ids['sakura-kyoto'], ids['sakura-hotels']],
    );
    // Shinjuku one booking (and one cancelled), Yokohama two, Kyoto three.
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
       select $1, $2, h, 'A-' || n, '2026-01-05', '2026-02-01', '2026-02-02', 1, 1, 10000, st
       from (values ($3::uuid, 1, 'checked_out'), ($3::uuid, 2, 'cancelled'), ($4::uuid, 3, 'confirmed'), ($4::uuid, 4, 'checked_out'),
                    ($5::uuid, 5, 'checked_out'), ($5::uuid, 6, 'checked_in'), ($5::uuid, 7, 'confirmed')) v(h, n, st)`,
      [ids['sakura-hotels'], c.id, ids['sakura-shinjuku'], ids['sakura-yokohama'], ids['sakura-kyoto']],
    );
    try {
      type TRow = { name: string; bookingCount: number };
      const summary = async (token: string, headers: Record<string, string> = {}) => {
        const res = await s.call('GET', `/v1/customers/${c.id}/allocations`, { token, headers });
        expect(res.status).toBe(200);
        const pairs = (rows: TRow[]) => rows.map((r) => [r.name, r.bookingCount]).sort();
        return {
          brand: res.body.data.brand,
          groups: pairs(res.body.data.hotelGroups),
          hotels: pairs(res.body.data.hotels),
          text: JSON.stringify(res.body),
        };
      };
      const hotel = await summary((await s.login(DEMO.hotelAdmin)).token);
      expect(hotel).toMatchObject({
        brand: { name: 'さくらホテルズ', bookingCount: 1 },
        groups: [['関東エリア', 1]],
        hotels: [['さくらホテル 新宿', 1]],
      });
      for (const other of ['さくらホテル 横浜', 'さくらホテル 京都', '関西エリア'])
        expect(hotel.text).not.toContain(other);

      expect(await summary((await s.login(DEMO.groupAdmin)).token)).toMatchObject({
        brand: { name: 'さくらホテルズ', bookingCount: 3 },
        groups: [['関東エリア', 3]],
        hotels: [
          ['さくらホテル 新宿', 1],
          ['さくらホテル 横浜', 2],
        ].sort(),
      });

      const brand = (await s.login(DEMO.brandAdmin)).token;
      expect(await summary(brand)).toMatchObject({
        brand: { name: 'さくらホテルズ', bookingCount: 6 },
        groups: [
          ['関東エリア', 3],
          ['関西エリア', 3],
        ].sort(),
        hotels: [
          ['さくらホテル 京都', 3],
          ['さくらホテル 新宿', 1],
          ['さくらホテル 横浜', 2],
        ].sort(),
      });
      // The brand admin acting as Kyoto sees what Kyoto sees.
      const kyoto = { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kyoto', 'x-host-level': 'hotel' };
      const asKyoto = await summary(brand, kyoto);
      expect(asKyoto).toMatchObject({
        brand: { name: 'さくらホテルズ', bookingCount: 3 },
        groups: [['関西エリア', 3]],
        hotels: [['さくらホテル 京都', 3]],
      });
      expect(asKyoto.text).not.toContain('さくらホテル 新宿');
    } finally {
      await s.sql(`delete from bookings where customer_id = $1 and external_id like 'A-%'`, [c.id]);
      await s.sql(`delete from customer_allocations where customer_id = $1 and hotel_id <> $2`, [
        c.id,
        ids['sakura-shinjuku'],
      ]);
    }
  });
});

describe('email status', () => {
  it('is set for a selection, brand-wide, and refused whole when one customer is out of reach', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const picked = await s.sql(`select id from customers where phone in ('09010000003', '09010000004')`);
    const res = await s.call('PUT', '/v1/customers/email-status', {
      token,
      body: { ids: picked.map((p) => p.id), emailStatus: 'unsubscribed' },
    });
    expect(res.body.data).toEqual({ updated: 2 });
    const brand = await s.login(DEMO.brandAdmin);
    expect(
      (await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token: brand.token })).body.data.total,
    ).toBe(2);

    const [kyotoOnly] = await s.sql(`select id from customers where phone = '08020000005'`);
    const mixed = await s.call('PUT', '/v1/customers/email-status', {
      token,
      body: { ids: [picked[0]?.id, kyotoOnly.id], emailStatus: 'active' },
    });
    expect(mixed.status).toBe(404);
    expect(
      (await s.call('GET', '/v1/customers?emailStatus=unsubscribed', { token: brand.token })).body.data.total,
    ).toBe(2);
  });
});

describe('CSV export', () => {
  it('streams what the filters show, with a BOM, translated headers and defused formulas', async () => {
    const [c] = await s.sql(`select id from customers where phone = '09010000005'`);
    await s.sql(`update customers set address = '=HYPERLINK("x")', last_name = '山田, "本店"' where id = $1`, [c.id]);
    const { token } = await s.login(DEMO.hotelAdmin);
    const res = await fetch(`${s.url}/v1/customers/export.csv?sort=name`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '姓,名,電話番号,メールアドレス,身分証番号,性別,生年月日,年齢,国,都道府県,市区町村,住所,メール配信ステータス,予約件数合計,支払額合計,登録日時',
    );
    expect(lines).toHaveLength(121);
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('"山田, ""本店"""');
    expect(text).not.toContain('鈴木');

    const english = await fetch(`${s.url}/v1/customers/export.csv?lang=en&emailStatus=unsubscribed`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // text() decodes UTF-8 and drops the BOM itself.
    const rows = (await english.text()).trimEnd().split('\r\n');
    expect(rows[0]?.startsWith('Last name,First name,Phone number')).toBe(true);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('Unsubscribed');
  });

  it("is dated, and writes its times, in the host's time zone with the offset", async () => {
    const hotel = await s.login(DEMO.hotelAdmin);
    const harbor = await s.login(DEMO.harborAdmin);
    const [tokyoGuest] = await s.sql(`select id, created_at from customers where phone = '09010000010'`);
    const [kobeGuest] = await s.sql(`select id, created_at from customers where phone = '07030000001'`);
    // Registered at 00:05:07 on 3 December in Tokyo (2 December in UTC); exported five minutes on.
    await s.sql(`update customers set created_at = '2026-12-02T15:05:07Z' where id in ($1, $2)`, [
      tokyoGuest.id,
      kobeGuest.id,
    ]);
    const [{ timezone: harborZone }] = await s.sql(`select timezone from hosts where slug = 'harbor-view'`);
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-02T15:10:00Z') });
    try {
      const exported = async (token: string, search: string) => {
        const res = await fetch(`${s.url}/v1/customers/export.csv?search=${search}&lang=ja`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const [header = '', row = ''] = (await res.text()).trimEnd().split('\r\n');
        const registeredAt = header.split(',').indexOf('登録日時');
        return { file: res.headers.get('content-disposition'), registeredAt: row.split(',')[registeredAt] };
      };
      expect(await exported(hotel.token, '09010000010')).toEqual({
        file: 'attachment; filename="customers-2026-12-03.csv"',
        registeredAt: '2026-12-03 00:05:07 +09:00',
      });
      // A host keeps its own zone: Honolulu is still on 2 December.
      expect(await exported(harbor.token, '07030000001')).toEqual({
        file: 'attachment; filename="customers-2026-12-02.csv"',
        registeredAt: '2026-12-02 05:05:07 -10:00',
      });
    } finally {
      vi.useRealTimers();
      await s.sql(`update hosts set timezone = $1 where slug = 'harbor-view'`, [harborZone]);
      for (const guest of [tokyoGuest, kobeGuest])
        await s.sql(`update customers set created_at = $2 where id = $1`, [guest.id, guest.created_at]);
    }
  });

  it('is refused to a viewer and to another brand', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    expect(
      (await fetch(`${s.url}/v1/customers/export.csv`, { headers: { authorization: `Bearer ${viewer.token}` } }))
        .status,
    ).toBe(403);
    expect((await fetch(`${s.url}/v1/customers/export.csv`)).status).toBe(401);
  });
});

describe('CSV export through a download link', () => {
  const KYOTO_AS_BRAND_ADMIN = { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kyoto', 'x-host-level': 'hotel' };

  async function askLink(
    token: string,
    body: Record<string, unknown>,
    options: { headers?: Record<string, string>; cookie?: string } = {},
  ) {
    const res = await s.call('POST', '/v1/customers/export-downloads', { token, body, ...options });
    const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('yado_export=')) ?? '').split(';')[0] ?? '';
    return { res, cookie, setCookie: res.headers.getSetCookie().join('\n') };
  }
  const download = (url: string, cookie?: string) =>
    fetch(s.url + url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

  it('gives a one-minute link, bound to this browser, that streams exactly what the bearer export gives', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const filter = { search: '鈴木', sort: 'name', lang: 'en' };
    const { res, cookie, setCookie } = await askLink(token, filter, { headers: KYOTO_AS_BRAND_ADMIN });
    expect(res.status).toBe(200);
    const { url, expiresAt } = res.body.data;
    expect(url).toMatch(/^\/v1\/customers\/export-downloads\?link=[A-Za-z0-9._-]+$/);
    // No search text, user, role or token in the address.
    for (const secret of ['鈴木', encodeURIComponent('鈴木'), token, 'sakura', 'admin'])
      expect(url.includes(secret), secret).toBe(false);
    const lifetime = new Date(expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(50_000);
    expect(lifetime).toBeLessThanOrEqual(60_000);
    expect(setCookie).toMatch(
      /yado_export=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/v1\/customers\/export-downloads; HttpOnly; SameSite=Strict/,
    );

    const file = await download(url, cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="customers-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(file.headers.get('referrer-policy')).toBe('no-referrer');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const viaBearer = await fetch(
      `${s.url}/v1/customers/export.csv?search=${encodeURIComponent('鈴木')}&sort=name&lang=en`,
      {
        headers: { authorization: `Bearer ${token}`, ...KYOTO_AS_BRAND_ADMIN },
      },
    );
    expect(bytes.equals(Buffer.from(await viaBearer.arrayBuffer()))).toBe(true);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]?.startsWith('Last name,First name')).toBe(true);
    const [{ n }] = await s.sql(
      `select count(*)::int n from customers c join customer_allocations a on a.customer_id = c.id where a.hotel_id = $1 and c.last_name = '鈴木'`,
      [ids['sakura-kyoto']],
    );
    expect(lines).toHaveLength(n + 1);
    expect(n).toBeGreaterThan(0);

    // Within its minute the same browser may download again (a retried download).
    expect((await download(url, cookie)).status).toBe(200);
    // A second export in the same minute keeps the browser's cookie, so both links work.
    const second = await askLink(token, { emailStatus: 'active' }, { cookie });
    expect(second.cookie).toBe(cookie);
    expect((await download(second.res.body.data.url, cookie)).status).toBe(200);
  });

  it('gives nothing to another browser, another user, a forged or an expired link', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const { res, cookie } = await askLink(token, { sort: 'name' });
    const url: string = res.body.data.url;
    const refused = async (r: Response) => {
      expect(r.status).toBe(401);
      const body = (await r.json()) as { data?: unknown };
      expect(body).toEqual({
        error: {
          code: 'download_link_invalid',
          message: 'This download link has expired or is not yours. Start the export again.',
        },
      });
      expect(body.data).toBeUndefined();
    };
    await refused(await download(url));
    // Another user, signed in in their own browser, with their own export cookie.
    const other = await s.login(DEMO.hotelAdmin);
    const theirs = await askLink(other.token, { sort: 'name' });
    expect(theirs.cookie).not.toBe(cookie);
    await refused(await download(url, theirs.cookie));
    // A bearer token does not stand in for the cookie.
    await refused(await fetch(s.url + url, { headers: { authorization: `Bearer ${token}` } }));
    // Altered anywhere, or made up.
    const token64 = url.split('link=').pop()!;
    const flipped = token64.slice(0, -2) + (token64.at(-2) === 'A' ? 'B' : 'A') + token64.at(-1);
    await refused(await download(`/v1/customers/export-downloads?link=${flipped}`, cookie));
    await refused(await download('/v1/customers/export-downloads?link=v1.AAAA.BBBB.CCCC', cookie));
    await refused(await download('/v1/customers/export-downloads', cookie));
    // Past its minute (the user's sessions made older than the links, which are minted in the past here).
    const [me] = await s.sql(`select id from users where email = $1`, [DEMO.brandAdmin]);
    await s.sql(`update users set tokens_valid_after = now() - interval '1 hour' where id = $1`, [me.id]);
    const ctx = await actingContextOf(s.rt, { userId: me.id, issuedAt: new Date() }, null);
    const nonce = cookie.split('=')[1]!;
    const stale = createExportLink(s.rt, ctx, { sort: 'name' }, nonce, Date.now() - 61_000);
    await refused(await download(stale.url, cookie));
    const fresh = createExportLink(s.rt, ctx, { sort: 'name' }, nonce, Date.now() - 30_000);
    const ok = await download(fresh.url, cookie);
    expect(ok.status, await ok.clone().text()).toBe(200);
  });

  it('is checked again when used: a user who lost the role or was deactivated meanwhile gets nothing', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const [user] = await s.sql(`select id from users where email = $1`, [DEMO.hotelAdmin]);
    const first = await askLink(token, { sort: 'name' });
    const second = await askLink(token, { sort: 'name' }, { cookie: first.cookie });
    expect((await download(first.res.body.data.url, first.cookie)).status).toBe(200);

    // Now a viewer there: no customer.export_csv.
    await s.sql(`update role_assignments set role = 'viewer' where user_id = $1 and host_id = $2`, [
      user.id,
      ids['sakura-shinjuku'],
    ]);
    try {
      const lost = await download(first.res.body.data.url, first.cookie);
      expect(lost.status).toBe(403);
      expect(((await lost.json()) as { data?: unknown }).data).toBeUndefined();
    } finally {
      await s.sql(`update role_assignments set role = 'admin' where user_id = $1 and host_id = $2`, [
        user.id,
        ids['sakura-shinjuku'],
      ]);
    }
    await s.sql(`update users set status = 'inactive' where id = $1`, [user.id]);
    try {
      const gone = await download(second.res.body.data.url, first.cookie);
      expect(gone.status).toBe(403);
      expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('no_access');
    } finally {
      await s.sql(`update users set status = 'active' where id = $1`, [user.id]);
    }
  });

  it('is not given to a role without customer.export_csv, to another brand, or without a token', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    expect((await askLink(viewer.token, { sort: 'name' })).res.status).toBe(403);
    const harbor = await s.login(DEMO.harborAdmin);
    const other = await askLink(
      harbor.token,
      { sort: 'name' },
      { headers: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-hotels', 'x-host-level': 'brand' } },
    );
    expect(other.res.status).toBe(403);
    expect(other.res.body.data).toBeUndefined();
    expect(other.cookie).toBe('');
    expect((await askLink('', { sort: 'name' })).res.status).toBe(401);
    // Harbor's own link holds Harbor's customers only.
    const own = await askLink(harbor.token, { sort: 'name' });
    const text = await (await download(own.res.body.data.url, own.cookie)).text();
    expect(text).toContain('Smith');
    expect(text).not.toContain('山田');
    expect(text).not.toContain('鈴木');
  });
});
