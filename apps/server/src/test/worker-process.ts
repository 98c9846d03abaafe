import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * A real Yado process (`entry`, e.g. apps/server/src/main.ts), resolved once its output shows
 * `readyText`. Node with tsx's loader, in one process: the `tsx` command runs the program in a
 * child of its own, which would outlive a SIGKILL. `env` is the whole environment (nothing is
 * inherited but PATH); set `debugVariable` in the test's environment to see the process's output.
 * `output`, when given, collects everything the process writes.
 */
export async function startYadoProcess(
  entry: string,
  readyText: string,
  env: Record<string, string>,
  {
    startTimeoutMs = 60_000,
    debugVariable,
    output: collected,
  }: { startTimeoutMs?: number; debugVariable?: string; output?: string[] } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const read = (chunk: Buffer) => {
    output += String(chunk);
    collected?.push(String(chunk));
    if (debugVariable && process.env[debugVariable]) process.stderr.write(`[${entry} ${child.pid}] ${String(chunk)}`);
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${entry} did not start: ${output}`)), startTimeoutMs);
    const check = () => {
      if (output.includes(readyText)) {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        done();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') fail(new Error(`${entry} exited (${code}): ${output}`));
    });
  });
  return child;
}

/** A real worker process for kill tests (worker-main.ts), resolved once it serves its queues. */
export function startWorkerProcess(
  env: Record<string, string>,
  options: { startTimeoutMs?: number; debugVariable?: string; output?: string[] } = {},
): Promise<ChildProcess> {
  return startYadoProcess('apps/server/src/worker-main.ts', 'Yado worker is running', env, options);
}

/** SIGKILL, and wait until the process is gone. */
export async function killWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** SIGTERM, and the way the process ended once it is gone. */
export async function stopWorkerProcess(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  child.kill('SIGTERM');
  return exited;
}

export interface TWorkerProcesses {
  /** Starts one more worker process with the set's settings (and `env` on top). */
  start(env?: Record<string, string>): Promise<ChildProcess>;
  kill(child: ChildProcess): Promise<void>;
  /** SIGKILLs every process the set started that still runs (the test file's afterAll). */
  killAll(): Promise<void>;
}

/**
 * The kill tests' shared set-up: worker processes on the test server's database, data directory
 * and embedded SMTP sink, with `env` (short leases, say) on top, each remembered so the file can
 * end them all. `settings` is read at each start (the server exists only after beforeAll).
 */
export function workerProcesses(
  settings: () => { databaseUrl: string | null; dataDir: string; sinkPort?: number | null },
  env: Record<string, string>,
  options: { startTimeoutMs?: number; debugVariable?: string } = {},
): TWorkerProcesses {
  const children: ChildProcess[] = [];
  return {
    async start(extra = {}) {
      const s = settings();
      if (!s.databaseUrl) throw new Error('a worker process needs PostgreSQL: it cannot share PGlite');
      const child = await startWorkerProcess(
        {
          DATABASE_URL: s.databaseUrl,
          DATA_DIR: s.dataDir,
          ...(s.sinkPort ? { SMTP_URL: `smtp://127.0.0.1:${s.sinkPort}` } : {}),
          ...env,
          ...extra,
        },
        options,
      );
      children.push(child);
      return child;
    },
    kill: killWorkerProcess,
    async killAll() {
      for (const child of children) await killWorkerProcess(child);
    },
  };
}
