import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';

/**
 * The sample file the import's first step offers (GET /v1/customer-imports/sample.csv): what a
 * hotel downloads to start from must import as it is, every column read, in either language.
 */

let s: TTestServer;
let brandId: string;

beforeAll(async () => {
  s = await startTestServer();
  brandId = (await s.sql(`select id from hosts where slug = 'sakura-hotels'`))[0].id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const sample = (token: string, lang: string) =>
  fetch(`${s.url}/v1/customer-imports/sample.csv?lang=${lang}`, { headers: { authorization: `Bearer ${token}` } });

describe('the sample file', () => {
  it.each([
    ['ja', '姓,名,電話番号,メールアドレス', '09012345678', { country: 'JP', gender: 'female', first_name: '花子' }],
    // The phone as kept (its digits: normalize-row.ts).
    [
      'en',
      'Last name,First name,Phone number,Email',
      '14155550123',
      { country: 'US', gender: 'female', first_name: 'Emily' },
    ],
  ])('in %s imports as it is: every column read, its one customer added', async (lang, headers, phone, stored) => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await sample(token, lang);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="customers-sample(-en)?\.csv"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    // Excel in Japan reads UTF-8 only after a byte-order mark.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8').slice(1).startsWith(headers)).toBe(true);

    // Uploaded back as downloaded.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'customers-sample.csv');
    const upload = await s.call('POST', '/v1/customer-imports', { token, form });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const get = async () => (await s.call('GET', `/v1/customer-imports/${upload.body.data.id}`, { token })).body.data;
    const review = await eventually(async () => ((await get())?.status === 'reviewed' ? get() : null), 30_000);
    expect(review.columns.filter((c: { field: string | null }) => c.field === null)).toEqual([]);
    expect(review.counts).toMatchObject({ total: 1, new: 1, failed: 0 });
    const confirm = await s.call('POST', `/v1/customer-imports/${review.id}/confirm`, {
      token,
      body: { emailReception: 'web_form' },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    await eventually(async () => ((await get())?.status === 'completed' ? true : null), 30_000);
    const [customer] = await s.sql(
      `select first_name, country, gender, email_status from customers where brand_id = $1 and phone = $2`,
      [brandId, phone],
    );
    expect(customer).toMatchObject({ ...stored, email_status: 'active' });
  });

  it('is for those who may import: a viewer and an anonymous caller get nothing', async () => {
    const viewer = await s.login(DEMO.hotelViewer);
    const refused = await sample(viewer.token, 'ja');
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('姓');
    expect((await fetch(`${s.url}/v1/customer-imports/sample.csv`)).status).toBe(401);
  });
});
