import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const HARBOR = { 'x-user-role': 'admin', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };
const png = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 1, 0x2c, 0, 0, 0, 0xc8]),
    randomBytes(200),
  ]);

const contents = (subject: string, blocks: unknown[], preheader = '') => ({
  subject,
  preheader,
  document: { version: 1, sections: [{ id: 's1', columns: [{ id: 'c1', blocks }] }] },
});
const textBlock = (id: string, ...inline: unknown[]) => ({
  id,
  type: 'text',
  content: { type: 'doc', content: [{ type: 'paragraph', content: inline }] },
});

async function createAs(email: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  const { token } = await s.login(email);
  const res = await s.call('POST', '/v1/templates', { token, body, ...(headers ? { headers } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; version: number; editable: boolean };
}

describe('templates', () => {
  it('are created, read, autosaved with a version, and a stale save is refused', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const created = await createAs(DEMO.brandAdmin, { name: 'チェックイン前のご案内', description: '到着3日前' });
    expect(created).toMatchObject({
      version: 1,
      editable: true,
      defaultLanguage: 'ja',
      languages: ['ja'],
      owner: { level: 'brand', name: 'さくらホテルズ' },
    });

    const save = (version: number, name: string) =>
      s.call('PATCH', `/v1/templates/${created.id}`, { token, body: { version, name } });
    const first = await save(1, '到着前メール');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ version: 2, name: '到着前メール', updatedByName: '佐藤 花子' });
    const stale = await save(1, '古いタブから');
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'template_stale', params: { version: '2' } });
    expect((await s.call('GET', `/v1/templates/${created.id}`, { token })).body.data.name).toBe('到着前メール');

    const bothLanguages = await s.call('PATCH', `/v1/templates/${created.id}`, {
      token,
      body: {
        version: 2,
        defaultLanguage: 'en',
        contents: { ja: contents('ご案内', []), en: contents('Before you arrive', []) },
      },
    });
    expect(bothLanguages.body.data).toMatchObject({ version: 3, defaultLanguage: 'en', languages: ['ja', 'en'] });
    const withoutDefault = await s.call('PATCH', `/v1/templates/${created.id}`, {
      token,
      body: { version: 3, contents: { ja: contents('x', []) } },
    });
    expect(withoutDefault.status).toBe(400);
    expect(withoutDefault.body.error.fields.defaultLanguage.code).toBe('template_default_language_missing');
  });

  it('records creation, a sitting of edits once, a rename, a copy and a deletion in the audit log', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const name = `監査 ${randomBytes(3).toString('hex')}`;
    const created = await createAs(DEMO.brandAdmin, { name, contents: { ja: contents('件名', []) } });
    const patch = (version: number, body: Record<string, unknown>) =>
      s.call('PATCH', `/v1/templates/${created.id}`, { token, body: { version, ...body } });
    // The editor's autosaves of one sitting: one entry, not one per save.
    expect((await patch(1, { contents: { ja: contents('件名 1', []) } })).status).toBe(200);
    expect((await patch(2, { contents: { ja: contents('件名 2', []) } })).status).toBe(200);
    expect((await patch(3, { description: '説明' })).status).toBe(200);
    // A rename is always its own entry.
    expect((await patch(4, { name: `${name} 改` })).status).toBe(200);
    const copy = await s.call('POST', `/v1/templates/${created.id}/duplicate`, {
      token,
      body: { name: `${name} 複製` },
    });
    expect(copy.status).toBe(200);
    expect((await s.call('DELETE', `/v1/templates/${copy.body.data.id}`, { token })).status).toBe(200);

    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const grand = (await s.login(DEMO.grand)).token;
    const log = (await s.call('GET', `/v1/audit?hostId=${brand.id}&limit=200`, { token: grand })).body.data as {
      targetId: string;
      action: string;
      changes: unknown;
    }[];
    const ours = log.filter((e) => e.targetId === created.id || e.targetId === copy.body.data.id);
    expect(ours.map((e) => e.action)).toEqual(['delete', 'duplicate', 'update', 'update', 'create']);
    for (const e of ours) expect(e).toMatchObject({ actorEmail: DEMO.brandAdmin, targetType: 'template' });
    const [deleted, duplicated, renamed, edited, made] = ours;
    expect(made!.changes).toEqual({ name });
    expect(edited!.changes).toEqual({ name, fields: ['contents'] });
    expect(renamed!.changes).toEqual({ name: [name, `${name} 改`] });
    expect(duplicated).toMatchObject({
      targetId: copy.body.data.id,
      changes: { name: `${name} 複製`, copyOf: `${name} 改` },
    });
    expect(deleted).toMatchObject({ targetId: copy.body.data.id, changes: { name: `${name} 複製` } });
    // Another brand's log does not show them.
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const harborLog = (await s.call('GET', `/v1/audit?hostId=${harbor.id}&limit=200`, { token: grand })).body.data as {
      targetId: string;
    }[];
    expect(harborLog.filter((e) => e.targetId === created.id)).toEqual([]);
  });

  it('refuses a document that is not the block schema, with the field named', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const bad = await s.call('POST', '/v1/templates', {
      token,
      body: {
        name: 'x',
        contents: { ja: contents('x', [{ id: 'b', type: 'button', label: 'Go', href: 'javascript:alert(1)' }]) },
      },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)[0]).toContain('href');
    expect((await s.call('POST', '/v1/templates', { token, body: { name: '' } })).status).toBe(400);
  });

  it("are the brand's to use, read-only, below it, and a hotel's stay its own", async () => {
    const brandTemplate = await createAs(DEMO.brandAdmin, { name: 'ブランド共通テンプレート' });
    const hotelTemplate = await createAs(DEMO.hotelAdmin, { name: '新宿だけのテンプレート' });
    const names = async (email: string) => {
      const { token } = await s.login(email);
      const res = await s.call('GET', '/v1/templates?pageSize=100', { token });
      expect(res.status).toBe(200);
      return res.body.data.items as { id: string; editable: boolean }[];
    };
    const hotel = await names(DEMO.hotelAdmin);
    expect(hotel.find((t) => t.id === brandTemplate.id)?.editable).toBe(false);
    expect(hotel.find((t) => t.id === hotelTemplate.id)?.editable).toBe(true);
    const group = await names(DEMO.groupAdmin);
    expect(group.some((t) => t.id === brandTemplate.id)).toBe(true);
    expect(group.some((t) => t.id === hotelTemplate.id)).toBe(false);
    expect((await names(DEMO.brandAdmin)).some((t) => t.id === hotelTemplate.id)).toBe(false);

    // Each is listed with its owner's time zone, the zone the list shows its times in.
    const [own] = await s.sql(
      `select h.id, h.timezone from templates t join hosts h on h.id = t.host_id where t.id = $1`,
      [hotelTemplate.id],
    );
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where id = $1`, [own.id]);
    try {
      const zones = Object.fromEntries(
        (await names(DEMO.hotelAdmin)).map((t) => [t.id, (t as { timeZone?: string }).timeZone]),
      );
      expect(zones[brandTemplate.id]).toBe('Asia/Tokyo');
      expect(zones[hotelTemplate.id]).toBe('Pacific/Honolulu');
    } finally {
      await s.sql(`update hosts set timezone = $2 where id = $1`, [own.id, own.timezone]);
    }

    // The hotel reads the brand's template but cannot change or delete it; it can copy it.
    const { token } = await s.login(DEMO.hotelAdmin);
    expect((await s.call('GET', `/v1/templates/${brandTemplate.id}`, { token })).status).toBe(200);
    const change = await s.call('PATCH', `/v1/templates/${brandTemplate.id}`, {
      token,
      body: { version: 1, name: 'x' },
    });
    expect(change.status).toBe(403);
    expect(change.body.error.code).toBe('template_read_only');
    expect((await s.call('DELETE', `/v1/templates/${brandTemplate.id}`, { token })).status).toBe(403);
    const copy = await s.call('POST', `/v1/templates/${brandTemplate.id}/duplicate`, { token, body: {} });
    expect(copy.body.data).toMatchObject({
      name: 'ブランド共通テンプレート（コピー）',
      editable: true,
      owner: { level: 'hotel' },
    });
    // The console's language wins over the profile's (ja here): " (copy)" for one read in English.
    const inConsole = await s.call('POST', `/v1/templates/${brandTemplate.id}/duplicate`, {
      token,
      body: { language: 'en' },
    });
    expect(inConsole.status, JSON.stringify(inConsole.body)).toBe(200);
    expect(inConsole.body.data.name).toBe('ブランド共通テンプレート (copy)');
    // In the user's language: the same copy named for a user who reads the console in English.
    expect((await s.call('PUT', '/v1/auth/me/language', { token, body: { language: 'en' } })).status).toBe(200);
    try {
      const english = await s.call('POST', `/v1/templates/${brandTemplate.id}/duplicate`, { token, body: {} });
      expect(english.body.data.name).toBe('ブランド共通テンプレート (copy)');
      const japanese = await s.call('POST', `/v1/templates/${brandTemplate.id}/duplicate`, {
        token,
        body: { language: 'ja' },
      });
      expect(japanese.body.data.name).toBe('ブランド共通テンプレート（コピー）');
    } finally {
      await s.call('PUT', '/v1/auth/me/language', { token, body: { language: 'ja' } });
    }

    // Another brand sees none of it: 404 for the ids, nothing in its list.
    const harbor = await s.login(DEMO.harborAdmin);
    for (const id of [brandTemplate.id, hotelTemplate.id]) {
      for (const [method, path, body] of [
        ['GET', `/v1/templates/${id}`, undefined],
        ['PATCH', `/v1/templates/${id}`, { version: 1, name: 'x' }],
        ['DELETE', `/v1/templates/${id}`, undefined],
        ['POST', `/v1/templates/${id}/duplicate`, {}],
        ['POST', `/v1/templates/${id}/preview`, { language: 'ja' }],
        ['POST', `/v1/templates/${id}/test-send`, { language: 'ja', emails: ['a@example.jp'] }],
        ['GET', `/v1/templates/${id}/report`, undefined],
      ] as const) {
        const res = await s.call(method, path, { token: harbor.token, body, headers: HARBOR });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    const harborList = await s.call('GET', '/v1/templates?pageSize=100', { token: harbor.token });
    expect(harborList.body.data.items.map((t: { id: string }) => t.id)).not.toContain(brandTemplate.id);
  });

  it('lets each role do what its entitlements say', async () => {
    const template = await createAs(DEMO.hotelAdmin, { name: '権限確認' });
    const staff = await s.login(DEMO.hotelStaff);
    const viewer = await s.login(DEMO.hotelViewer);
    expect((await s.call('GET', `/v1/templates/${template.id}`, { token: viewer.token })).status).toBe(200);
    expect((await s.call('GET', `/v1/templates/${template.id}/report`, { token: viewer.token })).status).toBe(200);
    expect((await s.call('POST', '/v1/templates', { token: viewer.token, body: { name: 'x' } })).status).toBe(403);
    expect(
      (await s.call('PATCH', `/v1/templates/${template.id}`, { token: viewer.token, body: { version: 1, name: 'x' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await s.call('POST', `/v1/templates/${template.id}/test-send`, {
          token: viewer.token,
          body: { language: 'ja', emails: ['v@example.jp'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await s.call('PATCH', `/v1/templates/${template.id}`, {
          token: staff.token,
          body: { version: 1, name: 'スタッフ編集' },
        })
      ).status,
    ).toBe(200);
    expect((await s.call('DELETE', `/v1/templates/${template.id}`, { token: staff.token })).status).toBe(403);
    const { token } = await s.login(DEMO.hotelAdmin);
    expect((await s.call('DELETE', `/v1/templates/${template.id}`, { token })).status).toBe(200);
    expect((await s.call('GET', `/v1/templates/${template.id}`, { token })).status).toBe(404);
  });

  it('searches and pages the list', async () => {
    const marker = `検索${randomBytes(3).toString('hex')}`;
    for (const n of [1, 2, 3]) await createAs(DEMO.brandAdmin, { name: `${marker}-${n}` });
    const { token } = await s.login(DEMO.brandAdmin);
    const page = await s.call('GET', `/v1/templates?search=${encodeURIComponent(marker)}&sort=name&pageSize=2&page=2`, {
      token,
    });
    expect(page.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.body.data.items.map((t: { name: string }) => t.name)).toEqual([`${marker}-3`]);
    expect(page.body.data.items[0]).toMatchObject({ languages: ['ja'], defaultLanguage: 'ja', editable: true });
    expect(page.body.data.items[0].contents).toBeUndefined();
  });

  it('are not deleted while a campaign that has not finished uses them, and the message names it without calling it scheduled', async () => {
    const template = await createAs(DEMO.brandAdmin, { name: '使用中' });
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    await s.sql(
      `insert into template_uses (template_id, campaign_id, brand_id, campaign_name, status) values ($1, $2, $3, '冬の特別プラン', 'scheduled')`,
      [template.id, randomUUID(), brand.id],
    );
    const { token } = await s.login(DEMO.brandAdmin);
    const refused = await s.call('DELETE', `/v1/templates/${template.id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'template_in_use',
      message:
        'This template is used by "冬の特別プラン", a campaign that has not finished. Cancel that campaign, or wait until it has been sent, before deleting the template.',
      params: { campaign: '冬の特別プラン', campaigns: ['冬の特別プラン'] },
    });
    await s.sql(`update template_uses set status = 'sent' where template_id = $1`, [template.id]);
    expect((await s.call('DELETE', `/v1/templates/${template.id}`, { token })).status).toBe(200);
  });

  it('report nothing for a template no campaign has used', async () => {
    const template = await createAs(DEMO.brandAdmin, { name: '未使用' });
    const { token } = await s.login(DEMO.brandAdmin);
    expect((await s.call('GET', `/v1/templates/${template.id}/report`, { token })).body.data).toEqual({
      campaigns: [],
      timeZone: 'Asia/Tokyo',
    });
  });
});

