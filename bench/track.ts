/**
 * track: click redirects through the real server at a fixed request rate: each request a signed
 * click URL of one of N deliveries (default 100,000), checked (HMAC), recorded in a batch and
 * redirected. Baseline: a bare Fastify server answering the same URLs with the same 302 (the
 * address read from the token, no check, nothing recorded), in its own process like ours, at the
 * same rate, in the same run (bench/_support.ts, alternateRounds).
 *   npm run bench -- track [--size N] [--rate 2000] [--seconds 10] [--rounds 3]
 * value = the median round's p99 of ours in ms; baseline = the baseline's median round p99;
 * ratio = baseline ÷ ours (1.0: as fast as a bare redirect). After the rounds it checks that every
 * click of ours reached the event log and the rollups. It also prints each side's server CPU time
 * per request (the process and its children, from /proc, the median of the rounds): on a
 * loaded machine the latencies say more about the neighbours than about us, the CPU a request
 * costs does not. Ours includes its batched event writes (PostgreSQL's own work is not counted).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { signClick, trackingKeys } from '../apps/server/src/modules/tracking/links.ts';
import {
  admin,
  agent,
  alternateRounds,
  arg,
  dbUrl,
  openLoop,
  percentile,
  serverEnv,
  stopsWithBench,
  treeCpuMs,
  withSpread,
  type TLoadResult,
} from './_support.ts';

const size = arg('size', 100_000);
const rate = arg('rate', 2000);
const seconds = arg('seconds', 10);
const rounds = arg('rounds', 3);
// Free ports chosen at start (other checkouts on this machine run servers of their own).
let port = 0;
let barePort = 0;
const DB = 'yado_bench_track';
const DATA_DIR = '/tmp/yado-bench-track';
const LINKS = [
  'https://sakura-hotels.example.jp/summer?utm_source=yado&utm_campaign=summer',
  'https://sakura-hotels.example.jp/rooms/deluxe',
  'https://sakura-hotels.example.jp/access',
];

/** The real server, as its own process; every click recorded (no per-delivery cap for a bench that repeats links). */
async function startOurs(url: string): Promise<ReturnType<typeof spawn>> {
  const child = stopsWithBench(
    spawn('node_modules/.bin/tsx', ['apps/server/src/main.ts'], {
      env: serverEnv(url, port, DATA_DIR, {
        TRACKING_EVENTS_PER_MINUTE: '10000000',
        // An API process, as behind a load balancer: jobs run in worker processes of their own.
        WORKER_IN_PROCESS: 'false',
      }),
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  await until(`http://127.0.0.1:${port}/healthz`, child);
  return child;
}

/** A bare Fastify server with one redirect route, in its own process. */
async function startBare(): Promise<ReturnType<typeof spawn>> {
  const source = `
    import Fastify from 'fastify';
    const app = Fastify({ routerOptions: { maxParamLength: 4096 } });
    app.get('/t/c/:token', async (request, reply) => {
      const url = Buffer.from(request.params.token.split('.')[2] ?? '', 'base64url').toString('utf8');
      return reply.redirect(url, 302);
    });
    await app.listen({ port: ${barePort}, host: '127.0.0.1' });
  `;
  const child = stopsWithBench(
    spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  await until(
    `http://127.0.0.1:${barePort}/t/c/x.0.${Buffer.from('https://a.example/').toString('base64url')}.x`,
    child,
  );
  return child;
}

async function until(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(url, { redirect: 'manual' })
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) return;
    if (child.exitCode !== null) throw new Error(`${url}: the server exited`);
    await sleep(500);
  }
  child.kill();
  throw new Error(`${url}: no answer`);
}

async function seed(url: string): Promise<{ campaignId: string; deliveries: string[] }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const brand = (await c.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    const hotel = (await c.query(`select id from hosts where slug = 'sakura-shinjuku'`)).rows[0].id as string;
    let campaign = (await c.query(`select id from campaigns where name = 'bench-track'`)).rows[0]?.id as
      string | undefined;
    const have = campaign
      ? ((await c.query(`select count(*)::int as n from deliveries where campaign_id = $1`, [campaign])).rows[0]
          .n as number)
      : 0;
    if (!campaign || have !== size) {
      process.stdout.write(`seeding a campaign to ${size.toLocaleString()} guests...\n`);
      await c.query(`delete from campaigns where name = 'bench-track'`);
      await c.query(`delete from customers where brand_id = $1 and phone like '0700%'`, [brand]);
      await c.query(
        `insert into customers (brand_id, first_name, last_name, phone, email, address, consent_source)
         select $1, '太郎', '山田', '0700' || lpad(g::text, 8, '0'), 'track' || g || '@example.jp', '東京都新宿区', 'booking_system'
         from generate_series(1, $2::int) g`,
        [brand, size],
      );
      campaign = (
        await c.query(
          `insert into campaigns (brand_id, host_id, name, subject, status, audience) values ($1, $2, 'bench-track', 'bench', 'sent', $3) returning id`,
          [brand, hotel, size],
        )
      ).rows[0].id as string;
      await c.query(
        `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, attempts, sent_at)
         select $1, brand_id, id, $2, email, 'sent', 1, now() - interval '1 day' from customers where brand_id = $3 and phone like '0700%'`,
        [campaign, hotel, brand],
      );
    }
    const deliveries = (await c.query(`select id from deliveries where campaign_id = $1`, [campaign])).rows.map(
      (r) => r.id as string,
    );
    return { campaignId: campaign, deliveries };
  } finally {
    await c.end();
  }
}

function redirect(url: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'user-agent': 'Mozilla/5.0 (bench) Safari/605.1.15' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 302 && typeof res.headers.location === 'string'));
    });
    req.on('error', reject);
  });
}

