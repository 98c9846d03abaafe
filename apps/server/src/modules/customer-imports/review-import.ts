import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TLapseOutcome } from '../../jobs/leases.ts';
import type { TRuntime } from '../../runtime.ts';
import { CsvError } from './csv-reader.ts';
import { textDecoder } from './encoding.ts';
import {
  deleteImportRows,
  loadImport,
  markResumed,
  moveImport,
  setProgress,
  type TImportRecord,
  type TReviewCounts,
} from './queries.ts';
import { ImportRejection, RowStager } from './row-stager.ts';
import { openStagingWriter } from './staging.ts';

export const importDirectory = (dataDir: string) => join(dataDir, 'imports');
export const importFilePath = (dataDir: string, importId: string) => join(importDirectory(dataDir), `${importId}.csv`);

const PROGRESS_EVERY_MS = 500;

export interface TReviewImportJob {
  importId: string;
  /** Present when the rows were read and counted as the upload streamed in: only the move is left. */
  counts?: TReviewCounts;
}

/**
 * Ends an import's review. Usually the upload has read every row already (`counts`); otherwise
 * (a file in an encoding told only at its end, PGlite, a failure while streaming) the uploaded file
 * is read once, streaming, into customer_import_rows with the same checks and counts. Touches no
 * customer.
 */
export async function reviewImport(rt: TRuntime, job: TReviewImportJob): Promise<void> {
  const db = rt.database.db;
  const importId = job.importId;
  const record = await loadImport(db, importId);
  if (!record || record.status !== 'reviewing') return;
  const path = importFilePath(rt.config.dataDir, importId);
  try {
    let counts = job.counts;
    if (!counts) {
      await deleteImportRows(db, importId, record.brandId);
      counts = await stageFile(rt, record, path);
    }
    const moved = await moveImport(
      db,
      importId,
      ['reviewing'],
      'reviewed',
      sql`, counts = ${JSON.stringify(counts)}::jsonb, progress_done = ${counts.total}, progress_total = ${counts.total}`,
    );
    // Cancelled while it was read: nothing of it stays.
    if (!moved) await deleteImportRows(db, importId, record.brandId);
  } catch (error) {
    await deleteImportRows(db, importId, record.brandId).catch(() => undefined);
    const rejection =
      error instanceof ImportRejection
        ? error
        : error instanceof CsvError
          ? new ImportRejection(error.code, error.row)
          : new ImportRejection('general');
    if (rejection.code === 'general') rt.log.error({ err: error, importId }, 'customer import review failed');
    await moveImport(
      db,
      importId,
      ['reviewing'],
      'rejected',
      sql`, error_code = ${rejection.code}, error_row = ${rejection.row}, finished_at = now()`,
    );
  } finally {
    // The rows are in the database now (or the file is refused): the upload is not kept.
    await rm(path, { force: true });
  }
}

/**
 * The worker reading the file stopped (jobs/leases.ts): the review reads it again from the start,
 * or, its retries used up, the import is rejected with the reason and nothing of it is kept.
 */
export async function reviewImportLapsed(rt: TRuntime, job: TReviewImportJob, outcome: TLapseOutcome): Promise<void> {
  const db = rt.database.db;
  if (outcome === 'requeued') return markResumed(db, job.importId);
  const record = await loadImport(db, job.importId);
  if (!record) return;
  const moved = await moveImport(
    db,
    job.importId,
    ['reviewing'],
    'rejected',
    sql`, error_code = 'import_review_interrupted', finished_at = now()`,
  );
  if (moved) {
    await deleteImportRows(db, job.importId, record.brandId);
    await rm(importFilePath(rt.config.dataDir, job.importId), { force: true });
  }
}

async function stageFile(rt: TRuntime, record: TImportRecord, path: string): Promise<TReviewCounts> {
  const decoder = textDecoder(record.encoding);
  let lastProgress = Date.now();
  const stager = new RowStager(
    record,
    record.columns,
    await openStagingWriter(rt.database, record.id),
    async (rows) => {
      if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        await setProgress(rt.database.db, record.id, rows, null);
      }
    },
  );
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      await stager.write(decoder.write(chunk as Buffer));
    }
    return await stager.end(decoder.end());
  } catch (error) {
    await stager.abort();
    throw error;
  }
}
