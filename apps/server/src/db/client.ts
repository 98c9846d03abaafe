import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { runPipeline, statementName, type TStatement } from './pipeline.ts';

export type TDb = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: anything a query function may run on. */
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0] | TDb;

/** The rows of a raw `tx.execute(sql...)` result, whichever driver ran it. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** Runs a raw query and gives its rows. */
export const selectRows = async <T>(tx: TTx, query: SQL): Promise<T[]> => rowsOf<T>(await tx.execute(query));

interface TDrizzleInternals {
  dialect: { sqlToQuery(query: SQL): TStatement };
  session: {
    prepareQuery(
      query: TStatement,
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
}

/**
 * selectRows for a hot statement of fixed text: over `pg` it is prepared once per connection,
 * under the name its text gives (pipeline.ts), so PostgreSQL parses and analyses it once and can
 * keep a plan (`plan_cache_mode`) rather than plan it anew each time: planning was a fifth of the
 * relay webhook rules' time in PostgreSQL and more than the rollups' own work (issue 25's bench).
 * Rows come back as selectRows gives them. On PGlite it runs as selectRows does. The text must not
 * carry values spliced in (`sql.raw` of data): each distinct text stays prepared on its connection.
 */
export async function queryPrepared<T>(tx: TTx, query: SQL): Promise<T[]> {
  const { dialect, session } = tx as unknown as TDrizzleInternals;
  const statement = dialect.sqlToQuery(query);
  return rowsOf<T>(await session.prepareQuery(statement, undefined, statementName(statement.sql), false).execute());
}

export interface TSqlResult {
  rows: Record<string, unknown>[];
}

/**
 * One database handle for the whole process: PostgreSQL through a `pg` pool, or embedded PGlite.
 * `executeSql` is the raw entry point pg-boss and the migrator use.
 */
export interface TDatabase {
  kind: 'postgres' | 'pglite';
  db: TDb;
  /** The driver underneath, for the few places that need a session of their own (migrations). */
  raw:
    { kind: 'postgres'; pool: import('pg').Pool } | { kind: 'pglite'; client: import('@electric-sql/pglite').PGlite };
  executeSql(text: string, values?: unknown[]): Promise<TSqlResult>;
  close(): Promise<void>;
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite only: keep the data in memory (tests). */
  inMemory?: boolean;
  poolSize?: number;
  /**
   * PGlite only: told of each time one piece of work held the embedded database's one session
   * for at least `longHoldMs` (LONG_HOLD_MS), so that every other request waited as long (see
   * reportLongHolds).
   */
  onLongHold?: (hold: TLongHold) => void;
  longHoldMs?: number;
}): Promise<TDatabase> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // An idle connection is kept a minute (pg's default is 10 s): a new one costs a connection's
    // start and the pipeline's statements prepared and planned again, tens of milliseconds that the
    // first requests after a lull waited for (issue 25's bench).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      idleTimeoutMillis: 60_000,
    });
    // A lost connection is reported by the query that used it; an idle one must not crash us.
    pool.on('error', () => {});
    const db = drizzle(pool, { schema }) as unknown as TDb;
    // A drizzle handle per pooled connection, built once: tenant transactions run on them.
    const handles = new WeakMap<import('pg').PoolClient, TDb>();
    // Dates stay 'YYYY-MM-DD' strings, as drizzle gives them; timestamps become Dates.
    const types = new pg.TypeOverrides();
    types.setTypeParser(pg.types.builtins.DATE, 'text', (raw: string) => raw);
    const parserOf = (oid: number) => types.getTypeParser(oid, 'text') as unknown as (raw: string) => unknown;
    // pg's own conversion of parameter values (Dates with their zone, arrays, JSON); untyped.
    const { prepareValue } = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;
    tenantReaders.set(db, async (context, owner, statements, plans) => {
      const client = await pool.connect();
      try {
        const results = await runPipeline(
          client,
          [...owner, tenantSettingsStatement(context, plans), ...statements],
          parserOf,
          prepareValue,
        );
        client.release();
        return { owner: results.slice(0, owner.length), tenant: results.slice(owner.length + 1) };
      } catch (error) {
        // The error may be the connection's own (lost, reset): closed rather than handed on.
        client.release(error as Error);
        throw error;
      }
    });
    tenantRunners.set(db, async (context, fn) => {
      const client = await pool.connect();
      let handle = handles.get(client);
      if (!handle) {
        handle = drizzle(client, { schema }) as unknown as TDb;
        handles.set(client, handle);
        pipelines.set(handle, (statements) => runPipeline(client, statements, parserOf, prepareValue));
      }
      let broken: Error | undefined;
      try {
        // BEGIN and the settings in one round trip: without parameters the text may hold several
        // statements. Nothing is spliced in but 'on'/'off' and a UUID withTenant checked.
        await client.query(`begin; ${tenantSettingsSql(context)}`);
        const result = await fn(handle);
        // Whether it changed customers (CUSTOMERS_CHANGED), read in the commit's round trip.
        const [changed] = (await client.query(`${CUSTOMERS_CHANGED}; commit`)) as unknown as [import('pg').QueryResult];
        if (changed.rows[0]?.changed === true) committed(db, context);
        return result;
      } catch (error) {
        await client.query('rollback').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that could not roll back is closed rather than handed to the next request.
        client.release(broken);
      }
    });
    return {
      kind: 'postgres',
      db,
      raw: { kind: 'postgres', pool },
      executeSql: async (text, values) => pool.query(text, values as unknown[]),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  let dataDir: string | undefined;
  if (!options.inMemory) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = new PGlite(dataDir);
  await client.waitReady;
  refuseSelfWait(client);
  if (options.onLongHold) reportLongHolds(client, options.onLongHold, options.longHoldMs ?? LONG_HOLD_MS);
  const db = drizzle(client, { schema }) as unknown as TDb;
  // In process there are no round trips to save: the statements run one after another.
  tenantReaders.set(db, (context, owner, statements, plans) =>
    client.transaction(async (tx) => {
      const run = async (s: TStatement) =>
        (
          await tx.query<unknown[]>(s.sql, s.params, {
            rowMode: 'array',
            parsers: { [DATE_OID]: (raw: string) => raw },
          })
        ).rows;
      const ownerRows: unknown[][][] = [];
      for (const s of owner) ownerRows.push(await run(s));
      const settings = tenantSettingsStatement(context, plans);
      await tx.query(settings.sql, settings.params);
      const tenant: unknown[][][] = [];
      for (const s of statements) tenant.push(await run(s));
      return { owner: ownerRows, tenant };
    }),
  );
  return {
    kind: 'pglite',
    db,
    raw: { kind: 'pglite', client },
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values) as Promise<TSqlResult>;
      // Without parameters the text may hold several statements (pg-boss sends such batches).
      const results = await client.exec(text);
      return (results[results.length - 1] ?? { rows: [] }) as TSqlResult;
    },
    close: () => client.close(),
  };
}

