import type { THostLevel, TImportField } from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type TTx } from '../../db/client.ts';
import type { TColumn } from './columns.ts';

/** The one place that touches customer_imports and customer_import_rows. */

export interface TImportRecord {
  id: string;
  brandId: string;
  hostId: string;
  hotelId: string | null;
  hotelName: string | null;
  createdBy: string;
  status: 'reviewing' | 'reviewed' | 'rejected' | 'queued' | 'importing' | 'completed' | 'failed' | 'cancelled';
  fileName: string;
  fileSize: number;
  encoding: 'utf-8' | 'cp932';
  columns: TColumn[];
  progressDone: number;
  progressTotal: number | null;
  counts: TReviewCounts | null;
  result: { inserted: number; updated: number; unchanged: number; allocated: number } | null;
  emailReception: 'booking' | 'web_form' | 'in_person' | 'not_given' | null;
  /** Step three's static segment, and how many customers joined it. */
  segmentId: string | null;
  segmentAdded: number | null;
  errorCode: string | null;
  errorRow: number | null;
  createdAt: Date;
  finishedAt: Date | null;
  resumedAt: Date | null;
}

const selectImport = sql`select i.id, i.brand_id as "brandId", i.host_id as "hostId", i.hotel_id as "hotelId", h.name as "hotelName",
  i.created_by as "createdBy", i.status, i.file_name as "fileName", i.file_size as "fileSize", i.encoding, i.columns,
  i.progress_done as "progressDone", i.progress_total as "progressTotal", i.counts, i.result, i.email_reception as "emailReception", i.segment_id as "segmentId", i.segment_added as "segmentAdded",
  i.error_code as "errorCode", i.error_row as "errorRow", i.created_at as "createdAt", i.finished_at as "finishedAt",
  i.resumed_at as "resumedAt"
  from customer_imports i left join hosts h on h.id = i.hotel_id`;

function toRecord(row: Record<string, unknown>): TImportRecord {
  const at = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  return {
    ...(row as unknown as TImportRecord),
    createdAt: at(row.createdAt) as Date,
    finishedAt: at(row.finishedAt),
    resumedAt: at(row.resumedAt),
  };
}

/** An import the acting host made, to run or cancel it (another host's, even one below it, is not found). */
export async function findImport(tx: TTx, id: string, hostId: string): Promise<TImportRecord | null> {
  const [row] = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`${selectImport} where i.id = ${id} and i.host_id = ${hostId}`),
  );
  return row ? toRecord(row) : null;
}

/**
 * An import the acting context may see: its own host's, or one made by a host below it (a brand
 * or hotel group reads its hotels' imports). Another brand's, a sibling hotel's, or the brand's
 * own import seen from a hotel is not found. `own` says whether the acting host made it: only
 * that host runs or cancels it.
 */
export async function findVisibleImport(
  tx: TTx,
  id: string,
  host: { id: string; level: THostLevel },
): Promise<(TImportRecord & { own: boolean }) | null> {
  const below =
    host.level === 'grand_user'
      ? sql`true`
      : host.level === 'brand'
        ? sql`i.brand_id = ${host.id}`
        : host.level === 'hotel_group'
          ? sql`exists (select 1 from hosts ih where ih.id = i.host_id and ih.hotel_group_id = ${host.id})`
          : sql`false`;
  const [row] = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`${selectImport} where i.id = ${id} and (i.host_id = ${host.id} or ${below})`),
  );
  return row ? { ...toRecord(row), own: row.hostId === host.id } : null;
}

/** An import by id alone, for the jobs, which run for the brand named in the record. */
export async function loadImport(tx: TTx, id: string): Promise<TImportRecord | null> {
  const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`${selectImport} where i.id = ${id}`));
  return row ? toRecord(row) : null;
}

export async function insertImport(
  tx: TTx,
  row: {
    id: string;
    brandId: string;
    hostId: string;
    hotelId: string | null;
    createdBy: string;
    fileName: string;
    fileSize: number;
    encoding: string;
    columns: TColumn[];
  },
): Promise<void> {
  await tx.execute(sql`insert into customer_imports (id, brand_id, host_id, hotel_id, created_by, status, file_name, file_size, encoding, columns)
    values (${row.id}, ${row.brandId}, ${row.hostId}, ${row.hotelId}, ${row.createdBy}, 'reviewing', ${row.fileName}, ${row.fileSize}, ${row.encoding}, ${JSON.stringify(row.columns)}::jsonb)`);
}

/** Moves an import from one of `from` to `to`; false when it was in none of them (a race lost). */
export async function moveImport(
  tx: TTx,
  id: string,
  from: TImportRecord['status'][],
  to: TImportRecord['status'],
  set: SQL = sql``,
): Promise<boolean> {
  const result = await tx.execute(
    sql`update customer_imports set status = ${to} ${set} where id = ${id} and status in (${sql.join(
      from.map((s) => sql`${s}`),
      sql`, `,
    )}) returning id`,
  );
  return rowsOf(result).length > 0;
}

/** The worker running it stopped and the job was put back (jobs/leases.ts): the console says it resumed. */
export async function markResumed(tx: TTx, id: string): Promise<void> {
  await tx.execute(
    sql`update customer_imports set resumed_at = now() where id = ${id} and status in ('reviewing', 'queued', 'importing')`,
  );
}

export async function setProgress(tx: TTx, id: string, done: number, total: number | null): Promise<void> {
  await tx.execute(
    sql`update customer_imports set progress_done = ${done}, progress_total = ${total} where id = ${id}`,
  );
}