describe('template images', () => {
  async function upload(token: string, bytes: Buffer, name = 'photo.png') {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return s.call('POST', '/v1/templates/images', { token, form });
  }

  it('keeps a .png by its content hash and tells its size', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const bytes = png();
    const res = await upload(token, bytes);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ width: 300, height: 200, bytes: bytes.length });
    expect(res.body.data.url).toMatch(/^\/files\/logos\/[a-f0-9]{64}\.png$/);
    const served = await fetch(s.url + res.body.data.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    // Mail readers (and the console opened at another address) load it from their own origin.
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('refuses other types, 5MB and more, and nothing, with the specification texts', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const gif = await upload(token, Buffer.from('GIF89a....'), 'a.png');
    expect(gif.status).toBe(400);
    expect(gif.body.error).toMatchObject({
      code: 'logo_wrong_type',
      message: 'Please upload image file only in .jpg/.png.',
    });
    const big = await upload(token, Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({
      code: 'logo_too_big',
      message: "The file size is too big. Make sure it's less than 5MB.",
    });
    expect((await s.call('POST', '/v1/templates/images', { token, body: {} })).status).toBe(400);
    const viewer = await s.login(DEMO.hotelViewer);
    expect((await upload(viewer.token, png())).status).toBe(403);
  });

  it('refuses to fetch an image from loopback or private addresses, or a broken URL', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    for (const url of [
      `${s.url}/files/logos/x.png`,
      'http://localhost/a.png',
      'http://10.0.0.1/a.png',
      'http://[::1]/a.png',
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
      'not a url',
    ]) {
      const res = await s.call('POST', '/v1/templates/images/from-url', { token, body: { url } });
      expect(res.status, url).toBe(422);
      expect(res.body.error).toEqual({
        code: 'image_fetch_failed',
        message: 'Error fetching image. The content may be unavailable, or the URL could be broken.',
        fields: {
          url: {
            code: 'image_fetch_failed',
            message: 'Error fetching image. The content may be unavailable, or the URL could be broken.',
          },
        },
      });
    }
  });
});

