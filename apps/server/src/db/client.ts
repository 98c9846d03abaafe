import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type TDb = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: anything a query function may run on. */
export type TTx = Parameters<Parameters<TDb['transaction']>[0]>[0] | TDb;

/** The rows of a raw `tx.execute(sql...)` result, whichever driver ran it. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** Runs a raw query and gives its rows. */
export const selectRows = async <T>(tx: TTx, query: SQL): Promise<T[]> => rowsOf<T>(await tx.execute(query));

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
  raw: { kind: 'postgres'; pool: import('pg').Pool } | { kind: 'pglite'; client: import('@electric-sql/pglite').PGlite };
  executeSql(text: string, values?: unknown[]): Promise<TSqlResult>;
  close(): Promise<void>;
}

export async function openDatabase(options: {
  databaseUrl: string | null;
  dataDir: string;
  /** PGlite only: keep the data in memory (tests). */
  inMemory?: boolean;
  poolSize?: number;
}): Promise<TDatabase> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A lost connection is reported by the query that used it; an idle one must not crash us.
    pool.on('error', () => {});
    const db = drizzle(pool, { schema }) as unknown as TDb;
    // A drizzle handle per pooled connection, built once: tenant transactions run on them.
    const handles = new WeakMap<import('pg').PoolClient, TDb>();
    tenantRunners.set(db, async (context, fn) => {
      const client = await pool.connect();
      let handle = handles.get(client);
      if (!handle) {
        handle = drizzle(client, { schema }) as unknown as TDb;
        handles.set(client, handle);
      }
      let broken: Error | undefined;
      try {
        // BEGIN and the settings in one round trip: without parameters the text may hold several
        // statements. Nothing is spliced in but 'on'/'off' and a UUID withTenant checked.
        await client.query(`begin; ${tenantSettingsSql(context)}`);
        const result = await fn(handle);
        await client.query('commit');
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
  const db = drizzle(client, { schema }) as unknown as TDb;
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
  if (context.brandId !== null && !UUID.test(context.brandId)) return Promise.reject(new Error('A tenant brand id must be a UUID'));
  const runner = tenantRunners.get(db);
  if (runner) return runner(context, fn) as Promise<T>;
  return db.transaction(async (tx) => {
    // One round trip: set_config('role', ..., true) is SET LOCAL ROLE.
    await tx.execute(
      sql`select set_config('yado.scope_all', ${context.scopeAll ? 'on' : 'off'}, true),
                 set_config('yado.brand_id', ${context.brandId ?? ''}, true),
                 set_config('role', 'yado_app', true)`,
    );
    return fn(tx);
  });
}
