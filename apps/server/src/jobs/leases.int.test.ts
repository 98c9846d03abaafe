import { createServer, type Server } from 'node:http';
import { createBookingSim, type TBookingSim } from '@yado/booking-sim';
import iconv from 'iconv-lite';
import { normalizePhone } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../test/harness.ts';
import { workerProcesses } from '../test/worker-process.ts';

/**
 * Job leases against a real worker process: `tsx src/worker-main.ts` on the test's database,
 * killed with SIGKILL in the middle of a job, then started again. The API runs in this process
 * without a worker of its own. Leases are short here (3 s, renewed every second) so the test is
 * quick; the product's default is 30 s.
 */
const LEASE = { WORKER_LEASE_SECONDS: '3', WORKER_LEASE_RENEW_SECONDS: '1' };
const SAKURA = 'DBK-100234';
const SAKURA_KEY = 'dbk_demo_sakura_7f3c9a1e5b2d4068';

let s: TTestServer;
let sim: TBookingSim;
let simUrl: { url: string; close(): Promise<void> };
/** The booking system as the workers see it: the simulator behind a delay a test can set. */
let slowSim: Server;
let slowUrl: string;
let delayMs = 0;

/** Worker processes of this test's settings (test/worker-process.ts), stopped after the file. */
const workers = workerProcesses(
  () => ({ databaseUrl: s.rt.config.databaseUrl, dataDir: s.rt.config.dataDir }),
  { ...LEASE },
  { startTimeoutMs: 30_000, debugVariable: 'LEASES_DEBUG' },
);
const startWorkerProcess = () => workers.start({ BOOKING_API_URL: slowUrl });
const kill = workers.kill;

beforeAll(async () => {
  sim = createBookingSim({ seed: 11, guestsPerAccount: 12_000, rateLimit: false });
  simUrl = await sim.listen(0);
  slowSim = createServer((req, res) => void setTimeout(() => sim.handler(req, res), delayMs));
  await new Promise<void>((r) => slowSim.listen(0, '127.0.0.1', r));
  slowUrl = `http://127.0.0.1:${(slowSim.address() as { port: number }).port}`;
  s = await startTestServer({ worker: false, env: LEASE });
  if (!s.rt.config.databaseUrl) throw new Error('these tests need PostgreSQL: a worker process cannot share PGlite');
  s.rt.config.booking.apiUrl = simUrl.url;
}, 120_000);

afterAll(async () => {
  await workers.killAll();
  await s?.close();
  await simUrl?.close();
  await new Promise((r) => slowSim?.close(r));
});

const ROWS = 150_000;

