import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TTestServer } from '../../test/harness.ts';
import { killWorkerProcess, startWorkerProcess } from '../../test/worker-process.ts';
import { campaignTo, sendTestServer, sinkCounts } from '../../test/campaign-send.ts';

/**
 * Takeover (issue 24): a killed worker's campaign send is taken up by another worker that runs,
 * once the dead worker's lease lapses, and at once by a worker that starts on the same machine
 * (it drops the leases of its dead neighbours). Real worker processes over PostgreSQL into the
 * server's embedded SMTP sink. Asserted by order and outcome, never by time: who holds the send,
 * that the send ends with every guest mailed (again only where a delivery counts a repeat), and
 * that the worker that took over counts it in `/metrics` (yado_lease_takeovers_total).
 */

let s: TTestServer;
const children: ChildProcess[] = [];

const SHORT_LEASE = { WORKER_LEASE_SECONDS: '2', WORKER_LEASE_RENEW_SECONDS: '1' };
/** Longer than any wait of this file: a take-up under it cannot have waited for the lease to lapse. */
const LONG_LEASE = { WORKER_LEASE_SECONDS: '600', WORKER_LEASE_RENEW_SECONDS: '1' };

interface TWorker {
  child: ChildProcess;
  metricsUrl: string;
}

/** A worker process on the server's database and sink, with its own metrics listener. */
async function worker(lease: Record<string, string>): Promise<TWorker> {
  const output: string[] = [];
  const child = await startWorkerProcess(
    {
      DATABASE_URL: s.rt.config.databaseUrl as string,
      DATA_DIR: s.rt.config.dataDir,
      SMTP_URL: `smtp://127.0.0.1:${s.rt.sink?.port}`,
      CAMPAIGN_DISPATCH_SECONDS: '1',
      CAMPAIGN_BATCH_SIZE: '50',
      // Paced (all recipients share one domain), so the kill surely lands during the send.
      CAMPAIGN_DOMAIN_RATE: '200',
      METRICS_PORT: '0',
      ...lease,
    },
    { output, debugVariable: 'KILL_DEBUG' },
  );
  children.push(child);
  const url = /metrics on (http:\/\/\S+)\/metrics/.exec(output.join(''))?.[1];
  if (!url) throw new Error(`the worker did not say where its metrics are: ${output.join('')}`);
  return { child, metricsUrl: `${url}/metrics` };
}

/** yado_lease_takeovers_total of one worker, over its outcomes. */
async function takeovers(w: TWorker): Promise<number> {
  const text = await (await fetch(w.metricsUrl)).text();
  return [...text.matchAll(/^yado_lease_takeovers_total\{outcome="\w+"\} (\d+)/gm)].reduce(
    (n, m) => n + Number(m[1]),
    0,
  );
}

/** The pid of the worker holding the campaign's send (a claim of it in flight), `except` a dead one's. */
const holder = (id: string, except = 0) =>
  eventually(async () => {
    const rows = await s.sql(
      `select distinct w.pid from deliveries d join worker_leases w on w.id = d.claimed_by
       where d.campaign_id = $1 and d.status = 'sending' and w.pid <> $2`,
      [id, except],
    );
    return rows.length === 1 ? (rows[0].pid as number) : null;
  }, 120_000);

const statusOf = async (id: string) =>
  (await s.sql(`select status from campaigns where id = $1`, [id]))[0].status as string;

/** After the send: every guest mailed, again only where the delivery counts a repeat; the statistics agree. */
async function expectEveryGuestOnce(id: string, prefix: string, guests: number, token: string) {
  const byAddress = await sinkCounts(s, prefix);
  expect(byAddress.size).toBe(guests);
  const deliveries = await s.sql(`select email, status, in_flight_repeats from deliveries where campaign_id = $1`, [
    id,
  ]);
  for (const d of deliveries) {
    expect(d.status).toBe('sent');
    expect((byAddress.get(d.email) ?? 0) - 1, d.email).toBeLessThanOrEqual(d.in_flight_repeats);
  }
  const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
  expect(report.statistics).toMatchObject({ sent: guests, failed: 0 });
}

beforeAll(async () => {
  s = await sendTestServer(SHORT_LEASE);
}, 120_000);

afterAll(async () => {
  for (const child of children) await killWorkerProcess(child);
  await s?.close();
});

describe("a killed worker's campaign send", () => {
  it('is taken up by another running worker once the lease lapses, which counts the takeover', async () => {
    const first = await worker(SHORT_LEASE);
    const second = await worker(SHORT_LEASE);
    expect(await takeovers(second)).toBe(0);
    expect(await takeovers(first)).toBe(0);
    const { id, token } = await campaignTo(s, 'over', 1200);
    const pid = await holder(id);
    const [dead, survivor] = pid === first.child.pid ? [first, second] : [second, first];
    expect(dead.child.pid).toBe(pid);
    await killWorkerProcess(dead.child);
    expect(await statusOf(id)).toBe('pending');

    // The survivor takes it up (nobody else runs) and finishes it.
    const taken = await holder(id, pid);
    expect(taken).toBe(survivor.child.pid);
    await eventually(async () => ((await statusOf(id)) === 'sent' ? true : null), 300_000);
    // The dead worker's lease lapsed and was dropped; the survivor counted the takeover.
    expect(await s.sql(`select id from worker_leases where pid = $1`, [pid])).toHaveLength(0);
    expect(await takeovers(survivor)).toBeGreaterThanOrEqual(1);
    await expectEveryGuestOnce(id, 'over', 1200, token);
    await killWorkerProcess(survivor.child);
  }, 600_000);

  it('is taken up at once by a worker that starts, without waiting for the lease to lapse', async () => {
    const first = await worker(LONG_LEASE);
    const { id, token } = await campaignTo(s, 'restart', 1200);
    const pid = await holder(id);
    expect(pid).toBe(first.child.pid);
    await killWorkerProcess(first.child);
    // The dead worker's lease would hold for 600 s: still there when the next one starts.
    expect(await s.sql(`select id from worker_leases where pid = $1 and expires_at > now()`, [pid])).toHaveLength(1);

    const next = await worker(LONG_LEASE);
    // Dropped at its start (a process of this machine that is gone), and the send put back to it.
    expect(await s.sql(`select id from worker_leases where pid = $1`, [pid])).toHaveLength(0);
    expect(await takeovers(next)).toBeGreaterThanOrEqual(1);
    await eventually(async () => ((await statusOf(id)) === 'sent' ? true : null), 300_000);
    await expectEveryGuestOnce(id, 'restart', 1200, token);
  }, 600_000);
});
