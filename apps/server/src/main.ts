import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { startRuntime } from './start.ts';
import { startWorker } from './worker.ts';
import { startOpsServer } from './ops/ops-server.ts';
import { warmCustomerList } from './modules/customers/warm-customer-list.ts';
import { DEMO_PASSWORD, DEMO_ACCOUNTS } from './seed/demo.ts';

/**
 * How far the heap may grow past what it kept at its last full collection before the next:
 * twice (V8's own choice was about 1.3 times for this process). Under a relay's thousand webhooks
 * a second the API collected in full every few seconds, each time holding its requests 5 to 28 ms,
 * and the windows where a round's slowest 1% fell each held such a collection (docs/benchmarks.md,
 * "bounces"); at twice, about half as often, for some 50 MB more heap. V8 reads it at every full
 * collection, so it holds from the first after start.
 */
const HEAP_GROWING_PERCENT = 100;

/** `npm start`: API, worker, embedded SMTP sink and demo data in one process. */
async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = loadConfig();
  const rt = await startRuntime(config);
  const app = await buildApp(rt);
  if (config.workerInProcess) await startWorker(rt);
  await app.listen({ port: config.port, host: config.host });
  const ops = await startOpsServer(rt);
  rt.log.info(`metrics on ${ops.url}/metrics (and /healthz, /readyz)`);
  // In the background: /healthz answers at once, the first users find the list's path warm.
  if (config.warmOnStart)
    warmCustomerList(rt).catch((error: unknown) => rt.log.warn({ err: error }, 'customer list warm-up failed'));
  const database = rt.database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pglite` : 'PostgreSQL';
  const embedded = config.embedded ? `, embedded SMTP sink${rt.dns ? `, embedded DNS at ${rt.dns.address}` : ''}` : '';
  rt.log.info(`Yado is running on ${config.publicUrl} (${database}${embedded})`);
  if (config.seedDemo) {
    const lines = DEMO_ACCOUNTS.map((a) => `  ${a.email.padEnd(26)} ${a.description}`).join('\n');
    // Printed, not logged: these are the public demo accounts of the README.
    process.stdout.write(`\nDemo accounts (password ${DEMO_PASSWORD}):\n${lines}\n\n`);
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close();
    await ops.close();
    await rt.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A promise nobody awaited failed: log it (it is a bug to find) rather than take the product down.
  process.on('unhandledRejection', (reason) => rt.log.error({ err: reason }, 'unhandled promise rejection'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Yado failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
