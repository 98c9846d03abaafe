import { loadConfig } from './config.ts';
import { startRuntime } from './start.ts';
import { startWorker } from './worker.ts';
import { startOpsServer } from './ops/ops-server.ts';

/** `npm run worker`: a worker process on its own, for DATABASE_URL deployments. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { seedDemo: false });
  if (!config.databaseUrl) throw new Error('npm run worker needs DATABASE_URL; `npm start` runs the worker in-process');
  const rt = await startRuntime(config, { feedbackReceiver: false });
  await startWorker(rt);
  // A worker's only listener: its health (/healthz, /readyz with its lease) and metrics.
  const ops = await startOpsServer(rt);
  rt.log.info(`Yado worker is running; metrics on ${ops.url}/metrics (and /healthz, /readyz)`);
  const stop = async () => {
    await ops.close();
    await rt.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Yado worker failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
