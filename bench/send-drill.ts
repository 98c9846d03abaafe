/**
 * send-drill (issue 24, "The drill"): the production layout (test/production-layout.ts: nginx in
 * front of 2 API processes, 3 worker processes, one PostgreSQL) sends a campaign to N guests
 * (default 20,000) on a fresh database, into an SMTP sink of this process that counts what it
 * receives, while the drill disturbs it: it SIGKILLs the sending worker 20 times (each started
 * again), SIGTERMs it once, SIGKILLs an API process (started again), pauses and resumes the
 * campaign 3 times through the API via nginx, and unsubscribes 200 guests through the API (the
 * one-click POST, as a mail provider makes it).
 *
 *   npm run bench -- send-drill [--size 20000] [--kills 20] [--unsubscribes 200] [--keep]
 *
 * First, the same layout sends a campaign of the same size to the same guests undisturbed: msg/s
 * undisturbed (first to last mail the sink accepted). Then the drill's campaign. Pacing: the
 * disturbances are spaced by mails, not seconds, so they fall inside the send whatever its speed:
 * the first right after the sink accepts the campaign's first mail, each next one once the sink
 * has accepted GAP more mails since the previous one ended (a kill ends when the next mail
 * arrives), GAP = 60% of the audience over the disturbances (about 460 mails at 20,000). The
 * unsubscribes go one per 70% of the audience / 200 mails accepted (every 70 at 20,000): half
 * from the List-Unsubscribe address of a mail of this campaign the sink received (a guest mailed
 * already), half for a guest this campaign has not mailed yet (a delivery never handed), through
 * the List-Unsubscribe address of the undisturbed campaign's mail to them.
 * A killed worker is started again at once after even kills (as a supervisor does), and only
 * after the send went on without it after odd kills (so the recovery is the other workers'
 * takeover when its lease lapses).
 *
 * The sink tells deliveries apart by their Message-ID (<delivery.campaign@domain>). Prints: lost
 * (must be 0: a guest not unsubscribed who got nothing, or a delivery counted sent that the sink
 * never got), repeats in total and per kill (each put on the kill nearest its first copy; target
 * at most 10 per kill with the default pool of 5 connections), mails begun (MAIL FROM) after the
 * guest's unsubscribe was answered (must be 0), the product's sent count (the statistics API and
 * the campaign's own statistics) against the sink's distinct deliveries (must be equal), recovery
 * after each kill (from the kill to the next mail begun after it and accepted; target 15 s),
 * SIGTERM exit time (target 10 s), msg/s undisturbed, and the load average through the run. The
 * campaign must finish and every disturbance must land inside its send. Exits 1 when a must-be
 * figure fails. DRILL_DEBUG=1 shows every process's output; DRILL_DUMP=1 writes the repeated
 * deliveries and the kills to /tmp/send-drill-debug.json.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../apps/server/src/config.ts';
import { startRuntime } from '../apps/server/src/start.ts';
import { resolveSendingIdentity } from '../apps/server/src/modules/sending/email-settings.ts';
import { headerLinesOf } from '../apps/server/src/mail/raw-message.ts';
import { ProductionLayout } from '../apps/server/src/test/production-layout.ts';
import { stopWorkerProcess, killWorkerProcess } from '../apps/server/src/test/worker-process.ts';
import { admin, arg, dbUrl, demoBrand, loginToken, percentile } from './_support.ts';

const size = arg('size', 20_000);
const KILLS = arg('kills', 20);
const UNSUBSCRIBES = arg('unsubscribes', 200);
const PAUSED_MS = 3000;
const DB = 'yado_bench_drill';
const DATA_DIR = '/tmp/yado-bench-drill';
const JWT_SECRET = 'send-drill-jwt-secret-'.padEnd(48, 'x');
const NGINX = '127.0.0.3';
/** nodemailer's pool when SMTP_URL names the relay: the "default pool" of the repeat target. */
const DEFAULT_POOL = 5;
const TARGET = { repeatsPerKill: 2 * DEFAULT_POOL, recoveryMs: 15_000, termExitMs: 10_000 };

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 23)} ${line}\n`);

// ---- the sink: an SMTP server of its own, counting what it accepts ----

interface TArrival {
  /** When the SMTP transaction began (MAIL FROM) and when the message was accepted (after DATA). */
  began: number;
  at: number;
  rcpt: string;
  deliveryId: string | null;
  campaignId: string | null;
  unsubscribeUrl: string | null;
}

class CountingSink {
  readonly arrivals: TArrival[] = [];
  private readonly listeners = new Set<(a: TArrival) => void>();
  private server: SMTPServer | null = null;
  port = 0;

  async start(): Promise<void> {
    const began = new WeakMap<object, number>();
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      banner: 'send-drill counting sink',
      onMailFrom: (_address, session, callback) => {
        began.set(session, Date.now());
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const headers = headerLinesOf(Buffer.concat(chunks));
          // Message-ID <delivery.campaign@domain> (compose-message.ts, messageIdOf).
          const id = /<([0-9a-f-]{36})\.([0-9a-f-]{36})@/.exec(
            headers.find((h) => h.key === 'message-id')?.value ?? '',
          );
          const unsubscribe = /<(https?:[^>]+)>/.exec(headers.find((h) => h.key === 'list-unsubscribe')?.value ?? '');
          const arrival: TArrival = {
            began: began.get(session) ?? Date.now(),
            at: Date.now(),
            rcpt: session.envelope.rcptTo[0]?.address.toLowerCase() ?? '',
            deliveryId: id?.[1] ?? null,
            campaignId: id?.[2] ?? null,
            unsubscribeUrl: unsubscribe?.[1] ?? null,
          };
          this.arrivals.push(arrival);
          for (const l of this.listeners) l(arrival);
          callback();
        });
      },
    });
    this.server.on('error', () => undefined);
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  of(campaignId: string): TArrival[] {
    return this.arrivals.filter((a) => a.campaignId === campaignId);
  }

  /**
   * The first mail of the campaign begun (MAIL FROM) after `after` and accepted, or null after
   * `timeoutMs`. Begun, not only accepted: a killed worker's last mails may still be taken in
   * after its death, and they are not the send going on.
   */
  next(campaignId: string, after: number, timeoutMs: number): Promise<TArrival | null> {
    const found = this.arrivals.find((a) => a.campaignId === campaignId && a.began > after);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const listener = (a: TArrival) => {
        if (a.campaignId !== campaignId || a.began <= after) return;
        this.listeners.delete(listener);
        clearTimeout(timer);
        resolve(a);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        resolve(null);
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** Resolves once the campaign's accepted mails reach `count` (or `stop()` says to give up). */
  async reach(campaignId: string, count: number, stop: () => boolean): Promise<boolean> {
    while (this.of(campaignId).length < count) {
      if (stop()) return false;
      await sleep(50);
    }
    return true;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

// ---- HTTP through nginx, retried as a client would when a proxied API dies under it ----

let proxyErrors = 0;

async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; form?: string } = {},
): Promise<{ status: number; json: any }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const headers: Record<string, string> = {};
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = init.form;
      } else if (init.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(init.body);
      }
      const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
      const text = await res.text();
      if (res.status >= 502 && res.status <= 504 && attempt < 20) {
        proxyErrors++;
        await sleep(250);
        continue;
      }
      let json: any = null;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: res.status, json };
    } catch (error) {
      proxyErrors++;
      if (attempt >= 20) throw error;
      await sleep(250);
    }
  }
}

// ---- the drill ----

type TEvent =
  | { kind: 'kill'; n: number; restart: 'at once' | 'after recovery' }
  | { kind: 'term' }
  | { kind: 'api' }
  | { kind: 'pause'; n: number };

interface TKillResult {
  n: number;
  restart: string;
  at: number;
  recoveryMs: number | null;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const seconds = (ms: number | null) => (ms === null ? 'none' : `${(ms / 1000).toFixed(1)} s`);

async function main(): Promise<void> {
  const started = Date.now();
  await admin(`drop database if exists ${DB} with (force)`);
  await admin(`create database ${DB}`);
  rmSync(DATA_DIR, { recursive: true, force: true });
  const url = dbUrl(DB);

  // The demo organisation and さくらホテルズ' verified sending domain (embedded DNS), as on a first start.
  const seedEnv = {
    DATABASE_URL: url,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATA_DIR,
    JWT_SECRET,
    WEB_DIST: '/nonexistent',
    BOOKING_API_URL: 'http://127.0.0.1:9',
  };
  const seeding = await startRuntime(loadConfig(seedEnv, {}), { bookingSim: false });
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const q = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
  const { brand } = await demoBrand(pool);
  try {
    const resolution = await resolveSendingIdentity(seeding, brand);
    if (!resolution.ok) throw new Error(`the demo brand cannot send: ${resolution.problems.join(', ')}`);
  } finally {
    await seeding.stop();
  }
  const [hotel] = await q(`select id from hosts where slug = 'sakura-shinjuku'`);
  // Sends at any hour; two campaigns to the same guests within the frequency cap.
  await q(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00', frequency_cap_count = 100 where host_id = $1`,
    [brand],
  );
  log(`seeding ${size.toLocaleString()} guests...`);
  await q(
    `insert into customers (brand_id, first_name, last_name, phone, email)
     select $1, (array['太郎','花子','健太','美咲','Emily'])[1 + g % 5], (array['山田','佐藤','鈴木','Smith'])[1 + g % 4],
       '090' || lpad(g::text, 8, '0'), 'guest' || g || '@drill.example.jp' from generate_series(1, $2::int) g`,
    [brand, size],
  );
  await q(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
     select id, $2, $1, 'manual' from customers where brand_id = $1 and email like '%@drill.example.jp'`,
    [brand, hotel.id],
  );
  await q('analyze');

  const sink = new CountingSink();
  await sink.start();
  log('starting the layout: nginx, 2 API processes, 3 worker processes...');
  const layout = await ProductionLayout.start({
    env: {
      DATABASE_URL: url,
      DATA_DIR,
      JWT_SECRET,
      // The product's relay: this process's counting sink (nodemailer's default pool of 5).
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      SEED_DEMO: 'false',
      BOOKING_API_URL: 'http://127.0.0.1:9',
    },
    apiEnv: { TRUST_PROXY: NGINX, WARM_ON_START: 'false' },
    apis: 2,
    workers: 3,
    listeners: [{ port: 0, bind: NGINX }],
    debugVariable: 'DRILL_DEBUG',
  });
  let failed: string[];
  try {
    failed = await drill(layout, sink, q, brand);
  } finally {
    await layout.stop();
    await sink.close();
    await pool.end();
    if (!process.argv.includes('--keep')) await admin(`drop database if exists ${DB} with (force)`);
  }
  log(`drill took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (failed.length) {
    process.stderr.write(`send-drill FAILED: ${failed.join('; ')}\n`);
    process.exit(1);
  }
}

