import type PgBoss from 'pg-boss';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from './config.ts';
import { withTenant, type TDatabase, type TTx } from './db/client.ts';
import type { TActingContext } from './modules/tenancy/acting-context.ts';

/** What a business operation may use. Built once per process by `startRuntime`. */
export interface TRuntime {
  config: TConfig;
  database: TDatabase;
  queue: PgBoss;
  mailer: Transporter;
  log: FastifyBaseLogger;
}

/** Runs `fn` in a transaction under the acting context's row-level security (see withTenant). */
export function inTenant<T>(rt: TRuntime, ctx: TActingContext, fn: (tx: TTx) => Promise<T>): Promise<T> {
  return withTenant(rt.database.db, ctx.rls, fn);
}