const DATE_OID = 1082;

type TPGlite = import('@electric-sql/pglite').PGlite;
/** The transaction of the embedded database that the current task runs inside, while it is open. */
const openEmbeddedTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * PGlite is one session: a transaction holds it until it ends, and every other statement waits.
 * Code inside a transaction that reaches past its `tx` to the database itself (a helper that opens
 * its own transaction, say) would wait for itself, and with it every request of the product, for
 * ever. Such a call fails at once instead, naming the mistake; over PostgreSQL the same code would
 * hold a second pooled connection, so the fix is always to pass the transaction along.
 */
function refuseSelfWait(client: TPGlite): void {
  const refuse = (what: string) => {
    if (openEmbeddedTransaction.getStore()?.open)
      throw new Error(
        `embedded database: ${what} from inside an open transaction would wait for that transaction for ever; use the transaction's own handle`,
      );
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<TPGlite['query']>) => {
    refuse('a query');
    return query(...args);
  }) as TPGlite['query'];
  client.exec = async (...args: Parameters<TPGlite['exec']>) => {
    refuse('a statement');
    return exec(...args);
  };
  client.transaction = async <T>(callback: Parameters<TPGlite['transaction']>[0] & ((tx: never) => Promise<T>)) => {
    refuse('a second transaction');
    return transaction(async (tx) => {
      const store = { open: true };
      try {
        return await openEmbeddedTransaction.run(store, () => callback(tx as never));
      } finally {
        // Work the transaction started and left to run (a timer, say) may use the database later.
        store.open = false;
      }
    }) as Promise<T>;
  };
}
/** One piece of work that held the embedded database's session long (reportLongHolds). */
export interface TLongHold {
  heldMs: number;
  /** How long it had waited for the session before that. */
  waitedMs: number;
  /** Where our code asked for it: up to three `file:line` of apps/server/src, innermost first. */
  at: string;
}

/** A hold this long is every console request of the embedded product waiting as long. */
const LONG_HOLD_MS = 3000;

const OUR_FRAME = /apps\/server\/src\/(?!db\/client\.ts)([^:)]+:\d+)/;

