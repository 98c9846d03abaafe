import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { TDatabase } from '../../db/client.ts';

/** One row of customer_import_rows, in the column order below. */
export type TStagedRow = (string | number | null)[];

export const STAGED_COLUMNS = [
  'import_id',
  'brand_id',
  'row_number',
  'status',
  'duplicate_of',
  'problems',
  'last_name',
  'first_name',
  'phone',
  'email',
  'id_number',
  'gender',
  'date_of_birth',
  'country',
  'prefecture',
  'city',
  'address',
  'email_status',
] as const;

/** Bytes of COPY data gathered before they are handed to the connection. */
const BUFFER_BYTES = 1 << 20;

export interface TStagingWriter {
  /** Buffers a row (no await per row: its objects die young, which keeps memory flat). */
  add(row: TStagedRow): void;
  /** Sends what is buffered, waiting while the database catches up. */
  flush(): Promise<void>;
  /** Writes what is buffered and ends; the rows are committed. */
  close(): Promise<void>;
  /** Gives up: nothing written by this writer stays. */
  abort(): Promise<void>;
}

/** A value in COPY's text format: backslash escapes, \N for null. */
function copyValue(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return /[\\\t\n\r]/.test(v)
    ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : v;
}

/**
 * Writes import rows as the database owner (COPY is refused under row-level security): on
 * PostgreSQL one COPY ... FROM STDIN on a connection of its own, in one transaction, so a failure
 * leaves no rows; on PGlite (embedded, one session shared by every caller, so no transaction may
 * stay open across awaits) batches of INSERT ... SELECT unnest(...), deleted again on failure.
 */
export async function openStagingWriter(database: TDatabase, importId: string): Promise<TStagingWriter> {
  if (database.raw.kind === 'postgres') {
    const client = await database.raw.pool.connect();
    let released = false;
    const release = (error?: Error) => {
      if (!released) client.release(error);
      released = true;
    };
    await client.query('begin');
    const stream = client.query(copyFrom(`copy customer_import_rows (${STAGED_COLUMNS.join(', ')}) from stdin`));
    let failure: Error | null = null;
    stream.on('error', (error: Error) => {
      failure = error;
    });
    // Rows go straight into bytes: a string per row dies young instead of living in a chunk-long
    // concatenation until the flush (which cost as much garbage collection as the parsing).
    let out = Buffer.allocUnsafe(BUFFER_BYTES);
    let used = 0;
    const send = () => {
      if (used === 0) return;
      stream.write(out.subarray(0, used));
      out = Buffer.allocUnsafe(BUFFER_BYTES);
      used = 0;
    };
    const flush = async () => {
      if (failure) throw failure;
      send();
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), once(stream, 'error')]);
      if (failure) throw failure;
    };
    return {
      add(row) {
        let line = '';
        for (let i = 0; i < row.length; i++) line += (i ? '\t' : '') + copyValue(row[i] as string | number | null);
        line += '\n';
        // UTF-8 takes at most three bytes per UTF-16 unit.
        if (used + line.length * 3 > out.length) {
          send();
          if (line.length * 3 > out.length) out = Buffer.allocUnsafe(line.length * 3);
        }
        used += out.write(line, used);
      },
      flush,
      async close() {
        try {
          await flush();
          stream.end();
          await finished(stream);
          await client.query('commit');
          release();
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          release();
          throw error;
        }
      },
      async abort() {
        // Ending a COPY half-way is not possible; dropping the connection rolls it back.
        release(new Error('import review aborted'));
      },
    };
  }
  const client = database.raw.client;
  let batch: TStagedRow[] = [];
  const insertBatch = async () => {
    while (batch.length > 0) await insertRows(batch.splice(0, 1000));
  };
  const insertRows = async (rows: TStagedRow[]) => {
    const columns = STAGED_COLUMNS.map((_, i) =>
      rows.map((r) => (r[i] === null || r[i] === undefined ? null : String(r[i]))),
    );
    const casts = STAGED_COLUMNS.map(
      (c, i) =>
        `$${i + 1}::${c === 'import_id' || c === 'brand_id' ? 'uuid' : c === 'row_number' || c === 'duplicate_of' ? 'int' : 'text'}[]`,
    );
    await client.query(
      `insert into customer_import_rows (${STAGED_COLUMNS.join(', ')}) select * from unnest(${casts.join(', ')})`,
      columns,
    );
  };
  const discard = () => client.query('delete from customer_import_rows where import_id = $1', [importId]);
  return {
    add(row) {
      batch.push(row);
    },
    async flush() {
      await insertBatch();
    },
    async close() {
      try {
        await insertBatch();
      } catch (error) {
        await discard();
        throw error;
      }
    },
    async abort() {
      batch = [];
      await discard();
    },
  };
}