/** Runs a round and notes the server's CPU per request (µs) beside it. */
async function withCpu(
  pid: number | undefined,
  into: number[],
  round: () => Promise<TLoadResult>,
): Promise<TLoadResult> {
  const before = treeCpuMs(pid);
  const result = await round();
  into.push(((treeCpuMs(pid) - before) * 1e3) / result.sent);
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
}

async function main(): Promise<void> {
  port = arg('port', await freePort());
  barePort = arg('bare-port', await freePort());
  const exists = await new pg.Client({ connectionString: dbUrl(DB) }).connect().then(
    () => true,
    () => false,
  );
  if (!exists) await admin(`create database ${DB}`);
  const url = dbUrl(DB);
  const ours = await startOurs(url);
  const bare = await startBare();
  try {
    const { campaignId, deliveries } = await seed(url);
    // The server's secret, as the embedded mode keeps it: the bench signs like the sender does.
    const keys = trackingKeys(readFileSync(`${DATA_DIR}/jwt.secret`, 'utf8').trim());
    const paths = Array.from({ length: Math.min(deliveries.length * LINKS.length, 200_000) }, (_, i) => {
      const link = i % LINKS.length;
      return `/t/c/${signClick(keys, deliveries[Math.floor(i / LINKS.length) % deliveries.length] as string, link, LINKS[link] as string)}`;
    });
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const clicksBefore = (
      await pool.query(`select coalesce(sum(clicks), 0)::int as n from campaign_stats where campaign_id = $1`, [
        campaignId,
      ])
    ).rows[0].n as number;

    let sentOurs = 0;
    const oursSide = (offset: number) => async (i: number) => {
      sentOurs++;
      return redirect(`http://127.0.0.1:${port}${paths[(offset + i) % paths.length]}`);
    };
    const bareSide = (offset: number) => async (i: number) =>
      redirect(`http://127.0.0.1:${barePort}${paths[(offset + i) % paths.length]}`);
    let round = 0;
    const cpuOurs: number[] = [];
    const cpuBare: number[] = [];
    const p = (r: TLoadResult, q: number) => percentile(r.latencies, q).toFixed(1);
    const result = await alternateRounds({
      rounds,
      warmUp: {
        ours: () => openLoop(Math.min(rate, 500), 2, oursSide(0)),
        baseline: () => openLoop(Math.min(rate, 500), 2, bareSide(0)),
      },
      ours: () => withCpu(ours.pid, cpuOurs, () => openLoop(rate, seconds, oursSide(++round * 7919))),
      baseline: () => withCpu(bare.pid, cpuBare, () => openLoop(rate, seconds, bareSide(++round * 7919))),
      measure: (r) => percentile(r.latencies, 99),
      label: (r) =>
        `p50=${p(r, 50)} ms p99=${p(r, 99)} ms errors=${r.errors}/${r.sent} achieved=${(r.sent / r.seconds).toFixed(0)} req/s`,
    });

    // Every click of ours is in the rollups once its batch is written (within a second).
    let recorded = 0;
    for (let i = 0; i < 40; i++) {
      recorded =
        ((
          await pool.query(`select coalesce(sum(clicks), 0)::int as n from campaign_stats where campaign_id = $1`, [
            campaignId,
          ])
        ).rows[0].n as number) - clicksBefore;
      if (recorded >= sentOurs) break;
      await sleep(500);
    }
    await pool.end();
    process.stdout.write(`clicks sent to ours ${sentOurs}, recorded in the rollups ${recorded}\n`);
    process.stdout.write(
      `ours     p99 ${withSpread(result.ours, 'ms')}, median round: p50=${p(result.ours.medianRound, 50)} ms errors=${result.ours.medianRound.errors}/${result.ours.medianRound.sent}\n`,
    );
    process.stdout.write(
      `baseline p99 ${withSpread(result.baseline, 'ms')}, median round: p50=${p(result.baseline.medianRound, 50)} ms errors=${result.baseline.medianRound.errors}/${result.baseline.medianRound.sent}\n`,
    );
    process.stdout.write(
      `server CPU per request: ours ${median(cpuOurs).toFixed(0)} µs (rounds ${cpuOurs.map((c) => c.toFixed(0)).join(', ')}), baseline ${median(cpuBare).toFixed(0)} µs (rounds ${cpuBare.map((c) => c.toFixed(0)).join(', ')})\n`,
    );
    if (recorded !== sentOurs) process.stdout.write(`WARNING: ${sentOurs - recorded} clicks not recorded\n`);
    process.stdout.write(
      `BENCH track value=${result.ours.median.toFixed(1)} unit=ms baseline=${result.baseline.median.toFixed(1)} ratio=${(result.baseline.median / result.ours.median).toFixed(2)}\n`,
    );
  } finally {
    ours.kill('SIGTERM');
    bare.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
