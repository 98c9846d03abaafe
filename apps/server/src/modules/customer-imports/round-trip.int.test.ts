import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
let brandId: string;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  brandId = (await s.sql(`select id from hosts where slug = 'sakura-hotels'`))[0].id;
  token = (await s.login(DEMO.brandAdmin)).token;
});
afterAll(async () => {
  await s?.close();
});

// Pieces that trouble spreadsheets and CSV: quotes, delimiters, line breaks, formula starts, the
// apostrophe our export adds, Excel's ="..." text form, full-width and astral characters.
const piece = fc.constantFrom(
  '山',
  '田',
  'a',
  'Z',
  '1',
  ' ',
  '\u3000',
  '"',
  ',',
  '\r\n',
  '\n',
  "'",
  '=',
  '+',
  '-',
  '@',
  '="',
  '髙',
  '①',
  '～',
  '😀',
  'é',
  ';',
  '\t',
);
const text = (max: number) =>
  fc
    .array(piece, { maxLength: 12 })
    .map((parts) => parts.join('').trim())
    .map((v) => v.slice(0, max).trim());
const required = (max: number) => text(max).map((v) => v || '名');
const optional = (max: number) =>
  fc.option(
    text(max).filter((v) => v !== ''),
    { nil: null },
  );
const day = fc
  .integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2020, 11, 31) })
  .map((t) => new Date(t).toISOString().slice(0, 10));

const customer = fc.record({
  lastName: required(100),
  firstName: required(100),
  email: fc.constantFrom(null, 'taro@example.jp', 'a.b+tag@example.co.jp'),
  idNumber: optional(50),
  gender: fc.constantFrom(null, 'male', 'female', 'prefer_not_to_say'),
  dateOfBirth: fc.option(day, { nil: null }),
  country: fc.constantFrom(null, 'JP', 'US'),
  prefecture: optional(100),
  city: optional(100),
  address: required(500),
  emailStatus: fc.constantFrom('active', 'unsubscribed'),
});

let run = 0;
const FIELDS = `last_name as "lastName", first_name as "firstName", phone, email, id_number as "idNumber", gender,
  to_char(date_of_birth, 'YYYY-MM-DD') as "dateOfBirth", country, prefecture, city, address, email_status as "emailStatus"`;

async function importFile(csv: string) {
  const form = new FormData();
  form.append('file', new Blob([csv]), 'export.csv');
  const up = await s.call('POST', '/v1/customer-imports', { token, form });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.data.id as string;
  const reviewed = await eventually(async () => {
    const r = await s.call('GET', `/v1/customer-imports/${id}`, { token });
    return ['reviewed', 'rejected'].includes(r.body.data.status) ? r.body.data : null;
  }, 20_000);
  expect(reviewed.status).toBe('reviewed');
  await s.call('POST', `/v1/customer-imports/${id}/confirm`, { token, body: { emailReception: 'booking' } });
  return eventually(async () => {
    const r = await s.call('GET', `/v1/customer-imports/${id}`, { token });
    return ['completed', 'failed'].includes(r.body.data.status) ? r.body.data : null;
  }, 20_000);
}

describe('export then import', () => {
  it('gives back the same customers, and re-importing an export changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(customer, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('ja', 'en'),
        async (list, lang) => {
          run++;
          const prefix = `06${String(run).padStart(3, '0')}`;
          const originals = list.map((c, i) => ({ ...c, phone: `${prefix}${String(i).padStart(5, '0')}` }));
          for (const c of originals) {
            await s.sql(
              `insert into customers (brand_id, last_name, first_name, phone, email, id_number, gender, date_of_birth, country, prefecture, city, address, email_status)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
              [
                brandId,
                c.lastName,
                c.firstName,
                c.phone,
                c.email,
                c.idNumber,
                c.gender,
                c.dateOfBirth,
                c.country,
                c.prefecture,
                c.city,
                c.address,
                c.emailStatus,
              ],
            );
          }
          const exported = await fetch(`${s.url}/v1/customers/export.csv?lang=${lang}&search=${prefix}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const csv = await exported.text();

          const same = await importFile(csv);
          expect(same.counts).toMatchObject({
            total: originals.length,
            new: 0,
            updated: 0,
            unchanged: originals.length,
            failed: 0,
          });

          await s.sql(`delete from customers where phone like $1`, [`${prefix}%`]);
          const back = await importFile(csv);
          expect(back.result).toMatchObject({ inserted: originals.length });
          const rows = await s.sql(
            `select ${FIELDS} from customers where brand_id = $1 and phone like $2 order by phone`,
            [brandId, `${prefix}%`],
          );
          expect(rows).toEqual(originals);
        },
      ),
      { numRuns: 8 },
    );
  }, 300_000);
});
