import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../../..');

/**
 * A real worker process for kill tests, resolved once it serves its queues. Node with tsx's
 * loader, in one process: the `tsx` command runs the program in a child of its own, which would
 * outlive a SIGKILL. `env` is the whole environment (nothing is inherited but PATH); set
 * `debugVariable` in the test's environment to see the worker's output.
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  { startTimeoutMs = 60_000, debugVariable }: { startTimeoutMs?: number; debugVariable?: string } = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/worker-main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`worker did not start: ${output}`)), startTimeoutMs);
    const read = (chunk: Buffer) => {
      output += String(chunk);
      if (debugVariable && process.env[debugVariable]) process.stderr.write(`[worker ${child.pid}] ${String(chunk)}`);
      if (output.includes('Yado worker is running')) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') fail(new Error(`worker exited (${code}): ${output}`));
    });
  });
  return child;
}

/** SIGKILL, and wait until the process is gone. */
export async function killWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
