import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TTestServer } from '../../test/harness.ts';
import { campaignTo, sendTestServer, sinkCounts as sinkCountsOf, workerSettings } from '../../test/campaign-send.ts';
import { stopWorkerProcess, workerProcesses } from '../../test/worker-process.ts';
import { SINK_POOL } from '../../mail/transport.ts';

/**
 * THE KILL TEST: a 20,000-recipient campaign sent by a real worker process
 * (`node --import tsx worker-main.ts`, so SIGKILL ends the process that sends) into this server's
 * embedded SMTP sink, the worker killed at random moments at least 20 times and started again each
 * time. Afterwards the sink must hold every recipient exactly once, apart from repeats of messages
 * that were in flight at a kill (each counted on its delivery), and nothing for the unsubscribed:
 * neither those unsubscribed before the send nor those who unsubscribed in the middle of it.
 * Leases are short here (3 s) so a dead worker's job comes back quickly.
 */

const RECIPIENTS = 20_000;
const UNSUBSCRIBED_BEFORE = 150;
const UNSUBSCRIBED_DURING = 300;
const KILLS = 20;
const LEASE = { WORKER_LEASE_SECONDS: '3', WORKER_LEASE_RENEW_SECONDS: '1' };

let s: TTestServer;

/** Worker processes of this test's settings (test/worker-process.ts), stopped after the file. */
const workers = workerProcesses(
  () => workerSettings(s),
  {
    CAMPAIGN_DISPATCH_SECONDS: '1',
    CAMPAIGN_BATCH_SIZE: '100',
    // Paced (all recipients share one domain), so twenty kills surely land before the send ends.
    CAMPAIGN_DOMAIN_RATE: '250',
    ...LEASE,
  },
  { debugVariable: 'KILL_DEBUG' },
);
const startWorkerProcess = () => workers.start();
const kill = workers.kill;

beforeAll(async () => {
  s = await sendTestServer(LEASE);
}, 120_000);

afterAll(async () => {
  await workers.killAll();
  await s?.close();
});

const sinkCounts = (prefix: string) => sinkCountsOf(s, prefix);

const statusOf = async (id: string) =>
  (await s.sql(`select status from campaigns where id = $1`, [id]))[0].status as string;

