import { IMPORT_FIELDS, type TImportField } from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import { mappedFields, type TColumn } from './columns.ts';
import { CsvReader, guessDelimiter } from './csv-reader.ts';
import { isBlankRecord, normalizeRow } from './normalize-row.ts';
import { reviewCounts, type TReviewCounts } from './queries.ts';
import type { TStagingWriter } from './staging.ts';

/** Characters of text read between two hand-overs to the database (about a megabyte). */
const FLUSH_CHARS = 1 << 20;

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

/** A file that cannot be imported at all, with the reason and the row where it showed. */
export class ImportRejection extends Error {
  constructor(
    readonly code: 'import_no_rows' | 'import_malformed_csv' | 'import_file_empty' | 'general',
    readonly row: number | null = null,
  ) {
    super(code);
  }
}

/**
 * Reads an import's text as it arrives, whether from the upload as it streams in or from the
 * file afterwards: parses records, normalises and checks each row, marks repeats, and writes every
 * row with its outcome to customer_import_rows. With each megabyte handed to the database it
 * counts those rows as new, updated or unchanged against the brand's customers (index lookups in
 * the writer's session, while the next megabyte is read), so the counts are ready when the text
 * ends. Touches no customer.
 */
export class RowStager {
  /** Data rows read so far (the header and blank lines are not rows). */
  rows = 0;
  readonly counts: TReviewCounts = { total: 0, failed: 0, duplicates: 0, new: 0, updated: 0, unchanged: 0 };
  /** The header's columns, once read. */
  columns: TColumn[] | null;
  private reader: CsvReader | null = null;
  private pendingText = '';
  private headerSeen = false;
  private readonly firstRows = new FirstRows();
  private fields: TImportField[] = [];
  private keyFields: TImportField[] = [];
  /** The first row number not yet counted, and the text read since the last hand-over. */
  private countedUpTo = 0;
  private lastRow = 0;
  private textSinceFlush = 0;
  private readonly onRecord = (f: string[], row: number) => this.record(f, row);

  /**
   * `columns`: how the file's columns were mapped at upload, or, while the upload is still
   * streaming, a function that maps the header when it has been read (null: the file is refused).
   */
  constructor(
    private readonly target: { id: string; brandId: string },
    columns: TColumn[] | ((header: string[]) => TColumn[] | null),
    private readonly writer: TStagingWriter,
    private readonly onFlushed: (rows: number) => Promise<void> = async () => undefined,
  ) {
    if (typeof columns === 'function') {
      this.columns = null;
      this.mapHeader = columns;
    } else {
      this.columns = columns;
      this.mapHeader = () => columns;
    }
  }

  private readonly mapHeader: (header: string[]) => TColumn[] | null;

  /** Text as decoded so far; hands it to the database every megabyte, waiting if it falls behind. */
  async write(text: string): Promise<void> {
    this.push(text);
    this.textSinceFlush += text.length;
    if (this.textSinceFlush >= FLUSH_CHARS) await this.flush();
  }

  /** The rest of the text: reads the last record, writes and counts everything, commits. */
  async end(tail: string): Promise<TReviewCounts> {
    this.push(tail);
    if (!this.reader) {
      const text = this.pendingText;
      this.pendingText = '';
      this.reader = new CsvReader(guessDelimiter(text.split(/[\r\n]/, 1)[0] ?? ''));
      this.reader.push(text, this.onRecord);
    }
    this.reader.end(this.onRecord);
    if (!this.headerSeen) throw new ImportRejection('import_file_empty');
    if (this.rows === 0) throw new ImportRejection('import_no_rows');
    await this.flush();
    await this.writer.close();
    return this.counts;
  }

  /** Gives up: no row stays. */
  abort(): Promise<void> {
    return this.writer.abort();
  }

  private push(text: string): void {
    if (this.reader) {
      this.reader.push(text, this.onRecord);
      return;
    }
    // The delimiter is told from the header line, so wait for its end (or a megabyte without one).
    this.pendingText += text;
    const newline = this.pendingText.search(/[\r\n]/);
    if (newline < 0 && this.pendingText.length < 1 << 20) return;
    this.reader = new CsvReader(guessDelimiter(this.pendingText.slice(0, newline < 0 ? undefined : newline)));
    const pending = this.pendingText;
    this.pendingText = '';
    this.reader.push(pending, this.onRecord);
  }

  private async flush(): Promise<void> {
    this.textSinceFlush = 0;
    const [from, to] = [this.countedUpTo, this.lastRow + 1];
    this.countedUpTo = to;
    const rows = this.rows;
    const { id, brandId } = this.target;
    const fields = this.fields;
    await this.writer.flush(
      from < to
        ? async (tx: TTx) => {
            const counts = await reviewCounts(tx, id, brandId, fields, from, to);
            for (const key of Object.keys(counts) as (keyof TReviewCounts)[]) this.counts[key] += counts[key];
          }
        : undefined,
    );
    await this.onFlushed(rows);
  }

  private record(f: string[], row: number): void {
    if (isBlankRecord(f)) return;
    if (!this.headerSeen) {
      this.headerSeen = true;
      const columns = this.mapHeader(f);
      if (!columns) throw new ImportRejection('general');
      this.columns = columns;
      this.fields = mappedFields(columns);
      this.keyFields = IMPORT_FIELDS.filter((k) => this.fields.includes(k));
      return;
    }
    const columns = this.columns as TColumn[];
    this.rows++;
    this.lastRow = row;
    const { values, problems } = normalizeRow(f, columns);
    let status: 'ok' | 'duplicate' | 'failed' = 'ok';
    let duplicateOf: number | null = null;
    let problemText: string | null = null;
    if (problems.length > 0) {
      status = 'failed';
      problemText = problems.map((p) => `${p.field}:${p.code}`).join(',');
    } else {
      let key = '';
      for (const k of this.keyFields) key += `${values[k] ?? ''}\u0001`;
      const seen = this.firstRows.check(values.phone as string, row, key);
      if (seen) {
        duplicateOf = seen.duplicateOf;
        if (seen.same) status = 'duplicate';
        else {
          status = 'failed';
          problemText = 'phone:import_duplicate_conflict';
        }
      }
    }
    this.writer.add([
      this.target.id,
      this.target.brandId,
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
      // The failures download gives the user back their own row to correct, not our reading of it.
      status === 'failed' ? JSON.stringify(f) : null,
    ]);
  }
}
