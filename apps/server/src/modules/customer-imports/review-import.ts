import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { IMPORT_FIELDS } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import type { TRuntime } from '../../runtime.ts';
import { mappedFields } from './columns.ts';
import { CsvError, CsvReader, guessDelimiter } from './csv-reader.ts';
import { textDecoder } from './encoding.ts';
import { isBlankRecord, normalizeRow } from './normalize-row.ts';
import { deleteImportRows, loadImport, moveImport, reviewCounts, setProgress, type TImportRecord } from './queries.ts';
import { openStagingWriter } from './staging.ts';

export const importDirectory = (dataDir: string) => join(dataDir, 'imports');
export const importFilePath = (dataDir: string, importId: string) => join(importDirectory(dataDir), `${importId}.csv`);

/** A file that cannot be imported at all, with the reason and the row where it showed. */
export class ImportRejection extends Error {
  constructor(
    readonly code: 'import_no_rows' | 'import_malformed_csv' | 'import_file_empty' | 'general',
    readonly row: number | null = null,
  ) {
    super(code);
  }
}

const PROGRESS_EVERY_MS = 500;

/** Two 32-bit FNV-1a hashes with different seeds: equal rows hash equal, others almost never do. */
function hashPair(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return [a | 0, b | 0];
}

/**
 * The first row of each phone number seen so far, and a hash of its values, so a later row with
 * the same phone is a harmless repeat (same values) or a conflict (different ones). An open-
 * addressing table on typed arrays: a million phones take about 30 MB, not the 100 MB or more of
 * a Map of strings (the import's memory target is 512 MB for the whole server).
 */
export class FirstRows {
  private keys = new Float64Array(1 << 16);
  private rows = new Int32Array(1 << 16);
  private size = 0;
  /** Phones too long to be a number exactly (more than 14 digits): rare, kept in a Map. */
  private readonly long = new Map<string, number>();
  private hashA = new Int32Array(1 << 16);
  private hashB = new Int32Array(1 << 16);

  check(phone: string, row: number, key: string): { duplicateOf: number; same: boolean } | null {
    const [a, b] = hashPair(key);
    const first =
      phone.length <= 14 ? this.lookup(Number(phone) * 16 + phone.length, row) : this.lookupLong(phone, row);
    if (first !== null) return { duplicateOf: first, same: this.hashA[first] === a && this.hashB[first] === b };
    if (row >= this.hashA.length) {
      const grown = Math.max(row + 1, this.hashA.length * 2);
      this.hashA = grow(this.hashA, grown);
      this.hashB = grow(this.hashB, grown);
    }
    this.hashA[row] = a;
    this.hashB[row] = b;
    return null;
  }

  /** The row stored under `id`, or null after storing `row` there. Ids are positive. */
  private lookup(id: number, row: number): number | null {
    if (this.size * 2 >= this.keys.length) this.rehash();
    const mask = this.keys.length - 1;
    let i = (Math.imul((id % 0x7fffffff) | 0, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const k = this.keys[i] as number;
      if (k === 0) {
        this.keys[i] = id;
        this.rows[i] = row;
        this.size++;
        return null;
      }
      if (k === id) return this.rows[i] as number;
      i = (i + 1) & mask;
    }
  }

  private lookupLong(phone: string, row: number): number | null {
    const first = this.long.get(phone);
    if (first !== undefined) return first;
    this.long.set(phone, row);
    return null;
  }

  private rehash(): void {
    const [keys, rows] = [this.keys, this.rows];
    this.keys = new Float64Array(keys.length * 2);
    this.rows = new Int32Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i]) this.lookup(keys[i] as number, rows[i] as number);
  }
}

function grow(old: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(size);
  next.set(old);
  return next;
}

/**
 * Reads the uploaded file once, streaming: decodes it, parses records, normalises and checks
 * each row, marks repeats, and writes every row with its outcome to customer_import_rows. Then
 * counts new, updated and unchanged rows against the brand's customers. Touches no customer.
 */
export async function reviewImport(rt: TRuntime, importId: string): Promise<void> {
  const db = rt.database.db;
  const record = await loadImport(db, importId);
  if (!record || record.status !== 'reviewing') return;
  const path = importFilePath(rt.config.dataDir, importId);
  try {
    await deleteImportRows(db, importId, record.brandId);
    const total = await stageRows(rt, record, path);
    const counts = await reviewCounts(db, importId, record.brandId, mappedFields(record.columns));
    const moved = await moveImport(
      db,
      importId,
      ['reviewing'],
      'reviewed',
      sql`, counts = ${JSON.stringify(counts)}::jsonb, progress_done = ${total}, progress_total = ${total}`,
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

async function stageRows(rt: TRuntime, record: TImportRecord, path: string): Promise<number> {
  const db = rt.database.db;
  const decoder = textDecoder(record.encoding);
  const fields = mappedFields(record.columns);
  const keyFields = IMPORT_FIELDS.filter((f) => fields.includes(f));
  const firstRows = new FirstRows();
  const writer = await openStagingWriter(rt.database, record.id);
  let reader: CsvReader | null = null;
  let pendingText = '';
  let headerSeen = false;
  let dataRows = 0;
  let lastProgress = Date.now();
  const onRecord = (f: string[], row: number) => {
    if (isBlankRecord(f)) return;
    if (!headerSeen) {
      headerSeen = true;
      return;
    }
    dataRows++;
    const { values, problems } = normalizeRow(f, record.columns);
    let status: 'ok' | 'duplicate' | 'failed' = 'ok';
    let duplicateOf: number | null = null;
    let problemText: string | null = null;
    if (problems.length > 0) {
      status = 'failed';
      problemText = problems.map((p) => `${p.field}:${p.code}`).join(',');
    } else {
      const seen = firstRows.check(values.phone as string, row, keyFields.map((k) => values[k] ?? '').join('\u0001'));
      if (seen) {
        duplicateOf = seen.duplicateOf;
        if (seen.same) status = 'duplicate';
        else {
          status = 'failed';
          problemText = 'phone:import_duplicate_conflict';
        }
      }
    }
    writer.add([
      record.id,
      record.brandId,
      row,
      status,
      duplicateOf,
      problemText,
      values.lastName,
      values.firstName,
      values.phone,
      values.email,
      values.idNumber,
      values.gender,
      values.dateOfBirth,
      values.country,
      values.prefecture,
      values.city,
      values.address,
      values.emailStatus,
    ]);
  };
  // Once per chunk of the file: hand the rows to the database and report progress.
  const handle = async () => {
    await writer.flush();
    if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      await setProgress(db, record.id, dataRows, null);
    }
  };

  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      const text = decoder.write(chunk as Buffer);
      if (!reader) {
        pendingText += text;
        const newline = pendingText.search(/[\r\n]/);
        if (newline < 0 && pendingText.length < 1 << 20) continue;
        reader = new CsvReader(guessDelimiter(pendingText.slice(0, newline < 0 ? undefined : newline)));
        reader.push(pendingText, onRecord);
        pendingText = '';
      } else {
        reader.push(text, onRecord);
      }
      await handle();
    }
    const tail = decoder.end();
    if (reader) reader.push(tail, onRecord);
    else {
      const text = pendingText + tail;
      reader = new CsvReader(guessDelimiter(text.split(/[\r\n]/, 1)[0] ?? ''));
      reader.push(text, onRecord);
    }
    reader.end(onRecord);
    await handle();
    if (!headerSeen) throw new ImportRejection('import_file_empty');
    if (dataRows === 0) throw new ImportRejection('import_no_rows');
    await writer.close();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return dataRows;
}
