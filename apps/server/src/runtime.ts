import type PgBoss from 'pg-boss';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';

/** What a business operation may use. Built once per process by `startRuntime`. */
export interface TRuntime {
  config: TConfig;
  database: TDatabase;
  queue: PgBoss;
  mailer: Transporter;
  log: FastifyBaseLogger;
}
