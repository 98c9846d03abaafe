import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../apps/server/src/test/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One product per worker: a spec file reaches the one of the worker it runs in (support/browser.ts). */
    baseUrls: string[];
  }
}

const ROOT = join(import.meta.dirname, '..', '..');

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The product exited with code ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The product did not answer ${url}/healthz within ${timeoutMs} ms`);
}

/**
 * The environment `npm start` would see: without what vitest adds (NODE_ENV=test, VITEST_*), which
 * would otherwise make the console build ship React's development code.
 */
function productEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST') delete env[key];
  return env;
}

/**
 * Starts the product exactly as `npm start` does (scripts/start.mjs: build the console when it is
 * stale, then the server), on a free port with a fresh embedded database, once for each worker
 * the e2e project runs (two spec files at a time on CI's two cores: each waits mostly on the
 * product and the browser, and each product is its own embedded database, so no spec sees
 * another's data); stops them afterwards. YADO_E2E_BASE_URL points the specs at an already
 * running product instead, then one spec file at a time (`--no-file-parallelism`): the specs
 * count what they make.
 */
export default async function setup(project: TestProject) {
  // `--no-file-parallelism` sets Vitest's resolved maxWorkers to 1 (Vitest 4's resolved config
  // has no fileParallelism to read).
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const external = process.env.YADO_E2E_BASE_URL;
  if (external) {
    if (workers > 1)
      throw new Error('YADO_E2E_BASE_URL is one product: run the specs one file at a time (--no-file-parallelism)');
    project.provide('baseUrls', [external.replace(/\/$/, '')]);
    return;
  }
  const products: TProduct[] = [];
  try {
    // One after the other: the first builds the console when it is stale, the next finds it built.
    for (let i = 0; i < workers; i++) products.push(await startProduct());
  } catch (error) {
    await Promise.all(products.map(stopProduct));
    throw error;
  }
  project.provide(
    'baseUrls',
    products.map((p) => p.baseUrl),
  );
  return async () => {
    await Promise.all(products.map(stopProduct));
  };
}

interface TProduct {
  baseUrl: string;
  child: ChildProcess;
  dataDir: string;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}

async function startProduct(): Promise<TProduct> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'yado-e2e-'));
  const baseUrl = `http://localhost:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      ...productEnv(),
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // A smaller booking simulator: the demo's first sync and the specs' syncs take seconds, not minutes.
      BOOKING_SIM_GUESTS: '400',
      // The specs count the campaigns they make: no demo history beside them.
      SEED_DEMO_HISTORY: 'false',
      // "Verify DNS setup" unlocks after 5 seconds instead of 2 minutes.
      DOMAIN_VERIFY_COUNTDOWN_SECONDS: '5',
      // The scenario engine's clock moves only when a spec moves it (POST /v1/dev/scenario-clock).
      SCENARIO_CLOCK: 'manual',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(baseUrl, child, 180_000);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  // A product that dies mid-run would otherwise show up only as refused connections in every spec.
  const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
    process.stderr.write(
      `\n[e2e] the product under test at ${baseUrl} exited during the run (code ${code}, signal ${signal})\n`,
    );
  child.once('exit', onExit);
  return { baseUrl, child, dataDir, onExit };
}

async function stopProduct({ child, dataDir, onExit }: TProduct): Promise<void> {
  child.off('exit', onExit);
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
}
