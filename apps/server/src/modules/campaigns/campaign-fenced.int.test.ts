import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TTestServer } from '../../test/harness.ts';
import { relayedTestServer, startTestRelay, type TTestRelay } from '../../test/test-relay.ts';
import { counterValue } from '../../test/metrics.ts';
import { startedCampaignFor } from '../../test/campaign-send.ts';
import { sendCampaign } from './send-campaign.ts';

/**
 * The statistics equal what the relay accepted when a worker is fenced (issue 24): a send whose
 * worker's lease lapsed while a message was in SMTP. Another send (here started by the relay
 * while it holds that message's answer, as another worker would after the lapse) puts the first
 * one's claims back and sends them, that message again too; then the relay answers the first
 * send, whose answer must not be recorded nor counted. Every guest counts once as sent, the one
 * mailed twice once more as a repeat, and the process's metrics count what the statistics hold.
 */

const GUESTS = 5;

let s: TTestServer;
let relay: TTestRelay;
let brand: { id: string };
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  relay = await startTestRelay();
  s = await relayedTestServer(relay.url({ maxConnections: 1 }));
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
});

/** yado_campaign_sends_total{outcome="sent"} of this process. */
const sentMetric = () => counterValue('yado_campaign_sends_total', { outcome: 'sent' });

/** `n` guests of さくら箱根 addressed `<prefix><g>.<tag>@guest.example.jp`, phones `<phones>` and seven digits. */
async function guests(prefix: string, phones: string, lastName: string, n: number): Promise<string[]> {
  const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
  const ids: string[] = [];
  for (let g = 0; g < n; g++) {
    const [row] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, $3, $4, $5) returning id`,
      [brand.id, `客${g}`, lastName, `${phones}${String(g).padStart(7, '0')}`, `${prefix}${g}.${tag}@guest.example.jp`],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, hotel.id, brand.id],
    );
    ids.push(row.id as string);
  }
  return ids;
}

describe('an answer that arrives after its worker was fenced', () => {
  it('is neither recorded nor counted: the statistics and the metrics equal the guests the relay accepted', async () => {
    const customerIds = await guests('f', '0906', '山田', GUESTS);
    const { id, token } = await startedCampaignFor(s, `柵 ${tag}`, customerIds);
    const job = { campaignId: id, brandId: brand.id };

    const before = await sentMetric();
    const first = randomUUID();
    let fenced: string | null = null;
    let second: Promise<void> | null = null;
    relay.onMessage = async (to) => {
      if (fenced) return;
      fenced = to[0] ?? '';
      // The first send's worker id holds no live lease: another send puts its claims back (all of
      // them, this message's too) and then sends them, once this answer has freed the connection.
      second = sendCampaign(s.rt, job, { workerId: randomUUID() });
      await eventually(async () => {
        const [held] = await s.sql(
          `select count(*)::int as n from deliveries where campaign_id = $1 and claimed_by = $2`,
          [id, first],
        );
        return held.n === 0 ? true : null;
      });
    };
    try {
      await sendCampaign(s.rt, job, { workerId: first });
      await second;
    } finally {
      relay.onMessage = null;
    }

    // The relay got every guest once, and the fenced one's message twice.
    const addresses = customerIds.map((_, g) => `f${g}.${tag}@guest.example.jp`);
    expect(fenced).not.toBeNull();
    expect(addresses.map((a) => relay.received.get(a))).toEqual(addresses.map((a) => (a === fenced ? 2 : 1)));
    const deliveries = await s.sql(
      `select email, status, in_flight_repeats, attempts from deliveries where campaign_id = $1`,
      [id],
    );
    for (const d of deliveries)
      expect(d, d.email).toMatchObject({ status: 'sent', attempts: 1, in_flight_repeats: d.email === fenced ? 1 : 0 });
    const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(report).toMatchObject({
      status: 'sent',
      statistics: { audience: GUESTS, sent: GUESTS, failed: 0, repeats: 1 },
    });
    const totals = (await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data.totals;
    expect(totals).toMatchObject({ sent: GUESTS });
    // The metrics count the recorded answers only: the fenced answer is not one.
    expect((await sentMetric()) - before).toBe(GUESTS);
  }, 60_000);
});

describe("a live worker's run that failed with a message in SMTP", () => {
  it('strands nothing: the next run of the same worker puts it back once, marked, and the campaign finishes', async () => {
    const customerIds = await guests('live', '0907', '川口', 3);
    const { id, token } = await startedCampaignFor(s, `残 ${tag}`, customerIds);
    const job = { campaignId: id, brandId: brand.id };

    // As an earlier run of this worker left it: handed to SMTP, its answer never recorded (the
    // run's commit failed), and the worker's lease alive all along.
    const worker = randomUUID();
    await s.sql(
      `insert into worker_leases (id, hostname, pid, expires_at) values ($1, 'test', 1, now() + interval '1 hour')`,
      [worker],
    );
    const [left] = await s.sql(
      `update deliveries set status = 'sending', claimed_by = $2, claim_token = $3, claimed_at = now(), handed_at = now()
       where id = (select id from deliveries where campaign_id = $1 order by id limit 1) returning email`,
      [id, worker, randomUUID()],
    );
    await sendCampaign(s.rt, job, { workerId: worker });

    const deliveries = await s.sql(`select email, status, in_flight_repeats from deliveries where campaign_id = $1`, [
      id,
    ]);
    for (const d of deliveries)
      expect(d, d.email).toMatchObject({ status: 'sent', in_flight_repeats: d.email === left.email ? 1 : 0 });
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data).toMatchObject({
      status: 'sent',
      statistics: { audience: 3, sent: 3, repeats: 1 },
    });
    await s.sql(`delete from worker_leases where id = $1`, [worker]);
  }, 60_000);
});
