import type PgBoss from 'pg-boss';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ClockHold } from './jobs/clock-hold.ts';
import type { TConfig } from './config.ts';
import { readInTenant, statementOf, withTenant, type TDatabase, type TPlans, type TTx } from './db/client.ts';
import type { TStatement } from './db/pipeline.ts';
import { StaleSessionError } from './http/errors.ts';
import { fingerprintOf, forgetSession, rememberSession } from './modules/auth/session-cache.ts';
import { sessionFromArray, sessionQuery } from './modules/tenancy/queries.ts';
import type { TActingContext } from './modules/tenancy/acting-context.ts';

/** What a business operation may use. Built once per process by `startRuntime`. */
export interface TRuntime {
  config: TConfig;
  database: TDatabase;
  queue: PgBoss;
  mailer: Transporter;
  log: FastifyBaseLogger;
  /** The job lease of this process's worker, once it runs one: readiness (/readyz) checks it is fresh. */
  leases?: { fresh(): Promise<boolean> };
  /** Holds the worker's clock-driven work (the scenario tick, the campaign dispatcher): jobs/clock-hold.ts. */
  clockHold?: ClockHold;
}

/** Runs `fn` in a transaction under the acting context's row-level security (see withTenant). */
export function inTenant<T>(rt: TRuntime, ctx: TActingContext, fn: (tx: TTx) => Promise<T>): Promise<T> {
  return withTenant(rt.database.db, ctx.rls, fn);
}

/**
 * Read-only statements under the acting context's row-level security, in one round trip (see
 * readInTenant). If the context was built from a remembered session, the same round trip reads the
 * session again and the rows are given only if it is unchanged; otherwise StaleSessionError, and
 * the route runs again on the fresh session.
 */
export async function readAs(
  rt: TRuntime,
  ctx: TActingContext,
  statements: TStatement[],
  options: { plans?: TPlans } = {},
): Promise<unknown[][][]> {
  const check = ctx.unconfirmed;
  const owner = check ? [statementOf(rt.database.db, sessionQuery(check.userId))] : [];
  const { owner: ownerRows, tenant } = await readInTenant(rt.database.db, ctx.rls, owner, statements, options.plans);
  if (check) {
    const row = ownerRows[0]?.[0];
    const session = row ? sessionFromArray(row) : null;
    if (!session || fingerprintOf(session) !== check.fingerprint) {
      if (session) rememberSession(check.userId, session);
      else forgetSession(check.userId);
      throw new StaleSessionError();
    }
    check.confirmed = true;
  }
  return tenant;
}
