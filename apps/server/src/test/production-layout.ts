import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.ts';
import { killWorkerProcess, startWorkerProcess, startYadoProcess } from './worker-process.ts';

/**
 * THE PRODUCTION LAYOUT (docs/architecture.md, "Production layout"), as the layout test
 * (ops/layout.int.test.ts) and the send drill (bench/send-drill.ts) run it: Debian's nginx in front
 * of API processes (`main.ts`, WORKER_IN_PROCESS=false) and worker processes (`worker-main.ts`),
 * all over one PostgreSQL database, each a real process that can be SIGKILLed and started again on
 * the same ports. nginx connects to the APIs from a loopback address of its own per listener
 * (`bind`), so the APIs can trust one (TRUST_PROXY) and not another. Needs nginx:
 * scripts/ensure-nginx.sh installs it.
 */

export function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate;
  throw new Error('nginx is not installed: run scripts/ensure-nginx.sh (as .ci/run does)');
}

/** Resolves once something accepts connections on the loopback port. */
export async function waitForPort(port: number, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** One public port of nginx, and the loopback address it connects to the APIs from. */
export interface TProxyListener {
  port: number;
  bind: string;
}

/** nginx's configuration: one upstream per listener (kept-alive connections, and so their source address, are not shared). */
export function nginxConfig(dir: string, apiPorts: number[], listeners: TProxyListener[]): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${join(dir, 'temp', t)};`)
    .join('\n');
  const servers = apiPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n');
  const blocks = listeners.map(
    (l, i) => `  upstream yado_api_${i} {
${servers}
    keepalive 8;
  }
  server {
    listen 127.0.0.1:${l.port};
    location / {
      proxy_pass http://yado_api_${i};
      proxy_bind ${l.bind};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }`,
  );
  return `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 512; }
http {
  access_log off;
${temp}
${blocks.join('\n')}
}
`;
}

/** A Yado process of the layout: its child, ports and everything it wrote. */
export interface TLayoutProcess {
  child: ChildProcess;
  /** The API's port (none for a worker). */
  port: number | null;
  /** Its operations listener: /metrics, /healthz, /readyz. */
  metrics: number;
  output: string[];
}

export interface TLayoutOptions {
  /** Every process's environment: DATABASE_URL, DATA_DIR, JWT_SECRET, SMTP_URL and the like. */
  env: Record<string, string>;
  /** The APIs' on top (TRUST_PROXY, say). */
  apiEnv?: Record<string, string>;
  apis: number;
  workers: number;
  /** nginx's public ports: the first is `proxyUrl`. Each port 0 is given a free one. */
  listeners: TProxyListener[];
  /** PUBLIC_URL of every process is the first listener's address unless `env` sets one. */
  startTimeoutMs?: number;
  /** Set this variable in the environment to see every process's output. */
  debugVariable?: string;
}

/**
 * The layout, started: nginx, `apis` API processes and `workers` worker processes. One API first
 * (it takes the migration lock and brings the schema to head), then the rest at once.
 */
export class ProductionLayout {
  readonly apis: TLayoutProcess[] = [];
  readonly workers: TLayoutProcess[] = [];
  private nginx: ChildProcess | null = null;

  private constructor(
    private readonly options: TLayoutOptions,
    readonly dir: string,
    readonly listeners: TProxyListener[],
    private readonly apiPorts: number[],
  ) {}

  /** The first listener's address: what a browser, a mail provider and PUBLIC_URL use. */
  get proxyUrl(): string {
    return `http://127.0.0.1:${this.listeners[0]?.port}`;
  }

  urlOf(listener: number): string {
    return `http://127.0.0.1:${this.listeners[listener]?.port}`;
  }

  /** An API's own address, past the proxy. */
  apiUrl(i: number): string {
    return `http://127.0.0.1:${this.apis[i]?.port}`;
  }

  static async start(options: TLayoutOptions): Promise<ProductionLayout> {
    const binary = nginxBinary();
    const dir = mkdtempSync(join(tmpdir(), 'yado-layout-'));
    mkdirSync(join(dir, 'temp'));
    // nginx's workers may run as another user than its master (root): its temp folders are theirs too.
    chmodSync(join(dir, 'temp'), 0o777);
    const listeners = await Promise.all(
      options.listeners.map(async (l) => ({ ...l, port: l.port || (await freePort()) })),
    );
    const apiPorts = await Promise.all(Array.from({ length: options.apis }, freePort));
    const layout = new ProductionLayout(options, dir, listeners, apiPorts);
    try {
      const [first, ...rest] = apiPorts;
      if (first === undefined) throw new Error('the layout needs at least one API process');
      layout.apis.push(await layout.spawnApi(first, await freePort()));
      const started = await Promise.all([
        ...rest.map(async (port) => layout.spawnApi(port, await freePort())),
        ...Array.from({ length: options.workers }, async () => layout.spawnWorker(await freePort())),
      ]);
      layout.apis.push(...started.filter((p) => p.port !== null));
      layout.workers.push(...started.filter((p) => p.port === null));
      layout.apis.sort((a, b) => (a.port as number) - (b.port as number));
      const config = join(dir, 'nginx.conf');
      writeFileSync(config, nginxConfig(dir, apiPorts, listeners));
      layout.nginx = spawn(binary, ['-p', dir, '-c', config, '-e', join(dir, 'error.log')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let nginxOutput = '';
      layout.nginx.stderr?.on('data', (c: Buffer) => (nginxOutput += String(c)));
      layout.nginx.once('exit', (code) => {
        if (code) process.stderr.write(`nginx exited (${code}): ${nginxOutput}\n`);
      });
      for (const l of listeners) await waitForPort(l.port);
      return layout;
    } catch (error) {
      await layout.stop();
      throw error;
    }
  }

  private env(): Record<string, string> {
    return { PUBLIC_URL: this.proxyUrl, ...this.options.env };
  }

  private processOptions(output: string[]) {
    return {
      startTimeoutMs: this.options.startTimeoutMs ?? 120_000,
      debugVariable: this.options.debugVariable,
      output,
    };
  }

  private async spawnApi(port: number, metrics: number): Promise<TLayoutProcess> {
    const output: string[] = [];
    const child = await startYadoProcess(
      'apps/server/src/main.ts',
      'Yado is running on',
      {
        ...this.env(),
        ...this.options.apiEnv,
        PORT: String(port),
        METRICS_PORT: String(metrics),
        WORKER_IN_PROCESS: 'false',
      },
      this.processOptions(output),
    );
    return { child, port, metrics, output };
  }

  private async spawnWorker(metrics: number): Promise<TLayoutProcess> {
    const output: string[] = [];
    const child = await startWorkerProcess(
      { ...this.env(), METRICS_PORT: String(metrics) },
      this.processOptions(output),
    );
    return { child, port: null, metrics, output };
  }

  /** Starts API `i` again on its ports (after a kill). */
  async restartApi(i: number): Promise<TLayoutProcess> {
    const old = this.apis[i];
    if (!old?.port) throw new Error(`no API ${i}`);
    await killWorkerProcess(old.child);
    const api = await this.spawnApi(old.port, old.metrics);
    this.apis[i] = api;
    return api;
  }

  /** Starts worker `i` again on its metrics port (after a kill or a stop). */
  async restartWorker(i: number): Promise<TLayoutProcess> {
    const old = this.workers[i];
    if (!old) throw new Error(`no worker ${i}`);
    await killWorkerProcess(old.child);
    const worker = await this.spawnWorker(old.metrics);
    this.workers[i] = worker;
    return worker;
  }

  /** nginx stopped, every process SIGKILLed, the folder removed. */
  async stop(): Promise<void> {
    const nginx = this.nginx;
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
    }
    for (const p of [...this.apis, ...this.workers]) await killWorkerProcess(p.child);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
