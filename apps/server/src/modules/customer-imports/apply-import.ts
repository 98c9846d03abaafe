import { randomBytes } from 'node:crypto';
import type { TImportField, TRole } from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, withTenant, type TTx } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { TLapseOutcome } from '../../jobs/leases.ts';
import type { TRuntime } from '../../runtime.ts';
import { joinImportSegment } from '../segments/queries.ts';
import { mappedFields } from './columns.ts';
import {
  FIELD_COLUMNS,
  changedCondition,
  deleteImportRows,
  loadImport,
  markResumed,
  moveImport,
  setProgress,
  type TImportRecord,
} from './queries.ts';

export interface TApplyImportJob {
  importId: string;
  /** Who confirmed it, as whom: for the audit log. */
  userId: string;
  role: TRole;
}

/** Rows per statement: progress is reported between them, inside the one transaction. */
const BATCH_ROWS = 50_000;

class ImportExpired extends Error {}

/**
 * The first 24 hex digits of the ids of the customers an import adds; the row number makes the
 * last 8. Laid out as a version 7 UUID (the time in milliseconds, the version, random bits, the
 * variant, random bits, then the row number as a counter), so the ids rise with the rows: each
 * index of customers that ends in the id (the primary key, newest first, by name) then grows at
 * its end rather than at a random place, which made a million-row import a quarter faster
 * (docs/benchmarks.md). A run that is tried again takes a new prefix.
 */
export function importIdPrefix(now = Date.now()): string {
  const random = randomBytes(6).toString('hex');
  const variant = (8 + (parseInt(random[3] as string, 16) & 3)).toString(16);
  return `${now.toString(16).padStart(12, '0')}7${random.slice(0, 3)}${variant}${random.slice(4, 11)}`;
}

/**
 * The upsert of one range of import rows: new phone numbers become customers, existing ones are
 * updated in the fields the file has, and only when something differs (so a file imported twice
 * changes nothing the second time). Returns how many rows were read, inserted and updated.
 */
function upsertRange(record: TImportRecord, fields: TImportField[], idPrefix: string, from: number, to: number): SQL {
  const notGiven = record.emailReception === 'not_given';
  const columns = fields.filter((f) => f !== 'emailStatus').map((f) => FIELD_COLUMNS[f]);
  const values = columns.map((c) => (c === 'date_of_birth' ? `s.${c}::date` : `s.${c}`));
  const fileUnsubscribes = `s.email_status = 'unsubscribed'`;
  const unsubscribed = notGiven ? `(${fileUnsubscribes} or true)` : fileUnsubscribes;
  const updates = columns.filter((c) => c !== 'phone').map((c) => `${c} = excluded.${c}`);
  if (fields.includes('emailStatus')) {
    updates.push(
      `email_status = case when excluded.unsubscribe_reason = 'import' then 'unsubscribed' else customers.email_status end`,
      `email_status_changed_at = case when excluded.unsubscribe_reason = 'import' and customers.email_status = 'active' then now() else customers.email_status_changed_at end`,
      `unsubscribe_reason = case when excluded.unsubscribe_reason = 'import' and customers.email_status = 'active' then 'import' else customers.unsubscribe_reason end`,
    );
  }
  updates.push('updated_at = now()');
  const changed = changedCondition(fields, 'excluded', 'customers', sql`excluded.unsubscribe_reason = 'import'`, true);
  return sql`
    with source as (
      select * from customer_import_rows s
      where s.import_id = ${record.id} and s.brand_id = ${record.brandId} and s.status = 'ok'
        and s.row_number >= ${from} and s.row_number < ${to}
    ), written as (
      insert into customers (id, brand_id, ${sql.raw(columns.join(', '))}, email_status, email_status_changed_at, unsubscribe_reason, consent_source, consent_at)
      select (${idPrefix}::text || lpad(to_hex(s.row_number), 8, '0'))::uuid, s.brand_id, ${sql.raw(values.join(', '))},
        case when ${sql.raw(unsubscribed)} then 'unsubscribed' else 'active' end,
        case when ${sql.raw(unsubscribed)} then now() end,
        case when ${sql.raw(fileUnsubscribes)} then 'import' when ${notGiven} then 'no_consent' end,
        'import', now()
      from source s
      on conflict (brand_id, phone) do update set ${sql.raw(updates.join(', '))}
      where ${changed}
      returning (xmax = 0) as inserted
    )
    select (select count(*)::int from source) as rows,
      count(*) filter (where inserted)::int as inserted,
      count(*) filter (where not inserted)::int as updated
    from written`;
}

function allocateRange(record: TImportRecord, hotelId: string, from: number, to: number): SQL {
  return sql`
    with added as (
      insert into customer_allocations (customer_id, hotel_id, brand_id, source)
      select c.id, ${hotelId}, c.brand_id, 'import'
      from customer_import_rows s join customers c on c.brand_id = s.brand_id and c.phone = s.phone
      where s.import_id = ${record.id} and s.brand_id = ${record.brandId} and s.status = 'ok'
        and s.row_number >= ${from} and s.row_number < ${to}
      on conflict (customer_id, hotel_id) do nothing
      returning 1
    )
    select count(*)::int as n from added`;
}

