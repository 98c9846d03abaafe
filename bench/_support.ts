import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function dbUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * The real server as its own process (as in production), on the given database. The booking
 * system points nowhere, so no demo brand is connected and no sync adds customers mid-run.
 */
export async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn('node_modules/.bin/tsx', ['apps/server/src/main.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'true', WEB_DIST: '/nonexistent', DATA_DIR: '/tmp/yado-bench', BOOKING_API_URL: 'http://127.0.0.1:9' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok).catch(() => false);
    if (ok) return child;
    await sleep(500);
  }
  child.kill();
  throw new Error('server did not start');
}

export interface TLoadResult {
  latencies: number[];
  errors: number;
  sent: number;
  seconds: number;
}

/**
 * Open-loop load: requests leave at a fixed rate whether or not earlier ones have answered, so a
 * slow server shows as latency rather than as a quietly lower rate.
 */
export async function openLoop(rate: number, seconds: number, send: (i: number) => Promise<boolean>): Promise<TLoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const t0 = performance.now();
    inflight.push(
      send(i).then(
        (ok) => {
          latencies.push(performance.now() - t0);
          if (!ok) errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  return { latencies: latencies.sort((a, b) => a - b), errors, sent: total, seconds: (performance.now() - start) / 1000 };
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function getJson(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}