export async function deleteImportRows(tx: TTx, importId: string, brandId: string, onlyOk = false): Promise<void> {
  await tx.execute(
    sql`delete from customer_import_rows where import_id = ${importId} and brand_id = ${brandId} ${onlyOk ? sql`and status = 'ok'` : sql``}`,
  );
}

/** Each field's column, which is also its key among the CSV header texts (customer_csv). */
export const FIELD_COLUMNS = {
  lastName: 'last_name',
  firstName: 'first_name',
  phone: 'phone',
  email: 'email',
  idNumber: 'id_number',
  gender: 'gender',
  dateOfBirth: 'date_of_birth',
  country: 'country',
  prefecture: 'prefecture',
  city: 'city',
  address: 'address',
  emailStatus: 'email_status',
} as const satisfies Record<TImportField, string>;

/**
 * True when an import row (`s`, a customer_import_rows row or `excluded`) would change the
 * existing customer `c` in the fields the file has. Email status only ever changes towards
 * unsubscribed: an import never re-subscribes anyone (consent is brand-wide, DESIGN section 4).
 */
export function changedCondition(
  fields: TImportField[],
  s: string,
  c: string,
  unsubscribeFromFile: SQL,
  typed = false,
): SQL {
  const parts: SQL[] = [];
  for (const f of fields) {
    if (f === 'phone' || f === 'emailStatus') continue;
    const col = FIELD_COLUMNS[f];
    // Import rows hold the date as text; `excluded` holds it as a date already.
    if (f === 'dateOfBirth' && !typed)
      parts.push(sql.raw(`${s}.${col} is distinct from to_char(${c}.${col}, 'YYYY-MM-DD')`));
    else parts.push(sql.raw(`${s}.${col} is distinct from ${c}.${col}`));
  }
  if (fields.includes('emailStatus'))
    parts.push(sql`coalesce(${unsubscribeFromFile} and ${sql.raw(c)}.email_status = 'active', false)`);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

export interface TReviewCounts {
  total: number;
  failed: number;
  duplicates: number;
  new: number;
  updated: number;
  unchanged: number;
}

/**
 * What the review found among the import rows numbered from `from` up to (not including) `to`:
 * counts by outcome, comparing with the brand's customers now (one index probe per row).
 */
export async function reviewCounts(
  tx: TTx,
  importId: string,
  brandId: string,
  fields: TImportField[],
  from: number,
  to: number,
): Promise<TReviewCounts> {
  const changed = changedCondition(fields, 's', 'c', sql`s.email_status = 'unsubscribed'`);
  const [row] = rowsOf<TReviewCounts>(
    await tx.execute(sql`
      select count(*)::int as total,
        count(*) filter (where s.status = 'failed')::int as failed,
        count(*) filter (where s.status = 'duplicate')::int as duplicates,
        count(*) filter (where s.status = 'ok' and c.id is null)::int as new,
        count(*) filter (where c.id is not null and ${changed})::int as updated,
        count(*) filter (where c.id is not null and not ${changed})::int as unchanged
      from customer_import_rows s
      left join customers c on s.status = 'ok' and c.brand_id = s.brand_id and c.phone = s.phone
      where s.import_id = ${importId} and s.brand_id = ${brandId} and s.row_number >= ${from} and s.row_number < ${to}`),
  );
  return row as TReviewCounts;
}

export interface TImportRowRecord {
  rowNumber: number;
  outcome: 'failed' | 'duplicate' | 'unchanged';
  problems: string | null;
  duplicateOf: number | null;
  lastName: string | null;
  firstName: string | null;
  phone: string | null;
}

export async function listFailedRows(
  tx: TTx,
  importId: string,
  after: number,
  limit: number,
): Promise<TImportRowRecord[]> {
  return rowsOf<TImportRowRecord>(
    await tx.execute(sql`select row_number as "rowNumber", 'failed' as outcome, problems, duplicate_of as "duplicateOf",
        last_name as "lastName", first_name as "firstName", phone
      from customer_import_rows where import_id = ${importId} and status = 'failed' and row_number > ${after}
      order by row_number limit ${limit}`),
  );
}

/** Rows that change nothing: repeats of an earlier row, and rows equal to an existing customer. */
export async function listIdenticalRows(
  tx: TTx,
  importId: string,
  fields: TImportField[],
  after: number,
  limit: number,
): Promise<TImportRowRecord[]> {
  const changed = changedCondition(fields, 's', 'c', sql`s.email_status = 'unsubscribed'`);
  return rowsOf<TImportRowRecord>(
    await tx.execute(sql`select s.row_number as "rowNumber", case when s.status = 'duplicate' then 'duplicate' else 'unchanged' end as outcome,
        null as problems, s.duplicate_of as "duplicateOf", s.last_name as "lastName", s.first_name as "firstName", s.phone
      from customer_import_rows s
      left join customers c on s.status = 'ok' and c.brand_id = s.brand_id and c.phone = s.phone
      where s.import_id = ${importId} and s.row_number > ${after}
        and (s.status = 'duplicate' or (c.id is not null and not ${changed}))
      order by s.row_number limit ${limit}`),
  );
}

export async function allFailedRows(tx: TTx, importId: string, after: number, limit: number) {
  return rowsOf<Record<string, string | number | null> & { row_number: number; problems: string | null }>(
    await tx.execute(sql`select * from customer_import_rows where import_id = ${importId} and status = 'failed' and row_number > ${after}
      order by row_number limit ${limit}`),
  );
}
