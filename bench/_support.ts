import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * The bench's own database, created on first use and kept, so a later run reuses what it seeded.
 * `--db NAME` picks another (a trial at a small size then leaves the full-size data alone).
 */
export async function benchDatabase(fallback: string): Promise<string> {
  const i = process.argv.indexOf('--db');
  const name =
    i >= 0 && /^[a-z_][a-z0-9_]*$/.test(process.argv[i + 1] ?? '') ? (process.argv[i + 1] as string) : fallback;
  const url = dbUrl(name);
  const exists = await new pg.Client({ connectionString: url }).connect().then(
    (client) => client.end().then(() => true),
    () => false,
  );
  if (!exists) await admin(`create database ${name}`);
  return url;
}

/** The demo brand the server seeds (sakura-hotels) and its hotels, by slug. */
export async function demoBrand(db: pg.Client | pg.Pool): Promise<{ brand: string; hotels: string[] }> {
  const brand = (await db.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
  const hotels = (
    await db.query(`select id from hosts where brand_id = $1 and level = 'hotel' order by slug`, [brand])
  ).rows.map((r) => r.id as string);
  return { brand, hotels };
}

/**
 * Seeds a bench database unless it already holds what the bench wants (`seeded` says), so runs
 * after the first reuse the data; says what it seeds and how long it took.
 */
export async function seedOnce(
  url: string,
  what: string,
  seeded: (c: pg.Client) => Promise<boolean>,
  seed: (c: pg.Client, demo: { brand: string; hotels: string[] }) => Promise<void>,
): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    if (await seeded(c)) return;
    process.stdout.write(`seeding ${what}...\n`);
    const t0 = Date.now();
    await seed(c, await demoBrand(c));
    process.stdout.write(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  } finally {
    await c.end();
  }
}

/** How many rows a table holds (for `seedOnce`'s check). */
export async function countRows(c: pg.Client, table: string): Promise<number> {
  return ((await c.query(`select count(*)::int as n from ${table}`)).rows[0] as { n: number }).n;
}

