import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { startRuntime } from './start.ts';
import { startWorker } from './worker.ts';
import { startOpsServer } from './ops/ops-server.ts';
import { warmCustomerList } from './modules/customers/warm-customer-list.ts';
import { DEMO_PASSWORD, DEMO_ACCOUNTS } from './seed/demo.ts';

/** `npm start`: API, worker, embedded SMTP sink and demo data in one process. */
async function main(): Promise<void> {
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
