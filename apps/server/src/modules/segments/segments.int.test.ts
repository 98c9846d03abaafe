import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { recordSegmentUse } from './segment-uses.ts';
import { withTenant } from '../../db/client.ts';

let s: TTestServer;
let ids: Record<string, string>;
const tokens: Record<string, string> = {};
const token = async (email: string) => (tokens[email] ??= (await s.login(email)).token);

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
const doc = (join: 'and' | 'or', groups: unknown[]) => ({ version: 1, join, groups });

/** Today in Tokyo, and a date N days from it. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
const day = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  s = await startTestServer();
  const hosts = await s.sql(`select slug, id from hosts`);
  ids = Object.fromEntries(hosts.map((h) => [h.slug, h.id]));
  const brand = ids['sakura-hotels'];
  // 40 guests of Shinjuku (山田), 20 of Kyoto (鈴木), 3 of Harbor View.
  await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, address, date_of_birth)
     select $1, '太郎' || g, '山田', '0901000' || lpad(g::text, 4, '0'), 'taro' || g || '@example.jp', '東京都', ('1980-01-01'::date + (g * 200))
     from generate_series(1, 40) g`,
    [brand],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select id, $1, brand_id, 'booking' from customers where phone like '0901000%'`,
    [ids['sakura-shinjuku']],
  );
  await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, address) select $1, '花子' || g, '鈴木', '0802000' || lpad(g::text, 4, '0'), null, '京都府' from generate_series(1, 20) g`,
    [brand],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select id, $1, brand_id, 'booking' from customers where phone like '0802000%'`,
    [ids['sakura-kyoto']],
  );
  await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, address) select $1, 'Guest' || g, 'Smith', '0703000' || lpad(g::text, 4, '0'), 'smith' || g || '@example.com', 'Kobe' from generate_series(1, 3) g`,
    [ids['harbor-view']],
  );
  // Shinjuku guests 1..10 stayed in July two years ago for 60,000 yen (more than 365 days ago
  // whatever today is: last July is fewer from January to mid-July); 1..5 also stayed at Kyoto 10 days ago.
  const july = `${Number(today.slice(0, 4)) - 2}-07-15`;
  await s.sql(
    `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_type, source, amount, status)
     select c.brand_id, c.id, $1, 'S' || c.phone, $2::date - 30, $2::date, $2::date + 2, 2, 2, 'twin', 'web', 60000, 'checked_out'
     from customers c where c.phone between '09010000001' and '09010000010'`,
    [ids['sakura-shinjuku'], july],
  );
  await s.sql(
    `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_type, source, amount, status)
     select c.brand_id, c.id, $1, 'K' || c.phone, $2::date - 20, $2::date, $2::date + 1, 1, 1, 'suite', 'ota', 20000, 'checked_out'
     from customers c where c.phone between '09010000001' and '09010000005'`,
    [ids['sakura-kyoto'], day(-10)],
  );
});
afterAll(async () => {
  await s?.close();
});

const shinjukuSummer = () =>
  doc('and', [
    group('and', [
      cond('hotel', 'is', [ids['sakura-shinjuku']]),
      cond('checkInDate', 'month_is', 7),
      cond('amount', 'greater_than', 50000),
    ]),
    group('and', [cond('checkInDate', 'in_last_days', 365)], { quantifier: 'none', count: 1 }),
  ]);

describe('the OpenAPI document', () => {
  it('describes the segment routes, the recursive filter document included', async () => {
    const res = await s.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/segments', '/v1/segments/count', '/v1/segments/{id}/explain/{customerId}']),
    );
    // The group schema is recursive, so it is a shared component the count's body refers to.
    expect(JSON.stringify(res.body.paths['/v1/segments/count'])).toContain('#/components/schemas/');
    const components = JSON.stringify(res.body.components.schemas);
    expect(components).toContain('in_last_days');
    expect(components).toContain('at_least');
    // Every reference in the document names a component that is there.
    const refs = [...JSON.stringify(res.body).matchAll(/#\/components\/schemas\/([\w.-]+)/g)].map(
      (m) => m[1] as string,
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) expect(res.body.components.schemas[ref], ref).toBeDefined();
  });
});

describe('live count', () => {
  it('counts the whole filter and each group in one answer', async () => {
    const res = await s.call('POST', '/v1/segments/count', {
      token: await token(DEMO.brandAdmin),
      body: { filter: shinjukuSummer() },
    });
    expect(res.status).toBe(200);
    // 10 stayed in July over 50,000; 5 of them came back 10 days ago; 60 customers have no stay this year...
    expect(res.body.data.groups.map((g: { count: number }) => g.count)).toEqual([10, 55]);
    expect(res.body.data.total).toBe(5);
  });

  it("counts only the hotel's guests and bookings for a hotel", async () => {
    const filter = doc('or', [
      group('and', [cond('lastName', 'starts_with', '山')]),
      group('and', [cond('hotel', 'all')]),
    ]);
    const brand = await s.call('POST', '/v1/segments/count', { token: await token(DEMO.brandAdmin), body: { filter } });
    expect(brand.body.data.groups.map((g: { count: number }) => g.count)).toEqual([40, 10]);
    const hotel = await s.call('POST', '/v1/segments/count', {
      token: await token(DEMO.hotelAdmin),
      body: { filter: doc('and', [group('and', [cond('hotel', 'all')])]) },
    });
    // Five Shinjuku guests also stayed at Kyoto: the hotel does not see those stays, so its "any booking" is still 10.
    expect(hotel.body.data.total).toBe(10);
    const kyotoOnly = doc('and', [group('and', [cond('hotel', 'is', [ids['sakura-kyoto']])])]);
    expect(
      (await s.call('POST', '/v1/segments/count', { token: await token(DEMO.hotelAdmin), body: { filter: kyotoOnly } }))
        .body.data.total,
    ).toBe(0);
    expect(
      (await s.call('POST', '/v1/segments/count', { token: await token(DEMO.brandAdmin), body: { filter: kyotoOnly } }))
        .body.data.total,
    ).toBe(5);
  });

  it('counts every group at every level in the same answer, each as it would count alone', async () => {
    const t = await token(DEMO.brandAdmin);
    // 山田 and (a Shinjuku stay over 50,000 or a stay in the last 30 days); or 鈴木.
    const shinjuku = group('and', [
      cond('hotel', 'is', [ids['sakura-shinjuku']]),
      cond('amount', 'greater_than', 50000),
    ]);
    const recent = { ...group('and', [cond('checkInDate', 'in_last_days', 30)]), id: 'recent' };
    const filter = doc('or', [
      group('and', [cond('lastName', 'is', '山田'), group('or', [shinjuku, recent])]),
      group('and', [cond('lastName', 'is', '鈴木')]),
    ]);
    const res = await s.call('POST', '/v1/segments/count', { token: t, body: { filter } });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(30);
    expect(res.body.data.groups).toEqual([
      { index: 0, path: 'groups.0', id: null, count: 10 },
      { index: 1, path: 'groups.0.items.1', id: null, count: 10 },
      { index: 0, path: 'groups.0.items.1.items.0', id: null, count: 10 },
      { index: 1, path: 'groups.0.items.1.items.1', id: 'recent', count: 5 },
      { index: 1, path: 'groups.1', id: null, count: 20 },
    ]);
    // Each group's count is its audience alone.
    const alone = async (g: unknown) =>
      (await s.call('POST', '/v1/segments/count', { token: t, body: { filter: doc('and', [g]) } })).body.data.total;
    expect(await alone(filter.groups[0])).toBe(10);
    expect(await alone(group('or', [shinjuku, recent]))).toBe(10);
    expect(await alone(recent)).toBe(5);
    // The hotel counts its own bookings at every level too: it never sees the Kyoto stays.
    const hotel = await s.call('POST', '/v1/segments/count', { token: await token(DEMO.hotelAdmin), body: { filter } });
    expect(hotel.body.data.groups.map((g: { count: number }) => g.count)).toEqual([10, 10, 10, 0, 0]);
  });

  it('counts "all" (any value given) without the guests who have no value', async () => {
    await s.sql(`update customers set gender = 'female' where phone in ('08020000001', '08020000002')`);
    try {
      const filter = doc('and', [group('and', [cond('gender', 'all')])]);
      const res = await s.call('POST', '/v1/segments/count', { token: await token(DEMO.brandAdmin), body: { filter } });
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBe(2);
    } finally {
      await s.sql(`update customers set gender = null where phone in ('08020000001', '08020000002')`);
    }
  });

  it('counts a family name that starts with a character outside the Basic Multilingual Plane (𠮷田)', async () => {
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone) values ($1, '一郎', '𠮷田', '09099990001'), ($1, '次郎', '吉田', '09099990002')`,
      [ids['sakura-hotels']],
    );
    try {
      const count = async (operator: string, value: string) => {
        const filter = doc('and', [group('and', [cond('lastName', operator, value)])]);
        const res = await s.call('POST', '/v1/segments/count', {
          token: await token(DEMO.brandAdmin),
          body: { filter },
        });
        expect(res.status).toBe(200);
        return res.body.data.total as number;
      };
      expect(await count('starts_with', '𠮷')).toBe(1);
      expect(await count('starts_with', '𠮷田')).toBe(1);
      expect(await count('starts_with', '吉')).toBe(1);
      expect(await count('is', '𠮷田')).toBe(1);
    } finally {
      await s.sql(`delete from customers where phone in ('09099990001', '09099990002')`);
    }
  });

  it('treats SQL-looking text as a value', async () => {
    const filter = doc('and', [
      group('or', [cond('firstName', 'contains', "'; drop table customers; --"), cond('email', 'is', "' or 1=1 --")]),
    ]);
    const res = await s.call('POST', '/v1/segments/count', { token: await token(DEMO.brandAdmin), body: { filter } });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(0);
    expect((await s.sql(`select count(*)::int as n from customers`))[0].n).toBe(63);
  });
});

describe('bad filters', () => {
  const countOf = async (filter: unknown) =>
    s.call('POST', '/v1/segments/count', { token: await token(DEMO.brandAdmin), body: { filter } });

  it.each([
    ['an empty group', doc('and', [group('and', [])]), 'filter.groups.0.items', 'empty_group'],
    ['no groups', doc('and', []), 'filter.groups', 'no_groups'],
    [
      'between with low above high',
      doc('and', [group('and', [cond('amount', 'between', [9, 1])])]),
      'filter.groups.0.items.0.value',
      'between_order',
    ],
    [
      'a value of the wrong type',
      doc('and', [group('and', [cond('age', 'greater_than', 'thirty')])]),
      'filter.groups.0.items.0.value',
      'value_wrong_type',
    ],
    [
      'an unknown field',
      doc('and', [group('and', [cond('password', 'is', 'x')])]),
      'filter.groups.0.items.0.field',
      'unknown_field',
    ],
    [
      'an unknown operator',
      doc('and', [group('and', [cond('age', 'regex', 'x')])]),
      'filter.groups.0.items.0.operator',
      'unknown_operator',
    ],
    [
      'an operator of another type',
      doc('and', [group('and', [cond('age', 'contains', 'x')])]),
      'filter.groups.0.items.0.operator',
      'operator_not_for_field',
    ],
    [
      'an impossible date',
      doc('and', [group('and', [cond('checkInDate', 'is', '2026-02-30')])]),
      'filter.groups.0.items.0.value',
      'bad_date',
    ],
    [
      'an unknown choice',
      doc('and', [group('and', [cond('gender', 'is', ['robot'])])]),
      'filter.groups.0.items.0.value',
      'unknown_choice',
    ],
    [
      'a fourth level',
      doc('and', [group('and', [group('and', [group('and', [group('and', [cond('age', 'is', 1)])])])])]),
      'filter.groups.0.items.0.items.0.items.0',
      'too_deep',
    ],
  ])('refuses %s with the message and its place', async (_name, filter, path, code) => {
    const res = await countOf(filter);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('filter_invalid');
    expect(res.body.error.message).toBe('Oops! Please double-check the filter logic arrangement.');
    expect(res.body.error.fields[path]).toEqual({
      code,
      message: 'Oops! Please double-check the filter logic arrangement.',
    });
  });

  it('refuses deep, huge and odd documents with 400, never 500', async () => {
    // Written out by hand: JSON.stringify itself cannot nest this deep.
    const deepText = `{"version":1,"join":"and","groups":[${'{"kind":"group","join":"and","items":['.repeat(5000)}${JSON.stringify(cond('age', 'is', 3))}${']}'.repeat(5000)}]}`;
    const deep = await s.call('POST', '/v1/segments/count', {
      token: await token(DEMO.brandAdmin),
      rawBody: `{"filter":${deepText}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe('filter_invalid');
    const many = doc('and', [
      group(
        'and',
        Array.from({ length: 60 }, () => cond('age', 'is', 3)),
      ),
    ]);
    const long = doc('and', [group('and', [cond('firstName', 'is', 'x'.repeat(5000))])]);
    const extra = { ...doc('and', [group('and', [cond('age', 'is', 3)])]), sql: 'select 1' };
    const wrongVersion = { ...doc('and', [group('and', [cond('age', 'is', 3)])]), version: 2 };
    for (const filter of [many, long, extra, wrongVersion, 'nonsense', null, 42, { groups: {} }]) {
      const res = await countOf(filter);
      expect(res.status, JSON.stringify(filter).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('filter_invalid');
    }
    const tooMany = await countOf(many);
    expect(tooMany.body.error.fields['filter.groups.0.items.50']?.code).toBe('too_many_conditions');
  });
});

describe('segments', () => {
  let segmentId: string;

  it('creates, lists, searches, sorts and pages', async () => {
    const t = await token(DEMO.brandAdmin);
    const created = await s.call('POST', '/v1/segments', {
      token: t,
      body: { name: '新宿の夏', description: '夏の新宿', type: 'dynamic', filter: shinjukuSummer() },
    });

    expect(created.status).toBe(200);
    segmentId = created.body.data.id;
    // Counted when saved, so the list shows an audience at once.
    expect(created.body.data).toMatchObject({
      name: '新宿の夏',
      type: 'dynamic',
      editable: true,
      hostLevel: 'brand',
      audience: 5,
    });
    expect(created.body.data.audienceCountedAt).not.toBeNull();
    for (const name of ['B static', 'A static', 'C static']) {
      const saved = await s.call('POST', '/v1/segments', { token: t, body: { name, type: 'static' } });
      expect(saved.status).toBe(200);
      // A new static segment has no members yet: counted as 0, not "not counted".
      expect(saved.body.data).toMatchObject({ audience: 0 });
      expect(saved.body.data.audienceCountedAt).not.toBeNull();
    }
    const listed = await s.call('GET', `/v1/segments?search=${encodeURIComponent('新宿の夏')}`, { token: t });
    expect(listed.body.data.items[0]).toMatchObject({
      audience: 5,
      audienceCountedAt: created.body.data.audienceCountedAt,
    });
    const page1 = await s.call('GET', '/v1/segments?sort=name&pageSize=2', { token: t });
    expect(page1.body.data.total).toBe(4);
    expect(page1.body.data.items.map((x: { name: string }) => x.name)).toEqual(['A static', 'B static']);
    const page2 = await s.call('GET', '/v1/segments?sort=name&pageSize=2&page=2', { token: t });
    expect(page2.body.data.items.map((x: { name: string }) => x.name)).toEqual(['C static', '新宿の夏']);
    const found = await s.call('GET', `/v1/segments?search=${encodeURIComponent('新宿')}`, { token: t });
    expect(found.body.data.items.map((x: { name: string }) => x.name)).toEqual(['新宿の夏']);
  });

  it('keeps names unique within the host, ignoring case', async () => {
    const t = await token(DEMO.brandAdmin);
    const dup = await s.call('POST', '/v1/segments', { token: t, body: { name: 'a STATIC', type: 'static' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('segment_name_taken');
    // Another host may use the same name.
    expect(
      (
        await s.call('POST', '/v1/segments', {
          token: await token(DEMO.hotelAdmin),
          body: { name: 'A static', type: 'static' },
        })
      ).status,
    ).toBe(200);
  });

  it('needs a filter for a dynamic segment and refuses junk input', async () => {
    const t = await token(DEMO.brandAdmin);
    expect(
      (await s.call('POST', '/v1/segments', { token: t, body: { name: 'x', type: 'dynamic' } })).body.error.code,
    ).toBe('segment_filter_required');
    for (const body of [
      { name: '', type: 'static' },
      { name: 'x', type: 'weird' },
      { name: 'x'.repeat(101), type: 'static' },
      { type: 'static' },
      [],
    ]) {
      const res = await s.call('POST', '/v1/segments', { token: t, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('recounts a saved segment and remembers its audience', async () => {
    const t = await token(DEMO.brandAdmin);
    const res = await s.call('POST', `/v1/segments/${segmentId}/count`, { token: t });
    expect(res.body.data.total).toBe(5);
    const got = await s.call('GET', `/v1/segments/${segmentId}`, { token: t });
    expect(got.body.data.audience).toBe(5);
    expect(got.body.data.audienceCountedAt).not.toBeNull();
  });

  it('pages the members of a dynamic segment with the customer list columns', async () => {
    const t = await token(DEMO.brandAdmin);
    const filter = doc('and', [group('and', [cond('lastName', 'is', '山田')])]);
    const seg = await s.call('POST', '/v1/segments', { token: t, body: { name: '山田さん', type: 'dynamic', filter } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: {
        body: {
          data: {
            items: { id: string; lastName: string; totalBookings: number }[];
            nextCursor: string | null;
            total: number;
          };
        };
      } = await s.call('GET', `/v1/segments/${seg.body.data.id}/members?limit=15${cursor ? `&cursor=${cursor}` : ''}`, {
        token: t,
      });
      expect(res.body.data.total).toBe(40);
      expect(res.body.data.items.every((c) => c.lastName === '山田')).toBe(true);
      seen.push(...res.body.data.items.map((c) => c.id));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(40);
    // The member CSV holds the same customers.
    const csv = await (
      await fetch(`${s.url}/v1/segments/${seg.body.data.id}/members.csv`, { headers: { authorization: `Bearer ${t}` } })
    ).text();
    const rows = csv.trim().split('\n').slice(1);
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.startsWith('山田,'))).toBe(true);
    const bad = await s.call('GET', `/v1/segments/${seg.body.data.id}/members?cursor=forged`, { token: t });
    expect(bad.status).toBe(400);
  });

  it('explains why a guest is in or out, with the booking that matched', async () => {
    const t = await token(DEMO.brandAdmin);
    const [inGuest] = await s.sql(`select id from customers where phone = '09010000007'`);
    const [outGuest] = await s.sql(`select id from customers where phone = '09010000002'`);
    const yes = await s.call('GET', `/v1/segments/${segmentId}/explain/${inGuest.id}`, { token: t });
    expect(yes.status).toBe(200);
    expect(yes.body.data.in).toBe(true);
    const g0 = yes.body.data.groups[0];
    expect(g0.held).toBe(true);
    expect(g0.bookings).toMatchObject({ quantifier: 'at_least', matched: 1, held: true });
    expect(g0.bookings.booking.hotelName).toBe('さくらホテル 新宿');
    expect(g0.items.map((i: { held: boolean }) => i.held)).toEqual([true, true, true]);
    const no = await s.call('GET', `/v1/segments/${segmentId}/explain/${outGuest.id}`, { token: t });
    expect(no.body.data.in).toBe(false);
    // Came back 10 days ago: the "no stay in the last year" group failed, showing that stay.
    expect(no.body.data.groups[1]).toMatchObject({
      held: false,
      bookings: { quantifier: 'none', matched: 1, held: false },
    });
    expect(no.body.data.groups[1].bookings.booking.checkIn).toBe(day(-10));
    expect(no.body.data.groups[1].items[0]).toMatchObject({ held: true, actual: day(-10) });
  });

  it('lists the segments a customer is in on the customer detail', async () => {
    const t = await token(DEMO.brandAdmin);
    const [guest] = await s.sql(`select id from customers where phone = '09010000007'`);
    const res = await s.call('GET', `/v1/customers/${guest.id}/segments`, { token: t });
    expect(res.body.data.map((x: { name: string }) => x.name).sort()).toEqual(['山田さん', '新宿の夏'].sort());
  });

  it('duplicates and edits', async () => {
    const t = await token(DEMO.brandAdmin);
    const copy = await s.call('POST', `/v1/segments/${segmentId}/duplicate`, { token: t, body: {} });
    // The brand admin reads Japanese.
    expect(copy.body.data.name).toBe('新宿の夏（コピー）');
    const copy2 = await s.call('POST', `/v1/segments/${segmentId}/duplicate`, { token: t, body: {} });
    expect(copy2.body.data.name).toBe('新宿の夏（コピー 2）');
    const edited = await s.call('PUT', `/v1/segments/${copy.body.data.id}`, {
      token: t,
      body: {
        name: '新宿の夏 2',
        description: 'x',
        filter: doc('and', [group('and', [cond('age', 'greater_than', 20)])]),
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.filter.groups[0].items[0].field).toBe('age');
    // Counted again when saved: the new filter's audience, just now.
    const live = await s.call('POST', '/v1/segments/count', {
      token: t,
      body: { filter: doc('and', [group('and', [cond('age', 'greater_than', 20)])]) },
    });
    expect(edited.body.data.audience).toBe(live.body.data.total);
    expect(edited.body.data.audience).not.toBe(copy.body.data.audience);
    expect(Date.parse(edited.body.data.audienceCountedAt)).toBeGreaterThanOrEqual(
      Date.parse(copy.body.data.audienceCountedAt),
    );
    const clash = await s.call('PUT', `/v1/segments/${copy.body.data.id}`, {
      token: t,
      body: { name: '新宿の夏', description: '', filter: shinjukuSummer() },
    });
    expect(clash.status).toBe(409);
    expect((await s.call('DELETE', `/v1/segments/${copy2.body.data.id}`, { token: t })).status).toBe(200);
    expect((await s.call('GET', `/v1/segments/${copy2.body.data.id}`, { token: t })).status).toBe(404);
  });

  it('names a copy as every copy is named (defaultCopyName): in the console language, the mark kept on a long name', async () => {
    const t = await token(DEMO.brandAdmin);
    const copyOf = async (id: string, body: Record<string, unknown> = {}) => {
      const res = await s.call('POST', `/v1/segments/${id}/duplicate`, { token: t, body });
      expect(res.status).toBe(200);
      return res.body.data.name as string;
    };
    // A Japanese user reading the console in English.
    expect(await copyOf(segmentId, { language: 'en' })).toBe('新宿の夏 (copy)');
    expect(await copyOf(segmentId, { language: 'en' })).toBe('新宿の夏 (copy 2)');
    const long = await s.call('POST', '/v1/segments', { token: t, body: { name: 'あ'.repeat(100), type: 'static' } });
    const first = await copyOf(long.body.data.id);
    expect(first).toBe(`${'あ'.repeat(95)}（コピー）`);
    const second = await copyOf(long.body.data.id);
    expect(second).toBe(`${'あ'.repeat(93)}（コピー 2）`);
    expect(second).toHaveLength(100);
  });

  it('refuses to delete a segment a scheduled campaign uses, naming it', async () => {
    const t = await token(DEMO.brandAdmin);
    const campaignId = '11111111-2222-4333-8444-555555555555';
    await withTenant(s.rt.database.db, { scopeAll: false, brandId: ids['sakura-hotels']! }, (tx) =>
      recordSegmentUse(tx, {
        segmentId,
        brandId: ids['sakura-hotels']!,
        kind: 'campaign',
        objectId: campaignId,
        name: '夏のご案内',
        state: 'scheduled',
        blocksDelete: true,
      }),
    );
    const res = await s.call('DELETE', `/v1/segments/${segmentId}`, { token: t });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('segment_in_use');
    expect(JSON.stringify(res.body.error.fields)).toContain('夏のご案内');
    const uses = await s.call('GET', `/v1/segments/${segmentId}/uses`, { token: t });
    expect(uses.body.data).toEqual([
      { kind: 'campaign', id: campaignId, name: '夏のご案内', state: 'scheduled', blocksDelete: true },
    ]);
  });
});

describe('static members', () => {
  let staticId: string;
  beforeAll(async () => {
    const t = await token(DEMO.hotelAdmin);
    staticId = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'VIP', type: 'static' } })).body.data.id;
  });

  it('adds by ids and by a customer-list selection, removes, and counts', async () => {
    const t = await token(DEMO.hotelAdmin);
    const some = await s.sql(`select id from customers where phone between '09010000001' and '09010000003'`);
    const kyoto = await s.sql(`select id from customers where phone = '08020000001'`);
    const byIds = await s.call('POST', `/v1/segments/${staticId}/members`, {
      token: t,
      body: { customerIds: [...some.map((r) => r.id), kyoto[0].id] },
    });
    // The Kyoto guest is beyond this hotel's reach.
    expect(byIds.body.data).toEqual({ added: 3, alreadyIn: 0, total: 3 });
    const bySelection = await s.call('POST', `/v1/segments/${staticId}/members`, {
      token: t,
      body: { selection: { search: '太郎1' } },
    });
    expect(bySelection.body.data.added + bySelection.body.data.alreadyIn).toBe(11);
    expect(bySelection.body.data.alreadyIn).toBe(1);
    const removed = await s.call('POST', `/v1/segments/${staticId}/members/remove`, {
      token: t,
      body: { customerIds: [some[0].id] },
    });
    expect(removed.body.data.removed).toBe(1);
    expect((await s.call('GET', `/v1/segments/${staticId}`, { token: t })).body.data.audience).toBe(
      removed.body.data.total,
    );
    const count = await s.call('POST', `/v1/segments/${staticId}/count`, { token: t });
    expect(count.body.data.total).toBe(removed.body.data.total);
    const both = await s.call('POST', `/v1/segments/${staticId}/members`, {
      token: t,
      body: { customerIds: [some[0].id], selection: {} },
    });
    expect(both.status).toBe(400);
  });

  it("explains a static segment: listed or not, and out of the hotel's scope", async () => {
    const brand = await token(DEMO.brandAdmin);
    const [member] = await s.sql(`select customer_id as id from segment_members where segment_id = $1 limit 1`, [
      staticId,
    ]);
    const [kyoto] = await s.sql(`select id from customers where phone = '08020000001'`);
    const yes = await s.call('GET', `/v1/segments/${staticId}/explain/${member.id}`, { token: brand });
    expect(yes.body.data).toMatchObject({ type: 'static', in: true, inScope: true, listed: true, groups: [] });
    const no = await s.call('GET', `/v1/segments/${staticId}/explain/${kyoto.id}`, { token: brand });
    expect(no.body.data).toMatchObject({ in: false, inScope: false, listed: false });
    // The hotel itself does not reach the Kyoto guest at all.
    expect(
      (await s.call('GET', `/v1/segments/${staticId}/explain/${kyoto.id}`, { token: await token(DEMO.hotelAdmin) }))
        .status,
    ).toBe(404);
  });

  it("freezes a filter's current result", async () => {
    const t = await token(DEMO.hotelAdmin);
    const seg = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'Frozen', type: 'static' } })).body.data
      .id;
    const res = await s.call('POST', `/v1/segments/${seg}/members/freeze`, {
      token: t,
      body: { filter: doc('and', [group('and', [cond('amount', 'greater_than', 50000)])]) },
    });
    expect(res.body.data).toEqual({ added: 10, alreadyIn: 0, total: 10 });
  });

  it('imports a file of phones and emails in UTF-8 or CP932 with a report', async () => {
    const t = await token(DEMO.hotelAdmin);
    const seg = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'From file', type: 'static' } })).body
      .data.id;
    const text = [
      '電話番号',
      '090-1000-0021',
      'TARO22@example.jp',
      '０９０１０００００２３',
      'not a phone',
      '',
      '09010000021',
      '08020000001',
      '=cmd|" /C calc"!A0',
      '09099999999',
    ].join('\r\n');
    const send = (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      return s.call('POST', `/v1/segments/${seg}/members/import`, { token: t, form });
    };
    const res = await send(iconv.encode(text, 'cp932'), 'members.csv');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ encoding: 'cp932', matched: 3, added: 3, alreadyIn: 0 });
    const reasons = Object.fromEntries(
      res.body.data.unmatchedRows.map((r: { row: number; reason: string }) => [r.row, r.reason]),
    );
    expect(reasons).toEqual({
      5: 'invalid',
      6: 'empty',
      7: 'duplicate',
      8: 'not_found',
      9: 'invalid',
      10: 'not_found',
    });
    const again = await send(Buffer.from(text, 'utf8'), 'members.csv');
    expect(again.body.data).toMatchObject({ encoding: 'utf-8', matched: 3, added: 0, alreadyIn: 3 });
    const junk = await send(Buffer.from('hello\nworld\n'), 'junk.csv');
    expect(junk.status).toBe(400);
    expect(junk.body.error.code).toBe('member_file_no_rows');
    const binary = await send(Buffer.from([0xff, 0xfe, 0, 0, 1, 2]), 'x.xlsx');
    expect(binary.status).toBe(400);
    const none = await s.call('POST', `/v1/segments/${seg}/members/import`, { token: t, body: {} });
    expect(none.status).toBe(400);
  });

  it('adds one selection to several segments from the customer list, and refuses dynamic ones', async () => {
    const t = await token(DEMO.hotelAdmin);
    const a = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'Multi A', type: 'static' } })).body.data
      .id;
    const b = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'Multi B', type: 'static' } })).body.data
      .id;
    const [guest] = await s.sql(`select id from customers where phone = '09010000030'`);
    const res = await s.call('POST', '/v1/segments/add-members', {
      token: t,
      body: { segmentIds: [a, b], customerIds: [guest.id] },
    });
    expect(res.body.data.segments.map((x: { added: number }) => x.added)).toEqual([1, 1]);
    const dyn = (
      await s.call('POST', '/v1/segments', {
        token: t,
        body: { name: 'Dyn', type: 'dynamic', filter: doc('and', [group('and', [cond('age', 'greater_than', 1)])]) },
      })
    ).body.data.id;
    const refused = await s.call('POST', `/v1/segments/${dyn}/members`, {
      token: t,
      body: { customerIds: [guest.id] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('segment_not_static');
  });

  it('exports members as CSV under the customer export rules', async () => {
    const t = await token(DEMO.hotelAdmin);
    const res = await fetch(`${s.url}/v1/segments/${staticId}/members.csv?lang=en`, {
      headers: { authorization: `Bearer ${t}` },
    });
    expect(res.status).toBe(200);
    const csv = await res.text();
    const lines = csv.trim().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines[0]).toContain('Phone');
    expect(csv).toContain('山田');
    const link = await s.call('POST', `/v1/segments/${staticId}/export-downloads`, { token: t, body: { lang: 'ja' } });
    expect(link.status).toBe(200);
    const cookie = (link.headers.get('set-cookie') ?? '').split(';')[0]!;
    const viaLink = await fetch(`${s.url}${link.body.data.url}`, { headers: { cookie } });
    expect(viaLink.status).toBe(200);
    expect(await viaLink.text()).toContain('山田');
    const noCookie = await fetch(`${s.url}${link.body.data.url}`);
    expect(noCookie.status).toBe(401);
    // The hotel viewer may read segments but not export customers.
    const viewer = await fetch(`${s.url}/v1/segments/${staticId}/members.csv`, {
      headers: { authorization: `Bearer ${await token(DEMO.hotelViewer)}` },
    });
    expect(viewer.status).toBe(403);
  });
});

describe("a member's totals and the members file", () => {
  it("count the bookings the acting hotel's booking history lists, and date the file in its zone", async () => {
    const t = await token(DEMO.hotelAdmin);
    const seg = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'Totals', type: 'static' } })).body.data
      .id;
    const [c] = await s.sql(`select id from customers where phone = '09010000040'`);
    await s.call('POST', `/v1/segments/${seg}/members`, { token: t, body: { customerIds: [c.id] } });
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, source, amount, status) values
       ($1, $2, $3, 'S-1', '2026-01-05', '2026-02-01', '2026-02-02', 1, 1, 'direct_web', 30000, 'checked_out'),
       ($1, $2, $4, 'S-2', '2026-03-01', '2026-04-10', '2026-04-12', 2, 2, 'jalan', 50000, 'checked_out')`,
      [ids['sakura-hotels'], c.id, ids['sakura-shinjuku'], ids['sakura-kyoto']],
    );
    try {
      const members = await s.call('GET', `/v1/segments/${seg}/members?limit=10`, { token: t });
      const row = members.body.data.items.find((i: { id: string }) => i.id === c.id);
      // Shinjuku's stay only, as Shinjuku's booking history shows; not Kyoto's.
      expect([row?.totalBookings, row?.totalPayments]).toEqual([1, 30000]);
      const brand = await token(DEMO.brandAdmin);
      const all = await s.call('GET', `/v1/segments/${seg}/members?limit=10`, { token: brand });
      const brandRow = all.body.data.items.find((i: { id: string }) => i.id === c.id);
      expect([brandRow?.totalBookings, brandRow?.totalPayments]).toEqual([2, 80000]);
      // Ten past midnight on 3 December in Tokyo, still 2 December in UTC.
      vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-02T15:10:00Z') });
      const csv = await fetch(`${s.url}/v1/segments/${seg}/members.csv?lang=en`, {
        headers: { authorization: `Bearer ${t}` },
      });
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="segment-members-2026-12-03.csv"');
    } finally {
      vi.useRealTimers();
      await s.sql(`delete from bookings where customer_id = $1 and external_id like 'S-%'`, [c.id]);
    }
  });
});

describe("the member list's time zone", () => {
  it("gives with each page of members, an empty one too, the acting host's zone the console shows their dates in", async () => {
    const members = async (email: string, lastName: string) => {
      const t = await token(email);
      const filter = doc('and', [group('and', [cond('lastName', 'is', lastName)])]);
      const seg = (
        await s.call('POST', '/v1/segments', { token: t, body: { name: `Zone ${email}`, type: 'dynamic', filter } })
      ).body.data.id;
      return [
        (await s.call('GET', `/v1/segments/${seg}/members?limit=1`, { token: t })).body.data,
        (await s.call('GET', `/v1/segments/${seg}/members?search=nobody-at-all`, { token: t })).body.data,
      ].map((page: { items: unknown[]; timeZone: string }) => [page.items.length > 0, page.timeZone]);
    };
    const [{ timezone: harborZone }] = await s.sql(`select timezone from hosts where slug = 'harbor-view'`);
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    try {
      expect(await members(DEMO.hotelAdmin, '山田')).toEqual([
        [true, 'Asia/Tokyo'],
        [false, 'Asia/Tokyo'],
      ]);
      // Another host keeps its own zone, on an empty page too.
      expect(await members(DEMO.harborAdmin, 'Smith')).toEqual([
        [true, 'Pacific/Honolulu'],
        [false, 'Pacific/Honolulu'],
      ]);
    } finally {
      await s.sql(`update hosts set timezone = $1 where slug = 'harbor-view'`, [harborZone]);
    }
  });
});

describe("the segment list's time zone", () => {
  it("gives with each page of segments, an empty one too, the acting host's zone the console shows their times in", async () => {
    const zoneOf = async (email: string, search: string) =>
      (await s.call('GET', `/v1/segments?search=${encodeURIComponent(search)}`, { token: await token(email) })).body
        .data.timeZone;
    const [{ timezone: harborZone }] = await s.sql(`select timezone from hosts where slug = 'harbor-view'`);
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    try {
      expect(await zoneOf(DEMO.hotelAdmin, '')).toBe('Asia/Tokyo');
      expect(await zoneOf(DEMO.harborAdmin, '')).toBe('Pacific/Honolulu');
      expect(await zoneOf(DEMO.harborAdmin, 'nothing-is-called-this')).toBe('Pacific/Honolulu');
    } finally {
      await s.sql(`update hosts set timezone = $1 where slug = 'harbor-view'`, [harborZone]);
    }
  });
});

describe('customer import step three', () => {
  it('adds the imported customers to the chosen static segment', async () => {
    const t = await token(DEMO.hotelAdmin);
    const seg = (await s.call('POST', '/v1/segments', { token: t, body: { name: 'Imported', type: 'static' } })).body
      .data.id;
    const dynamic = (
      await s.call('POST', '/v1/segments', {
        token: t,
        body: {
          name: 'Imported dyn',
          type: 'dynamic',
          filter: doc('and', [group('and', [cond('age', 'greater_than', 1)])]),
        },
      })
    ).body.data.id;
    const csv =
      'last_name,first_name,phone,address\n木村,一,09050000001,東京都\n木村,二,09050000002,東京都\n山田,太郎1,09010000001,東京都\n';
    const form = new FormData();
    form.append('file', new Blob([csv]), 'customers.csv');
    const up = await s.call('POST', '/v1/customer-imports', { token: t, form });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.data.id;
    await eventually(
      async () =>
        (await s.call('GET', `/v1/customer-imports/${id}`, { token: t })).body.data?.status === 'reviewed'
          ? true
          : null,
      30_000,
    );
    // Only a static segment of this host can be chosen.
    const wrong = await s.call('POST', `/v1/customer-imports/${id}/confirm`, {
      token: t,
      body: { emailReception: 'booking', segmentId: dynamic },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.segmentId.code).toBe('segment_not_static');
    // Nor one of another host, even one the hotel could never see.
    const brandSegment = (
      await s.call('POST', '/v1/segments', {
        token: await token(DEMO.brandAdmin),
        body: { name: 'Brand import', type: 'static' },
      })
    ).body.data.id;
    const foreign = await s.call('POST', `/v1/customer-imports/${id}/confirm`, {
      token: t,
      body: { emailReception: 'booking', segmentId: brandSegment },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields.segmentId.code).toBe('not_found');
    const ok = await s.call('POST', `/v1/customer-imports/${id}/confirm`, {
      token: t,
      body: { emailReception: 'booking', segmentId: seg },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.segmentId).toBe(seg);
    const done = await eventually(async () => {
      const res = await s.call('GET', `/v1/customer-imports/${id}`, { token: t });
      return res.body.data?.status === 'completed' ? res.body.data : null;
    }, 30_000);
    expect(done.segmentAdded).toBe(3);
    expect((await s.call('GET', `/v1/segments/${seg}`, { token: t })).body.data.audience).toBe(3);
    const members = await s.call('GET', `/v1/segments/${seg}/members`, { token: t });
    expect(members.body.data.items.map((c: { phone: string }) => c.phone).sort()).toEqual([
      '09010000001',
      '09050000001',
      '09050000002',
    ]);
  });
});

describe('roles and tenancy', () => {
  let hotelSegment: string;
  let brandSegment: string;
  beforeAll(async () => {
    hotelSegment = (
      await s.call('POST', '/v1/segments', {
        token: await token(DEMO.hotelAdmin),
        body: { name: 'Hotel own', type: 'static' },
      })
    ).body.data.id;
    brandSegment = (
      await s.call('POST', '/v1/segments', {
        token: await token(DEMO.brandAdmin),
        body: { name: 'Brand own', type: 'static' },
      })
    ).body.data.id;
  });

  it('lets viewers read, staff edit but not delete, per the entitlements', async () => {
    const viewer = await token(DEMO.hotelViewer);
    expect((await s.call('GET', `/v1/segments/${hotelSegment}`, { token: viewer })).status).toBe(200);
    expect((await s.call('POST', '/v1/segments', { token: viewer, body: { name: 'v', type: 'static' } })).status).toBe(
      403,
    );
    expect(
      (await s.call('PUT', `/v1/segments/${hotelSegment}`, { token: viewer, body: { name: 'v', description: '' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await s.call('POST', '/v1/segments/count', {
          token: viewer,
          body: { filter: doc('and', [group('and', [cond('age', 'is', 1)])]) },
        })
      ).status,
    ).toBe(403);
    const staff = await token(DEMO.hotelStaff);
    expect(
      (
        await s.call('PUT', `/v1/segments/${hotelSegment}`, {
          token: staff,
          body: { name: 'Hotel own', description: 'by staff' },
        })
      ).status,
    ).toBe(200);
    expect((await s.call('DELETE', `/v1/segments/${hotelSegment}`, { token: staff })).status).toBe(403);
  });

  it('answers every route per role: viewers read, staff change, admins also delete', async () => {
    const [guest] = await s.sql(`select id from customers where phone = '09010000003'`);
    const filter = doc('and', [group('and', [cond('age', 'greater_than', 1)])]);
    // A fresh static segment of the hotel per check that changes or deletes one.
    const fresh = async () =>
      (
        await s.call('POST', '/v1/segments', {
          token: await token(DEMO.hotelAdmin),
          body: { name: `r${Math.random()}`, type: 'static' },
        })
      ).body.data.id as string;
    const checks: [string, (t: string) => Promise<{ status: number }>, Record<string, number>][] = [
      ['list', (t) => s.call('GET', '/v1/segments', { token: t }), { viewer: 200, staff: 200, admin: 200 }],
      [
        'get',
        (t) => s.call('GET', `/v1/segments/${hotelSegment}`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'members',
        (t) => s.call('GET', `/v1/segments/${hotelSegment}/members`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'uses',
        (t) => s.call('GET', `/v1/segments/${hotelSegment}/uses`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'recount',
        (t) => s.call('POST', `/v1/segments/${hotelSegment}/count`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'explain',
        (t) => s.call('GET', `/v1/segments/${hotelSegment}/explain/${guest.id}`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'customer segments',
        (t) => s.call('GET', `/v1/customers/${guest.id}/segments`, { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'live count',
        (t) => s.call('POST', '/v1/segments/count', { token: t, body: { filter } }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'field values',
        (t) => s.call('GET', '/v1/segments/field-values?source=hotels', { token: t }),
        { viewer: 200, staff: 200, admin: 200 },
      ],
      [
        'create',
        (t) => s.call('POST', '/v1/segments', { token: t, body: { name: `c${Math.random()}`, type: 'static' } }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'duplicate',
        (t) =>
          s.call('POST', `/v1/segments/${hotelSegment}/duplicate`, { token: t, body: { name: `d${Math.random()}` } }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'edit',
        async (t) =>
          s.call('PUT', `/v1/segments/${await fresh()}`, {
            token: t,
            body: { name: `e${Math.random()}`, description: '' },
          }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'add members',
        async (t) =>
          s.call('POST', `/v1/segments/${await fresh()}/members`, { token: t, body: { customerIds: [guest.id] } }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'add to segments',
        async (t) =>
          s.call('POST', '/v1/segments/add-members', {
            token: t,
            body: { segmentIds: [await fresh()], customerIds: [guest.id] },
          }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'remove members',
        async (t) =>
          s.call('POST', `/v1/segments/${await fresh()}/members/remove`, {
            token: t,
            body: { customerIds: [guest.id] },
          }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'freeze',
        async (t) => s.call('POST', `/v1/segments/${await fresh()}/members/freeze`, { token: t, body: { filter } }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
      [
        'delete',
        async (t) => s.call('DELETE', `/v1/segments/${await fresh()}`, { token: t }),
        { viewer: 403, staff: 403, admin: 200 },
      ],
      [
        'export link',
        (t) => s.call('POST', `/v1/segments/${hotelSegment}/export-downloads`, { token: t, body: {} }),
        { viewer: 403, staff: 200, admin: 200 },
      ],
    ];
    const users = { viewer: DEMO.hotelViewer, staff: DEMO.hotelStaff, admin: DEMO.hotelAdmin };
    for (const [name, call, expected] of checks) {
      for (const [role, email] of Object.entries(users)) {
        const res = await call(await token(email));
        expect(res.status, `${name} as hotel ${role}`).toBe(expected[role]);
      }
    }
  });

  it("shows a brand its hotels' segments, read-only, filterable by hotel; a hotel sees only its own", async () => {
    const brand = await token(DEMO.brandAdmin);
    const list = await s.call('GET', `/v1/segments?hotelId=${ids['sakura-shinjuku']}&pageSize=100`, { token: brand });
    expect(list.status).toBe(200);
    expect(
      list.body.data.items.every(
        (x: { hostId: string; editable: boolean }) => x.hostId === ids['sakura-shinjuku'] && !x.editable,
      ),
    ).toBe(true);
    expect(list.body.data.items.map((x: { id: string }) => x.id)).toContain(hotelSegment);
    const edit = await s.call('PUT', `/v1/segments/${hotelSegment}`, {
      token: brand,
      body: { name: 'taken over', description: '' },
    });
    expect(edit.status).toBe(403);
    expect(edit.body.error.code).toBe('segment_not_owner');
    const group = await token(DEMO.groupAdmin);
    expect((await s.call('GET', `/v1/segments/${hotelSegment}`, { token: group })).status).toBe(200);
    expect((await s.call('GET', `/v1/segments/${brandSegment}`, { token: group })).status).toBe(404);
    const hotel = await token(DEMO.hotelAdmin);
    expect((await s.call('GET', `/v1/segments/${brandSegment}`, { token: hotel })).status).toBe(404);
    const hotelList = await s.call('GET', '/v1/segments?pageSize=100', { token: hotel });
    expect(hotelList.body.data.items.every((x: { hostId: string }) => x.hostId === ids['sakura-shinjuku'])).toBe(true);
    // The hotel filter is an entitlement of multi-hotel hosts only.
    expect((await s.call('GET', `/v1/segments?hotelId=${ids['sakura-shinjuku']}`, { token: hotel })).status).toBe(403);
  });

  it("gives another brand's ids 404 on every segment route", async () => {
    const harbor = await token(DEMO.harborAdmin);
    const [guest] = await s.sql(`select id from customers where phone = '09010000007'`);
    const get = (path: string) => s.call('GET', path, { token: harbor });
    const post = (path: string, body: unknown = {}) => s.call('POST', path, { token: harbor, body });
    const results = [
      await get(`/v1/segments/${brandSegment}`),
      await get(`/v1/segments/${brandSegment}/members`),
      await get(`/v1/segments/${brandSegment}/uses`),
      await get(`/v1/segments/${brandSegment}/explain/${guest.id}`),
      await get(`/v1/customers/${guest.id}/segments`),
      await post(`/v1/segments/${brandSegment}/count`),
      await post(`/v1/segments/${brandSegment}/duplicate`),
      await post(`/v1/segments/${brandSegment}/members`, { customerIds: [guest.id] }),
      await post(`/v1/segments/${brandSegment}/members/remove`, { customerIds: [guest.id] }),
      await post(`/v1/segments/${brandSegment}/export-downloads`),
      await post('/v1/segments/add-members', { segmentIds: [brandSegment], customerIds: [guest.id] }),
      await s.call('PUT', `/v1/segments/${brandSegment}`, { token: harbor, body: { name: 'x', description: '' } }),
      await s.call('DELETE', `/v1/segments/${brandSegment}`, { token: harbor }),
    ];
    expect(results.map((r) => r.status)).toEqual(results.map(() => 404));
    const list = await get('/v1/segments?pageSize=100');
    expect(JSON.stringify(list.body)).not.toContain(brandSegment);
    // Their live count never sees our customers.
    const count = await post('/v1/segments/count', {
      filter: doc('and', [group('and', [cond('lastName', 'is', '山田')])]),
    });
    expect(count.body.data.total).toBe(0);
  });

  it("offers the host's hotels, room types and booking sources as values", async () => {
    const brand = await token(DEMO.brandAdmin);
    const hotels = await s.call('GET', '/v1/segments/field-values?source=hotels', { token: brand });
    expect(hotels.body.data.length).toBe(4);
    const rooms = await s.call('GET', '/v1/segments/field-values?source=room_types', { token: brand });
    expect(rooms.body.data.map((x: { value: string }) => x.value)).toEqual(['suite', 'twin']);
    const hotel = await token(DEMO.hotelAdmin);
    const hotelSources = await s.call('GET', '/v1/segments/field-values?source=booking_sources', { token: hotel });
    expect(hotelSources.body.data.map((x: { value: string }) => x.value)).toEqual(['web']);
    // A hotel viewer reads segments, so it may name the hotels of a filter: its own only.
    const viewerHotels = await s.call('GET', '/v1/segments/field-values?source=hotels', {
      token: await token(DEMO.hotelViewer),
    });
    expect(viewerHotels.body.data).toEqual([{ value: ids['sakura-shinjuku'], label: expect.any(String) }]);
    expect((await s.call('GET', '/v1/segments/field-values?source=passwords', { token: brand })).status).toBe(400);
  });

  it("gives every role that reads segments the hotels of its scope, the granduser every brand's", async () => {
    const hotelsOf = async (email: string, headers?: Record<string, string>) => {
      const res = await s.call('GET', '/v1/segments/field-values?source=hotels', {
        token: await token(email),
        headers,
      });
      expect(res.status, email).toBe(200);
      return (res.body.data as { value: string; label: string }[]).map((h) => h.value).sort();
    };
    const live = async (where: string, params: unknown[] = []) =>
      (await s.sql(`select id from hosts where level = 'hotel' and deleted_at is null and ${where}`, params))
        .map((r) => r.id as string)
        .sort();
    const brandHotels = await live('brand_id = $1', [ids['sakura-hotels']]);
    expect(brandHotels).toHaveLength(4);
    const everyBrand = await live('true');
    expect(everyBrand.length).toBeGreaterThan(brandHotels.length);
    expect(await hotelsOf(DEMO.grand)).toEqual(everyBrand);
    expect(await hotelsOf(DEMO.brandAdmin)).toEqual(brandHotels);
    expect(await hotelsOf(DEMO.groupAdmin)).toEqual(await live('hotel_group_id = $1', [ids['sakura-kanto']]));
    for (const email of [DEMO.hotelAdmin, DEMO.hotelStaff, DEMO.hotelViewer])
      expect(await hotelsOf(email)).toEqual([ids['sakura-shinjuku']]);
    expect(await hotelsOf(DEMO.harborAdmin)).toEqual(await live('brand_id = $1', [ids['harbor-view']]));
    // The granduser acting as a brand's admin gets that brand's, as its admin does.
    expect(
      await hotelsOf(DEMO.grand, { 'x-user-role': 'admin', 'x-host-slug': 'sakura-hotels', 'x-host-level': 'brand' }),
    ).toEqual(brandHotels);
    // Room types and booking sources of every brand's bookings, for the granduser too.
    const rooms = await s.call('GET', '/v1/segments/field-values?source=room_types', {
      token: await token(DEMO.grand),
    });
    expect(rooms.status).toBe(200);
    expect(rooms.body.data.map((x: { value: string }) => x.value)).toEqual(expect.arrayContaining(['suite', 'twin']));
    // Without signing in: nothing.
    expect((await s.call('GET', '/v1/segments/field-values?source=hotels')).status).toBe(401);
  });
});

describe('with the dynamic_segmentation flag off', () => {
  let off: TTestServer;
  beforeAll(async () => {
    off = await startTestServer({ env: { FEATURES_OFF: 'dynamic_segmentation' } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('refuses dynamic segments and filter counts with a coded error, and static segments still work', async () => {
    const admin = (await off.login(DEMO.brandAdmin)).token;
    const filter = doc('and', [group('and', [cond('lastName', 'is', '山田')])]);
    // The console hears of it too.
    expect((await off.call('GET', '/v1/auth/me', { token: admin })).body.data.features.dynamic_segmentation).toBe(
      false,
    );
    expect((await off.call('GET', '/v1/config')).body.data.features.dynamic_segmentation).toBe(false);
    for (const res of [
      await off.call('POST', '/v1/segments', { token: admin, body: { name: 'dyn', type: 'dynamic', filter } }),
      await off.call('POST', '/v1/segments/count', { token: admin, body: { filter } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('dynamic_segmentation_off');
    }
    // A dynamic segment made before the flag went off: readable and renamable, but its filter is
    // not changed, counted or copied.
    const [brand] = await off.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [made] = await off.sql(
      `insert into segments (brand_id, host_id, name, type, filter) values ($1, $1, 'Before', 'dynamic', $2::jsonb) returning id`,
      [brand.id, JSON.stringify(filter)],
    );
    expect((await off.call('GET', `/v1/segments/${made.id}`, { token: admin })).status).toBe(200);
    const renamed = await off.call('PUT', `/v1/segments/${made.id}`, {
      token: admin,
      body: { name: 'Renamed', description: '', filter },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Renamed');
    const other = doc('and', [group('and', [cond('lastName', 'is', '鈴木')])]);
    for (const res of [
      await off.call('PUT', `/v1/segments/${made.id}`, {
        token: admin,
        body: { name: 'Renamed', description: '', filter: other },
      }),
      await off.call('POST', `/v1/segments/${made.id}/count`, { token: admin }),
      await off.call('POST', `/v1/segments/${made.id}/duplicate`, { token: admin, body: {} }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('dynamic_segmentation_off');
    }
    // Static segments: created, counted, listed.
    const list = await off.call('POST', '/v1/segments', { token: admin, body: { name: 'Static', type: 'static' } });
    expect(list.status).toBe(200);
    const [guest] = await off.sql(
      `insert into customers (brand_id, first_name, last_name, phone) values ($1, '一郎', '田中', '09099990000') returning id`,
      [brand.id],
    );
    expect(
      (
        await off.call('POST', `/v1/segments/${list.body.data.id}/members`, {
          token: admin,
          body: { customerIds: [guest.id] },
        })
      ).body.data.total,
    ).toBe(1);
    expect((await off.call('POST', `/v1/segments/${list.body.data.id}/count`, { token: admin })).body.data.total).toBe(
      1,
    );
    expect(
      (await off.call('POST', `/v1/segments/${list.body.data.id}/duplicate`, { token: admin, body: {} })).status,
    ).toBe(200);
  });
});
