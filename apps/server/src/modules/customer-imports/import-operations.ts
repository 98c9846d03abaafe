import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  ERROR_MESSAGES,
  type TCustomerImport,
  type TEmailReception,
  type TErrorCode,
  type TImportField,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import { QUEUES } from '../../jobs/queue.ts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { UTF8_BOM, csvCell, csvRow } from '../customers/csv.ts';
import { mappedFields, type TColumn } from './columns.ts';
import {
  FIELD_COLUMNS,
  allFailedRows,
  deleteImportRows,
  findImport,
  findVisibleImport,
  listFailedRows,
  listIdenticalRows,
  moveImport,
  type TImportRecord,
  type TImportRowRecord,
} from './queries.ts';
import { importFilePath } from './review-import.ts';
import { mustBeImportSegment } from '../segments/segment-operations.ts';
import type { TApplyImportJob } from './apply-import.ts';

const message = (code: string) => ERROR_MESSAGES[code as TErrorCode] ?? ERROR_MESSAGES.general;

/** `readOnly`: the acting host oversees the host that made the import, and only reads it. */
export function toImport(r: TImportRecord, readOnly = false): TCustomerImport {
  return {
    id: r.id,
    status: r.status,
    fileName: r.fileName,
    fileSize: r.fileSize,
    encoding: r.encoding,
    hotelId: r.hotelId,
    hotelName: r.hotelName,
    columns: r.columns,
    progress: { done: r.progressDone, total: r.progressTotal },
    counts: r.counts,
    result: r.result,
    emailReception: r.emailReception,
    segmentId: r.segmentId,
    segmentAdded: r.segmentAdded,
    error: r.errorCode ? { code: r.errorCode, message: message(r.errorCode), row: r.errorRow } : null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    resumedAt: r.resumedAt?.toISOString() ?? null,
    readOnly,
  };
}

/** An import to read: the acting host's own, or one of a host below it (a brand admin opening a hotel's import). */
async function mustSee(rt: TRuntime, ctx: TActingContext, id: string) {
  const record = await inTenant(rt, ctx, (tx) => findVisibleImport(tx, id, ctx.host));
  if (!record) throw new AppError(404, 'not_found');
  return record;
}

export async function getImport(rt: TRuntime, ctx: TActingContext, id: string): Promise<TCustomerImport> {
  const record = await mustSee(rt, ctx, id);
  return toImport(record, !record.own);
}

/** "phone:use_numbers_only,address:field_required_fill" as a list with the catalogue's texts. */
export function problemsOf(text: string | null): { field: string; code: string; message: string }[] {
  if (!text) return [];
  return text.split(',').map((pair) => {
    const [field = '', code = 'general'] = pair.split(':');
    return { field, code, message: message(code) };
  });
}

const REVIEWED: TImportRecord['status'][] = ['reviewed', 'queued', 'importing', 'completed', 'failed'];

