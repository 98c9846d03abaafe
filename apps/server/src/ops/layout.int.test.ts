import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../test/harness.ts';
import { ProductionLayout } from '../test/production-layout.ts';
import { seedDemoSending } from '../seed/demo-sending.ts';
import { DEMO_PASSWORD } from '../seed/demo.ts';
import { MAX_FAILURES_PER_ADDRESS } from '../modules/auth/throttle.ts';
import { REFUSED_UNSUBSCRIBES_PER_MINUTE } from '../modules/tracking/routes.ts';

/**
 * THE PRODUCTION LAYOUT (docs/architecture.md, "Production layout"): Debian's nginx in front of two
 * API processes (`main.ts`, WORKER_IN_PROCESS=false) and three worker processes (`worker-main.ts`),
 * all over one PostgreSQL database (a copy of the test template), mail into an SMTP sink. The
 * layout itself is test/production-layout.ts (the send drill, bench/send-drill.ts, runs the same).
 *
 * Addresses: every client of this test is a loopback address of its own (127.0.0.0/8 is all
 * loopback on Linux), so the address an API counts can be told apart. nginx connects to the APIs
 * from 127.0.0.3 on its main port, which the APIs trust (TRUST_PROXY=127.0.0.3), and from
 * 127.0.0.4 on a second port, which they do not. nginx sets X-Forwarded-For the usual way
 * ($proxy_add_x_forwarded_for: the client's header, then the client's address).
 *
 * The in-process test server (harness) is only this test's handle on the database and the SMTP
 * sink; no request here goes to it. Needs nginx: scripts/ensure-nginx.sh installs it (.ci/run).
 */

const NGINX_TRUSTED = '127.0.0.3';
const NGINX_UNTRUSTED = '127.0.0.4';
const GUESTS = 120;

let s: TTestServer;
let layout: ProductionLayout | null = null;
let apis: ProductionLayout['apis'] = [];
let workers: ProductionLayout['workers'] = [];
let proxyUrl: string;
let untrustedProxyUrl: string;