describe('a worker killed in the middle of a job', () => {
  it('an import killed half-way is run again by the restarted worker, within a minute, once', async () => {
    const { token } = await s.login(DEMO.harborAdmin);
    const [{ id: harbor }] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const customers = async () =>
      (await s.sql(`select count(*)::int as n from customers where brand_id = $1`, [harbor]))[0].n as number;
    const before = await customers();
    let csv = '姓,名,電話番号,住所\r\n';
    for (let i = 0; i < ROWS; i++) csv += `港,${i},080${String(i).padStart(8, '0')},神戸市中央区${i}\r\n`;
    const form = new FormData();
    form.append('file', new Blob([csv]), 'many.csv');

    let worker = await startWorkerProcess();
    const uploaded = await s.call('POST', '/v1/customer-imports', { token, form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const id = uploaded.body.data.id as string;
    const get = async () => (await s.call('GET', `/v1/customer-imports/${id}`, { token })).body.data;
    await eventually(async () => (await get()).status === 'reviewed', 60_000);
    const confirmed = await s.call('POST', `/v1/customer-imports/${id}/confirm`, {
      token,
      body: { emailReception: 'booking' },
    });
    expect(confirmed.status).toBe(200);

    // Killed once the first 50,000 rows are written, inside the import's one transaction.
    await eventually(async () => {
      const i = await get();
      return i.status === 'importing' && i.progress.done > 0;
    }, 60_000);
    await kill(worker);
    const killed = await get();
    expect(killed.status).toBe('importing');
    expect(killed.progress.done).toBeLessThan(ROWS);
    expect(killed.resumedAt).toBeNull();
    expect(await customers()).toBe(before);

    const restarted = Date.now();
    worker = await startWorkerProcess();
    const done = await eventually(async () => {
      const i = await get();
      return i.status === 'completed' || i.status === 'failed' ? i : null;
    }, 60_000);
    expect(Date.now() - restarted).toBeLessThan(60_000);
    expect(done.status).toBe('completed');
    expect(done.resumedAt).not.toBeNull();
    expect(done.result).toMatchObject({ inserted: ROWS, updated: 0 });
    expect(await customers()).toBe(before + ROWS);
    const [{ n: phones }] = await s.sql(
      `select count(distinct phone)::int as n from customers where brand_id = $1 and phone like '080%'`,
      [harbor],
    );
    expect(phones).toBe(ROWS);
    // One audit entry: the killed run wrote none.
    const audits = await s.sql(`select 1 from audit_log where target_id = $1 and action = 'import'`, [id]);
    expect(audits).toHaveLength(1);
    await kill(worker);
  }, 240_000);

  it('a review killed while it reads the file reads it again from the start after the restart', async () => {
    const { token } = await s.login(DEMO.harborAdmin);
    // A CP932 byte after megabytes of ASCII: the upload cannot keep the rows it read, so the review
    // job reads the stored file itself, which takes a few seconds.
    let ascii = 'last name,first name,phone,address\r\n';
    for (let i = 0; i < 300_000; i++) ascii += `Mori,Guest${i},070${String(i).padStart(8, '0')},Kobe\r\n`;
    const bytes = Buffer.concat([Buffer.from(ascii), iconv.encode('髙橋,①子,08033330002,神戸市～中央区\r\n', 'cp932')]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'late-cp932.csv');
    let worker = await startWorkerProcess();
    const uploaded = await s.call('POST', '/v1/customer-imports', { token, form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const id = uploaded.body.data.id as string;
    const get = async () => (await s.call('GET', `/v1/customer-imports/${id}`, { token })).body.data;
    await eventually(async () => {
      const [job] = await s.sql(
        `select state from pgboss.job where name = 'customer-imports.review' and data->>'importId' = $1`,
        [id],
      );
      return job?.state === 'active';
    }, 60_000);
    await new Promise((r) => setTimeout(r, 300));
    await kill(worker);
    expect((await get()).status).toBe('reviewing');

    worker = await startWorkerProcess();
    const done = await eventually(async () => {
      const i = await get();
      return i.status === 'reviewed' || i.status === 'rejected' ? i : null;
    }, 60_000);
    expect(done).toMatchObject({
      status: 'reviewed',
      encoding: 'cp932',
      counts: { total: 300_001, new: 300_001, failed: 0 },
    });
    expect(done.resumedAt).not.toBeNull();
    const [{ n }] = await s.sql(`select count(*)::int as n from customer_import_rows where import_id = $1`, [id]);
    expect(n).toBe(300_001);
    expect((await s.call('DELETE', `/v1/customer-imports/${id}`, { token })).status).toBe(200);
    await kill(worker);
  }, 240_000);

  it('a sync killed half-way starts again by itself within a minute and duplicates nothing', async () => {
    const [{ id: sakura }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const { token } = await s.login(DEMO.brandAdmin);
    let worker = await startWorkerProcess();
    const connected = await s.call('POST', '/v1/booking/connection', {
      token,
      body: { accountId: SAKURA, apiKey: SAKURA_KEY },
    });
    expect(connected.status).toBe(200);
    // Killed once some pages are committed and the run is still going.
    await eventually(async () => {
      const [r] = await s.sql(
        `select (select count(*)::int from booking_guest_links where brand_id = $1) as links,
                (select count(*)::int from booking_sync_runs where brand_id = $1 and status = 'running') as running`,
        [sakura],
      );
      return r.links > 0 && r.running === 1;
    }, 60_000);
    await kill(worker);
    const [{ links }] = await s.sql(`select count(*)::int as links from booking_guest_links where brand_id = $1`, [
      sakura,
    ]);
    const world = sim.inspect(SAKURA);
    expect(links).toBeLessThan(world.guests.length);

    const restarted = Date.now();
    worker = await startWorkerProcess();
    const status = await eventually(async () => {
      const res = await s.call('GET', '/v1/booking/connection', { token });
      const [latest] = res.body.data.runs;
      return latest?.status === 'succeeded' ? res.body.data : null;
    }, 60_000);
    expect(Date.now() - restarted).toBeLessThan(60_000);
    const [latest, killed] = status.runs;
    expect(latest).toMatchObject({ status: 'succeeded', trigger: 'connect', resumed: true });
    expect(killed).toMatchObject({ status: 'failed', resumed: false });
    expect(killed.errors).toContainEqual(expect.objectContaining({ code: 'interrupted' }));

    // Every guest with a phone is one customer, every placed reservation one booking.
    const withPhone = world.guests.filter((g) => g.phone && normalizePhone(g.phone));
    const phones = new Set(withPhone.map((g) => normalizePhone(g.phone as string)));
    const placedGuests = new Set(withPhone.map((g) => g.id));
    const placed = world.reservations.filter((r) => placedGuests.has(r.guest_id));
    const [c] = await s.sql(
      `select (select count(distinct customer_id)::int from booking_guest_links where brand_id = $1) as customers,
              (select count(*)::int from bookings where brand_id = $1) as bookings,
              (select count(distinct external_id)::int from bookings where brand_id = $1) as distinct_bookings`,
      [sakura],
    );
    expect(c.customers).toBe(phones.size);
    expect(c.bookings).toBe(placed.length);
    expect(c.distinct_bookings).toBe(placed.length);
    await kill(worker);
  }, 240_000);

  it('a sync whose worker dies again on its retry fails for good, and its run says why', async () => {
    const [{ id: sakura }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const { token } = await s.login(DEMO.brandAdmin);
    // Read everything again, slowly, so the run is surely under way when the worker is killed.
    await s.sql(`update booking_connections set watermark = null where brand_id = $1`, [sakura]);
    delayMs = 150;
    try {
      const running = async () =>
        (
          await s.sql(`select id, resumed from booking_sync_runs where brand_id = $1 and status = 'running'`, [sakura])
        )[0];
      let worker = await startWorkerProcess();
      expect((await s.call('POST', '/v1/booking/sync', { token })).status).toBe(200);
      const first = await eventually(running, 30_000);
      await kill(worker);
      // The retry (the sync queue allows one) starts by itself, and its worker is killed too.
      worker = await startWorkerProcess();
      const second = await eventually(async () => {
        const r = await running();
        return r && r.id !== first.id ? r : null;
      }, 60_000);
      expect(second.resumed).toBe(true);
      await kill(worker);
      worker = await startWorkerProcess();
      const [job] = await eventually(async () => {
        const rows = await s.sql(
          `select state, output from pgboss.job where name = 'booking.sync' and state = 'failed'`,
        );
        return rows.length > 0 ? rows : null;
      }, 60_000);
      expect(job.output.message).toContain('the worker running this job stopped');
      const status = (await s.call('GET', '/v1/booking/connection', { token })).body.data;
      expect(status.runs[0]).toMatchObject({ id: second.id, status: 'failed', resumed: true, trigger: 'manual' });
      expect(status.runs[0].errors).toContainEqual(expect.objectContaining({ code: 'interrupted' }));
      expect(status.syncPending).toBe(false);
      await kill(worker);
    } finally {
      delayMs = 0;
    }
  }, 240_000);
});
