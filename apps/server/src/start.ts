import pino from 'pino';
import { createBookingSim, type TBookingSim } from '@yado/booking-sim';
import type { TConfig } from './config.ts';
import { openDatabase, type TDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { ClockHold } from './jobs/clock-hold.ts';
import { startQueue, stopQueue } from './jobs/queue.ts';
import { startSmtpSink, type TSmtpSink } from './mail/smtp-sink.ts';
import { createMailTransport } from './mail/transport.ts';
import { loggerOptions } from './app.ts';
import type { TRuntime } from './runtime.ts';
import { seedDemo } from './seed/demo.ts';
import { seedDemoLogos } from './seed/demo-logos.ts';
import { connectDemoBrands } from './modules/booking/connect-demo-brands.ts';
import { startEmbeddedDns, type TEmbeddedDns } from './dns/embedded-dns.ts';
import { seedDemoSending } from './seed/demo-sending.ts';
import { seedDemoCampaign } from './seed/demo-campaign.ts';
import { webhookApplierOf } from './modules/deliverability/webhooks/apply-webhook-events.ts';
import { startFeedbackReceiver, type TFeedbackReceiver } from './modules/deliverability/feedback-receiver.ts';
import { DEMO_HISTORY_BRAND, seedDemoHistory } from './seed/demo-history.ts';

export interface TStarted extends TRuntime {
  sink: TSmtpSink | null;
  /** The feedback receiver (bounces and complaints at the VERP return paths), when this process runs it. */
  feedbackReceiver: TFeedbackReceiver | null;
  /** The embedded DNS server (embedded mode): the verifier asks it unless DNS_SERVERS says otherwise. */
  dns: TEmbeddedDns | null;
  /** The in-process booking simulator, when this runtime serves one. */
  bookingSim: { url: string; close(): Promise<void> } | null;
  /** Run by stop() first, before the queue stops (the worker's timers, which queue jobs). */
  stopBeforeQueue: (() => Promise<void>)[];
  /** Run by stop() once the queue has stopped, before the database closes (the worker's lease). */
  stopAfterQueue: (() => Promise<void>)[];
  stop(): Promise<void>;
}

/**
 * Opens the database (migrating it), the mail path and the job queue: what both the API and the
 * worker need. In embedded mode it also starts the SMTP sink, the booking simulator (when no
 * booking system is configured) and seeds the demo organisation.
 *
 * `bookingSim`: a simulator to serve instead of the embedded one (tests bring their own, with a
 * manual clock), or false for none.
 */
export async function startRuntime(
  config: TConfig,
  options: {
    database?: TDatabase;
    inMemory?: boolean;
    logStream?: NodeJS.WritableStream;
    bookingSim?: TBookingSim | false;
    /** False: no feedback receiver in this process (`npm run worker`: the API process runs it). */
    feedbackReceiver?: boolean;
  } = {},
): Promise<TStarted> {
  const log = options.logStream
    ? pino(loggerOptions(config.logLevel), options.logStream)
    : pino(loggerOptions(config.logLevel));
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      inMemory: options.inMemory,
      // Every request of the embedded product waited as long: worth a line in its log.
      onLongHold: (hold) => log.warn(hold, 'the embedded database was held by one piece of work'),
    }));
  await migrateDatabase(database);
  let seeded = false;
  if (config.seedDemo) {
    seeded = await seedDemo(database.db);
    if (seeded) log.info('demo organisation seeded');
    // Drawn and stored on the start that seeded (50 ms of drawing, not every start's); a store that
    // refuses (a bucket misconfigured) leaves the demo without logos, not the product down.
    if (seeded)
      await seedDemoLogos(database.db, config, { assign: true }).catch((error: unknown) =>
        log.warn({ err: error }, 'demo logos not stored'),
      );
  }
  // The embedded product's booking system: the simulator, in-process, on a free loopback port.
  const ownSim = options.bookingSim === undefined && config.booking.embeddedSim && !config.booking.apiUrl;
  const sim =
    options.bookingSim || (ownSim ? createBookingSim({ guestsPerAccount: config.booking.simGuestsPerAccount }) : null);
  const bookingSim = sim ? await sim.listen(0) : null;
  if (bookingSim) config.booking.apiUrl = bookingSim.url;
  const sink =
    config.embedded && !config.smtpUrl
      ? await startSmtpSink(
          database.db,
          (error) => log.warn({ err: error }, 'smtp sink connection error'),
          0,
          // The sink's bounce and complaint reports go to this process's feedback receiver.
          () => runtime.feedbackReceiver?.port ?? null,
        )
      : null;
  const dns = config.dns.embeddedServer
    ? await startEmbeddedDns(
        database.db,
        (error) => log.warn({ err: error }, 'embedded dns error'),
        config.dns.embeddedPort,
      )
    : null;
  if (dns && !config.dns.servers) config.dns.servers = [dns.address];
  if (dns) log.info(`embedded DNS server on ${dns.address}`);
  const mailer = createMailTransport(config.smtpUrl, sink?.port ?? null);
  // The pooled transport reports a dropped idle connection as an 'error' event; the next message
  // opens a new one, so it is worth a warning, not the process.
  mailer.on('error', (error: Error) => log.warn({ err: error }, 'smtp pool connection error'));
  const queue = await startQueue(database, (error) => log.warn({ err: error }, 'job queue error'));
  const runtime: TStarted = {
    config,
    database,
    queue,
    mailer,
    log,
    sink,
    feedbackReceiver: null,
    dns,
    bookingSim,
    clockHold: new ClockHold(),
    stopBeforeQueue: [],
    stopAfterQueue: [],
    async stop() {
      for (const before of runtime.stopBeforeQueue)
        await before().catch((error: Error) => log.warn({ err: error }, 'stop'));
      await stopQueue(queue).catch((error: Error) => log.warn({ err: error }, 'queue stop'));
      for (const after of runtime.stopAfterQueue)
        await after().catch((error: Error) => log.warn({ err: error }, 'stop'));
      mailer.close();
      await runtime.feedbackReceiver?.close();
      await sink?.close();
      await dns?.close();
      await bookingSim?.close();
      await database.close();
    },
  };
  if (config.feedbackReceiver && options.feedbackReceiver !== false) {
    runtime.feedbackReceiver = await startFeedbackReceiver(runtime, config.feedbackReceiver, (error) =>
      log.warn({ err: error }, 'feedback receiver connection error'),
    );
    log.info(
      `feedback receiver (bounces, complaints) on ${config.feedbackReceiver.host}:${runtime.feedbackReceiver.port}`,
    );
  }
  // Relay webhook events stored but not yet applied (a stopped process's): swept in the API process.
  if (options.feedbackReceiver !== false) webhookApplierOf(runtime);
  // First start of the embedded product: the demo brands connect to their simulator accounts.
  // With the demo history, さくらホテルズ's first sync is the history's own first step (below).
  const history = seeded && !!dns && ownSim && config.seedDemoHistory;
  if (seeded && ownSim) await connectDemoBrands(runtime, history ? [DEMO_HISTORY_BRAND] : []);
  // First start of the embedded product: さくらホテルズ can send from a verified domain at once.
  if (seeded && dns) await seedDemoSending(runtime);
  // ...and has one campaign on its way to its synced guests (sent by the worker a little later).
  if (seeded && dns && ownSim) await seedDemoCampaign(runtime);
  // ...and 90 days of campaigns sent before, with their opens, clicks and bookings (no mail sent):
  // in the background, after its first sync, so the first start is not kept waiting for it.
  if (history) {
    const started = Date.now();
    const seeding = seedDemoHistory(runtime).then(
      (campaigns) => log.info({ campaigns, ms: Date.now() - started }, 'demo history seeded'),
      (error: unknown) => log.error({ err: error }, 'demo history not seeded'),
    );
    runtime.stopBeforeQueue.unshift(() => seeding);
  }
  return runtime;
}