interface THttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One HTTP request from a chosen loopback address (`from`), with any headers, a forged one included. */
function call(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    from = '127.0.0.1',
  }: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<THttpAnswer> {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const allHeaders: Record<string, string> = { ...headers };
  if (payload !== undefined) {
    allHeaders['content-type'] ??= 'application/json';
    allHeaders['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: allHeaders, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: the metrics' text, say.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The value of one sample of a metric in Prometheus text, or 0 when the series is absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const metricsOf = async (port: number) => (await call(`http://127.0.0.1:${port}/metrics`)).text;

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  if (!s.rt.config.databaseUrl) throw new Error('the layout test needs PostgreSQL: processes cannot share PGlite');
  await seedDemoSending(s.rt);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
  layout = await ProductionLayout.start({
    env: {
      DATABASE_URL: s.rt.config.databaseUrl,
      // The same data folder: the embedded secrets (the key that opens the demo's DKIM key) are shared.
      DATA_DIR: s.rt.config.dataDir,
      JWT_SECRET: 'layout-test-jwt-secret-'.padEnd(48, 'x'),
      SMTP_URL: `smtp://127.0.0.1:${s.rt.sink?.port}`,
      SEED_DEMO: 'false',
      // No booking simulator in every process: nothing here syncs.
      BOOKING_API_URL: 'http://127.0.0.1:1',
      CAMPAIGN_DISPATCH_SECONDS: '1',
      CAMPAIGN_BATCH_SIZE: '20',
    },
    apiEnv: { TRUST_PROXY: NGINX_TRUSTED, WARM_ON_START: 'false' },
    apis: 2,
    workers: 3,
    listeners: [
      { port: 0, bind: NGINX_TRUSTED },
      { port: 0, bind: NGINX_UNTRUSTED },
    ],
    debugVariable: 'LAYOUT_DEBUG',
  });
  apis = layout.apis;
  workers = layout.workers;
  proxyUrl = layout.proxyUrl;
  untrustedProxyUrl = layout.urlOf(1);
}, 300_000);

afterAll(async () => {
  await layout?.stop();
  await s?.close();
});

const api = (i: number) => `http://127.0.0.1:${apis[i]?.port}`;

describe('the production layout: nginx, two APIs, three workers, one PostgreSQL', () => {
  it('every process says it is ready: APIs on their port, workers (with their lease) on their metrics port', async () => {
    for (const i of [0, 1]) {
      const res = await call(`${api(i)}/readyz`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'ready', database: 'ok', migrations: 'ok' });
    }
    for (const w of workers) {
      const res = await call(`http://127.0.0.1:${w.metrics}/readyz`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', lease: 'ok' });
    }
    expect((await call(`${proxyUrl}/readyz`)).json.status).toBe('ready');
    // /metrics is not served on the public port, so the proxy never hands it out.
    expect((await call(`${proxyUrl}/metrics`)).status).toBe(404);
  });

  it('requests flow through nginx to both APIs, and their /healthz polls stay out of the log at info', async () => {
    for (let i = 0; i < 10; i++) expect((await call(`${proxyUrl}/healthz`)).status).toBe(200);
    for (const a of apis) {
      const served = sample(
        await metricsOf(a.metrics),
        'yado_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}',
      );
      expect(served, `API on ${a.port}`).toBeGreaterThan(0);
      // Not a line of it: at LOG_LEVEL=info (the default) request lines are at debug.
      expect(a.output.join('')).not.toContain('"path":"/healthz"');
      expect(a.output.join('')).not.toContain('"reqId"');
    }
  });

  it("counts a client through nginx at the address nginx forwards, only when TRUST_PROXY names nginx's address", async () => {
    let attempt = 0;
    const failAt = async (url: string, from: string, forged?: string) => {
      const email = `nobody${(attempt += 1)}@demo.test`;
      const res = await call(`${url}/v1/auth/login`, {
        method: 'POST',
        body: { email, password: 'wrong-password-1' },
        headers: forged ? { 'x-forwarded-for': forged } : {},
        from,
      });
      expect(res.status).toBe(401);
      return (await s.sql(`select distinct key from auth_failures where key like 'login:ip:%' order by key`)).map(
        (r) => r.key as string,
      );
    };
    await s.sql(`delete from auth_failures`);
    // Through the trusted nginx: the client's own address, whatever it claims in its header.
    expect(await failAt(proxyUrl, '127.0.0.21')).toEqual(['login:ip:127.0.0.21']);
    expect(await failAt(proxyUrl, '127.0.0.22', '198.51.100.7')).not.toContain('login:ip:198.51.100.7');
    expect(await failAt(proxyUrl, '127.0.0.22', '198.51.100.7')).toContain('login:ip:127.0.0.22');
    // Through an nginx the APIs do not trust: its own address, its header ignored.
    await s.sql(`delete from auth_failures`);
    expect(await failAt(untrustedProxyUrl, '127.0.0.23')).toEqual([`login:ip:${NGINX_UNTRUSTED}`]);
    // Straight to an API, past the proxy: the socket's address; a forged header is ignored.
    await s.sql(`delete from auth_failures`);
    expect(await failAt(api(0), '127.0.0.24', '198.51.100.8')).toEqual(['login:ip:127.0.0.24']);
    expect(await failAt(api(1), '127.0.0.24', `${NGINX_TRUSTED}, 198.51.100.8`)).toEqual(['login:ip:127.0.0.24']);
  });

  it('throttles sign-in per client address through nginx: rotating X-Forwarded-For escapes nothing, others sign in', async () => {
    await s.sql(`delete from auth_failures`);
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const res = await call(`${proxyUrl}/v1/auth/login`, {
        method: 'POST',
        body: { email: `guess${i}@demo.test`, password: 'nope-12345' },
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        from: '127.0.0.31',
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call(`${proxyUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: DEMO.groupAdmin, password: DEMO_PASSWORD },
      headers: { 'x-forwarded-for': '203.0.113.250' },
      from: '127.0.0.31',
    });
    expect(blocked.status).toBe(429);
    // Both APIs refuse it (the failures are counted in PostgreSQL, which they share).
    const again = await call(`${proxyUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: DEMO.groupAdmin, password: DEMO_PASSWORD },
      from: '127.0.0.31',
    });
    expect(again.status).toBe(429);
    const other = await call(`${proxyUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: DEMO.groupAdmin, password: DEMO_PASSWORD },
      headers: { 'x-forwarded-for': '127.0.0.31' },
      from: '127.0.0.32',
    });
    expect(other.status).toBe(200);
    await s.sql(`delete from auth_failures`);
  });

  let unsubscribeUrl = '';

  it('a campaign sent in this layout reaches every guest exactly once, and the metrics show the sends', async () => {
    const login = await call(`${proxyUrl}/v1/auth/login`, {
      method: 'POST',
      body: { email: DEMO.brandAdmin, password: DEMO_PASSWORD },
      from: '127.0.0.41',
    });
    expect(login.status).toBe(200);
    const token = login.json.data.accessToken as string;
    const as = (path: string, body: unknown) =>
      call(`${proxyUrl}${path}`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${token}` },
        from: '127.0.0.41',
      });
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       select $1, 'ゲスト' || g, '配置', '0707' || lpad(g::text, 7, '0'), 'layout' || g || '@guest.example.jp'
       from generate_series(1, ${GUESTS}) g`,
      [brand.id],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source)
       select id, $2, $1, 'manual' from customers where brand_id = $1 and email like 'layout%@guest.example.jp'`,
      [brand.id, hotel.id],
    );
    const segment = (await as('/v1/segments', { name: '配置の全員', type: 'static' })).json.data.id as string;
    await s.sql(
      `insert into segment_members (segment_id, customer_id, brand_id)
       select $2, id, $1 from customers where brand_id = $1 and email like 'layout%@guest.example.jp'`,
      [brand.id, segment],
    );
    const template = await as('/v1/templates', {
      name: '配置の案内',
      defaultLanguage: 'ja',
      contents: {
        ja: {
          subject: '配置',
          preheader: '',
          document: {
            version: 1,
            sections: [
              {
                id: 's',
                columns: [
                  { id: 'c', blocks: [{ id: 'b', type: 'button', label: '予約', href: 'https://sakura.example.jp/' }] },
                ],
              },
            ],
          },
        },
      },
    });
    expect(template.status).toBe(200);
    const campaign = await as('/v1/campaigns', {
      name: '配置の案内',
      subject: '配置のご案内',
      recipients: { segmentIds: [segment] },
      templateId: template.json.data.id,
    });
    expect(campaign.status).toBe(200);
    const id = campaign.json.data.id as string;
    expect((await as(`/v1/campaigns/${id}/send-now`, {})).status).toBe(200);
    await eventually(
      async () =>
        (await s.sql(`select status from campaigns where id = $1`, [id]))[0].status === 'sent' ? true : null,
      120_000,
    );

    const received = await s.sql(
      `select r as rcpt, count(*)::int as n from dev_outbox, unnest(rcpt_to) r where r like 'layout%@guest.example.jp' group by r`,
    );
    expect(received).toHaveLength(GUESTS);
    expect(received.filter((r) => r.n !== 1)).toEqual([]);

    // Sends by outcome and SMTP answer time, summed over the three workers: one "sent" per guest.
    const texts = await Promise.all(workers.map((w) => metricsOf(w.metrics)));
    const sum = (series: string) => texts.reduce((n, t) => n + sample(t, series), 0);
    expect(sum('yado_campaign_sends_total{outcome="sent"}')).toBe(GUESTS);
    expect(sum('yado_smtp_answer_seconds_count{answer="2xx"}')).toBe(GUESTS);
    for (const t of texts) {
      expect(sample(t, 'yado_worker_leases')).toBe(3);
      expect(t).toContain('# TYPE yado_queue_jobs gauge');
      expect(t).toMatch(/^yado_journey_steps_overdue 0$/m);
      expect(t).toContain('# TYPE yado_lease_takeovers_total counter');
    }
    // The APIs: latency by route pattern.
    const apiText = (await Promise.all(apis.map((a) => metricsOf(a.metrics)))).join('\n');
    expect(apiText).toMatch(
      /^yado_http_request_duration_seconds_bucket\{[^}]*route="\/v1\/campaigns\/:id\/send-now"[^}]*\} 1$/m,
    );

    const [headers] = await s.sql(
      `select headers from dev_outbox where 'layout1@guest.example.jp' = any(rcpt_to) limit 1`,
    );
    const list = (headers.headers as { key: string; value: string }[]).find(
      (h) => h.key.toLowerCase() === 'list-unsubscribe',
    );
    unsubscribeUrl = /<(http[^>]+)>/.exec(list?.value ?? '')?.[1] ?? '';
    expect(unsubscribeUrl.startsWith(`${proxyUrl}/v1/public/unsubscribe?token=`)).toBe(true);
  });

  it("forged unsubscribes claiming a mail provider's address do not lock the provider out (issue 24)", async () => {
    const provider = '127.0.0.51';
    const attacker = '127.0.0.52';
    const forged = `${proxyUrl}/v1/public/unsubscribe?token=forged-token`;
    const statuses: number[] = [];
    // Through nginx to both APIs in turn, each request claiming to be the provider: the limit is
    // kept in PostgreSQL, so the two APIs together allow it once, not once each.
    for (let i = 0; i < REFUSED_UNSUBSCRIBES_PER_MINUTE + 2; i++) {
      const res = await call(forged, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': provider },
        from: attacker,
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, REFUSED_UNSUBSCRIBES_PER_MINUTE)).toEqual(
      Array(REFUSED_UNSUBSCRIBES_PER_MINUTE).fill(404),
    );
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // The provider's genuine one-click unsubscribe, through nginx, is answered.
    const genuine = await call(unsubscribeUrl, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      from: provider,
    });
    expect(genuine.status).toBe(200);
    expect(genuine.json.data.emailStatus).toBe('unsubscribed');
  });

  it('forged unsubscribes sent straight to an API are counted against their socket, however the header rotates', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= REFUSED_UNSUBSCRIBES_PER_MINUTE; i++) {
      const res = await call(`${api(0)}/v1/public/unsubscribe?token=forged-token`, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `192.0.2.${i}` },
        from: '127.0.0.61',
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((st) => st === 404)).toHaveLength(REFUSED_UNSUBSCRIBES_PER_MINUTE);
    // Another client is not held back by it.
    const other = await call(`${api(0)}/v1/public/unsubscribe?token=forged-token`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '127.0.0.61' },
      from: '127.0.0.62',
    });
    expect(other.status).toBe(404);
  });
});