export async function listImportRows(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  query: { outcome: 'failed' | 'identical'; after: number; limit: number },
) {
  return inTenant(rt, ctx, async (tx) => {
    const record = await findVisibleImport(tx, id, ctx.host);
    if (!record) throw new AppError(404, 'not_found');
    if (!REVIEWED.includes(record.status)) return { items: [], nextAfter: null };
    const rows: TImportRowRecord[] =
      query.outcome === 'failed'
        ? await listFailedRows(tx, id, query.after, query.limit + 1)
        : await listIdenticalRows(tx, id, mappedFields(record.columns), query.after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    return {
      items: page.map((r) => ({
        row: r.rowNumber,
        outcome: r.outcome,
        problems: problemsOf(r.problems),
        duplicateOf: r.duplicateOf,
        lastName: r.lastName,
        firstName: r.firstName,
        phone: r.phone,
      })),
      nextAfter: rows.length > query.limit ? (page[page.length - 1]?.rowNumber ?? null) : null,
    };
  });
}

/**
 * Step three: the email reception is chosen and the import is queued. Allowed once reviewed, and
 * again after a failure (which changed nothing).
 */
export async function confirmImport(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  emailReception: TEmailReception,
  segmentId?: string,
): Promise<TCustomerImport> {
  const record = await inTenant(rt, ctx, async (tx) => {
    const found = await findImport(tx, id, ctx.host.id);
    if (!found) throw new AppError(404, 'not_found');
    // The segment choice: a static segment of this host, checked now and joined when the import runs.
    if (segmentId) await mustBeImportSegment(tx, ctx, segmentId);
    const moved = await moveImport(
      tx,
      id,
      ['reviewed', 'failed'],
      'queued',
      sql`, email_reception = ${emailReception}, segment_id = ${segmentId ?? null}, segment_added = null, error_code = null, error_row = null, finished_at = null, resumed_at = null, progress_done = 0`,
    );
    if (!moved) throw new AppError(409, 'import_not_ready');
    return findImport(tx, id, ctx.host.id);
  });
  const job: TApplyImportJob = { importId: id, userId: ctx.user.id, role: ctx.role };
  await rt.queue.send(QUEUES.applyImport, job);
  return toImport(record as TImportRecord);
}

/** Drops an import that has not run: its rows and file go, no customer was touched. */
export async function cancelImport(rt: TRuntime, ctx: TActingContext, id: string): Promise<TCustomerImport> {
  const record = await inTenant(rt, ctx, async (tx) => {
    const found = await findImport(tx, id, ctx.host.id);
    if (!found) throw new AppError(404, 'not_found');
    const moved = await moveImport(
      tx,
      id,
      ['reviewing', 'reviewed', 'rejected', 'failed'],
      'cancelled',
      sql`, finished_at = now()`,
    );
    if (!moved) throw new AppError(409, 'import_not_ready');
    await deleteImportRows(tx, id, found.brandId);
    return findImport(tx, id, ctx.host.id);
  });
  await rm(importFilePath(rt.config.dataDir, id), { force: true });
  return toImport(record as TImportRecord);
}

/**
 * The failed rows as CSV: row number and reasons in the chosen language, then the row exactly as
 * the file had it (its header, its columns, its cells), so the user corrects it and imports it again.
 */
export async function failuresCsv(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  language: 'ja' | 'en',
): Promise<Readable> {
  const record = await mustSee(rt, ctx, id);
  const texts = language === 'ja' ? ja : en;
  const fieldLabel = (f: string) =>
    f === 'fullName' ? texts.customer_import.full_name : (texts.customer_csv[FIELD_COLUMNS[f as TImportField]] ?? f);
  async function* lines() {
    yield (
      UTF8_BOM +
      csvRow([texts.customer_import.row, texts.customer_import.reason, ...record.columns.map((c) => c.header)])
    );
    if (!REVIEWED.includes(record.status)) return;
    let after = 0;
    for (;;) {
      const rows = await inTenant(rt, ctx, (tx) => allFailedRows(tx, id, after, 1000));
      let chunk = '';
      for (const r of rows) {
        const reasons = problemsOf(r.problems)
          .map((p) => {
            const text = texts.import_problem[p.code as keyof typeof texts.import_problem] ?? p.message;
            const dup =
              p.code === 'import_duplicate_conflict' && r.duplicate_of
                ? ` (${texts.customer_import.row} ${r.duplicate_of})`
                : '';
            return `${fieldLabel(p.field)}: ${text}${dup}`;
          })
          .join(' / ');
        chunk += `${[csvCell(r.row_number), csvCell(reasons), ...sourceCells(record.columns, r).map(sourceCell)].join(',')}\r\n`;
      }
      if (chunk) yield chunk;
      const last = rows[rows.length - 1];
      if (rows.length < 1000 || !last) return;
      after = last.row_number;
    }
  }
  return Readable.from(lines());
}

/** `="0312345678"`: a text constant, the form that keeps a phone's leading zero in Excel; it runs nothing. */
const TEXT_FORMULA = /^="(?:[^"]|"")*"$/;

/**
 * A cell of the user's row, guarded as every CSV cell we write (csvCell), except a text constant:
 * the import reads `="…"` as the text inside, so it goes back as the user wrote it.
 */
function sourceCell(cell: string | null): string {
  return cell !== null && TEXT_FORMULA.test(cell) ? `"${cell.replace(/"/g, '""')}"` : csvCell(cell);
}

/**
 * A failed row's cells as the file had them. A row staged before the cells were kept (migration
 * 0048) has only its values as read: each column gets the value it filled.
 */
function sourceCells(columns: TColumn[], row: Record<string, string | number | null>): (string | null)[] {
  if (typeof row.source === 'string') return JSON.parse(row.source) as string[];
  const value = (field: TImportField) => row[FIELD_COLUMNS[field]] as string | null;
  return columns.map((c) =>
    c.field === 'fullName'
      ? [value('lastName'), value('firstName')].filter(Boolean).join(' ')
      : c.field
        ? value(c.field)
        : null,
  );
}
