/**
 * bounces: relay webhook events (issue 25) through the real server at a fixed rate: a mix of
 * Amazon SES through SNS (RSA signature, the certificate from a local HTTPS stand-in for SNS,
 * fetched once and cached), SendGrid (ECDSA), Mailgun (HMAC) and Postmark (basic auth), each
 * signed here beforehand; one event per request; 10% of the requests repeat an event posted a
 * moment earlier (as relays retry; Mailgun's repeat signed anew). Each event is verified, stored
 * raw once per provider event id (the request answered then) and applied once a moment later
 * (hard and soft bounces, complaints, deliveries, each to a delivery of its own).
 * Baseline: a bare Fastify route inserting the raw body into a table, in its own process, at the
 * same rate, same bodies, in the same run (bench/_support.ts, alternateRounds).
 *   npm run bench -- bounces [--size 100000] [--rate 1000] [--rounds 3] [--processes 1] [--profile DIR]
 * --processes N: each side as N processes (ours as N API processes, as the production layout runs
 * them), the requests spread over them in turn; --profile DIR: CPU profiles of both sides' servers.
 * The size is split over the rounds of ours (each round posts its own slice), so ours posts
 * `size` events in all; the baseline posts the same slices. value = the median round's p99 of
 * ours in ms; baseline = the baseline's; ratio = baseline ÷ ours. Each round also says what a
 * request cost: CPU of the side's server and of PostgreSQL (from /proc, on Linux), and WAL. After
 * the rounds it checks by SQL that every event was stored and applied exactly once.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  mailgunSignature,
  postmarkAuthorization,
  sendgridHeaders,
  sendgridKeyPair,
  signSns,
  snsCertificate,
} from '../apps/server/src/test/webhook-signer.ts';
import {
  admin,
  agent,
  alternateRounds,
  arg,
  dbUrl,
  loginToken,
  openLoop,
  percentile,
  postmasterPid,
  serverEnv,
  stopsWithBench,
  treeCpuMs,
  withSpread,
} from './_support.ts';

const size = arg('size', 100_000);
const rate = arg('rate', 1000);
const rounds = Math.max(3, arg('rounds', 3));
/** Processes a side (ours: API processes, as the production layout runs several; the baseline: as many bare ones). */
const processes = Math.max(1, arg('processes', 1));
/** A pause between rounds, once ours' rules are applied, for PostgreSQL's background writes to settle. */
const SETTLE_MS = 1000;
const WARM_UP = Math.min(1000, Math.max(100, Math.round(size / 100)));
const DB = 'yado_bench_bounces';
const DATA_DIR = '/tmp/yado-bench-bounces';
const PROVIDERS = ['ses', 'sendgrid', 'mailgun', 'postmark'] as const;
type TProvider = (typeof PROVIDERS)[number];
type TKind = 'hard_bounce' | 'soft_bounce' | 'complaint' | 'delivered';
/** Of every 10 events: 4 delivered, 3 hard bounces, 2 soft bounces, 1 complaint. */
const KINDS: TKind[] = [
  'delivered',
  'hard_bounce',
  'delivered',
  'soft_bounce',
  'delivered',
  'hard_bounce',
  'complaint',
  'delivered',
  'soft_bounce',
  'hard_bounce',
];

interface TPost {
  provider: TProvider;
  body: string;
  headers: Record<string, string>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits up to two minutes for the stored events left to apply (of `campaign`'s deliveries, or of
 * any) to be applied; says whether none is left.
 */
async function drained(db: pg.Pool, campaign?: string): Promise<boolean> {
  for (let i = 0; i < 240; i++) {
    const left = (
      await db.query(
        `select count(*)::int as n from relay_webhook_pending p
         where $1::uuid is null or exists (select from relay_webhook_events e join deliveries d on d.id = e.delivery_id
           where e.id = p.event_id and d.campaign_id = $1::uuid)`,
        [campaign ?? null],
      )
    ).rows[0].n as number;
    if (left === 0) return true;
    await sleep(500);
  }
  return false;
}

async function until(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const ok = await fetch(url)
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) return;
    if (child.exitCode !== null) throw new Error(`${url}: the server exited`);
    await sleep(500);
  }
  child.kill();
  throw new Error(`${url}: no answer`);
}

