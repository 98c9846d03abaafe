import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

// A real 1×1 PNG and the start of a JPEG: the server judges images by their bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1)]);

async function upload(token: string, bytes: Buffer, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return s.call('POST', '/v1/uploads/logo', { token, form });
}

async function logo(token: string) {
  const res = await upload(token, PNG, 'logo.png');
  expect(res.status).toBe(200);
  return res.body.data.logoUrl as string;
}

describe('logos', () => {
  it('stores a .png or .jpg judged by content and serves it with a long cache', async () => {
    const { token } = await s.login(DEMO.grand);
    const png = await upload(token, PNG, 'logo.png');
    expect(png.body.data.logoUrl).toMatch(/^\/files\/logos\/[a-f0-9]{64}\.png$/);
    const jpg = await upload(token, JPEG, 'photo.JPG');
    expect(jpg.body.data.logoUrl).toMatch(/\.jpg$/);
    const served = await fetch(s.url + png.body.data.logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses a renamed executable, an empty file, a 6 MB file and a missing file', async () => {
    const { token } = await s.login(DEMO.grand);
    const exe = await upload(token, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]), 'logo.png');
    expect(exe.status).toBe(400);
    expect(exe.body.error.message).toBe('Please upload image file only in .jpg/.png.');
    const empty = await upload(token, Buffer.alloc(0), 'logo.png');
    expect(empty.status).toBe(400);
    const big = await upload(token, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]), 'big.png');
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe("The file size is too big. Make sure it's less than 5MB.");
    const none = await s.call('POST', '/v1/uploads/logo', { token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe('Please upload a logo');
  });

  it('lets only those who may edit hosts upload', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    expect((await upload(token, PNG, 'logo.png')).status).toBe(403);
  });
});

