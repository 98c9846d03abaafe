import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { CsvReader } from './csv-reader.ts';
import { pruneImports } from './prune-imports.ts';

let s: TTestServer;
let ids: Record<string, string>;

type TContext = { token: string; headers?: Record<string, string> };
const as = (ctx: TContext) => ({ token: ctx.token, headers: ctx.headers ?? {} });
const acting = (role: string, slug: string, level: string) => ({
  'x-user-role': role,
  'x-host-slug': slug,
  'x-host-level': level,
});

function form(content: string | Buffer, name = 'customers.csv'): FormData {
  const f = new FormData();
  f.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
  return f;
}

async function upload(ctx: TContext, content: string | Buffer, query = '') {
  return s.call('POST', `/v1/customer-imports${query}`, { ...as(ctx), form: form(content) });
}

async function settled(ctx: TContext, id: string, statuses: string[]) {
  return eventually(async () => {
    const res = await s.call('GET', `/v1/customer-imports/${id}`, as(ctx));
    return statuses.includes(res.body.data?.status) ? res.body.data : null;
  }, 30_000);
}

/** Upload, wait for the review, and return the reviewed import. */
async function reviewed(ctx: TContext, content: string | Buffer, query = '') {
  const res = await upload(ctx, content, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return settled(ctx, res.body.data.id, ['reviewed', 'rejected']);
}

async function run(ctx: TContext, id: string, emailReception = 'booking') {
  const res = await s.call('POST', `/v1/customer-imports/${id}/confirm`, { ...as(ctx), body: { emailReception } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return settled(ctx, id, ['completed', 'failed']);
}

/** The records of a CSV text, each a list of its cells. */
function records(text: string): string[][] {
  const out: string[][] = [];
  const reader = new CsvReader();
  const take = (fields: string[]) => out.push([...fields]);
  reader.push(text, take);
  reader.end(take);
  return out;
}

const customer = async (phone: string) =>
  (await s.sql(`select * from customers where phone = $1 and brand_id = $2`, [phone, ids['sakura-hotels']]))[0];

beforeAll(async () => {
  s = await startTestServer();
  const hosts = await s.sql(`select slug, id from hosts`);
  ids = Object.fromEntries(hosts.map((h) => [h.slug, h.id]));
  // Staff and viewers at the brand and hotel-group levels, for the role walk.
  await s.sql(
    `insert into role_assignments (user_id, host_id, brand_id, role)
     select u.id, h.id, h.brand_id, r.role from (values
       ('hotel.staff@demo.test', 'sakura-hotels', 'staff'), ('hotel.staff@demo.test', 'sakura-kanto', 'staff'),
       ('hotel.viewer@demo.test', 'sakura-hotels', 'viewer'), ('hotel.viewer@demo.test', 'sakura-kanto', 'viewer')) r(email, slug, role)
     join users u on u.email = r.email join hosts h on h.slug = r.slug`,
  );
  // Two existing guests of Shinjuku: one the file leaves as it is, one it changes; one unsubscribed.
  await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, address, email_status) values
       ($1, '一郎', '佐藤', '09011110001', 'ichiro@example.jp', '東京都新宿区1-1', 'active'),
       ($1, '次郎', '佐藤', '09011110002', 'jiro@example.jp', '東京都新宿区2-2', 'active'),
       ($1, '三郎', '佐藤', '09011110003', null, '東京都新宿区3-3', 'unsubscribed')`,
    [ids['sakura-hotels']],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select id, $1, brand_id, 'booking' from customers where phone like '0901111000%'`,
    [ids['sakura-shinjuku']],
  );
});
afterAll(async () => {
  await s?.close();
});

const HEADER = '姓,名,電話番号,メールアドレス,性別,生年月日,住所,メール配信\r\n';
// Row numbers as a spreadsheet shows them: the header is row 1.
const FILE =
  '\uFEFF' +
  HEADER +
  '山田,太郎,090-2222-0001,taro@example.jp,男性,1990-05-20,"東京都新宿区\r\n西新宿1-1",配信中\r\n' + // 2 new, quoted line break
  '鈴木,花子,０９０２２２２０００２,,女性,1985/3/4,東京都渋谷区,\r\n' + // 3 new, full-width digits
  '"=HYPERLINK(""http://x"")",健,09022220003,,,,東京都,\r\n' + // 4 new, a formula kept as text
  '田中,誠,090-abcd-0004,,,,東京都,\r\n' + // 5 failed: letters in the phone
  '伊藤,翼,09022220005,,,2001-02-30,東京都,\r\n' + // 6 failed: no such date
  '山田,太郎,090-2222-0001,taro@example.jp,男性,1990-05-20,"東京都新宿区\r\n西新宿1-1",配信中\r\n' + // 7 repeats row 2
  '山田,次郎,09022220001,,,,大阪府,\r\n' + // 8 failed: same phone as row 2, other details
  '佐藤,一郎,09011110001,ichiro@example.jp,,,東京都新宿区1-1,\r\n' + // 9 unchanged existing customer
  '佐藤,次郎,09011110002,jiro@example.jp,,,東京都新宿区2-22,配信停止\r\n' + // 10 updated, and unsubscribed
  '佐藤,三郎,09011110003,,,,東京都新宿区3-3,配信中\r\n' + // 11 unchanged: an import never re-subscribes
  ',,,,,,,\r\n'; // a blank line: not a row

describe('customer import, end to end', () => {
  let importId: string;
  let staff: TContext;

  it('reviews a UTF-8 file with a BOM: counts, failed rows with reasons, identical rows', async () => {
    staff = await s.login(DEMO.hotelStaff);
    const first = await upload(staff, FILE);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: 'reviewing',
      encoding: 'utf-8',
      hotelName: 'さくらホテル 新宿',
      fileName: 'customers.csv',
    });
    expect(first.body.data.columns.map((c: { field: string }) => c.field)).toEqual([
      'lastName',
      'firstName',
      'phone',
      'email',
      'gender',
      'dateOfBirth',
      'address',
      'emailStatus',
    ]);
    importId = first.body.data.id;
    const review = await settled(staff, importId, ['reviewed', 'rejected']);
    expect(review.counts).toEqual({ total: 10, new: 3, updated: 1, unchanged: 2, duplicates: 1, failed: 3 });
    expect(await s.sql(`select count(*)::int as n from customers where phone like '090222200%'`)).toEqual([{ n: 0 }]);

    const failed = await s.call('GET', `/v1/customer-imports/${importId}/rows?outcome=failed`, as(staff));
    expect(
      failed.body.data.items.map(
        (r: { row: number; problems: { field: string; code: string }[]; duplicateOf: number | null }) => [
          r.row,
          r.problems.map((p) => `${p.field}:${p.code}`),
          r.duplicateOf,
        ],
      ),
    ).toEqual([
      [5, ['phone:use_numbers_only'], null],
      [6, ['dateOfBirth:invalid_date'], null],
      [8, ['phone:import_duplicate_conflict'], 2],
    ]);
    expect(failed.body.data.items[0].problems[0].message).toBe('Use only numerical characters.');
    const identical = await s.call('GET', `/v1/customer-imports/${importId}/rows?outcome=identical`, as(staff));
    expect(identical.body.data.items.map((r: { row: number; outcome: string }) => [r.row, r.outcome])).toEqual([
      [7, 'duplicate'],
      [9, 'unchanged'],
      [11, 'unchanged'],
    ]);
    const paged = await s.call('GET', `/v1/customer-imports/${importId}/rows?outcome=failed&limit=2`, as(staff));
    expect(paged.body.data.nextAfter).toBe(6);
    const rest = await s.call('GET', `/v1/customer-imports/${importId}/rows?outcome=failed&after=6`, as(staff));
    expect(rest.body.data.items.map((r: { row: number }) => r.row)).toEqual([8]);
  });

  it('downloads the failed rows with their reasons in the chosen language', async () => {
    const res = await fetch(`${s.url}/v1/customer-imports/${importId}/failures.csv?lang=ja`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\r\n');
    // The file's own header (メール配信, not the export's メール配信ステータス), after the row and the reason.
    expect(lines[0]).toBe('行,理由,姓,名,電話番号,メールアドレス,性別,生年月日,住所,メール配信');
    expect(lines[1]).toBe('5,電話番号: 数字のみで入力してください。,田中,誠,090-abcd-0004,,,,東京都,');
    expect(lines[3]).toContain('8,電話番号: 同じ電話番号が前の行に異なる内容で存在します。 (行 2)');
    const english = await fetch(`${s.url}/v1/customer-imports/${importId}/failures.csv?lang=en`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect((await english.text()).split('\r\n')[2]).toBe(
      '6,Date of birth: Enter a valid date.,伊藤,翼,09022220005,,,2001-02-30,東京都,',
    );
  });

  it('imports with the email reception chosen, allocating to the hotel, and audits counts, file and hotel only', async () => {
    const before = await customer('09011110001');
    const done = await run(staff, importId, 'booking');
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ inserted: 3, updated: 1, unchanged: 2, allocated: 3 });
    expect(done.emailReception).toBe('booking');
    expect(done.progress).toEqual({ done: 10, total: 10 });

    const taro = await customer('09022220001');
    expect(taro).toMatchObject({
      last_name: '山田',
      first_name: '太郎',
      gender: 'male',
      address: '東京都新宿区\r\n西新宿1-1',
      consent_source: 'import',
      email_status: 'active',
    });
    expect((await customer('09022220002')).first_name).toBe('花子');
    expect((await customer('09022220003')).last_name).toBe('=HYPERLINK("http://x")');
    const jiro = await customer('09011110002');
    expect(jiro).toMatchObject({
      address: '東京都新宿区2-22',
      email_status: 'unsubscribed',
      unsubscribe_reason: 'import',
    });
    expect((await customer('09011110003')).email_status).toBe('unsubscribed');
    expect((await customer('09011110001')).updated_at).toEqual(before.updated_at);
    const allocations = await s.sql(
      `select source from customer_allocations a join customers c on c.id = a.customer_id where c.phone like '090222200%' and a.hotel_id = $1`,
      [ids['sakura-shinjuku']],
    );
    expect(allocations.map((a) => a.source)).toEqual(['import', 'import', 'import']);

    const hotelList = await s.call('GET', '/v1/customers?search=0902222', as(staff));
    expect(hotelList.body.data.total).toBe(3);
    const [audit] = await s.sql(`select action, target_type, changes from audit_log where target_id = $1`, [importId]);
    expect(audit).toMatchObject({
      action: 'import',
      target_type: 'customer_import',
      changes: {
        inserted: 3,
        updated: 1,
        unchanged: 2,
        failed: 3,
        duplicates: 1,
        emailReception: 'booking',
        fileName: 'customers.csv',
        hotelId: ids['sakura-shinjuku'],
      },
    });
    expect(JSON.stringify(audit)).not.toContain('0902222');
    // The log names the file and the hotel the customers went to, never a bare id.
    const grand = await s.login(DEMO.grand);
    const log = await s.call('GET', `/v1/audit?hostId=${ids['sakura-hotels']}`, as(grand));
    const entry = log.body.data.find((e: { targetId: string }) => e.targetId === importId);
    expect(entry).toMatchObject({
      action: 'import',
      targetType: 'customer_import',
      hostNames: { [ids['sakura-shinjuku'] as string]: 'さくらホテル 新宿' },
    });
    // The upload is gone from disk once read.
    expect(existsSync(join(s.rt.config.dataDir, 'imports', `${importId}.csv`))).toBe(false);
  });

  it('changes nothing when the same file is imported again', async () => {
    const snapshot = await s.sql(`select id, updated_at, email_status from customers order by id`);
    const again = await reviewed(staff, FILE);
    expect(again.counts).toEqual({ total: 10, new: 0, updated: 0, unchanged: 6, duplicates: 1, failed: 3 });
    const done = await run(staff, again.id);
    expect(done.result).toEqual({ inserted: 0, updated: 0, unchanged: 6, allocated: 0 });
    expect(await s.sql(`select id, updated_at, email_status from customers order by id`)).toEqual(snapshot);
    // A finished import cannot run again.
    const twice = await s.call('POST', `/v1/customer-imports/${again.id}/confirm`, {
      ...as(staff),
      body: { emailReception: 'booking' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('import_not_ready');
  });

  it('reads Shift_JIS (CP932) files as Japanese Excel writes them', async () => {
    const bytes = iconv.encode(
      '氏名,ＴＥＬ,住所,メール配信\r\n髙橋 ①子,080-3333-0001,東京都～港区,配信停止\r\n',
      'cp932',
    );
    const review = await reviewed(staff, bytes);
    expect(review.encoding).toBe('cp932');
    expect(review.counts).toMatchObject({ new: 1, failed: 0 });
    await run(staff, review.id, 'not_given');
    expect(await customer('08033330001')).toMatchObject({
      last_name: '髙橋',
      first_name: '①子',
      address: '東京都～港区',
      email_status: 'unsubscribed',
    });
  });

  it('has read and counted the rows by the time the upload has streamed in', async () => {
    const review = await reviewed(staff, '姓,名,電話番号,住所\r\n森,湊,08044440002,東京都\r\n');
    expect(review.counts).toMatchObject({ total: 1, new: 1 });
    // The review job was handed the counts: it did not read the file again.
    const [job] = await s.sql(
      `select data from pgboss.job where name = 'customer-imports.review' and data->>'importId' = $1`,
      [review.id],
    );
    expect(job?.data.counts).toEqual(review.counts);
  });

  it('leaves uploads beyond two at a time to the review job, with the same counts', async () => {
    // Two uploads that have sent their header and some rows, and wait.
    const boundary = 'yadoslow';
    const open = [1, 2].map((n) => {
      const req = http.request(`${s.url}/v1/customer-imports`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${staff.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\n` +
          `姓,名,電話番号,住所\r\n森,遅${n},0804444100${n},東京都\r\n`,
      );
      return { req, answer };
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const third = await reviewed(staff, '姓,名,電話番号,住所\r\n森,速,08044441003,東京都\r\n');
      expect(third.counts).toMatchObject({ total: 1, new: 1 });
      const [job] = await s.sql(
        `select data from pgboss.job where name = 'customer-imports.review' and data->>'importId' = $1`,
        [third.id],
      );
      expect(job?.data.counts).toBeUndefined();
    } finally {
      for (const { req } of open) req.end(`--${boundary}--\r\n`);
    }
    for (const { answer } of open) {
      const done = await answer;
      expect(done.status).toBe(200);
      const review = await settled(staff, JSON.parse(done.body).data.id, ['reviewed', 'rejected']);
      expect(review.counts).toMatchObject({ total: 1, new: 1 });
    }
  });

  it('reads a file as CP932 when its first non-UTF-8 byte comes late, after a megabyte of ASCII', async () => {
    let ascii = 'last name,first name,phone,address\r\n';
    for (let i = 0; ascii.length < 1_200_000; i++) ascii += `Mori,Guest${i},070${String(i).padStart(8, '0')},Tokyo\r\n`;
    const bytes = Buffer.concat([Buffer.from(ascii), iconv.encode('髙橋,①子,08033330002,東京都～港区\r\n', 'cp932')]);
    const review = await reviewed(staff, bytes);
    expect(review.encoding).toBe('cp932');
    const rows = ascii.split('\r\n').length - 1;
    expect(review.counts).toMatchObject({ total: rows, new: rows, failed: 0 });
    const [late] = await s.sql(
      `select last_name, first_name, address from customer_import_rows where import_id = $1 and phone = '08033330002'`,
      [review.id],
    );
    expect(late).toEqual({ last_name: '髙橋', first_name: '①子', address: '東京都～港区' });
    await s.call('DELETE', `/v1/customer-imports/${review.id}`, as(staff));
  });

  it('adds customers as unsubscribed when no consent was given', async () => {
    const review = await reviewed(staff, '姓,名,電話番号,住所\r\n森,光,08044440001,東京都\r\n');
    await run(staff, review.id, 'not_given');
    expect(await customer('08044440001')).toMatchObject({
      email_status: 'unsubscribed',
      unsubscribe_reason: 'no_consent',
      consent_source: 'import',
    });
  });
});

describe('bad files', () => {
  let staff: TContext;
  beforeAll(async () => {
    staff = await s.login(DEMO.hotelStaff);
  });
  const files = () => readdirSync(join(s.rt.config.dataDir, 'imports')).length;

  it('refuses an empty file, a file without the required columns, UTF-16 and no file at all', async () => {
    const empty = await upload(staff, '');
    expect([empty.status, empty.body.error.code]).toEqual([400, 'import_file_empty']);
    const blank = await upload(staff, '\uFEFF\r\n\r\n');
    expect(blank.body.error.code).toBe('import_file_empty');
    const wrong = await upload(staff, 'name,email\r\nTaro,taro@example.jp\r\n');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('import_missing_columns');
    expect(Object.keys(wrong.body.error.fields)).toEqual(['phone', 'address']);
    expect(wrong.body.error.fields.phone.message).toBe('This column is missing from the file.');
    const twice = await upload(staff, '姓,名,電話,携帯,住所\r\n');
    expect(twice.body.error.fields.phone.code).toBe('import_duplicate_column');
    const utf16 = await upload(
      staff,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('姓,名,電話番号,住所\r\n', 'utf16le')]),
    );
    expect(utf16.body.error.code).toBe('import_unsupported_encoding');
    const none = await s.call('POST', '/v1/customer-imports', { ...as(staff), body: {} });
    expect(none.body.error.code).toBe('import_file_required');
    expect(files()).toBe(0);
  });

  it('rejects a header without rows and a quote that never closes, with the row', async () => {
    const headerOnly = await reviewed(staff, '姓,名,電話番号,住所\r\n');
    expect(headerOnly).toMatchObject({ status: 'rejected', error: { code: 'import_no_rows', row: null } });
    const open = await reviewed(
      staff,
      '姓,名,電話番号,住所\r\n山田,太郎,09055550001,東京\r\n鈴木,"花子,09055550002,東京\r\n',
    );
    expect(open).toMatchObject({
      status: 'rejected',
      error: {
        code: 'import_malformed_csv',
        row: 3,
        message: 'The file is not valid CSV: a quoted value is never closed.',
      },
    });
    expect(await s.sql(`select count(*)::int as n from customer_import_rows where import_id = $1`, [open.id])).toEqual([
      { n: 0 },
    ]);
    const retry = await s.call('POST', `/v1/customer-imports/${open.id}/confirm`, {
      ...as(staff),
      body: { emailReception: 'booking' },
    });
    expect(retry.status).toBe(409);
  });

  it('refuses a 200 MB file at the limit without keeping any of it', async () => {
    const boundary = 'yadoboundary';
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${s.url}/v1/customer-imports`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${staff.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      const row = Buffer.from('山田,太郎,09012345678,東京都新宿区西新宿1-1-1\r\n'.repeat(1000));
      let sent = 0;
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n姓,名,電話番号,住所\r\n`,
      );
      const pump = () => {
        while (sent < 200 * 1024 * 1024) {
          sent += row.length;
          if (!req.write(row)) return void req.once('drain', pump);
        }
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body).error.code).toBe('import_file_too_big');
    expect(files()).toBe(0);
    // Nor any of the rows read while it streamed in.
    expect(
      await s.sql(
        `select count(*)::int as n from customer_import_rows r where not exists (select 1 from customer_imports i where i.id = r.import_id)`,
      ),
    ).toEqual([{ n: 0 }]);
  }, 120_000); // 200 MB streamed through the server: about 30 s on a quiet 2-core machine

  it('cancels a reviewed import: its rows go, and it cannot run', async () => {
    const review = await reviewed(staff, '姓,名,電話番号,住所\r\n森,蘭,08066660001,東京\r\n');
    const cancelled = await s.call('DELETE', `/v1/customer-imports/${review.id}`, as(staff));
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(
      await s.sql(`select count(*)::int as n from customer_import_rows where import_id = $1`, [review.id]),
    ).toEqual([{ n: 0 }]);
    expect(
      (
        await s.call('POST', `/v1/customer-imports/${review.id}/confirm`, {
          ...as(staff),
          body: { emailReception: 'booking' },
        })
      ).status,
    ).toBe(409);
    expect(await customer('08066660001')).toBeUndefined();
  });
});

describe('housekeeping', () => {
  it('drops imports nobody ran after a week, and keeps what a recent one needs', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const old = await reviewed(staff, '姓,名,電話番号,住所\r\n森,翔,08012120001,東京\r\n');
    const recent = await reviewed(staff, '姓,名,電話番号,住所\r\n森,陽,08012120002,東京\r\n');
    await s.sql(`update customer_imports set created_at = now() - interval '8 days' where id = $1`, [old.id]);
    await pruneImports(s.rt);
    const statuses = await s.sql(`select id, status from customer_imports where id in ($1, $2)`, [old.id, recent.id]);
    expect(Object.fromEntries(statuses.map((r) => [r.id, r.status]))).toEqual({
      [old.id]: 'cancelled',
      [recent.id]: 'reviewed',
    });
    const rows = await s.sql(
      `select import_id, count(*)::int as n from customer_import_rows where import_id in ($1, $2) group by import_id`,
      [old.id, recent.id],
    );
    expect(rows).toEqual([{ import_id: recent.id, n: 1 }]);
    expect((await run(staff, recent.id)).status).toBe('completed');
  });
});

describe('all or nothing', () => {
  it('leaves no customer behind when the database fails after earlier batches, and runs again after', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const before = await s.sql(`select count(*)::int as n from customers`);
    let csv = '姓,名,電話番号,住所\r\n';
    for (let i = 0; i < 60_000; i++) csv += `山本,客${i},070${String(i).padStart(8, '0')},東京都\r\n`;
    const review = await reviewed(staff, csv);
    expect(review.counts).toMatchObject({ total: 60_000, new: 60_000 });
    // A row in the second batch of 50,000 makes the database refuse the statement.
    await s.sql(`create function refuse_one() returns trigger language plpgsql as $$
      begin if new.phone = '07000055000' then raise exception 'refused for the test'; end if; return new; end $$`);
    await s.sql(`create trigger refuse_one before insert on customers for each row execute function refuse_one()`);
    const failed = await run(staff, review.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'import_failed', message: 'The import stopped and nothing was changed. Please try again.' },
    });
    expect(await s.sql(`select count(*)::int as n from customers`)).toEqual(before);
    expect(
      await s.sql(
        `select count(*)::int as n from customer_allocations where source = 'import' and customer_id in (select id from customers where phone like '070%')`,
      ),
    ).toEqual([{ n: 0 }]);
    expect(s.logs.join('')).not.toContain('07000055000');

    await s.sql(`drop trigger refuse_one on customers`);
    const done = await run(staff, review.id);
    expect(done.result).toMatchObject({ inserted: 60_000 });
  });
});

describe('who may import', () => {
  it('is refused to viewers at every level, to anonymous callers and on every endpoint', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const review = await reviewed(staff, '姓,名,電話番号,住所\r\n森,蓮,08077770001,東京\r\n');
    const viewer = await s.login(DEMO.hotelViewer);
    const contexts = [{}, acting('viewer', 'sakura-kanto', 'hotel_group'), acting('viewer', 'sakura-hotels', 'brand')];
    for (const headers of contexts) {
      const v = { token: viewer.token, headers };
      expect((await upload(v, '姓,名,電話番号,住所\r\n')).status).toBe(403);
      expect((await s.call('GET', `/v1/customer-imports/${review.id}`, as(v))).status).toBe(403);
      expect((await s.call('GET', `/v1/customer-imports/${review.id}/rows?outcome=failed`, as(v))).status).toBe(403);
      expect(
        (
          await s.call('POST', `/v1/customer-imports/${review.id}/confirm`, {
            ...as(v),
            body: { emailReception: 'booking' },
          })
        ).status,
      ).toBe(403);
      expect((await s.call('DELETE', `/v1/customer-imports/${review.id}`, as(v))).status).toBe(403);
      expect(
        (
          await fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv`, {
            headers: { authorization: `Bearer ${viewer.token}`, ...headers },
          })
        ).status,
      ).toBe(403);
    }
    expect((await s.call('GET', `/v1/customer-imports/${review.id}`)).status).toBe(401);
    expect((await s.call('POST', '/v1/customer-imports', { form: form('x') })).status).toBe(401);
  });

  it('lets admins and staff import at hotel, group and brand level, allocating as the level says', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const admin = await s.login(DEMO.hotelAdmin);
    const group = await s.login(DEMO.groupAdmin);
    const brand = await s.login(DEMO.brandAdmin);
    const file = (phone: string) => `姓,名,電話番号,住所\r\n森,${phone},${phone},東京\r\n`;
    const allocatedTo = async (phone: string) =>
      (
        await s.sql(
          `select h.slug from customer_allocations a join hosts h on h.id = a.hotel_id join customers c on c.id = a.customer_id where c.phone = $1`,
          [phone],
        )
      ).map((r) => r.slug);

    await run(admin, (await reviewed(admin, file('08088880001'))).id);
    expect(await allocatedTo('08088880001')).toEqual(['sakura-shinjuku']);

    // A hotel group chooses one of its hotels, and must choose one.
    for (const ctx of [group, { token: staff.token, headers: acting('staff', 'sakura-kanto', 'hotel_group') }]) {
      const missing = await upload(ctx, file('08088880002'));
      expect([missing.status, missing.body.error.code]).toEqual([400, 'import_hotel_required']);
      const outside = await upload(ctx, file('08088880002'), `?hotelId=${ids['sakura-kyoto']}`);
      expect(outside.body.error.code).toBe('import_hotel_required');
    }
    const groupImport = await reviewed(group, file('08088880002'), `?hotelId=${ids['sakura-yokohama']}`);
    expect(groupImport.hotelName).toBe('さくらホテル 横浜');
    await run(group, groupImport.id);
    expect(await allocatedTo('08088880002')).toEqual(['sakura-yokohama']);

    // A brand allocates nobody unless it names a hotel.
    const brandStaff = { token: staff.token, headers: acting('staff', 'sakura-hotels', 'brand') };
    await run(brandStaff, (await reviewed(brandStaff, file('08088880003'))).id);
    expect(await allocatedTo('08088880003')).toEqual([]);
    await run(brand, (await reviewed(brand, file('08088880004'), `?hotelId=${ids['sakura-kyoto']}`)).id);
    expect(await allocatedTo('08088880004')).toEqual(['sakura-kyoto']);
    // A hotel importing a brand customer it did not have yet takes them in.
    await run(admin, (await reviewed(admin, file('08088880004'))).id);
    expect((await allocatedTo('08088880004')).sort()).toEqual(['sakura-kyoto', 'sakura-shinjuku']);
  });

  it('shows an import to the host that made it and the hosts above it; only its own host runs or cancels it', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const review = await reviewed(staff, '姓,名,電話番号,住所\r\n森,葵,08099990001,東京\r\n');
    expect(review.readOnly).toBe(false);
    const harbor = await s.login(DEMO.harborAdmin);
    const brand = await s.login(DEMO.brandAdmin);
    const group = await s.login(DEMO.groupAdmin);
    const csv = (ctx: TContext) =>
      fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv`, {
        headers: { authorization: `Bearer ${ctx.token}`, ...(ctx.headers ?? {}) },
      });
    // The brand and the hotel group above the hotel see the import and its rows, read only.
    for (const above of [brand, group]) {
      const seen = await s.call('GET', `/v1/customer-imports/${review.id}`, as(above));
      expect(seen.status).toBe(200);
      expect(seen.body.data).toMatchObject({ id: review.id, status: 'reviewed', readOnly: true });
      expect((await s.call('GET', `/v1/customer-imports/${review.id}/rows?outcome=failed`, as(above))).status).toBe(
        200,
      );
      expect((await csv(above)).status).toBe(200);
      const confirm = await s.call('POST', `/v1/customer-imports/${review.id}/confirm`, {
        ...as(above),
        body: { emailReception: 'booking' },
      });
      expect(confirm.status).toBe(404);
      expect((await s.call('DELETE', `/v1/customer-imports/${review.id}`, as(above))).status).toBe(404);
    }
    // Another brand, and another hotel of the same brand, find nothing.
    for (const other of [harbor, { token: brand.token, headers: acting('admin', 'sakura-kyoto', 'hotel') }]) {
      expect((await s.call('GET', `/v1/customer-imports/${review.id}`, as(other))).status).toBe(404);
      expect((await s.call('GET', `/v1/customer-imports/${review.id}/rows?outcome=identical`, as(other))).status).toBe(
        404,
      );
      expect(
        (
          await s.call('POST', `/v1/customer-imports/${review.id}/confirm`, {
            ...as(other),
            body: { emailReception: 'booking' },
          })
        ).status,
      ).toBe(404);
      expect((await s.call('DELETE', `/v1/customer-imports/${review.id}`, as(other))).status).toBe(404);
      expect((await csv(other)).status).toBe(404);
    }
    // Nor does a hotel see its brand's import, even one allocated to it.
    const brandImport = await reviewed(
      brand,
      '姓,名,電話番号,住所\r\n森,楓,08099990002,東京\r\n',
      `?hotelId=${ids['sakura-shinjuku']}`,
    );
    expect((await s.call('GET', `/v1/customer-imports/${brandImport.id}`, as(staff))).status).toBe(404);
    // A hotel group does not see an import of a hotel outside it.
    const kyoto = { token: brand.token, headers: acting('admin', 'sakura-kyoto', 'hotel') };
    const kyotoImport = await reviewed(kyoto, '姓,名,電話番号,住所\r\n森,椿,08099990003,東京\r\n');
    expect((await s.call('GET', `/v1/customer-imports/${kyotoImport.id}`, as(group))).status).toBe(404);
    expect((await s.call('GET', `/v1/customer-imports/${kyotoImport.id}`, as(brand))).status).toBe(200);

    // A hotel import's result, completed, is the brand's to read: counts and rows.
    await run(staff, review.id);
    const result = await s.call('GET', `/v1/customer-imports/${review.id}`, as(brand));
    expect(result.body.data).toMatchObject({ status: 'completed', result: { inserted: 1 }, readOnly: true });
    // A hotel of another brand cannot be named as the target either.
    const outside = await upload(brand, '姓,名,電話番号,住所\r\n', `?hotelId=${ids['harbor-kobe']}`);
    expect(outside.body.error.code).toBe('import_hotel_required');
    expect((await s.call('GET', `/v1/customer-imports/${review.id}`, as(staff))).status).toBe(200);
  });
});

describe('enumerated columns', () => {
  it('reports a gender or email status outside the accepted values as a row error, and applies no part of the row', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const file =
      '姓,名,電話番号,性別,住所,メール配信\r\n' +
      '森,一,08050500001,その他,東京,\r\n' + // 2 failed: not an accepted gender
      '森,二,08050500002,other,東京,\r\n' + // 3 failed
      '森,三,08050500003,不明,東京,\r\n' + // 4 failed
      '森,四,08050500004,男性,東京,たぶん\r\n' + // 5 failed: not an accepted email status
      '森,五,08050500005,Female,東京,Unsubscribed\r\n' + // 6 English labels
      '森,六,08050500006,回答しない,東京,配信中\r\n' + // 7 Japanese labels
      '森,七,08050500007,prefer_not_to_say,東京,active\r\n' + // 8 codes
      '森,八,08050500008,,東京,\r\n'; // 9 blank: nothing said
    const review = await reviewed(staff, file);
    expect(review.counts).toMatchObject({ total: 8, new: 4, failed: 4 });
    const failed = await s.call('GET', `/v1/customer-imports/${review.id}/rows?outcome=failed`, as(staff));
    expect(
      failed.body.data.items.map((r: { row: number; problems: { field: string; code: string }[] }) => [
        r.row,
        r.problems.map((p) => `${p.field}:${p.code}`),
      ]),
    ).toEqual([
      [2, ['gender:import_invalid_gender']],
      [3, ['gender:import_invalid_gender']],
      [4, ['gender:import_invalid_gender']],
      [5, ['emailStatus:import_invalid_email_status']],
    ]);
    // The reason names the column and the values it accepts, in the language asked for.
    const ja = await fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv?lang=ja`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    const jaLines = (await ja.text()).trimEnd().split('\r\n');
    expect(jaLines[1]).toBe(
      '2,性別: 男性、女性、回答しないのいずれかを入力してください。,森,一,08050500001,その他,東京,',
    );
    expect(jaLines[4]).toBe(
      '5,メール配信ステータス: 有効または配信停止を入力してください。,森,四,08050500004,男性,東京,たぶん',
    );
    const en = await fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv?lang=en`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect((await en.text()).split('\r\n')[2]).toBe(
      '3,"Gender: Use male, female or prefer not to say.",森,二,08050500002,other,東京,',
    );

    const done = await run(staff, review.id);
    expect(done.result).toMatchObject({ inserted: 4, updated: 0 });
    const written = await s.sql(
      `select phone, gender, email_status from customers where phone like '0805050000%' order by phone`,
    );
    expect(written).toEqual([
      { phone: '08050500005', gender: 'female', email_status: 'unsubscribed' },
      { phone: '08050500006', gender: 'prefer_not_to_say', email_status: 'active' },
      { phone: '08050500007', gender: 'prefer_not_to_say', email_status: 'active' },
      { phone: '08050500008', gender: null, email_status: 'active' },
    ]);
  });
});

describe('country column', () => {
  it('takes ISO 3166-1 codes only: any other two letters are a row error, in both languages, never a guess', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const file =
      '姓,名,電話番号,国,住所\r\n' +
      '森,一,08060600001,ZZ,東京\r\n' + // 2 failed: two letters, no country
      '森,二,08060600002,UK,東京\r\n' + // 3 failed: reserved for GB
      '森,三,08060600003,ｊｐ,東京\r\n' + // 4 Japan, full-width and lower case
      '森,四,08060600004,GB,東京\r\n'; // 5
    const review = await reviewed(staff, file);
    expect(review.counts).toMatchObject({ total: 4, new: 2, failed: 2 });
    const failed = await s.call('GET', `/v1/customer-imports/${review.id}/rows?outcome=failed`, as(staff));
    expect(
      failed.body.data.items.map((r: { row: number; problems: { field: string; code: string; message: string }[] }) => [
        r.row,
        r.problems.map((p) => `${p.field}:${p.code}:${p.message}`),
      ]),
    ).toEqual([
      [
        2,
        ['country:import_invalid_country:Not a country code. Use an ISO 3166-1 two-letter code such as JP, US or GB.'],
      ],
      [
        3,
        ['country:import_invalid_country:Not a country code. Use an ISO 3166-1 two-letter code such as JP, US or GB.'],
      ],
    ]);
    const ja = await fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv?lang=ja`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect((await ja.text()).trimEnd().split('\r\n')[1]).toBe(
      '2,国: 存在しない国コードです。JP、US、GBのようなISO 3166-1の2文字のコードを入力してください。,森,一,08060600001,ZZ,東京',
    );
    await run(staff, review.id);
    expect(await s.sql(`select phone, country from customers where phone like '0806060000%' order by phone`)).toEqual([
      { phone: '08060600003', country: 'JP' },
      { phone: '08060600004', country: 'GB' },
    ]);
  });
});

describe('failures download', () => {
  it('gives back each failed row exactly as the file had it, with its reasons, ready to correct and import again', async () => {
    const staff = await s.login(DEMO.hotelStaff);
    const header = '氏名,電話番号,メールアドレス,性別,生年月日,国,住所,メール配信,メモ';
    const rows = [
      // 2 failed (the email); every other cell is one the import converts or does not read.
      '山本 一郎,"=""0312345678""",ichiro@@example.jp,男性,1980/1/2,jp,東京都,配信中,VIP',
      // 3 failed (no such day): full-width digits, blanks around a name, a quoted line break.
      '"  森 花子 ",０９０-７７７７-０００３,hanako@example.jp,女性,1990年2月30日,ＪＰ,"大阪府\r\n北区",配信停止,',
      // 4 applied: not in the download.
      '川口 三郎,09077770004,,おとこ,1975-07-07,JP,京都府,有効,',
    ];
    const review = await reviewed(staff, `${header}\r\n${rows.join('\r\n')}\r\n`);
    expect(review.counts).toMatchObject({ total: 3, failed: 2, new: 1 });

    const download = await fetch(`${s.url}/v1/customer-imports/${review.id}/failures.csv?lang=ja`, {
      headers: { authorization: `Bearer ${staff.token}` },
    });
    const text = (await download.text()).replace(/^\uFEFF/, '');
    const [uploaded, downloaded] = [records(`${header}\r\n${rows.join('\r\n')}`), records(text)];
    expect(downloaded[0]).toEqual(['行', '理由', ...uploaded[0]!]);
    expect(downloaded.map((r) => r.slice(0, 2))).toEqual([
      ['行', '理由'],
      ['2', expect.stringMatching(/^メールアドレス: /)],
      ['3', expect.stringMatching(/^生年月日: /)],
    ]);
    // Every cell as written: 男性 not male, 1980/1/2, jp, the ="…" phone, the blanks, the memo.
    expect(downloaded[1]!.slice(2)).toEqual(uploaded[1]);
    expect(downloaded[2]!.slice(2)).toEqual(uploaded[2]);
    expect(uploaded[1]).toEqual([
      '山本 一郎',
      '="0312345678"',
      'ichiro@@example.jp',
      '男性',
      '1980/1/2',
      'jp',
      '東京都',
      '配信中',
      'VIP',
    ]);
    expect(text).not.toMatch(/male|1980-01-02|09077770003|active/);

    // Imported again as downloaded, the same rows fail for the same reasons (the added columns are ignored).
    const again = await reviewed(staff, text);
    const failed = await s.call('GET', `/v1/customer-imports/${again.id}/rows?outcome=failed`, as(staff));
    expect(
      failed.body.data.items.map((r: { row: number; problems: { field: string; code: string }[] }) => [
        r.row,
        r.problems.map((p) => `${p.field}:${p.code}`),
      ]),
    ).toEqual([
      [2, ['email:email_invalid']],
      [3, ['dateOfBirth:invalid_date']],
    ]);
  });
});