describe('preview and test send', () => {
  let templateId: string;
  let customerId: string;
  beforeAll(async () => {
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    const [customer] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '太郎', '山田<b>', '09087654321', 'taro@example.jp') returning id`,
      [brand.id],
    );
    customerId = customer.id;
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [customerId, hotel.id, brand.id],
    );
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_name, amount, status)
       values ($1, $2, $3, $4, current_date, current_date + 30, current_date + 32, 2, 2, 'デラックスツイン', 40000, 'confirmed')`,
      [brand.id, customerId, hotel.id, `T-${randomBytes(4).toString('hex')}`],
    );
    const template = await createAs(DEMO.hotelAdmin, {
      name: 'プレビュー',
      defaultLanguage: 'ja',
      contents: {
        ja: contents(
          '{{full_name}}、ご到着をお待ちしております',
          [
            textBlock(
              't',
              { type: 'personalTag', attrs: { key: 'full_name' } },
              { type: 'text', text: ' {{hotel_name}}へようこそ。{{check_in_date}}' },
            ),
            { id: 'i', type: 'image', src: `/files/logos/${'b'.repeat(64)}.jpg`, alt: '' },
            { id: 'b', type: 'button', label: '予約を確認', href: 'https://example.jp/booking' },
          ],
          '到着前のご案内',
        ),
        en: contents('Welcome, {{first_name|guest}}', [
          textBlock('t', { type: 'text', text: 'Hello {{first_name|guest}}' }),
        ]),
      },
    });
    templateId = template.id;
  });

  it("renders the server's HTML for a language with a customer's data, escaped, with warnings", async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const res = await s.call('POST', `/v1/templates/${templateId}/preview`, {
      token,
      body: { language: 'ja', customerId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.data;
    expect(p.subject).toBe('山田<b> 太郎 様、ご到着をお待ちしております');
    expect(p.html).toContain('山田&lt;b&gt; 太郎 様 さくらホテル 新宿へようこそ。');
    expect(p.html).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/);
    expect(p.html).toContain(`src="${s.rt.config.publicUrl}/files/logos/${'b'.repeat(64)}.jpg"`);
    expect(p.html).toContain('到着前のご案内');
    expect(p.text).toContain('予約を確認');
    expect(p.htmlBytes).toBeGreaterThan(1000);
    expect(p.warnings).toEqual([{ code: 'image_missing_alt', blockId: 'i' }]);

    const en = await s.call('POST', `/v1/templates/${templateId}/preview`, { token, body: { language: 'en' } });
    expect(en.body.data).toMatchObject({ language: 'en', subject: 'Welcome, guest' });
    // Unsaved contents preview the same way.
    const draft = await s.call('POST', `/v1/templates/${templateId}/preview`, {
      token,
      body: { language: 'en', contents: contents('Draft {{last_name}}', []) },
    });
    expect(draft.body.data.subject).toBe('Draft ');
    // A customer the hotel does not reach is not found.
    const other = await s.call('POST', `/v1/templates/${templateId}/preview`, {
      token,
      body: { language: 'ja', customerId: randomUUID() },
    });
    expect(other.status).toBe(404);
  });

  it('falls back to the default language and says so', async () => {
    const only = await createAs(DEMO.hotelAdmin, { name: '日本語のみ' });
    const { token } = await s.login(DEMO.hotelAdmin);
    const res = await s.call('POST', `/v1/templates/${only.id}/preview`, { token, body: { language: 'en' } });
    expect(res.body.data.language).toBe('ja');
    expect(res.body.data.warnings.map((w: { code: string }) => w.code)).toEqual([
      'language_missing',
      'subject_missing',
    ]);
  });

  it('sends a test through SMTP to up to five addresses, and it lands in the outbox', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const to = `test-${randomBytes(3).toString('hex')}@example.jp`;
    const res = await s.call('POST', `/v1/templates/${templateId}/test-send`, {
      token,
      body: { language: 'ja', emails: [to], customerId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ sent: 1 });
    const [mail] = await eventually(async () => {
      const found = await s.outbox(to);
      return found.length ? found : null;
    });
    expect(mail?.subject).toBe('[テスト] 山田<b> 太郎 様、ご到着をお待ちしております');
    expect(mail?.text).toContain('さくらホテル 新宿へようこそ');

    const six = await s.call('POST', `/v1/templates/${templateId}/test-send`, {
      token,
      body: { language: 'ja', emails: [1, 2, 3, 4, 5, 6].map((n) => `t${n}@example.jp`) },
    });
    expect(six.status).toBe(400);
    const bad = await s.call('POST', `/v1/templates/${templateId}/test-send`, {
      token,
      body: { language: 'ja', emails: ['not-an-address'] },
    });
    expect(bad.status).toBe(400);
    // An address the relay refuses as malformed is the user's input: 400 with the relay's reason.
    const refused = await s.call('POST', `/v1/templates/${templateId}/test-send`, {
      token,
      body: { language: 'ja', emails: ['malformed.guest@example.jp'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'test_address_refused',
      params: { email: 'malformed.guest@example.jp', reason: expect.stringContaining('Bad recipient address syntax') },
    });
    // The refused address among good ones: they get their test once, and the answer says so.
    const partly = await s.call('POST', `/v1/templates/${templateId}/test-send`, {
      token,
      body: { language: 'ja', emails: ['malformed.guest@example.jp', `partly.${to}`] },
    });
    expect(partly.status).toBe(400);
    expect(partly.body.error).toMatchObject({
      code: 'test_address_refused_others_sent',
      params: { email: 'malformed.guest@example.jp', sent: '1', total: '2' },
    });
    const got = await eventually(async () => {
      const found = await s.outbox(`partly.${to}`);
      return found.length ? found : null;
    });
    expect(got).toHaveLength(1);
  });

  it('are limited per user, so the test send cannot be used to spam', async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const [user] = await s.sql(`select id from users where email = $1`, [DEMO.hotelStaff]);
    await s.sql(`insert into auth_failures (key) select $1 from generate_series(1, 28)`, [
      `template_test:user:${user.id}`,
    ]);
    const send = (emails: string[]) =>
      s.call('POST', `/v1/templates/${templateId}/test-send`, { token, body: { language: 'ja', emails } });
    expect((await send(['a@example.jp', 'b@example.jp', 'c@example.jp'])).status).toBe(429);
    expect((await send(['a@example.jp', 'b@example.jp'])).status).toBe(200);
    const refused = await send(['a@example.jp']);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_attempts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the API description', () => {
  it('documents the template routes, the recursive block document included', async () => {
    const res = await fetch(`${s.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/templates',
        '/v1/templates/{id}',
        '/v1/templates/{id}/preview',
        '/v1/templates/images/from-url',
      ]),
    );
    expect(JSON.stringify(doc.paths['/v1/templates/{id}']?.patch)).toContain('personalTag');
  });
});

describe('the console page', () => {
  it('lets previews show images by their public address', async () => {
    const res = await fetch(`${s.url}/healthz`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(
      new RegExp(`img-src 'self' data: blob: ${new URL(s.rt.config.publicUrl).origin.replace(/[.]/g, '\\.')}(;| )`),
    );
  });
});
