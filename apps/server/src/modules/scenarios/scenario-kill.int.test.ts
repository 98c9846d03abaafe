import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, type TTestServer } from '../../test/harness.ts';
import { sendTestServer, sinkCounts, workerSettings } from '../../test/campaign-send.ts';
import { workerProcesses } from '../../test/worker-process.ts';

/**
 * The engine's kill test: 1,000 guests through a scenario (segment entry, a one-day delay, an
 * email) moved by a real worker process (`node --import tsx worker-main.ts`) in small claimed sets,
 * SIGKILLed at random moments and started again, on the manual clock. Afterwards every guest has
 * exactly one journey that took every step exactly once (the log shows no lost and no repeated
 * step), one delivery each, and the sink holds each mail once apart from counted in-flight repeats.
 */

const GUESTS = Number(process.env.KILL_GUESTS ?? 1_000);
const KILLS = Number(process.env.KILL_COUNT ?? 8);
const LEASE = { WORKER_LEASE_SECONDS: '3', WORKER_LEASE_RENEW_SECONDS: '1' };

let s: TTestServer;

/** Worker processes of this test's settings (test/worker-process.ts), stopped after the file. */
const workers = workerProcesses(() => workerSettings(s), {
  SCENARIO_CLOCK: 'manual',
  SCENARIO_TICK_SECONDS: '0.5',
  // Small sets, so a tick is many transactions and the kills land between and inside them.
  SCENARIO_BATCH_SIZE: '40',
  CAMPAIGN_DISPATCH_SECONDS: '1',
  CAMPAIGN_BATCH_SIZE: '50',
  CAMPAIGN_DOMAIN_RATE: '400',
  ...LEASE,
});
const startWorkerProcess = () => workers.start();
const kill = workers.kill;

beforeAll(async () => {
  s = await sendTestServer({ ...LEASE, SCENARIO_CLOCK: 'manual' }, 'frequency_cap_count = 100');
}, 120_000);

afterAll(async () => {
  await workers.killAll();
  await s?.close();
});

describe('a scenario whose worker is killed again and again', () => {
  it('moves every guest through every step exactly once and mails each once apart from counted in-flight repeats', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       select $1, 'ゲスト' || g, '旅程', '0708' || lpad(g::text, 7, '0'), 'journey' || g || '@guest.example.jp' from generate_series(1, ${GUESTS}) g`,
      [brand.id],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select id, $2, $1, 'manual' from customers where email like 'journey%@guest.example.jp'`,
      [brand.id, hotel.id],
    );
    const segment = (await s.call('POST', '/v1/segments', { token, body: { name: '旅程の全員', type: 'static' } })).body
      .data.id as string;
    await s.sql(
      `insert into segment_members (segment_id, customer_id, brand_id) select $2, id, $1 from customers where email like 'journey%@guest.example.jp'`,
      [brand.id, segment],
    );
    const templateId = (
      await s.call('POST', '/v1/templates', {
        token,
        body: {
          name: '旅程',
          defaultLanguage: 'ja',
          contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
        },
      })
    ).body.data.id;
    const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
        { id: 'wait', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
        {
          id: 'mail',
          type: 'email',
          data: { templateId, subject: '旅程のご案内', senderEmail: settings.sender_email },
        },
      ],
      edges: [
        { id: 'a', source: 'start', target: 'wait' },
        { id: 'b', source: 'wait', target: 'mail' },
      ],
    };
    const id = (await s.call('POST', '/v1/scenarios', { token, body: { name: '旅程', graph } })).body.data.id as string;
    expect((await s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } })).status).toBe(200);

    let worker = await startWorkerProcess();
    let kills = 0;
    const killAndRestart = async () => {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      await kill(worker);
      kills += 1;
      worker = await startWorkerProcess();
    };
    // Entry and the first steps under kills, then a day passes and the emails go out under kills.
    for (let i = 0; i < KILLS / 2; i++) await killAndRestart();
    await s.sql(`update scenario_clock set now = now + interval '1 day 1 minute' where id = 1`);
    for (let i = 0; i < KILLS / 2; i++) await killAndRestart();

    await eventually(
      async () => {
        const [row] = await s.sql(
          `select count(*) filter (where state = 'done')::int as done from journeys where scenario_id = $1`,
          [id],
        );
        return row.done === GUESTS ? true : null;
      },
      Number(process.env.KILL_WAIT_MS ?? 600_000),
    ).catch(async (error: unknown) => {
      const states = await s.sql(
        `select node_id, phase, state, (due_at is null) as no_due, count(*)::int as n from journeys where scenario_id = $1 group by 1, 2, 3, 4`,
        [id],
      );
      const sends = await s.sql(
        `select d.status, count(*)::int as n from deliveries d join campaigns k on k.id = d.campaign_id where k.scenario_id = $1 group by 1`,
        [id],
      );
      const clock = await s.sql(`select now from scenario_clock`);
      const jobs = await s.sql(
        `select name, state, count(*)::int as n from pgboss.job where name like 'scenarios%' group by 1, 2`,
      );
      throw new Error(`${String(error)}: ${JSON.stringify({ states, sends, clock, jobs })}`);
    });

    const [journeys] = await s.sql(
      `select count(*)::int as n, count(distinct customer_id)::int as customers from journeys where scenario_id = $1`,
      [id],
    );
    expect(journeys).toEqual({ n: GUESTS, customers: GUESTS });
    // Every journey's log is exactly the path, each step once.
    const paths = await s.sql(
      `select string_agg(node_id || ':' || event, ' ' order by id) as path, count(*)::int as n from journey_steps where scenario_id = $1 group by journey_id`,
      [id],
    );
    const distinct = new Set(paths.map((p) => p.path));
    expect([...distinct]).toEqual([
      'start:entered start:done wait:entered wait:waiting wait:done mail:entered mail:queued mail:sent',
    ]);
    const deliveries = await s.sql(
      `select c.email, d.status, d.in_flight_repeats from deliveries d join campaigns k on k.id = d.campaign_id join customers c on c.id = d.customer_id where k.scenario_id = $1`,
      [id],
    );
    expect(deliveries).toHaveLength(GUESTS);
    const byAddress = await sinkCounts(s, 'journey');
    let repeats = 0;
    for (const d of deliveries) {
      expect(d.status).toBe('sent');
      const n = byAddress.get(d.email) ?? 0;
      expect(n, d.email).toBeGreaterThanOrEqual(1);
      expect(n - 1, `${d.email}: repeats beyond its in-flight count`).toBeLessThanOrEqual(d.in_flight_repeats);
      repeats += n - 1;
    }
    process.stdout.write(
      `scenario kill test: ${kills} kills, ${GUESTS} journeys, ${repeats} in-flight repeats in the sink\n`,
    );
  }, 900_000);
});
