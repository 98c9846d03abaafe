import {
  ACCOUNT_EMAIL_PATTERN,
  MEMBER_FILE_MAX_ROWS,
  MEMBER_FILE_REPORT_ROWS,
  normalizePhone,
  type TMemberFileReport,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows } from '../../db/client.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { EncodingSniffer, textDecoder, type TEncoding } from '../customer-imports/encoding.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { addCustomersWhere } from './segment-operations.ts';

/**
 * A member file: one phone number or email address per row, in the first column (any other
 * columns are ignored, a header row is recognised). UTF-8 or CP932, as the customer import reads.
 */

export interface TMemberFileRow {
  row: number;
  value: string;
  kind: 'phone' | 'email' | 'invalid' | 'empty' | 'duplicate';
  /** The key the customer is found by: digits of a phone, or the lower-cased address. */
  key: string;
}

const HEADER = /^(phone|phone ?number|tel|telephone|email|e-mail|mail|電話番号|電話|メール|メールアドレス|携帯)$/i;

/** The first field of a CSV line: quoted ("a,b" and "" inside) or up to the first comma or tab. */
function firstField(line: string): string {
  const s = line.trim();
  if (s.startsWith('"')) {
    let out = '';
    for (let i = 1; i < s.length; i++) {
      if (s[i] === '"') {
        if (s[i + 1] === '"') {
          out += '"';
          i++;
        } else break;
      } else out += s[i];
    }
    return out.trim();
  }
  return (s.split(/[,\t]/)[0] ?? '').trim();
}

export function readMemberFile(bytes: Buffer): { encoding: TEncoding; rows: TMemberFileRow[] } {
  const sniffer = new EncodingSniffer();
  sniffer.write(bytes);
  const encoding = sniffer.result();
  if (!encoding)
    throw new AppError(400, 'import_unsupported_encoding', { file: fieldError('import_unsupported_encoding') });
  const decoder = textDecoder(encoding);
  const text = decoder.write(bytes) + decoder.end();
  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines.length > MEMBER_FILE_MAX_ROWS + 1)
    throw new AppError(413, 'member_file_too_many_rows', { file: fieldError('member_file_too_many_rows') });
  const seen = new Set<string>();
  const rows: TMemberFileRow[] = [];
  lines.forEach((line, i) => {
    const value = firstField(line).normalize('NFKC').slice(0, 300);
    if (i === 0 && HEADER.test(value)) return;
    const row = i + 1;
    if (!value) return rows.push({ row, value: '', kind: 'empty', key: '' });
    let kind: TMemberFileRow['kind'];
    let key: string;
    if (value.includes('@')) {
      key = value.toLowerCase();
      kind = ACCOUNT_EMAIL_PATTERN.test(key) && key.length <= 254 ? 'email' : 'invalid';
    } else {
      key = normalizePhone(value) ?? '';
      kind = key ? 'phone' : 'invalid';
    }
    if (kind !== 'invalid') {
      const dedupe = `${kind}:${key}`;
      if (seen.has(dedupe)) kind = 'duplicate';
      seen.add(dedupe);
    }
    rows.push({ row, value, kind, key });
  });
  if (!rows.some((r) => r.kind === 'phone' || r.kind === 'email'))
    throw new AppError(400, 'member_file_no_rows', { file: fieldError('member_file_no_rows') });
  return { encoding, rows };
}

/**
 * Adds the customers the file names to a static segment (those in the segment's scope and the
 * acting reach), and reports which rows matched nobody and why.
 */
export async function importMemberFile(
  rt: TRuntime,
  ctx: TActingContext,
  segmentId: string,
  bytes: Buffer,
): Promise<TMemberFileReport> {
  const { encoding, rows } = readMemberFile(bytes);
  const phones = rows.filter((r) => r.kind === 'phone').map((r) => r.key);
  const emails = rows.filter((r) => r.kind === 'email').map((r) => r.key);
  const named = sql`(customers.phone = any(${sql.param(phones)}::text[]) or customers.email_key = any(${sql.param(emails)}::text[]))`;
  return inTenant(rt, ctx, async (tx) => {
    const result = await addCustomersWhere(tx, ctx, segmentId, named);
    // Which keys found someone: for the report only (the members were chosen by the statement above).
    const found = await selectRows<{ phone: string; email_key: string | null }>(
      tx,
      sql`select customers.phone, customers.email_key from customers join segment_members m on m.customer_id = customers.id
        where m.segment_id = ${segmentId}::uuid and ${named}`,
    );
    const foundKeys = new Set(found.flatMap((f) => [`phone:${f.phone}`, `email:${f.email_key ?? ''}`]));
    const unmatched: TMemberFileReport['unmatchedRows'] = [];
    let matched = 0;
    for (const r of rows) {
      if ((r.kind === 'phone' || r.kind === 'email') && foundKeys.has(`${r.kind}:${r.key}`)) {
        matched++;
        continue;
      }
      const reason = r.kind === 'phone' || r.kind === 'email' ? 'not_found' : r.kind;
      if (unmatched.length < MEMBER_FILE_REPORT_ROWS)
        unmatched.push({ row: r.row, value: r.value.slice(0, 100), reason });
    }
    return {
      rows: rows.length,
      matched,
      unmatched: rows.length - matched,
      added: result.added,
      alreadyIn: result.alreadyIn,
      encoding,
      unmatchedRows: unmatched,
    };
  });
}