describe('a campaign send whose worker is killed again and again', () => {
  it('repeats at most the mails in an SMTP conversation at each kill, each at most once and counted; none to the unsubscribed', async () => {
    const { id, token } = await campaignTo(s, 'kill', RECIPIENTS, UNSUBSCRIBED_BEFORE);
    const sentCount = async () =>
      (await s.sql(`select count(*)::int as n from deliveries where campaign_id = $1 and status = 'sent'`, [id]))[0]
        .n as number;
    let kills = 0;
    let unsubscribedDuring: string[] = [];
    let worker = await startWorkerProcess();
    while (kills < KILLS) {
      await new Promise((r) => setTimeout(r, 400 + Math.random() * 1600));
      // Half-way the send must be under way: on a loaded machine the snapshot of 20,000 can take
      // longer than several short-lived workers live (each kill lands inside it and rolls it back).
      if (kills + 1 === KILLS / 2)
        await eventually(async () => ((await statusOf(id)) === 'pending' ? true : null), 120_000);
      await kill(worker);
      kills += 1;
      expect(
        await statusOf(id),
        `killed ${kills} times, yet the campaign already finished: the kills must land during the send`,
      ).not.toBe('sent');
      // Half-way through the kills, some guests whose mail is not sent yet unsubscribe. The
      // deliveries are locked while their customers change, so no claim sees the old consent.
      if (kills === KILLS / 2) {
        const rows = await s.sql(
          `with picked as (select customer_id from deliveries where campaign_id = $1 and status = 'queued' order by id desc limit ${UNSUBSCRIBED_DURING} for update)
           update customers set email_status = 'unsubscribed', email_status_changed_at = now() where id in (select customer_id from picked) returning id`,
          [id],
        );
        unsubscribedDuring = rows.map((r) => r.id as string);
        expect(unsubscribedDuring).toHaveLength(UNSUBSCRIBED_DURING);
      }
      // The restarted worker (same machine) puts the dead one's send back at once.
      worker = await startWorkerProcess();
    }
    expect(await sentCount()).toBeLessThan(RECIPIENTS - UNSUBSCRIBED_BEFORE - UNSUBSCRIBED_DURING);

    // Left alone now, the restarted worker finishes the send.
    const done = await eventually(async () => {
      const [c] = await s.sql(`select status, audience from campaigns where id = $1`, [id]);
      return c.status === 'sent' ? c : null;
    }, 600_000);
    expect(done.audience).toBe(RECIPIENTS - UNSUBSCRIBED_BEFORE);
    const [counts] = await s.sql(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'skipped')::int as skipped,
         count(*) filter (where status = 'failed')::int as failed, coalesce(sum(in_flight_repeats), 0)::int as repeats,
         max(in_flight_repeats)::int as most, max(attempts)::int as attempts
       from deliveries where campaign_id = $1`,
      [id],
    );
    expect(counts.sent + counts.skipped + counts.failed).toBe(done.audience);
    // A kill is no relay attempt: the sink answers every mail 250, so each delivery has one answer at most.
    expect(counts).toMatchObject({ skipped: UNSUBSCRIBED_DURING, failed: 0, attempts: 1 });
    // At most one repeat per delivery (sent again once, marked), and per kill no more than the
    // pool's connections: the mails in an SMTP conversation at that moment.
    expect(counts.most).toBeLessThanOrEqual(1);
    expect(counts.repeats).toBeLessThanOrEqual(KILLS * SINK_POOL.maxConnections);

    // The sink: one mail per recipient, a second only where the delivery counts a repeat.
    const byAddress = await sinkCounts('kill');
    const deliveries = await s.sql(
      `select c.email, c.id as customer_id, d.status, d.in_flight_repeats from deliveries d join customers c on c.id = d.customer_id where d.campaign_id = $1`,
      [id],
    );
    const during = new Set(unsubscribedDuring);
    let repeats = 0;
    for (const d of deliveries) {
      const n = byAddress.get(d.email) ?? 0;
      if (during.has(d.customer_id)) {
        expect(n, `${d.email} unsubscribed during the send`).toBe(0);
        continue;
      }
      expect(n, d.email).toBeGreaterThanOrEqual(1);
      expect(n - 1, `${d.email}: repeats beyond its in-flight count`).toBeLessThanOrEqual(d.in_flight_repeats);
      repeats += n - 1;
    }
    expect(repeats).toBeLessThanOrEqual(counts.repeats);
    // Nothing to anyone unsubscribed before the send, nor to anyone outside the campaign.
    for (let g = 1; g <= UNSUBSCRIBED_BEFORE; g++) expect(byAddress.has(`kill${g}@guest.example.jp`)).toBe(false);
    expect(byAddress.size).toBe(RECIPIENTS - UNSUBSCRIBED_BEFORE - UNSUBSCRIBED_DURING);
    // The statistics are what the relay accepted: one sent per guest who received it.
    const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(report.statistics).toMatchObject({ sent: byAddress.size });
    process.stdout.write(
      `kill test: ${kills} kills, ${counts.sent} sent, ${repeats} repeats in the sink (${counts.repeats} counted)\n`,
    );
  }, 900_000);
});

describe('a worker stopped with SIGTERM in the middle of a send', () => {
  it('stops claiming, finishes what is in flight, exits within 10 s, and another worker goes on without a repeat', async () => {
    // The worker left running by the test above would take the send too: this one sends alone.
    await workers.killAll();
    const { id } = await campaignTo(s, 'term', 3000, 0);
    const first = await startWorkerProcess();
    await eventually(async () => ((await sinkCounts('term')).size >= 300 ? true : null), 120_000);
    const stopped = Date.now();
    const ended = await stopWorkerProcess(first);
    expect(ended.code).toBe(0);
    expect(Date.now() - stopped).toBeLessThan(10_000);
    // Nothing left in flight, and its lease given up (so no one waits for it to lapse).
    expect(await s.sql(`select id from deliveries where campaign_id = $1 and status = 'sending'`, [id])).toHaveLength(
      0,
    );
    expect(await s.sql(`select id from worker_leases where pid = $1`, [first.pid])).toHaveLength(0);
    expect(await statusOf(id)).toBe('pending');
    await startWorkerProcess();
    await eventually(async () => ((await statusOf(id)) === 'sent' ? true : null), 300_000);
    const byAddress = await sinkCounts('term');
    expect(byAddress.size).toBe(3000);
    expect([...byAddress.values()].every((n) => n === 1)).toBe(true);
    const [repeats] = await s.sql(
      `select coalesce(sum(in_flight_repeats), 0)::int as n from deliveries where campaign_id = $1`,
      [id],
    );
    expect(repeats.n).toBe(0);
  }, 600_000);
});
