import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBookingSim } from '@yado/booking-sim';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { startRuntime, type TStarted } from '../start.ts';
import { startWorker } from '../worker.ts';
import { TEMPLATE_DB, adminQuery, databaseUrl } from './databases.ts';
import { DEMO_PASSWORD } from '../seed/demo.ts';

export interface TResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TCallOptions {
  token?: string;
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  cookie?: string;
  form?: FormData;
}

/** A real Yado server on a free port over its own copy of the seeded database. */
export interface TTestServer {
  url: string;
  rt: TStarted;
  app: FastifyInstance;
  /** Every line the server logged, for checks that no secret reaches a log. */
  logs: string[];
  call<T = any>(method: string, path: string, options?: TCallOptions): Promise<TResponse<T>>;
  login(email: string, password?: string): Promise<{ token: string; cookie: string }>;
  /** Raw SQL as the database owner, for arranging a case (expiring a token, deactivating a user). */
  sql(text: string, values?: unknown[]): Promise<any[]>;
  outbox(to: string): Promise<{ subject: string; text: string }[]>;
  close(): Promise<void>;
}

export const DEMO = {
  grand: 'grand@demo.test',
  brandAdmin: 'brand.admin@demo.test',
  groupAdmin: 'group.admin@demo.test',
  hotelAdmin: 'hotel.admin@demo.test',
  hotelStaff: 'hotel.staff@demo.test',
  hotelViewer: 'hotel.viewer@demo.test',
  multi: 'multi@demo.test',
  harborAdmin: 'harbor.admin@demo.test',
} as const;

/**
 * `bookingSim`: the booking system this server talks to (a test's own simulator, usually with a
 * manual clock and few guests); without one, booking-system calls find none configured.
 * `env`: extra environment for this server (e.g. an S3 logo store).
 */
/**
 * `worker: false`: no worker in this process (a test runs worker processes of its own).
 */
export async function startTestServer(
  options: { bookingSim?: TBookingSim; env?: Record<string, string>; worker?: boolean } = {},
): Promise<TTestServer> {
  const template = inject('templateDatabaseUrl');
  let dbName: string | null = null;
  let databaseUrlForRun: string | undefined;
  if (template) {
    dbName = `yado_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
    databaseUrlForRun = databaseUrl(dbName);
  }
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = loadConfig(
    {
      ...(databaseUrlForRun ? { DATABASE_URL: databaseUrlForRun } : {}),
      LOG_LEVEL: 'info',
      SEED_DEMO: 'true',
      DATA_DIR: `/tmp/yado-test-${process.pid}`,
      PORT: '0',
      WEB_DIST: '/nonexistent',
      ...options.env,
    },
    { jwtSecret: randomBytes(32).toString('hex') },
  );
  const rt = await startRuntime(config, { inMemory: !template, logStream, bookingSim: options.bookingSim ?? false });
  // Back-off in milliseconds rather than seconds, so injected faults do not slow the tests down.
  rt.config.booking.retryBaseMs = 5;
  const app = await buildApp(rt);
  if (options.worker !== false) await startWorker(rt);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  rt.config.publicUrl = url;

  const call: TTestServer['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | FormData | undefined;
    if (options.form) {
      body = options.form;
    } else if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (an HTML page, say): the test sees the text.
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };

  const server: TTestServer = {
    url,
    rt,
    app,
    logs,
    call,
    async login(email, password = DEMO_PASSWORD) {
      const res = await call('POST', '/v1/auth/login', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
      return { token: (res.body as { data: { accessToken: string } }).data.accessToken, cookie };
    },
    async sql(text, values) {
      return (await rt.database.executeSql(text, values)).rows;
    },
    async outbox(to) {
      const { token } = await server.login(DEMO.grand);
      const res = await call('GET', `/v1/dev/outbox?to=${encodeURIComponent(to)}`, { token });
      return (res.body as { data: { subject: string; text: string }[] }).data;
    },
    async close() {
      await app.close();
      await rt.stop();
      if (dbName) await adminQuery(`drop database if exists ${dbName} with (force)`);
    },
  };
  return server;
}

/**
 * Polls until `check` returns a value, for work the worker does in the background. `explain`, when
 * given, says what the state was when the time ran out (CI shows only the failure's message).
 */
export async function eventually<T>(
  check: () => Promise<T | null | undefined>,
  timeoutMs = 10_000,
  explain?: () => Promise<unknown>,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) {
      const state = explain ? `: ${JSON.stringify(await explain().catch((e: unknown) => String(e)))}` : '';
      throw new Error(`condition not met in time${state}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
