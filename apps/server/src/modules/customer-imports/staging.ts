import { finished } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import type { TDatabase, TDb, TTx } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';

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
  'source',
] as const;

/** Bytes of COPY data gathered before they are handed to the connection. */
const BUFFER_BYTES = 1 << 20;

export interface TStagingWriter {
  /** Buffers a row (no await per row: its objects die young, which keeps memory flat). */
  add(row: TStagedRow): void;
  /**
   * Sends what is buffered, then runs `after` in the same session, where the rows just sent are
   * visible. Returns before the database is done: the caller reads on while it works.
   */
  flush(after?: (tx: TTx) => Promise<void>): Promise<void>;
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
 * PostgreSQL one COPY ... FROM STDIN per flush on a connection of its own, all in one
 * transaction, so a failure leaves no rows; on PGlite (embedded, one session shared by every
 * caller, so no transaction may stay open across awaits) batches of INSERT ... SELECT
 * unnest(...), deleted again on failure.
 */
export async function openStagingWriter(database: TDatabase, importId: string): Promise<TStagingWriter> {
  if (database.raw.kind === 'postgres') {
    const client = await database.raw.pool.connect();
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const tx = drizzle(client, { schema }) as unknown as TDb;
    let released = false;
    const release = (error?: Error) => {
      if (!released) client.release(error);
      released = true;
    };
    try {
      await client.query('begin');
    } catch (error) {
      release(error as Error);
      throw error;
    }
    // Rows go straight into bytes: a string per row dies young instead of living in a chunk-long
    // concatenation until the flush (which cost as much garbage collection as the parsing).
    let out = Buffer.allocUnsafe(BUFFER_BYTES);
    let used = 0;
    let filled: Buffer[] = [];
    const keep = () => {
      if (used === 0) return;
      filled.push(out.subarray(0, used));
      out = Buffer.allocUnsafe(BUFFER_BYTES);
      used = 0;
    };
    /**
     * The database's work on the last flush and on the one before: sends run one after another
     * on the connection, and a flush waits only while two are outstanding, so the reading (Node)
     * and the writing and counting (PostgreSQL) keep both cores busy.
     */
    let last: Promise<void> = Promise.resolve();
    let beforeLast: Promise<void> = Promise.resolve();
    const send = async (data: Buffer[], after?: (tx: TTx) => Promise<void>) => {
      if (data.length > 0) {
        const stream = client.query(copyFrom(`copy customer_import_rows (${STAGED_COLUMNS.join(', ')}) from stdin`));
        for (const buffer of data) stream.write(buffer);
        stream.end();
        await finished(stream);
      }
      if (after) await after(tx);
    };
    const flush = async (after?: (tx: TTx) => Promise<void>) => {
      keep();
      const data = filled;
      filled = [];
      await beforeLast;
      beforeLast = last;
      last = last.then(() => send(data, after));
      // Reported by a later flush or by close; not unhandled meanwhile.
      last.catch(() => undefined);
    };
    return {
      add(row) {
        let line = '';
        for (let i = 0; i < row.length; i++) line += (i ? '\t' : '') + copyValue(row[i] as string | number | null);
        line += '\n';
        // UTF-8 takes at most three bytes per UTF-16 unit.
        if (used + line.length * 3 > out.length) {
          keep();
          if (line.length * 3 > out.length) out = Buffer.allocUnsafe(line.length * 3);
        }
        used += out.write(line, used);
      },
      flush,
      async close() {
        try {
          await flush();
          await last;
          await client.query('commit');
          release();
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          release();
          throw error;
        }
      },
      async abort() {
        // A COPY cannot be ended half-way; dropping the connection rolls everything back.
        await last.catch(() => undefined);
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
    async flush(after) {
      await insertBatch();
      if (after) await after(database.db);
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
