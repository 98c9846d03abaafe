import pino from 'pino';
import type { TConfig } from './config.ts';
import { openDatabase, type TDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { startQueue } from './jobs/queue.ts';
import { startSmtpSink, type TSmtpSink } from './mail/smtp-sink.ts';
import { createMailTransport } from './mail/transport.ts';
import { loggerOptions } from './app.ts';
import type { TRuntime } from './runtime.ts';
import { seedDemo } from './seed/demo.ts';

export interface TStarted extends TRuntime {
  sink: TSmtpSink | null;
  stop(): Promise<void>;
}

/**
 * Opens the database (migrating it), the mail path and the job queue: what both the API and the
 * worker need. In embedded mode it also starts the SMTP sink and seeds the demo organisation.
 */
export async function startRuntime(
  config: TConfig,
  options: { database?: TDatabase; inMemory?: boolean; logStream?: NodeJS.WritableStream } = {},
): Promise<TStarted> {
  const log = options.logStream ? pino(loggerOptions(config.logLevel), options.logStream) : pino(loggerOptions(config.logLevel));
  const database = options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, inMemory: options.inMemory }));
  await migrateDatabase(database);
  if (config.seedDemo) {
    const seeded = await seedDemo(database.db);
    if (seeded) log.info('demo organisation seeded');
  }
  const sink = config.embedded && !config.smtpUrl ? await startSmtpSink(database.db, (error) => log.warn({ err: error }, 'smtp sink connection error')) : null;
  const mailer = createMailTransport(config.smtpUrl, sink?.port ?? null);
  // The pooled transport reports a dropped idle connection as an 'error' event; the next message
  // opens a new one, so it is worth a warning, not the process.
  mailer.on('error', (error: Error) => log.warn({ err: error }, 'smtp pool connection error'));
  const queue = await startQueue(database, (error) => log.warn({ err: error }, 'job queue maintenance error'));
  return {
    config,
    database,
    queue,
    mailer,
    log,
    sink,
    async stop() {
      await queue.stop({ graceful: true, wait: true, timeout: 10_000 }).catch((error: Error) => log.warn({ err: error }, 'queue stop'));
      mailer.close();
      await sink?.close();
      await database.close();
    },
  };
}