/** A bearer token of a demo user (the brand admin unless told). */
export async function loginToken(
  base: string,
  email = 'brand.admin@demo.test',
  password = 'demo-pass-1',
): Promise<string> {
  const res = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data?: { accessToken: string }; error?: unknown };
  if (!body.data) throw new Error(`login as ${email}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.data.accessToken;
}

/**
 * The processes a bench starts (its server, a bare baseline, an SMTP sink) stop with it however it
 * ends: normally, on an error, or stopped from outside (Ctrl-C, `timeout`). Left running, they kept
 * their ports and their connections to the bench's database, and the next run met them.
 */
const children = new Set<ChildProcess>();
export function stopsWithBench<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
process.once('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * The environment of the real server as a bench starts it: on the bench's database and port, the
 * demo organisation seeded, no console, warnings only, and a booking system that points nowhere
 * (no demo brand connected, no sync adding customers mid-run); `extra` for a bench's own settings.
 */
export function serverEnv(
  databaseUrl: string,
  port: number,
  dataDir: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    WEB_DIST: '/nonexistent',
    DATA_DIR: dataDir,
    BOOKING_API_URL: 'http://127.0.0.1:9',
    ...extra,
  };
}

/**
 * The real server as its own process (as in production), on the given database. The booking
 * system points nowhere, so no demo brand is connected and no sync adds customers mid-run.
 */
export async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = stopsWithBench(
    spawn('node_modules/.bin/tsx', ['apps/server/src/main.ts'], {
      env: serverEnv(databaseUrl, port, '/tmp/yado-bench'),
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  // Ten minutes: a new migration's backfill over a seeded million customers runs before it listens.
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 1200 && !exited; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await sleep(500);
  }
  child.kill();
  throw new Error(exited ? 'server exited before it listened' : 'server did not start in ten minutes');
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
export async function openLoop(
  rate: number,
  seconds: number,
  send: (i: number) => Promise<boolean>,
): Promise<TLoadResult> {
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
  return {
    latencies: latencies.sort((a, b) => a - b),
    errors,
    sent: total,
    seconds: (performance.now() - start) / 1000,
  };
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

/** One side's rounds: each round's measure (a p99, say), their median and the spread around it. */
export interface TSideRounds<R = TLoadResult> {
  values: number[];
  median: number;
  min: number;
  max: number;
  /** The round whose measure is the median, for its other figures (p50, errors, achieved rate). */
  medianRound: R;
  /** Every round's result, in the order run. */
  rounds: R[];
}

function sideOf<R>(results: R[], measure: (r: R) => number): TSideRounds<R> {
  const values = results.map(measure);
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const [median, at] = order[Math.floor((order.length - 1) / 2)] as readonly [number, number];
  return {
    values,
    median,
    min: order[0]![0],
    max: order[order.length - 1]![0],
    medianRound: results[at] as R,
    rounds: results,
  };
}

/**
 * A fair comparison of ours against the baseline (docs/benchmarks.md, "Method"):
 * 1. warm-up: both sides run the same request sequence once, unmeasured, so neither meets caches
 *    (PostgreSQL's buffers, the OS page cache, prepared statements, the JIT of V8) the other
 *    filled first;
 * 2. rounds: alternated in pairs whose order flips (ours, baseline, baseline, ours, ...), so a
 *    drift of the machine (another process waking up, caches warming further) falls on both sides;
 *    at least three per side;
 * 3. the verdict: each side's median round, and the spread (lowest and highest round) printed
 *    beside it, so one disturbed round neither makes nor breaks the result.
 */
export async function alternateRounds<R = TLoadResult>(options: {
  rounds: number;
  warmUp: { ours: () => Promise<unknown>; baseline: () => Promise<unknown> };
  ours: () => Promise<R>;
  baseline: () => Promise<R>;
  measure: (r: R) => number;
  label: (r: R) => string;
}): Promise<{ ours: TSideRounds<R>; baseline: TSideRounds<R> }> {
  const rounds = Math.max(3, Math.round(options.rounds));
  process.stdout.write('warming up both sides on the same requests...\n');
  await options.warmUp.ours();
  await options.warmUp.baseline();
  const ours: R[] = [];
  const baseline: R[] = [];
  const run = async (side: 'ours' | 'baseline', round: number) => {
    const result = await (side === 'ours' ? options.ours() : options.baseline());
    (side === 'ours' ? ours : baseline).push(result);
    process.stdout.write(`round ${round} ${side.padEnd(8)} ${options.label(result)}\n`);
  };
  for (let i = 0; i < rounds; i++) {
    const first = i % 2 === 0 ? 'ours' : 'baseline';
    await run(first, i + 1);
    await run(first === 'ours' ? 'baseline' : 'ours', i + 1);
  }
  return { ours: sideOf(ours, options.measure), baseline: sideOf(baseline, options.measure) };
}

/** "7.0 ms (6.1 to 9.3 over 3 rounds)": a median with its spread. */
export const withSpread = (side: TSideRounds<unknown>, unit: string, digits = 1) =>
  `${side.median.toFixed(digits)} ${unit} (${side.min.toFixed(digits)} to ${side.max.toFixed(digits)} over ${side.values.length} rounds)`;

/**
 * `size` guests of the brand, all allocated to one hotel, in two statements: names from a short
 * list, phones 090 and the number, addresses guest<n>@<domain> (send bench, experiment story).
 */
export async function seedGuests(
  db: pg.Client | pg.Pool,
  { brandId, hotelId, size, domain }: { brandId: string; hotelId: string; size: number; domain: string },
): Promise<void> {
  await db.query(
    `insert into customers (brand_id, first_name, last_name, phone, email)
     select $1, (array['太郎','花子','健太','美咲','Emily'])[1 + g % 5], (array['山田','佐藤','鈴木','Smith'])[1 + g % 4],
       '090' || lpad(g::text, 8, '0'), 'guest' || g || '@' || $3 from generate_series(1, $2::int) g`,
    [brandId, size, domain],
  );
  await db.query(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select id, $2, $1, 'manual' from customers where brand_id = $1`,
    [brandId, hotelId],
  );
}

/** CPU time spent between `cpuWindow()` and its `end()`: this process's, and the whole machine's (Linux). */
export function cpuWindow(): { end(): { processMs: number; machineMs: number | null } } {
  const machineBusy = (): number | null => {
    try {
      // The first line of /proc/stat: user nice system idle iowait irq softirq steal, in clock ticks (1/100 s).
      const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
      const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = ticks;
      return (user + nice + system + irq + softirq) * 10;
    } catch {
      return null;
    }
  };
  const process0 = process.cpuUsage();
  const machine0 = machineBusy();
  return {
    end() {
      const used = process.cpuUsage(process0);
      const machine = machineBusy();
      return {
        processMs: (used.user + used.system) / 1000,
        machineMs: machine === null || machine0 === null ? null : machine - machine0,
      };
    },
  };
}

/**
 * CPU time (user and system, in ms) used so far by a process and its descendants, read from /proc
 * (Linux; 0 where there is none), the children it has waited for included (PostgreSQL's postmaster
 * and its backends that have ended). Two readings make a cost: per request, what a rate's latency
 * hides, since a side whose requests take twice the CPU queues sooner on a machine of few cores.
 */
export function treeCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime and cstime are fields 14 to 17 of the line, 12 to 15 after the name.
    let ms = ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) ms += treeCpuMs(Number(child));
    }
    return ms;
  } catch {
    return 0;
  }
}

/** PostgreSQL's postmaster, whose tree is every PostgreSQL process: the parent of `db`'s backend (Linux). */
export async function postmasterPid(db: pg.Client | pg.Pool): Promise<number | undefined> {
  const backend = (await db.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  try {
    const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}