async function drill(
  layout: ProductionLayout,
  sink: CountingSink,
  q: (text: string, values?: unknown[]) => Promise<any[]>,
  brand: string,
): Promise<string[]> {
  const api = layout.proxyUrl;
  const token = await loginToken(api);
  const as = async (method: string, path: string, body?: unknown) => {
    const res = await call(`${api}${path}`, { method, token, body: body ?? (method === 'POST' ? {} : undefined) });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json?.error)}`);
    return res.json.data;
  };
  const segment = (await as('POST', '/v1/segments', { name: 'drill: every guest', type: 'static' })).id as string;
  await q(
    `insert into segment_members (segment_id, customer_id, brand_id)
     select $2, id, $1 from customers where brand_id = $1 and email like '%@drill.example.jp'`,
    [brand, segment],
  );
  const paragraph = (id: string, text: string) => ({
    id,
    type: 'text',
    content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
  });
  const template = await as('POST', '/v1/templates', {
    name: 'drill',
    defaultLanguage: 'ja',
    contents: {
      ja: {
        subject: '{{full_name}}様、冬のご案内',
        preheader: '特別プランのお知らせ',
        document: {
          version: 1,
          sections: [
            {
              id: 's',
              columns: [
                {
                  id: 'c',
                  blocks: [
                    {
                      id: 'hello',
                      type: 'text',
                      content: {
                        type: 'doc',
                        content: [
                          {
                            type: 'paragraph',
                            content: [
                              { type: 'personalTag', attrs: { key: 'full_name' } },
                              { type: 'text', text: '様、いつもご利用ありがとうございます。' },
                            ],
                          },
                        ],
                      },
                    },
                    ...Array.from({ length: 6 }, (_, n) =>
                      paragraph(`p${n}`, 'ご滞在をより快適にお過ごしいただくため、冬の特別プランをご案内いたします。'),
                    ),
                    {
                      id: 'btn',
                      type: 'button',
                      label: 'プランを見る',
                      href: 'https://sakura-hotels.example.jp/winter',
                    },
                  ],
                },
              ],
            },
          ],
        },
      },
    },
  });
  const campaignOf = async (name: string) =>
    (
      await as('POST', '/v1/campaigns', {
        name,
        subject: '冬のご案内',
        recipients: { segmentIds: [segment] },
        templateId: template.id,
      })
    ).id as string;
  const statusOf = async (id: string) =>
    (await q(`select status from campaigns where id = $1`, [id]))[0].status as string;
  const waitSent = async (id: string, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if ((await statusOf(id)) === 'sent') return true;
      await sleep(250);
    }
    return false;
  };

  // The machine is shared: its load average (1 minute) through the run goes with the figures.
  const loads: number[] = [loadavg()[0] as number];
  const sampling = setInterval(() => loads.push(loadavg()[0] as number), 5000);

  // 1. Undisturbed: the same size, the same layout, nothing in the way.
  const quiet = await campaignOf('drill: undisturbed');
  log('undisturbed send...');
  await as('POST', `/v1/campaigns/${quiet}/send-now`);
  if (!(await waitSent(quiet, 20 * 60_000))) throw new Error('the undisturbed campaign did not finish in 20 minutes');
  const quietMails = sink.of(quiet);
  const quietSpan = ((quietMails.at(-1)?.at ?? 0) - (quietMails[0]?.at ?? 0)) / 1000;
  const quietRate = quietMails.length / quietSpan;
  log(`undisturbed: ${quietMails.length} mails in ${quietSpan.toFixed(1)} s = ${quietRate.toFixed(0)} msg/s`);

  // 2. The drill's campaign.
  const id = await campaignOf('drill: disturbed');
  await as('POST', `/v1/campaigns/${id}/send-now`);
  log('drill send started; waiting for its first mail...');
  const first = await sink.next(id, 0, 10 * 60_000);
  if (!first) throw new Error('the drill campaign sent nothing in 10 minutes');
  let done = false;
  const finished = waitSent(id, 30 * 60_000).then((ok) => {
    done = true;
    return ok;
  });

  const events: TEvent[] = [];
  for (let k = 1; k <= KILLS; k++) {
    events.push({ kind: 'kill', n: k, restart: k % 2 === 0 ? 'at once' : 'after recovery' });
    if (k === 6) events.push({ kind: 'term' });
    if (k === 12) events.push({ kind: 'api' });
    if (k === 3 || k === 9 || k === 15)
      events.push({ kind: 'pause', n: events.filter((e) => e.kind === 'pause').length + 1 });
  }
  const gap = Math.max(20, Math.floor((0.6 * size) / (events.length + 1)));
  const perUnsubscribe = Math.max(1, Math.floor((0.7 * size) / Math.max(1, UNSUBSCRIBES)));
  log(`${events.length} disturbances, one every ${gap} mails; an unsubscribe every ${perUnsubscribe} mails`);

  // The unsubscribes, in the background.
  const earlierLinks = new Map(quietMails.map((m) => [m.rcpt, m.unsubscribeUrl]));
  const unsubscribed: { email: string; answeredAt: number; mailed: boolean; status: number }[] = [];
  const unsubscribedEmails = new Set<string>();
  const unsubscribing = (async () => {
    for (let i = 0; i < UNSUBSCRIBES; i++) {
      if (!(await sink.reach(id, (i + 1) * perUnsubscribe, () => done))) return;
      let target: { url: string; email: string; mailed: boolean } | null = null;
      if (i % 2 === 0) {
        // A guest mailed already: the List-Unsubscribe address of the mail, as the provider POSTs it.
        const mails = sink.of(id).filter((a) => a.unsubscribeUrl && !unsubscribedEmails.has(a.rcpt));
        const mail = mails[Math.floor(Math.random() * mails.length)];
        if (mail?.unsubscribeUrl) target = { url: mail.unsubscribeUrl, email: mail.rcpt, mailed: true };
      } else {
        // A guest not mailed yet by this campaign (never handed, so no copy can be out): the
        // List-Unsubscribe address of the undisturbed campaign's mail to them.
        const [d] = await q(
          `select lower(c.email) as email from deliveries d join customers c on c.id = d.customer_id
           where d.campaign_id = $1 and d.status = 'queued' and d.in_flight_repeats = 0 and c.email_status = 'active'
           order by random() limit 1`,
          [id],
        );
        const earlier = d ? earlierLinks.get(d.email as string) : undefined;
        if (earlier) target = { url: earlier, email: d.email, mailed: false };
      }
      if (!target || unsubscribedEmails.has(target.email)) continue;
      unsubscribedEmails.add(target.email);
      const res = await call(target.url, { method: 'POST', form: 'List-Unsubscribe=One-Click' });
      unsubscribed.push({ email: target.email, answeredAt: Date.now(), mailed: target.mailed, status: res.status });
    }
  })();

  // The disturbances, one after the other.
  const kills: TKillResult[] = [];
  const restarts: Promise<unknown>[] = [];
  const pauses: { n: number; begunAfter: number; lateMs: number; resumeMs: number | null }[] = [];
  let term: { exitMs: number; code: number | null; recoveryMs: number | null } | null = null;
  let apiKill: { at: number; restartMs: number } | null = null;
  let landed = 0;
  let mark = first.at;
  const liveSender = async (): Promise<number> => {
    for (;;) {
      if (done) return -1;
      const rows = await q(
        `select distinct wl.pid from deliveries d join worker_leases wl on wl.id = d.claimed_by
         where d.campaign_id = $1 and d.status = 'sending' and wl.expires_at > now()`,
        [id],
      );
      const pids = new Set(rows.map((r) => r.pid as number));
      const i = layout.workers.findIndex(
        (w) => w.child.exitCode === null && w.child.signalCode === null && pids.has(w.child.pid as number),
      );
      if (i >= 0) return i;
      await sleep(20);
    }
  };
  for (const event of events) {
    const since = sink.of(id).filter((a) => a.at > mark).length;
    if (!(await sink.reach(id, sink.of(id).length - since + gap, () => done))) break;
    if (event.kind === 'kill' || event.kind === 'term') {
      const i = await liveSender();
      if (i < 0) break;
      const worker = layout.workers[i];
      if (!worker) break;
      if (event.kind === 'kill') {
        const at = Date.now();
        await killWorkerProcess(worker.child);
        if (event.restart === 'at once') restarts.push(layout.restartWorker(i));
        const next = await sink.next(id, at, 120_000);
        if (event.restart === 'after recovery') restarts.push(layout.restartWorker(i));
        const recoveryMs = next ? next.at - at : null;
        kills.push({ n: event.n, restart: event.restart, at, recoveryMs });
        log(
          `kill ${event.n} (worker ${worker.child.pid}, restarted ${event.restart}): next mail after ${seconds(recoveryMs)}`,
        );
        mark = next?.at ?? Date.now();
      } else {
        const at = Date.now();
        const ended = await stopWorkerProcess(worker.child);
        const exited = Date.now();
        // Another worker takes over: the next mail begun after the stopped one is gone (until
        // then it may still hand over mails it had built).
        const next = await sink.next(id, exited, 120_000);
        term = { exitMs: exited - at, code: ended.code, recoveryMs: next ? next.at - exited : null };
        kills.push({ n: 0, restart: 'SIGTERM', at, recoveryMs: term.recoveryMs });
        log(
          `SIGTERM (worker ${worker.child.pid}): exited ${ended.code} after ${seconds(term.exitMs)}, next mail ${seconds(term.recoveryMs)} after its exit`,
        );
        restarts.push(layout.restartWorker(i));
        mark = next?.at ?? Date.now();
      }
    } else if (event.kind === 'api') {
      const at = Date.now();
      const victim = layout.apis[0];
      if (victim) await killWorkerProcess(victim.child);
      log(`API process ${victim?.child.pid} SIGKILLed; starting it again`);
      restarts.push(
        layout.restartApi(0).then(() => {
          apiKill = { at, restartMs: Date.now() - at };
          log(`API process back after ${seconds(Date.now() - at)}`);
        }),
      );
      mark = Date.now();
    } else {
      await as('POST', `/v1/campaigns/${id}/pause`);
      const pausedAt = Date.now();
      await sleep(PAUSED_MS);
      // Mails handed just before the pause may begin a moment after its answer (a pooled
      // connection being opened again): how many, and how late the last began.
      const late = sink.of(id).filter((a) => a.began > pausedAt);
      const begunAfter = late.length;
      const lateMs = Math.max(0, ...late.map((a) => a.began - pausedAt));
      await as('POST', `/v1/campaigns/${id}/resume`);
      const resumedAt = Date.now();
      const next = await sink.next(id, resumedAt, 120_000);
      pauses.push({ n: event.n, begunAfter, lateMs, resumeMs: next ? next.at - resumedAt : null });
      log(
        `pause ${event.n}: ${begunAfter} mails begun while paused (the last ${lateMs} ms after the answer); resumed, next mail after ${seconds(next ? next.at - resumedAt : null)}`,
      );
      mark = next?.at ?? Date.now();
    }
    landed++;
  }
  const inside = landed === events.length && !done;
  log(
    `${landed} of ${events.length} disturbances done${inside ? ', all inside the send' : ''}; waiting for the send to end...`,
  );
  const completed = await finished;
  await unsubscribing;
  await Promise.allSettled(restarts);

  clearInterval(sampling);
  loads.push(loadavg()[0] as number);

  // ---- the figures ----
  const campaign = await as('GET', `/v1/campaigns/${id}`);
  const report = await as('GET', `/v1/campaigns/${id}/statistics`);
  const mails = sink.of(id);
  const byDelivery = new Map<string, TArrival[]>();
  for (const m of mails) {
    const list = byDelivery.get(m.deliveryId ?? m.rcpt) ?? [];
    list.push(m);
    byDelivery.set(m.deliveryId ?? m.rcpt, list);
  }
  const deliveries = await q(
    `select d.id, d.status, lower(c.email) as email from deliveries d join customers c on c.id = d.customer_id where d.campaign_id = $1`,
    [id],
  );
  const optedOut = new Set(unsubscribed.filter((u) => u.status === 200).map((u) => u.email));
  const lost = deliveries.filter(
    (d) => !byDelivery.has(d.id) && (!optedOut.has(d.email) || d.status === 'sent'),
  ).length;
  const repeats = mails.length - byDelivery.size;
  // Each repeat is put on the kill (or stop) nearest its first copy: the one that lost that copy's answer.
  const perKill = new Map<number, number>(kills.map((k) => [k.at, 0]));
  for (const copies of byDelivery.values()) {
    const firstAt = copies[0]?.at ?? 0;
    const kill = kills.reduce<TKillResult | null>(
      (best, k) => (!best || Math.abs(k.at - firstAt) < Math.abs(best.at - firstAt) ? k : best),
      null,
    );
    if (kill && copies.length > 1) perKill.set(kill.at, (perKill.get(kill.at) ?? 0) + copies.length - 1);
  }
  if (process.env.DRILL_DUMP) {
    const repeated = [...byDelivery.entries()].filter(([, c]) => c.length > 1);
    writeFileSync(
      '/tmp/send-drill-debug.json',
      JSON.stringify(
        { kills, pauses, repeated, deliveries: deliveries.filter((d) => byDelivery.get(d.id)?.length !== 1) },
        null,
        1,
      ),
    );
  }
  const answeredAt = new Map(unsubscribed.map((u) => [u.email, u.answeredAt]));
  const afterUnsubscribe = mails.filter((m) => {
    const at = answeredAt.get(m.rcpt);
    return at !== undefined && m.began > at;
  });
  const inFlightAtUnsubscribe = mails.filter((m) => {
    const at = answeredAt.get(m.rcpt);
    return at !== undefined && m.began <= at && m.at > at;
  }).length;
  const productSent = report.totals.sent as number;
  const recoveries = kills.filter((k) => k.restart !== 'SIGTERM').map((k) => k.recoveryMs);
  const mostPerKill = Math.max(0, ...perKill.values());

  const rows: [string, string, string][] = [];
  const row = (figure: string, value: string | number, verdict: string) => rows.push([figure, String(value), verdict]);
  const failed: string[] = [];
  const must = (ok: boolean, what: string) => {
    if (!ok) failed.push(what);
    return ok ? 'ok (must)' : 'FAILED (must)';
  };
  const target = (ok: boolean) => (ok ? 'ok (target)' : 'missed (target)');
  row(
    'campaign finished',
    completed ? `sent (${campaign.status})` : campaign.status,
    must(completed, 'the campaign did not finish'),
  );
  row(
    'disturbances inside the send',
    `${landed} of ${events.length}`,
    must(inside, 'not every disturbance fell inside the send'),
  );
  row('audience', campaign.statistics.audience, '');
  row('lost', lost, must(lost === 0, `${lost} lost`));
  row(
    'repeats in total (sink)',
    `${repeats} (the product counts ${campaign.statistics.repeats})`,
    repeats <= campaign.statistics.repeats ? 'ok (each counted)' : 'more than counted',
  );
  row(
    'repeats per kill',
    `most ${mostPerKill}, median ${median([...perKill.values()])}`,
    target(mostPerKill <= TARGET.repeatsPerKill),
  );
  row(
    '  by kill, in order',
    kills.map((k) => `${k.restart === 'SIGTERM' ? 'T' : k.n}:${perKill.get(k.at) ?? 0}`).join(' '),
    '',
  );
  row(
    'mails begun after the unsubscribe was answered',
    `${afterUnsubscribe.length} (of ${optedOut.size} unsubscribed: ${unsubscribed.filter((u) => u.mailed && u.status === 200).length} mailed before, ${unsubscribed.filter((u) => !u.mailed && u.status === 200).length} not yet; ${inFlightAtUnsubscribe} in flight at the answer)`,
    must(afterUnsubscribe.length === 0, `${afterUnsubscribe.length} mails after an answered unsubscribe`),
  );
  row(
    'unsubscribes answered 200',
    `${optedOut.size} of ${unsubscribed.length}`,
    must(optedOut.size === unsubscribed.length, 'an unsubscribe was refused'),
  );
  row(
    'sent: product (statistics API) / sink',
    `${productSent} / ${byDelivery.size} (campaign statistics ${campaign.statistics.sent}, skipped ${campaign.statistics.skipped}, failed ${campaign.statistics.failed})`,
    must(
      productSent === byDelivery.size && campaign.statistics.sent === byDelivery.size,
      'the product and the sink disagree',
    ),
  );
  const known = recoveries.filter((r): r is number => r !== null).sort((a, b) => a - b);
  row(
    'recovery after a kill',
    `median ${seconds(median(known))}, most ${seconds(known.at(-1) ?? null)}${known.length < recoveries.length ? `, ${recoveries.length - known.length} never` : ''}`,
    target(known.length === recoveries.length && (known.at(-1) ?? 0) <= TARGET.recoveryMs),
  );
  for (const mode of ['at once', 'after recovery']) {
    const r = kills.filter((k) => k.restart === mode && k.recoveryMs !== null).map((k) => k.recoveryMs as number);
    row(`  restarted ${mode}`, r.map((ms) => (ms / 1000).toFixed(1)).join(', ') + ' s', '');
  }
  row(
    'SIGTERM exit',
    term
      ? `${seconds(term.exitMs)} (code ${term.code}), next mail ${seconds(term.recoveryMs)} after its exit`
      : 'not run',
    target(term !== null && term.exitMs <= TARGET.termExitMs && term.code === 0),
  );
  row(
    'pause / resume',
    pauses
      .map(
        (p) =>
          `${p.begunAfter} begun while paused (${p.lateMs} ms after the answer), next mail ${seconds(p.resumeMs)} after resume`,
      )
      .join('; '),
    '',
  );
  const apiBack = apiKill as { restartMs: number } | null;
  row('API process SIGKILLed', apiBack ? `back after ${seconds(apiBack.restartMs)}` : 'not run', '');
  row('requests retried through nginx (502-504 or no answer)', proxyErrors, '');
  row('msg/s undisturbed', `${quietRate.toFixed(0)} (${quietMails.length} in ${quietSpan.toFixed(1)} s)`, '');
  row(
    `load average (1 min, ${cpus().length} cores)`,
    `${loads[0]?.toFixed(1)} at the start, ${Math.max(...loads).toFixed(1)} at most, ${loads.at(-1)?.toFixed(1)} at the end`,
    '',
  );
  const width = Math.max(...rows.map((r) => r[0].length));
  const valueWidth = Math.max(...rows.map((r) => r[1].length));
  process.stdout.write('\n');
  for (const [figure, value, verdict] of rows)
    process.stdout.write(`${figure.padEnd(width)}  ${value.padEnd(valueWidth)}  ${verdict}\n`);
  process.stdout.write(
    `BENCH send-drill value=${quietRate.toFixed(1)} unit=msg/s lost=${lost} repeats=${repeats} most_per_kill=${mostPerKill} after_unsubscribe=${afterUnsubscribe.length} product_sent=${productSent} sink_sent=${byDelivery.size} recovery_max_s=${((known.at(-1) ?? NaN) / 1000).toFixed(1)} term_exit_s=${term ? (term.exitMs / 1000).toFixed(1) : 'NaN'}\n`,
  );
  return failed;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench send-drill failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