/**
 * Runs a confirmed import: every row in ONE transaction, under the brand's row-level security,
 * so a failure anywhere leaves no customer half-imported. Imports of one brand run one at a time.
 */
export async function applyImport(rt: TRuntime, job: TApplyImportJob): Promise<void> {
  const db = rt.database.db;
  const record = await loadImport(db, job.importId);
  // 'importing' again means a worker died half-way: its transaction was rolled back, so run it again.
  if (!record || (record.status !== 'queued' && record.status !== 'importing')) return;
  await moveImport(
    db,
    record.id,
    ['queued', 'importing'],
    'importing',
    sql`, progress_done = 0, progress_total = ${record.counts?.total ?? null}, error_code = null`,
  );
  const fields = mappedFields(record.columns);
  // PGlite has one session, busy with this transaction: progress shows when it ends.
  const reportProgress = rt.database.kind === 'postgres';
  try {
    const result = await withTenant(db, { scopeAll: false, brandId: record.brandId }, async (tx: TTx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`customer-import:${record.brandId}`}, 0))`);
      const [staged] = rowsOf<{ n: number; last: number | null }>(
        await tx.execute(
          sql`select count(*)::int as n, max(row_number) as last from customer_import_rows where import_id = ${record.id} and brand_id = ${record.brandId}`,
        ),
      );
      // The import rows table is unlogged: a database crash since the review empties it.
      if (!staged || staged.n !== record.counts?.total) throw new ImportExpired();
      const totals = { inserted: 0, updated: 0, unchanged: 0, allocated: 0 };
      const idPrefix = importIdPrefix();
      let done = 0;
      for (let from = 0; from <= (staged.last ?? 0); from += BATCH_ROWS) {
        const to = from + BATCH_ROWS;
        const [r] = rowsOf<{ rows: number; inserted: number; updated: number }>(
          await tx.execute(upsertRange(record, fields, idPrefix, from, to)),
        );
        if (r) {
          totals.inserted += r.inserted;
          totals.updated += r.updated;
          totals.unchanged += r.rows - r.inserted - r.updated;
        }
        if (record.hotelId) {
          const [a] = rowsOf<{ n: number }>(await tx.execute(allocateRange(record, record.hotelId, from, to)));
          totals.allocated += a?.n ?? 0;
        }
        done = Math.min(staged.n, done + BATCH_ROWS);
        if (reportProgress) await setProgress(db, record.id, done, staged.n);
      }
      // Step three's segment: every customer of the file's written rows joins it (if it still exists).
      const segmentAdded = record.segmentId
        ? await joinImportSegment(tx, record.id, record.brandId, record.segmentId)
        : null;
      await moveImport(
        tx,
        record.id,
        ['importing'],
        'completed',
        sql`, result = ${JSON.stringify(totals)}::jsonb, segment_added = ${segmentAdded}, progress_done = ${staged.n}, progress_total = ${staged.n}, finished_at = now()`,
      );
      // Counts, the consent choice, the file's name and the hotel (named when the log is read),
      // never personal data.
      await tx.insert(auditLog).values({
        actorUserId: job.userId,
        actingHostId: record.hostId,
        actingRole: job.role,
        brandId: record.brandId,
        action: 'import',
        targetType: 'customer_import',
        targetId: record.id,
        changes: {
          fileName: record.fileName,
          ...totals,
          failed: record.counts?.failed ?? 0,
          duplicates: record.counts?.duplicates ?? 0,
          emailReception: record.emailReception,
          hotelId: record.hotelId,
          segmentId: record.segmentId,
          segmentAdded,
        },
      });
      return totals;
    });
    rt.log.info({ importId: record.id, ...result }, 'customer import completed');
    // Failed and repeated rows stay for the failures download; the written ones are not needed.
    await deleteImportRows(db, record.id, record.brandId, true);
  } catch (error) {
    const code = error instanceof ImportExpired ? 'import_expired' : 'import_failed';
    // The database's error code only: its message may quote a row's values.
    rt.log.warn(
      {
        importId: record.id,
        code,
        dbCode:
          (error as { cause?: { code?: string }; code?: string }).cause?.code ?? (error as { code?: string }).code,
      },
      'customer import failed',
    );
    await moveImport(db, record.id, ['importing'], 'failed', sql`, error_code = ${code}, finished_at = now()`);
  }
}

/**
 * The worker running the import stopped (jobs/leases.ts). Its transaction rolled back, so nothing
 * was written: the import runs again from the start, or, its retries used up, it failed and says so.
 */
export async function applyImportLapsed(rt: TRuntime, job: TApplyImportJob, outcome: TLapseOutcome): Promise<void> {
  const db = rt.database.db;
  if (outcome === 'requeued') await markResumed(db, job.importId);
  else
    await moveImport(
      db,
      job.importId,
      ['queued', 'importing'],
      'failed',
      sql`, error_code = 'import_interrupted', finished_at = now()`,
    );
}