/** The first few of our own frames in a stack, innermost first; the database layer's left out. */
function ourFrames(stack: string | undefined): string {
  const frames: string[] = [];
  for (const line of (stack ?? '').split('\n')) {
    const found = OUR_FRAME.exec(line);
    if (found && frames[frames.length - 1] !== found[1]) frames.push(found[1]!);
    if (frames.length === 3) break;
  }
  return frames.join(' < ') || 'unknown';
}

/** Where the work now asking for the embedded database's session was asked for (reportLongHolds). */
const askedAt = new AsyncLocalStorage<{ stack?: string }>();

/**
 * PGlite runs one statement or transaction at a time: a long one holds every request of the
 * product, the console's included. Its query, exec and transaction all take one lock
 * (`_runExclusiveTransaction`); timed there, work that held it for `longMs` or more is reported
 * with where our code asked for it: the stack is taken when query, exec or transaction is called
 * (deep enough to get past drizzle's and pg-boss's frames, its text read only for a long hold) and
 * carried to the lock through PGlite's own awaits.
 */
function reportLongHolds(client: TPGlite, report: (hold: TLongHold) => void, longMs: number): void {
  const internals = client as unknown as { _runExclusiveTransaction?: <T>(fn: () => Promise<T>) => Promise<T> };
  const exclusive = internals._runExclusiveTransaction?.bind(client);
  // A PGlite without it (a later version) is caught by client.test.ts, not here.
  if (!exclusive) return;
  const asking =
    <A extends unknown[], R>(call: (...args: A) => R) =>
    (...args: A): R => {
      const site: { stack?: string } = {};
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 40;
      Error.captureStackTrace(site);
      Error.stackTraceLimit = limit;
      return askedAt.run(site, () => call(...args));
    };
  client.query = asking(client.query.bind(client)) as TPGlite['query'];
  client.exec = asking(client.exec.bind(client));
  client.transaction = asking(client.transaction.bind(client)) as TPGlite['transaction'];
  internals._runExclusiveTransaction = <T>(fn: () => Promise<T>): Promise<T> => {
    const asked = performance.now();
    const site = askedAt.getStore();
    return exclusive(async () => {
      const started = performance.now();
      try {
        return await fn();
      } finally {
        const heldMs = performance.now() - started;
        if (heldMs >= longMs)
          report({ heldMs: Math.round(heldMs), waitedMs: Math.round(started - asked), at: ourFrames(site?.stack) });
      }
    });
  };
}

type TTenantReader = (
  context: TRlsContext,
  owner: TStatement[],
  statements: TStatement[],
  plans: TPlans,
) => Promise<TTenantRead>;
/** Over a `pg` pool, tenant reads are one pipelined round trip (see readInTenant). */
const tenantReaders = new WeakMap<TDb, TTenantReader>();

type TTenantRunner = (context: TRlsContext, fn: (tx: TTx) => Promise<unknown>) => Promise<unknown>;
/** Over a `pg` pool, tenant transactions take a shorter path than drizzle's (see openDatabase). */
const tenantRunners = new WeakMap<TDb, TTenantRunner>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The settings of withTenant as literal SQL; set_config('role', ..., true) is SET LOCAL ROLE.
 * withTenant has checked that the brand id is a UUID.
 */
function tenantSettingsSql(context: TRlsContext): string {
  return `select set_config('yado.scope_all', '${context.scopeAll ? 'on' : 'off'}', true),
    set_config('yado.brand_id', '${context.brandId ?? ''}', true), set_config('role', 'yado_app', true)`;
}

/**
 * How readInTenant's prepared statements are planned (PostgreSQL's `plan_cache_mode`): `auto`,
 * PostgreSQL's choice (a plan for the values given, five times, then one plan for any values if it
 * does not look dearer); `custom`, for the values given every time; `generic`, once per connection
 * for any values and any size of table (PLAN_SETTINGS).
 */
export type TPlans = 'auto' | 'custom' | 'generic';

/**
 * PostgreSQL's settings for each TPlans mode, for one transaction. A `generic` plan is kept for as
 * long as its connection lives, however its tables grow (only an ANALYZE makes PostgreSQL plan
 * again, and it may never come): made while a table was small, a sequential scan looked cheapest
 * and stayed one when the table held millions of rows. So sequential scans are off for it: the
 * hot statements planned this way find their rows by an index, whatever the tables held when
 * they were planned.
 */
const PLAN_SETTINGS: Record<TPlans, { planCacheMode: string; enableSeqscan: 'on' | 'off' }> = {
  auto: { planCacheMode: 'auto', enableSeqscan: 'on' },
  custom: { planCacheMode: 'force_custom_plan', enableSeqscan: 'on' },
  generic: { planCacheMode: 'force_generic_plan', enableSeqscan: 'off' },
};

