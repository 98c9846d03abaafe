/**
 * A streaming RFC 4180 reader: text goes in chunk by chunk, complete records come out; quoted
 * values may hold commas, quotes ("") and line breaks, and a record may span chunks. Written here
 * rather than taken from csv-parse because it reads a million customer rows about ten times
 * faster, which the import's speed target needs (docs/benchmarks.md).
 *
 * Lenient where spreadsheets are sloppy: a quote inside an unquoted value is kept as it is, and
 * text after a closing quote is appended. A quote that never closes is an error.
 */
export class CsvError extends Error {
  constructor(
    readonly code: 'import_malformed_csv',
    /** The record where reading failed, as a spreadsheet numbers rows (1 = the first line). */
    readonly row: number,
  ) {
    super(code);
  }
}

const QUOTE = 34;
const CR = 13;
const LF = 10;
/** A record longer than this is a quote that never closes, not a customer. */
const MAX_RECORD_CHARS = 1_000_000;

export class CsvReader {
  private rest = '';
  /** Records read so far: the next record's row number is this plus one. */
  rows = 0;

  constructor(private readonly delimiter = ',') {}

  /** Complete records in what has arrived so far; the unfinished tail waits for the next chunk. */
  push(text: string, onRecord: (fields: string[], row: number) => void): void {
    this.rest = this.read(this.rest + text, false, onRecord);
  }

  /** The last record (a file need not end with a line break). */
  end(onRecord: (fields: string[], row: number) => void): void {
    this.rest = this.read(this.rest, true, onRecord);
  }

  private read(text: string, final: boolean, onRecord: (fields: string[], row: number) => void): string {
    const sep = this.delimiter.charCodeAt(0);
    const length = text.length;
    let i = 0;
    while (i < length) {
      const start = i;
      const fields: string[] = [];
      for (;;) {
        let value: string;
        if (text.charCodeAt(i) === QUOTE) {
          let j = i + 1;
          value = '';
          for (;;) {
            const q = text.indexOf('"', j);
            if (q < 0) {
              if (final) throw new CsvError('import_malformed_csv', this.rows + 1);
              if (length - start > MAX_RECORD_CHARS) throw new CsvError('import_malformed_csv', this.rows + 1);
              return text.slice(start);
            }
            value += text.slice(j, q);
            if (text.charCodeAt(q + 1) === QUOTE) {
              value += '"';
              j = q + 2;
            } else if (q + 1 >= length && !final) {
              // The closing quote may be the first half of "" split across chunks.
              return text.slice(start);
            } else {
              i = q + 1;
              break;
            }
          }
          // Text after the closing quote, up to the delimiter: kept.
          let k = i;
          while (k < length) {
            const c = text.charCodeAt(k);
            if (c === sep || c === CR || c === LF) break;
            k++;
          }
          if (k > i) value += text.slice(i, k);
          i = k;
        } else {
          let k = i;
          while (k < length) {
            const c = text.charCodeAt(k);
            if (c === sep || c === CR || c === LF) break;
            k++;
          }
          value = text.slice(i, k);
          i = k;
        }
        fields.push(value);
        if (i >= length) {
          if (!final) return text.slice(start);
          break;
        }
        const c = text.charCodeAt(i);
        if (c === sep) {
          i++;
          // A delimiter at the very end: the empty last value follows, or more text does.
          if (i >= length) {
            if (!final) return text.slice(start);
            fields.push('');
            break;
          }
          continue;
        }
        if (c === CR) {
          if (i + 1 >= length && !final) return text.slice(start);
          i++;
          if (text.charCodeAt(i) === LF) i++;
        } else {
          i++;
        }
        break;
      }
      // Every way out of the loop above that does not return ends a complete record.
      this.rows++;
      onRecord(fields, this.rows);
    }
    return '';
  }
}

/** Comma, unless the header line has tabs and no commas (a tab-separated export). */
export function guessDelimiter(firstLine: string): ',' | '\t' {
  return firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
}
