import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';
import { QUEUES } from '../jobs/queue.ts';
import { startOpsServer, type TOpsServer } from './ops-server.ts';

/**
 * Liveness, readiness, metrics and the request log of one process (API with its worker), on its
 * public port and on its operations listener. The production layout (nginx, two APIs, three
 * workers) is layout.int.test.ts. Leases here are long and renewed rarely, so a lease this test
 * makes stale stays stale while it looks.
 */
let s: TTestServer;
let ops: TOpsServer;

beforeAll(async () => {
  s = await startTestServer({ env: { WORKER_LEASE_SECONDS: '600', WORKER_LEASE_RENEW_SECONDS: '300' } });
  ops = await startOpsServer(s.rt);
});

afterAll(async () => {
  await ops?.close();
  await s?.close();
});

const get = async (url: string) => {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
};

describe('health', () => {
  it('/healthz answers at once and its polls are not in the request log at info', async () => {
    const before = s.logs.length;
    for (let i = 0; i < 5; i++) expect((await get(`${s.url}/healthz`)).status).toBe(200);
    expect((await get(`${ops.url}/healthz`)).status).toBe(200);
    // Ordinary requests are at debug too (LOG_LEVEL is info here, the product's default).
    expect((await get(`${s.url}/v1/config`)).status).toBe(200);
    const requestLines = s.logs.slice(before).filter((l) => /"req"|"res"|healthz|\/v1\/config/.test(l));
    expect(requestLines).toEqual([]);
  });

  it('/readyz is ready while PostgreSQL answers, the schema is at head and the worker lease is fresh', async () => {
    for (const url of [`${s.url}/readyz`, `${ops.url}/readyz`]) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ status: 'ready', database: 'ok', migrations: 'ok', lease: 'ok' });
    }
  });

  it('/readyz says 503 "behind" when the database lacks the newest migration of this code', async () => {
    const [last] = await s.sql(
      `delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning *`,
    );
    try {
      const res = await get(`${s.url}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toMatchObject({ status: 'not_ready', database: 'ok', migrations: 'behind' });
    } finally {
      await s.sql(`insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)`, [
        last.id,
        last.hash,
        last.created_at,
      ]);
    }
    expect((await get(`${s.url}/readyz`)).status).toBe(200);
  });

  it('/readyz says 503 "stale" when the worker\'s lease has lapsed (its jobs may be taken up by another)', async () => {
    await s.sql(`update worker_leases set expires_at = now() - interval '1 second'`);
    const res = await get(`${ops.url}/readyz`);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({
      status: 'not_ready',
      database: 'ok',
      migrations: 'ok',
      lease: 'stale',
    });
    await s.sql(`update worker_leases set expires_at = now() + interval '10 minutes'`);
    expect((await get(`${ops.url}/readyz`)).status).toBe(200);
  });
});

describe('metrics', () => {
  it('are served on the operations listener only, never on the public port', async () => {
    expect((await get(`${s.url}/metrics`)).status).toBe(404);
    const res = await get(`${ops.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/plain');
  });

  it("show HTTP latency by route pattern (never the address's token), and the database's queues", async () => {
    // The metrics are the process's: other test files in this process may have asked the same route.
    const unsubscribes = (metrics: string) =>
      Number(
        /yado_http_request_duration_seconds_count\{method="GET",route="\/v1\/public\/unsubscribe",status="404"\} (\d+)/.exec(
          metrics,
        )?.[1] ?? 0,
      );
    const before = unsubscribes((await get(`${ops.url}/metrics`)).text);
    await get(`${s.url}/v1/public/unsubscribe?token=secret-looking-token`);
    const text = (await get(`${ops.url}/metrics`)).text;
    expect(text).toMatch(/yado_http_request_duration_seconds_count\{method="GET",route="\/readyz",status="200"\} \d+/);
    expect(unsubscribes(text)).toBe(before + 1);
    expect(text).not.toContain('secret-looking-token');
    expect(text).toMatch(/^yado_database_up 1$/m);
    expect(text).toMatch(/^yado_worker_leases 1$/m);
    expect(text).toMatch(/^yado_journey_steps_overdue 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('show the depth of each job queue', async () => {
    // Two jobs waiting an hour: created, not yet taken by the worker.
    for (let i = 0; i < 2; i++) await s.rt.queue.send(QUEUES.pruneImports, {}, { startAfter: 3600 });
    const text = (await get(`${ops.url}/metrics`)).text;
    expect(text).toContain(`yado_queue_jobs{queue="${QUEUES.pruneImports}",state="created"} 2`);
  });

  it('show the deliveries queued, deferred and in flight of each campaign being sent', async () => {
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    const customers = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       select $1, 'ゲスト' || g, '計測', '0708' || lpad(g::text, 7, '0'), 'metrics' || g || '@guest.example.jp'
       from generate_series(1, 6) g returning id`,
      [brand.id],
    );
    // Pending with no due time and no job: the worker here leaves it as it is.
    const [campaign] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, status, started_at) values ($1, $2, '計測', 'pending', now()) returning id`,
      [brand.id, hotel.id],
    );
    const states = ['queued', 'queued', 'queued', 'sending', 'deferred', 'sent'];
    for (const [i, state] of states.entries())
      await s.sql(
        `insert into deliveries (campaign_id, brand_id, customer_id, email, status) values ($1, $2, $3, $4, $5)`,
        [campaign.id, brand.id, customers[i].id, `metrics${i + 1}@guest.example.jp`, state],
      );
    const text = (await get(`${ops.url}/metrics`)).text;
    expect(text).toContain(`yado_campaign_deliveries{campaign="${campaign.id}",state="queued"} 3`);
    expect(text).toContain(`yado_campaign_deliveries{campaign="${campaign.id}",state="in_flight"} 1`);
    expect(text).toContain(`yado_campaign_deliveries{campaign="${campaign.id}",state="deferred"} 1`);
    expect(text).not.toContain('metrics1@guest.example.jp');
    // Once it is no longer being sent, it is gone from the gauge.
    await s.sql(`update campaigns set status = 'cancelled' where id = $1`, [campaign.id]);
    expect((await get(`${ops.url}/metrics`)).text).not.toContain(`campaign="${campaign.id}"`);
  });
});