/**
 * `plans`' settings (PLAN_SETTINGS), and any `extra` ones, set for the transaction in one
 * statement: for a transaction that prepares its own statements (queryPrepared) rather than
 * sending them through the pipeline, which sets them itself.
 */
export function planSettings(plans: TPlans, extra: Record<string, string> = {}): SQL {
  const settings = {
    ...extra,
    plan_cache_mode: PLAN_SETTINGS[plans].planCacheMode,
    enable_seqscan: PLAN_SETTINGS[plans].enableSeqscan,
  };
  return sql`select ${sql.join(
    Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
    sql`, `,
  )}`;
}

function tenantSettingsStatement(context: TRlsContext, plans: TPlans = 'auto'): TStatement {
  return {
    sql: `select set_config('yado.scope_all', $1, true), set_config('yado.brand_id', $2, true), set_config('role', 'yado_app', true),
      set_config('plan_cache_mode', $3, true), set_config('enable_seqscan', $4, true)`,
    params: [
      context.scopeAll ? 'on' : 'off',
      context.brandId ?? '',
      PLAN_SETTINGS[plans].planCacheMode,
      PLAN_SETTINGS[plans].enableSeqscan,
    ],
  };
}

/** PostgreSQL's answers that ask for the whole transaction again: a deadlock's victim, a serialization failure. */
const CONFLICTS = new Set(['40P01', '40001']);

/** The SQLSTATE of a failed query, whether the driver's error came bare or wrapped by Drizzle (as its cause). */
export function sqlStateOf(error: unknown): string {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code;
  return typeof code === 'string' ? code : '';
}

/** A deadlock's victim or a serialization failure: the whole transaction may be run again. */
export const isConflict = (error: unknown): boolean => CONFLICTS.has(sqlStateOf(error));

/** Where a conflict that was run again is told (a deadlock is worth knowing of, even when it healed). */
export interface TConflictLog {
  warn(details: object, message: string): void;
}

/**
 * Runs a transaction again (at most `attempts` times in all, after a short random pause) when
 * PostgreSQL rolled it back as a deadlock's victim or a serialization failure. Only for work whose
 * effects are all inside that transaction: it is run again whole. Each time, `log` is told what
 * (`what`) met which conflict.
 */
export async function retryingConflicts<T>(
  transaction: () => Promise<T>,
  { attempts = 4, log, what = 'a transaction' }: { attempts?: number; log?: TConflictLog; what?: string } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !CONFLICTS.has(sqlStateOf(error))) throw error;
      log?.warn({ sqlState: sqlStateOf(error), attempt, what }, 'a transaction met a conflict and is run again');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** The acting context as row-level security sees it. */
export interface TRlsContext {
  scopeAll: boolean;
  brandId: string | null;
}

/**
 * Runs `fn` in a transaction as the unprivileged role `yado_app`, with the tenant settings that
 * the row-level security policies read. Every request that touches tenant data goes through here.
 */
export function withTenant<T>(db: TDb, context: TRlsContext, fn: (tx: TTx) => Promise<T>): Promise<T> {
  if (context.brandId !== null && !UUID.test(context.brandId))
    return Promise.reject(new Error('A tenant brand id must be a UUID'));
  const runner = tenantRunners.get(db);
  if (runner) return runner(context, fn) as Promise<T>;
  let changed = false;
  const result = db.transaction(async (tx) => {
    await tx.execute(sql.raw(tenantSettingsSql(context)));
    const value = await fn(tx);
    changed = (await selectRows<{ changed: boolean }>(tx, sql.raw(CUSTOMERS_CHANGED)))[0]?.changed === true;
    return value;
  });
  return result.then((value) => {
    if (changed) committed(db, context);
    return value;
  });
}

/**
 * Whether the transaction changed what the customer list counts: a statement on `customers`,
 * `customer_allocations` or `hosts` sets `yado.customers_changed` for the transaction (migration
 * 0046's triggers). Read just before the commit.
 */
const CUSTOMERS_CHANGED = `select coalesce(current_setting('yado.customers_changed', true), '') = 'on' as changed`;

const commitListeners: ((db: TDb, context: TRlsContext) => void)[] = [];
/**
 * Calls `listener` after every tenant transaction (withTenant) that commits in this process having
 * changed what the customer list counts (CUSTOMERS_CHANGED), with its database and context: what
 * the caches of customer totals need to forget. readInTenant's reads and writes do not call it.
 */