describe('brands', () => {
  it('are created, listed, edited and deleted by the granduser only, with a typed confirmation', async () => {
    const { token } = await s.login(DEMO.grand);
    const missing = await s.call('POST', '/v1/brands', { token, body: { name: '', address: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.name.message).toBe('This field is required to fill.');
    expect(missing.body.error.fields.logoUrl.message).toBe('Please upload a logo');
    const badEmail = await s.call('POST', '/v1/brands', {
      token,
      body: { name: 'x', address: 'y', email: 'nope', phone: '03-12a', logoUrl: await logo(token) },
    });
    expect(badEmail.body.error.fields.email.message).toBe('Please enter a valid email');
    expect(badEmail.body.error.fields.phone.message).toBe('Use only numerical characters.');

    const created = await s.call('POST', '/v1/brands', {
      token,
      body: {
        name: '富士リゾート',
        address: '静岡県富士宮市1-1',
        email: 'info@fuji.co.jp',
        phone: '0544-11-2222',
        logoUrl: await logo(token),
      },
    });
    expect(created.status).toBe(200);
    const brand = created.body.data;
    expect(brand).toMatchObject({ level: 'brand', name: '富士リゾート', phone: '0544112222', hotelCount: 0 });
    expect(brand.brandId).toBe(brand.id);

    const list = await s.call('GET', '/v1/brands?search=%E5%AF%8C%E5%A3%AB', { token });
    expect(list.body.data.items.map((b: { id: string }) => b.id)).toEqual([brand.id]);
    const sorted = await s.call('GET', '/v1/brands?sort=-name&pageSize=2', { token });
    expect(sorted.body.data.items).toHaveLength(2);
    expect(sorted.body.data.total).toBe(3);

    const edited = await s.call('PUT', `/v1/brands/${brand.id}`, {
      token,
      body: { name: '富士リゾーツ', address: brand.address, logoUrl: brand.logoUrl },
    });
    expect(edited.body.data.name).toBe('富士リゾーツ');

    const wrong = await s.call('DELETE', `/v1/brands/${brand.id}`, { token, body: { confirmation: '富士リゾート' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.confirmation.code).toBe('confirmation_mismatch');
    expect(
      (await s.call('DELETE', `/v1/brands/${brand.id}`, { token, body: { confirmation: '富士リゾーツ' } })).status,
    ).toBe(200);
    expect((await s.call('GET', `/v1/brands/${brand.id}`, { token })).status).toBe(404);
    const [row] = await s.sql('select deleted_at from hosts where id = $1', [brand.id]);
    expect(row.deleted_at).not.toBeNull();
  });

  it('are out of reach of brand admins', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    expect((await s.call('GET', '/v1/brands', { token })).status).toBe(403);
    expect((await s.call('POST', '/v1/brands', { token, body: { name: 'x', address: 'y' } })).status).toBe(403);
  });
});

describe('hotel groups and hotels', () => {
  it('lets a brand admin build the brand: a group, a hotel in it, then out of it', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const group = await s.call('POST', '/v1/hotel-groups', {
      token,
      body: { name: '九州エリア', address: '福岡県福岡市博多区1-1', logoUrl: await logo(token) },
    });
    expect(group.status).toBe(200);
    const [sakura] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    expect(group.body.data.brandId).toBe(sakura.id);

    const hotel = await s.call('POST', '/v1/hotels', {
      token,
      body: {
        name: 'さくらホテル 博多',
        address: '福岡県福岡市博多区2-2',
        logoUrl: await logo(token),
        hotelGroupId: group.body.data.id,
      },
    });
    expect(hotel.status).toBe(200);
    expect(hotel.body.data).toMatchObject({ hotelGroupName: '九州エリア', brandName: 'さくらホテルズ' });

    const detail = await s.call('GET', `/v1/hotel-groups/${group.body.data.id}`, { token });
    expect(detail.body.data.hotels.map((h: { name: string }) => h.name)).toEqual(['さくらホテル 博多']);
    expect(detail.body.data.hotelCount).toBe(1);

    const filtered = await s.call('GET', `/v1/hotels?hotelGroupId=${group.body.data.id}`, { token });
    expect(filtered.body.data.items).toHaveLength(1);

    const out = await s.call('PUT', `/v1/hotels/${hotel.body.data.id}/hotel-group`, {
      token,
      body: { hotelGroupId: null },
    });
    expect(out.body.data.hotelGroupId).toBeNull();
    const [coastal] = await s.sql(`select id from hosts where slug = 'harbor-coastal'`);
    const foreign = await s.call('PUT', `/v1/hotels/${hotel.body.data.id}/hotel-group`, {
      token,
      body: { hotelGroupId: coastal.id },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields.hotelGroupId.code).toBe('hotel_group_other_brand');

    // Every change is in the audit log, readable by the granduser.
    const grand = await s.login(DEMO.grand);
    const audit = await s.call('GET', `/v1/audit?hostId=${sakura.id}`, { token: grand.token });
    const actions = audit.body.data.map((e: { action: string; targetType: string }) => `${e.action}:${e.targetType}`);
    expect(actions).toEqual(expect.arrayContaining(['create:hotel_group', 'create:hotel', 'remove_from_group:hotel']));
    expect(audit.body.data[0]).toMatchObject({
      actorEmail: DEMO.brandAdmin,
      actingRole: 'admin',
      actingHostName: 'さくらホテルズ',
    });
    expect((await s.call('GET', '/v1/audit', { token })).status).toBe(403);
  });

  it('lists only the hotels in reach; a hotel group admin updates its hotels but creates none', async () => {
    const brandAdmin = await s.login(DEMO.brandAdmin);
    const hotels = await s.call('GET', '/v1/hotels?pageSize=100', { token: brandAdmin.token });
    const names = hotels.body.data.items.map((h: { name: string }) => h.name);
    expect(names).toContain('さくらホテル 新宿');
    expect(names).not.toContain('Harbor View Kobe');

    const group = await s.login(DEMO.groupAdmin);
    const groupHotels = await s.call('GET', '/v1/hotels', { token: group.token });
    expect(groupHotels.body.data.items.map((h: { name: string }) => h.name).sort()).toEqual(
      ['さくらホテル 新宿', 'さくらホテル 横浜'].sort(),
    );
    const [yokohama] = await s.sql(`select id, address, logo_url from hosts where slug = 'sakura-yokohama'`);
    const updated = await s.call('PUT', `/v1/hotels/${yokohama.id}`, {
      token: group.token,
      body: { name: 'さくらホテル 横浜みなとみらい', address: yokohama.address, logoUrl: yokohama.logo_url },
    });
    expect(updated.status).toBe(200);
    expect((await s.call('POST', '/v1/hotels', { token: group.token, body: { name: 'x', address: 'y' } })).status).toBe(
      403,
    );
    expect((await s.call('GET', '/v1/hotel-groups', { token: group.token })).status).toBe(403);

    const hotelAdmin = await s.login(DEMO.hotelAdmin);
    expect((await s.call('GET', '/v1/hotels', { token: hotelAdmin.token })).status).toBe(403);
    // A brand viewer reads the lists and changes nothing.
    const viewer = await s.login(DEMO.multi);
    const asViewer = { 'x-user-role': 'viewer', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };
    const theirs = await s.call('GET', '/v1/hotels', { token: viewer.token, headers: asViewer });
    expect(theirs.body.data.items.map((h: { name: string }) => h.name).sort()).toEqual([
      'Harbor View Kobe',
      'Harbor View Okinawa',
    ]);
    const [kobe] = await s.sql(`select id from hosts where slug = 'harbor-kobe'`);
    expect(
      (
        await s.call('PUT', `/v1/hotels/${kobe.id}`, {
          token: viewer.token,
          headers: asViewer,
          body: { name: 'x', address: 'y' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await s.call('DELETE', `/v1/hotels/${kobe.id}`, {
          token: viewer.token,
          headers: asViewer,
          body: { confirmation: 'Harbor View Kobe' },
        })
      ).status,
    ).toBe(403);
  });

  it("deletes a hotel with its name typed, and takes its users' roles there away at once", async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [hakone] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    const [viewer] = await s.sql(`select id from users where email = $1`, [DEMO.hotelViewer]);
    await s.sql(
      `insert into role_assignments (user_id, host_id, brand_id, role, origin) select $1, id, brand_id, 'viewer', 'invited' from hosts where id = $2`,
      [viewer.id, hakone.id],
    );
    const v = await s.login(DEMO.hotelViewer);
    const switchTo = { 'x-user-role': 'viewer', 'x-host-slug': 'sakura-hakone', 'x-host-level': 'hotel' };
    expect((await s.call('GET', '/v1/auth/me', { token: v.token, headers: switchTo })).status).toBe(200);

    expect((await s.call('DELETE', `/v1/hotels/${hakone.id}`, { token, body: { confirmation: '箱根' } })).status).toBe(
      400,
    );
    expect(
      (await s.call('DELETE', `/v1/hotels/${hakone.id}`, { token, body: { confirmation: 'さくら旅館 箱根' } })).status,
    ).toBe(200);
    expect((await s.call('GET', '/v1/auth/me', { token: v.token, headers: switchTo })).status).toBe(403);
    const assignable = await s.call('GET', '/v1/auth/assignable', { token });
    expect(assignable.body.data.hotel.map((h: { slug: string }) => h.slug)).not.toContain('sakura-hakone');
    const list = await s.call('GET', '/v1/hotels?pageSize=100', { token });
    expect(list.body.data.items.map((h: { id: string }) => h.id)).not.toContain(hakone.id);
  });

  it('releases the hotels of a deleted hotel group into the brand', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [kansai] = await s.sql(`select id from hosts where slug = 'sakura-kansai'`);
    expect(
      (await s.call('DELETE', `/v1/hotel-groups/${kansai.id}`, { token, body: { confirmation: '関西エリア' } })).status,
    ).toBe(200);
    const [kyoto] = await s.sql(`select hotel_group_id, deleted_at from hosts where slug = 'sakura-kyoto'`);
    expect(kyoto).toEqual({ hotel_group_id: null, deleted_at: null });
  });
});

describe('settings: the acting host', () => {
  it('is read by everyone and edited by its admins', async () => {
    const admin = await s.login(DEMO.hotelAdmin);
    const info = await s.call('GET', '/v1/settings/host', { token: admin.token });
    expect(info.body.data.name).toBe('さくらホテル 新宿');
    const empty = await s.call('PUT', '/v1/settings/host', { token: admin.token, body: { name: '', address: '' } });
    expect(empty.status).toBe(400);
    // The demo hotel has its logo (seed/demo-logos.ts), which may be replaced but not dropped.
    expect(Object.keys(empty.body.error.fields).sort()).toEqual(['address', 'logoUrl', 'name']);
    // So its admin changes a phone number as it comes, without uploading anything first.
    const phoneOnly = await s.call('PUT', '/v1/settings/host', {
      token: admin.token,
      body: {
        name: info.body.data.name,
        address: info.body.data.address,
        phone: '0333334445',
        logoUrl: info.body.data.logoUrl,
      },
    });
    expect(phoneOnly.status, JSON.stringify(phoneOnly.body)).toBe(200);
    expect(phoneOnly.body.data).toMatchObject({ phone: '0333334445', logoUrl: info.body.data.logoUrl });
    const saved = await s.call('PUT', '/v1/settings/host', {
      token: admin.token,
      body: { name: 'さくらホテル 新宿', address: '東京都新宿区西新宿2-2-3', logoUrl: await logo(admin.token) },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.address).toBe('東京都新宿区西新宿2-2-3');
    const staff = await s.login(DEMO.hotelStaff);
    expect((await s.call('GET', '/v1/settings/host', { token: staff.token })).status).toBe(200);
    expect(
      (await s.call('PUT', '/v1/settings/host', { token: staff.token, body: { name: 'x', address: 'y' } })).status,
    ).toBe(403);
  });
});