function post(port: number, path: string, p: TPost): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: p.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', reject);
    req.end(p.body);
  });
}

async function main(): Promise<void> {
  const ports = await Promise.all(Array.from({ length: processes }, () => freePort()));
  const barePorts = await Promise.all(Array.from({ length: processes }, () => freePort()));
  const port = ports[0] as number;
  const exists = await new pg.Client({ connectionString: dbUrl(DB) }).connect().then(
    (c) => c.end().then(() => true),
    () => false,
  );
  if (!exists) await admin(`create database ${DB}`);
  const url = dbUrl(DB);

  // The stand-in for SNS: a self-signed certificate (its TLS one is also the signing one).
  const dir = mkdtempSync(join(tmpdir(), 'yado-bench-sns-'));
  const { key: snsKey, cert, certFile } = snsCertificate(dir);
  const sns = createServer({ key: snsKey, cert }, (_request, response) => response.end(cert));
  await new Promise<void>((resolve) => sns.listen(0, '127.0.0.1', resolve));
  const certUrl = `https://localhost:${(sns.address() as net.AddressInfo).port}/SimpleNotificationService-bench.pem`;

  // --profile DIR: the server writes a CPU profile there when it stops (node --cpu-prof).
  const profile = process.argv.includes('--profile') ? process.argv[process.argv.indexOf('--profile') + 1] : null;
  const serverArgs = profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--import', 'tsx', 'apps/server/src/main.ts']
    : ['apps/server/src/main.ts'];
  const spawnOurs = (at: number, metrics: number) =>
    stopsWithBench(
      spawn(profile ? process.execPath : 'node_modules/.bin/tsx', serverArgs, {
        env: serverEnv(url, at, DATA_DIR, {
          WORKER_IN_PROCESS: 'false',
          METRICS_PORT: String(metrics),
          SNS_HOST_PATTERN: '^localhost:\\d+$',
          SNS_EXTRA_CA_FILE: certFile,
        }),
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
  const ours: ReturnType<typeof spawnOurs>[] = [];
  // The bare route keeps its idle connections a minute, as our server does (db/client.ts): with
  // pg's default of 10 s it closed them all while a round of ours ran, and the baseline's round
  // that followed opened ten new ones at its start (p99 70 to 500 ms, against 14 to 40 after its own).
  const bareSource = `
    import Fastify from 'fastify';
    import pg from 'pg';
    const pool = new pg.Pool({ connectionString: ${JSON.stringify(url)}, max: 10, idleTimeoutMillis: 60000 });
    await pool.query('create table if not exists bench_raw_webhooks (id bigserial primary key, body text not null, received_at timestamptz not null default now())');
    const app = Fastify({ bodyLimit: 1048576 });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    app.post('/hook/:provider', async (request) => {
      await pool.query('insert into bench_raw_webhooks (body) values ($1)', [request.body]);
      return { data: { ok: true } };
    });
    app.get('/healthz', async () => ({ ok: true }));
    // Stopped by the bench: exits normally, so a CPU profile (--profile) is written.
    process.on('SIGTERM', () => process.exit(0));
    await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  `;
  const bare = barePorts.map((at) =>
    stopsWithBench(
      spawn(
        process.execPath,
        [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}/bare`] : []), '--input-type=module', '-e', bareSource],
        {
          env: { ...process.env, PORT: String(at) },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      ),
    ),
  );
  try {
    // One at a time: the first migrates and seeds the new database, the others find it ready.
    for (const at of ports) {
      const child = spawnOurs(at, await freePort());
      ours.push(child);
      await until(`http://127.0.0.1:${at}/healthz`, child);
    }
    for (const [n, at] of barePorts.entries()) await until(`http://127.0.0.1:${at}/healthz`, bare[n]!);
    const db = new pg.Pool({ connectionString: url, max: 2 });
    const brand = (await db.query(`select id from hosts where slug = 'sakura-hotels'`)).rows[0].id as string;
    const domain =
      (
        (await db.query(`select sender_email from campaign_email_settings where host_id = $1`, [brand])).rows[0]
          ?.sender_email as string | undefined
      )?.split('@')[1] ?? 'sakura-hotels.example.jp';

    // One delivery per distinct event (the warm-up's and the rounds'), in a campaign of this run.
    // At most one distinct event per request (9 in 10 after the first 50 of a round).
    const unique = WARM_UP + size;
    const have = (
      await db.query(`select count(*)::int as n from customers where brand_id = $1 and phone like '0710%'`, [brand])
    ).rows[0].n as number;
    if (have < unique) {
      process.stdout.write(`seeding ${(unique - have).toLocaleString()} guests...\n`);
      await db.query(
        `insert into customers (brand_id, first_name, last_name, phone, email, consent_source)
         select $1, '花子', '鈴木', '0710' || lpad(g::text, 8, '0'), 'bounce' || g || '@guest.example.jp', 'booking_system'
         from generate_series($2::int + 1, $3::int) g`,
        [brand, have, unique],
      );
    }
    const tag = randomBytes(4).toString('hex');
    const campaign = (
      await db.query(
        `insert into campaigns (brand_id, host_id, name, subject, status, audience) values ($1, $1, $2, 'bench', 'sent', $3) returning id`,
        [brand, `bench-bounces ${tag}`, unique],
      )
    ).rows[0].id as string;
    const deliveries = (
      await db.query(
        `insert into deliveries (campaign_id, brand_id, customer_id, email, status, attempts, sent_at)
         select $1, brand_id, id, email, 'sent', 1, now() - interval '1 hour'
         from (select * from customers where brand_id = $2 and phone like '0710%' order by phone limit $3) c
         returning id, email`,
        [campaign, brand, unique],
      )
    ).rows as { id: string; email: string }[];

    // Events an earlier run stored and never applied (one stopped early, or run with its rules
    // off) would be applied by this server during the rounds: applied first, before anything is timed.
    if (!(await drained(db))) throw new Error('events of an earlier run are still unapplied after 2 minutes');

    // Statistics of the tables just seeded, as autovacuum would soon take them, and their pages
    // written out: else the analyze and the checkpoint after the seeding's writes (every page
    // touched first after it goes whole into the WAL) fall into the first round.
    await db.query('analyze customers, deliveries');
    await db.query('checkpoint');

    // The brand's webhooks, with keys and secrets of this run.
    const token = await loginToken(`http://127.0.0.1:${port}`);
    const sendgridKeys = sendgridKeyPair();
    const mailgunKey = `key-${randomBytes(16).toString('hex')}`;
    const postmarkSecret = randomBytes(16).toString('hex');
    const hooks = {} as Record<TProvider, string>;
    const settings: Record<TProvider, object> = {
      ses: {},
      sendgrid: { secret: sendgridKeys.verificationKey },
      mailgun: { secret: mailgunKey },
      postmark: { secret: postmarkSecret },
    };
    for (const provider of PROVIDERS) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/deliverability/relay-webhooks/${provider}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(settings[provider]),
      });
      const body = (await res.json()) as { data: { id: string } };
      if (!res.ok) throw new Error(`webhook ${provider}: ${res.status} ${JSON.stringify(body)}`);
      hooks[provider] = body.data.id;
    }

    let postmarkId = Date.now() * 10;
    /** The signed request of one event about delivery `d` (Mailgun's `id`: a repeat signed anew). */
    const eventOf = (n: number, d: { id: string; email: string }, eventId?: string): TPost & { eventId: string } => {
      const provider = PROVIDERS[n % 4] as TProvider;
      const kind = KINDS[Math.floor(n / 4) % 10] as TKind;
      const messageId = `<${d.id}.${campaign}@${domain}>`;
      const now = Math.floor(Date.now() / 1000);
      if (provider === 'ses') {
        const ses =
          kind === 'complaint'
            ? { notificationType: 'Complaint', complaint: { complaintFeedbackType: 'abuse' } }
            : kind === 'delivered'
              ? { notificationType: 'Delivery', delivery: { smtpResponse: '250 2.0.0 OK' } }
              : {
                  notificationType: 'Bounce',
                  bounce: {
                    bounceType: kind === 'hard_bounce' ? 'Permanent' : 'Transient',
                    bounceSubType: kind === 'hard_bounce' ? 'General' : 'MailboxFull',
                    bouncedRecipients: [
                      {
                        emailAddress: d.email,
                        action: 'failed',
                        status: kind === 'hard_bounce' ? '5.1.1' : '5.2.2',
                        diagnosticCode:
                          kind === 'hard_bounce' ? 'smtp; 550 5.1.1 user unknown' : 'smtp; 552 5.2.2 mailbox full',
                      },
                    ],
                  },
                };
        const message = signSns(
          {
            Type: 'Notification',
            MessageId: eventId ?? randomUUID(),
            TopicArn: 'arn:aws:sns:ap-northeast-1:123456789012:yado-bench',
            Message: JSON.stringify({
              ...ses,
              mail: { messageId: `ses-${n}`, source: `news@${domain}`, commonHeaders: { messageId } },
            }),
            Timestamp: new Date().toISOString(),
          },
          { key: snsKey, certUrl, version: '1' },
        );
        return {
          provider,
          eventId: message.MessageId,
          body: JSON.stringify(message),
          headers: { 'content-type': 'text/plain; charset=UTF-8' },
        };
      }
      if (provider === 'sendgrid') {
        const id = eventId ?? randomBytes(16).toString('base64url');
        const event =
          kind === 'complaint'
            ? { event: 'spamreport' }
            : kind === 'delivered'
              ? { event: 'delivered', response: '250 OK' }
              : kind === 'hard_bounce'
                ? { event: 'bounce', type: 'bounce', status: '5.1.1', reason: '550 5.1.1 user unknown' }
                : { event: 'bounce', type: 'bounce', status: '5.2.2', reason: '552 5.2.2 mailbox full' };
        const body = JSON.stringify([
          { email: d.email, timestamp: now, 'smtp-id': messageId, sg_event_id: id, ...event },
        ]);
        return { provider, eventId: id, body, headers: sendgridHeaders(body, sendgridKeys.privateKey, now) };
      }
      if (provider === 'mailgun') {
        const id = eventId ?? randomBytes(11).toString('base64url');
        const event =
          kind === 'complaint'
            ? { event: 'complained' }
            : kind === 'delivered'
              ? { event: 'delivered', 'delivery-status': { code: 250, message: 'OK' } }
              : {
                  event: 'failed',
                  severity: 'permanent',
                  reason: 'bounce',
                  'delivery-status':
                    kind === 'hard_bounce'
                      ? { code: 550, message: '5.1.1 user unknown' }
                      : { code: 552, message: '5.2.2 mailbox full' },
                };
        const body = JSON.stringify({
          signature: mailgunSignature(mailgunKey, { at: now }),
          'event-data': {
            id,
            timestamp: now,
            recipient: d.email,
            message: { headers: { 'message-id': messageId.slice(1, -1) } },
            ...event,
          },
        });
        return { provider, eventId: id, body, headers: { 'content-type': 'application/json' } };
      }
      const id = eventId ?? String((postmarkId += 1));
      const record =
        kind === 'complaint'
          ? { RecordType: 'SpamComplaint', ID: Number(id), Type: 'SpamComplaint' }
          : kind === 'delivered'
            ? { RecordType: 'Delivery', ID: Number(id), Details: '250 OK', Recipient: d.email }
            : {
                RecordType: 'Bounce',
                ID: Number(id),
                Type: kind === 'hard_bounce' ? 'HardBounce' : 'SoftBounce',
                Details: kind,
              };
      const body = JSON.stringify({
        ...record,
        MessageID: `pm-${id}`,
        Email: d.email,
        Metadata: { 'yado-delivery': d.id },
      });
      return {
        provider,
        eventId: id,
        body,
        headers: {
          'content-type': 'application/json',
          authorization: postmarkAuthorization(postmarkSecret),
        },
      };
    };

    /** n events over deliveries from `first`: every 10th repeats the event 50 posts before. */
    let nextDelivery = 0;
    const expected: Record<TKind, number> = { hard_bounce: 0, soft_bounce: 0, complaint: 0, delivered: 0 };
    const slice = (n: number): TPost[] => {
      const posts: (TPost & { eventId: string; n: number; d: { id: string; email: string } })[] = [];
      for (let i = 0; i < n; i++) {
        const earlier = posts[i - 50];
        if (i % 10 === 9 && earlier) {
          // A relay's retry: the same event (Mailgun signs each attempt anew).
          posts.push(
            earlier.provider === 'mailgun'
              ? { ...eventOf(earlier.n, earlier.d, earlier.eventId), n: earlier.n, d: earlier.d }
              : earlier,
          );
          continue;
        }
        const d = deliveries[nextDelivery] as { id: string; email: string };
        const k = nextDelivery++;
        expected[KINDS[Math.floor(k / 4) % 10] as TKind]++;
        posts.push({ ...eventOf(k, d), n: k, d });
      }
      return posts;
    };

    const pathOf = (p: TPost, side: 'ours' | 'bare') =>
      side === 'ours' ? `/v1/public/relay-webhooks/${p.provider}/${hooks[p.provider]}` : `/hook/${p.provider}`;
    const perRound = Math.ceil(size / rounds);
    let oursPosted = 0;
    // What a round cost per request, besides its latencies: the CPU of the side's server (its
    // process tree) and of PostgreSQL's processes, and the WAL written (pg_stat_wal; whole pages
    // too, as after a checkpoint). On two cores shared with this load, a side that takes twice the
    // CPU queues sooner, and the p99 says so long before the p50 does.
    const pids = { ours: ours.map((c) => c.pid), bare: bare.map((c) => c.pid), postgres: await postmasterPid(db) };
    const cpuOf = (side: 'ours' | 'bare') => pids[side].reduce((sum: number, pid) => sum + treeCpuMs(pid), 0);
    const walOf = async () =>
      (
        await db.query(
          `select wal_bytes::float8 as bytes, wal_fpi::float8 as fpi, wal_buffers_full::float8 as full from pg_stat_wal`,
        )
      ).rows[0] as { bytes: number; fpi: number; full: number };
    const sideOf = (posts: TPost[], side: 'ours' | 'bare') => async () => {
      const wal = await walOf();
      const cpu = { server: cpuOf(side), pg: treeCpuMs(pids.postgres) };
      const r = await openLoop(rate, posts.length / rate, (i) => {
        const p = posts[i] as TPost;
        if (side === 'ours') oursPosted++;
        // Spread over the side's processes in turn, as a proxy's round robin would.
        return post((side === 'ours' ? ports : barePorts)[i % processes] as number, pathOf(p, side), p);
      });
      // Ours' rules follow its answers by a moment: their work is counted in its round (CPU, WAL)
      // and done before the next round starts, whichever side that is (left running, it fell into
      // the next round and out of ours' figures).
      await drained(db);
      const walAfter = await walOf();
      const cpuAfter = { server: cpuOf(side), pg: treeCpuMs(pids.postgres) };
      await sleep(SETTLE_MS);
      return {
        ...r,
        cpu: {
          server: ((cpuAfter.server - cpu.server) * 1000) / r.sent,
          pg: ((cpuAfter.pg - cpu.pg) * 1000) / r.sent,
        },
        wal: {
          bytes: (walAfter.bytes - wal.bytes) / r.sent,
          fpi: (walAfter.fpi - wal.fpi) / r.sent,
          buffersFull: walAfter.full - wal.full,
        },
      };
    };
    // Each round signs its events just before it runs (timestamps within the window).
    const p = (r: { latencies: number[] }, q: number) => percentile(r.latencies, q).toFixed(1);
    // Each round's slice is signed when the first side needs it (timestamps within the window);
    // the other side posts the same bodies.
    const slices: TPost[][] = [];
    const sliceFor = (round: number): TPost[] =>
      (slices[round] ??= slice(Math.max(0, Math.min(perRound, size - round * perRound))));
    let oursRound = 0;
    let bareRound = 0;
    const warm = slice(WARM_UP);
    const result = await alternateRounds({
      rounds,
      warmUp: { ours: sideOf(warm, 'ours'), baseline: sideOf(warm, 'bare') },
      ours: () => sideOf(sliceFor(oursRound++), 'ours')(),
      baseline: () => sideOf(sliceFor(bareRound++), 'bare')(),
      measure: (r) => percentile(r.latencies, 99),
      label: (r) =>
        `p50=${p(r, 50)} ms p90=${p(r, 90)} p95=${p(r, 95)} p98=${p(r, 98)} p99=${p(r, 99)} ms errors=${r.errors}/${r.sent} achieved=${(r.sent / r.seconds).toFixed(0)} req/s` +
        `; per request: CPU ${r.cpu.server.toFixed(0)} µs server + ${r.cpu.pg.toFixed(0)} µs PostgreSQL` +
        `, WAL ${(r.wal.bytes / 1024).toFixed(2)} KB (${r.wal.fpi.toFixed(2)} whole pages), WAL buffers full ${r.wal.buffersFull}x`,
    });

    // The relay is answered once an event is stored; its rules are applied a moment later.
    await drained(db, campaign);
    // Exactly once, by SQL: one stored webhook event and one feedback event per distinct event.
    const distinct = nextDelivery;
    const stored = (
      await db.query(
        `select count(*)::int as n, count(distinct delivery_id)::int as d from relay_webhook_events e
         where e.delivery_id in (select id from deliveries where campaign_id = $1)`,
        [campaign],
      )
    ).rows[0] as { n: number; d: number };
    const applied = (
      await db.query(
        `select kind, count(*)::int as n, count(distinct delivery_id)::int as d from feedback_events
         where campaign_id = $1 and source = 'webhook' group by kind order by kind`,
        [campaign],
      )
    ).rows as { kind: TKind; n: number; d: number }[];
    const appliedTotal = applied.reduce((a, r) => a + r.n, 0);
    const kindsOk = applied.every((r) => r.n === r.d && r.n === expected[r.kind]);
    process.stdout.write(
      `posted to ours ${oursPosted.toLocaleString()} requests (${distinct.toLocaleString()} distinct events, the rest repeats), ` +
        `stored ${stored.n.toLocaleString()} (deliveries ${stored.d.toLocaleString()}), applied ${appliedTotal.toLocaleString()} ` +
        `(${applied.map((r) => `${r.kind} ${r.n}`).join(', ')}; expected ${Object.entries(expected)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})\n`,
    );
    const exact = stored.n === distinct && stored.d === distinct && appliedTotal === distinct && kindsOk;
    process.stdout.write(
      exact ? 'every event applied exactly once\n' : 'WARNING: not every event applied exactly once\n',
    );
    await db.end();
    process.stdout.write(
      `ours     p99 ${withSpread(result.ours, 'ms')}, median round: p50=${p(result.ours.medianRound, 50)} ms errors=${result.ours.medianRound.errors}/${result.ours.medianRound.sent}\n`,
    );
    process.stdout.write(
      `baseline p99 ${withSpread(result.baseline, 'ms')}, median round: p50=${p(result.baseline.medianRound, 50)} ms errors=${result.baseline.medianRound.errors}/${result.baseline.medianRound.sent}\n`,
    );
    process.stdout.write(
      `BENCH bounces value=${result.ours.median.toFixed(1)} unit=ms baseline=${result.baseline.median.toFixed(1)} ratio=${(result.baseline.median / result.ours.median).toFixed(2)}\n`,
    );
  } finally {
    for (const child of [...ours, ...bare]) child.kill('SIGTERM');
    sns.close();
    if (profile)
      await Promise.all([...ours, ...bare].map((child) => new Promise((resolve) => child.once('exit', resolve))));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