export function onTenantCommit(listener: (db: TDb, context: TRlsContext) => void): void {
  commitListeners.push(listener);
}
function committed(db: TDb, context: TRlsContext): void {
  for (const listener of commitListeners) listener(db, context);
}

/** What readInTenant gives back: each statement's rows as arrays, in select-list order. */
export interface TTenantRead {
  /** The rows of the statements run as the owner, before the tenant settings. */
  owner: unknown[][][];
  /** The rows of the statements run as `yado_app` under the tenant settings. */
  tenant: unknown[][][];
}

/**
 * Statements in one round trip (writes too: writeInTenant): `owner` statements first (the session check, which
 * row-level security would hide), then the tenant settings, then `statements` as `yado_app`, all
 * in one implicit transaction, so they see one snapshot and the settings end with it. Over `pg`
 * the statements are pipelined and prepared once per connection; on PGlite (in process, no round
 * trips) they run one after another in a transaction. Rows come back as arrays: timestamps as
 * Dates, dates as 'YYYY-MM-DD' strings.
 *
 * `plans` (TPlans): `custom` where the best plan depends on the values: a plan made once for any
 * values cannot tell a search that matches ten customers from one that matches a million (the first
 * wants the search's index, the second the order's). `generic` for a hot statement whose plan does
 * not: PostgreSQL's `auto` keeps planning a statement over arrays anew for every run when the
 * array's length makes its own plan look cheaper than the generic one's guess, and that planning
 * was most of the relay webhooks' store's CPU (issue 25's bench).
 */
export async function readInTenant(
  db: TDb,
  context: TRlsContext,
  owner: TStatement[],
  statements: TStatement[],
  plans: TPlans = 'auto',
): Promise<TTenantRead> {
  if (context.brandId !== null && !UUID.test(context.brandId)) throw new Error('A tenant brand id must be a UUID');
  const reader = tenantReaders.get(db);
  if (!reader) throw new Error('readInTenant needs a database opened by openDatabase');
  return reader(context, owner, statements, plans);
}

/**
 * Statements that write, in one round trip: readInTenant's pipeline, whose implicit transaction
 * commits when it ends (over `pg`; a transaction on PGlite), so the statements take effect
 * together or not at all. For a hot path whose whole transaction is a statement or two (the relay
 * webhooks' intake, the send's usual step): a transaction of its own would add the begin's and the
 * commit's round trips. Rows come back as readInTenant's do, one array of rows per statement. It
 * does not call onTenantCommit's listeners: they forget the customer totals remembered, and its
 * callers change no customer. `plans`: as readInTenant's.
 */
export async function writeInTenant(
  db: TDb,
  context: TRlsContext,
  statements: TStatement[],
  plans: TPlans = 'auto',
): Promise<unknown[][][]> {
  return (await readInTenant(db, context, [], statements, plans)).tenant;
}

/** Over a `pg` pool, a tenant transaction's handle pipelines on its connection (pipelineIn). */
const pipelines = new WeakMap<object, (statements: TStatement[]) => Promise<unknown[][][]>>();

/**
 * Statements of the open transaction `tx` in one round trip, in order, each seeing what the ones
 * before it did; rows as arrays, one array of rows per statement, as readInTenant gives them. Over
 * `pg` in a withTenant transaction they are pipelined on its connection and each prepared once per
 * connection (as queryPrepared's); elsewhere (PGlite, the pool itself, a nested transaction) they
 * run one after another. For work whose next statements do not need the rows of the ones before:
 * each round trip is a write to PostgreSQL's socket and a wait for its answer.
 */
export async function pipelineIn(tx: TTx, queries: SQL[]): Promise<unknown[][][]> {
  if (queries.length === 0) return [];
  const pipeline = pipelines.get(tx);
  const { dialect } = tx as unknown as TDrizzleInternals;
  if (pipeline) return pipeline(queries.map((q) => dialect.sqlToQuery(q)));
  const results: unknown[][][] = [];
  for (const q of queries)
    results.push((await queryPrepared<Record<string, unknown>>(tx, q)).map((r) => Object.values(r)));
  return results;
}

/** A drizzle SQL fragment or query as the $n text and values a pipeline sends. */
export function statementOf(db: TDb, query: SQL | { toSQL(): { sql: string; params: unknown[] } }): TStatement {
  if ('toSQL' in query && !(query instanceof SQL)) return query.toSQL();
  return (db as unknown as { dialect: { sqlToQuery(query: SQL): TStatement } }).dialect.sqlToQuery(query as SQL);
}
