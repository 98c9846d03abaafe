import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = join(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

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
 * stale, then the server), on a free port with a fresh embedded database, and stops it afterwards.
 * YADO_E2E_BASE_URL points the specs at an already running product instead.
 */
export default async function setup(project: TestProject) {
  const external = process.env.YADO_E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/$/, ''));
    return;
  }
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
      YADO_FAST_HASH: 'true',
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
  project.provide('baseUrl', baseUrl);
  // A product that dies mid-run would otherwise show up only as refused connections in every spec.
  const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
    process.stderr.write(`\n[e2e] the product under test exited during the run (code ${code}, signal ${signal})\n`);
  child.once('exit', onExit);

  return async () => {
    child.off('exit', onExit);
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
