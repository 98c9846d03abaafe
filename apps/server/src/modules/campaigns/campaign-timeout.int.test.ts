import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedCampaignFor } from '../../test/campaign-send.ts';
import type { TTestServer } from '../../test/harness.ts';
import { relayedTestServer, startTestRelay, type TTestRelay } from '../../test/test-relay.ts';
import { sendCampaign } from './send-campaign.ts';
import { ANSWER_LOST_TWICE } from './send-queries.ts';

/**
 * A relay that takes the message and never answers (issue 24, "send once"): the product's relay
 * (SMTP_URL) is an SMTP server of this test's own, which for chosen recipients reads the whole
 * message after DATA and then says nothing; the transport's inactivity timeout is made short
 * through the relay URL (`socketTimeout`), as an operator would. Such a delivery is "unknown":
 * sent again once and marked as a possible repeat, never failed, never a third time, and not a
 * relay attempt (the 4xx budget, here 2, counts only the relay's answers).
 */

let s: TTestServer;
let brand: { id: string };
let hotel: { id: string };
const tag = randomBytes(3).toString('hex');
const mail = (local: string) => `${local}.${tag}@guest.example.jp`;

/** A test server whose relay is `smtpUrl` (a 4xx budget of 2, back-offs of 10 ms), and the brand's ids. */
async function serverWith(smtpUrl: string): Promise<TTestServer> {
  const server = await relayedTestServer(smtpUrl, { CAMPAIGN_RETRY_LIMIT: '2', CAMPAIGN_RETRY_BASE_SECONDS: '0.01' });
  [brand] = await server.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await server.sql(`select id from hosts where slug = 'sakura-hakone'`);
  return server;
}

async function customer(first: string, email: string): Promise<string> {
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '山田', $3, $4) returning id`,
    [brand.id, first, `090${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, email],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return row.id as string;
}

/** A brand campaign to these addresses, sent now: the audience snapshotted, nothing sent yet. */
async function campaignTo(name: string, addresses: string[]): Promise<{ id: string; token: string }> {
  const customerIds = [];
  for (const [i, address] of addresses.entries()) customerIds.push(await customer(`客${i}`, address));
  return startedCampaignFor(s, `${name} ${tag}`, customerIds);
}

/** Runs the send job until the campaign is sent (a deferred delivery is due at once here). */
async function sendUntilDone(id: string): Promise<number> {
  for (let runs = 1; runs <= 10; runs++) {
    await s.sql(`update deliveries set next_attempt_at = now() where campaign_id = $1 and status = 'deferred'`, [id]);
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    const [c] = await s.sql(`select status from campaigns where id = $1`, [id]);
    if (c.status === 'sent') return runs;
  }
  throw new Error('the campaign was not sent after 10 runs of its send job');
}

const deliveryOf = async (id: string, email: string) =>
  (
    await s.sql(
      `select d.status, d.attempts, d.in_flight_repeats, d.error from deliveries d join customers c on c.id = d.customer_id
       where d.campaign_id = $1 and c.email = $2`,
      [id, email],
    )
  )[0] as { status: string; attempts: number; in_flight_repeats: number; error: string | null };

describe('a relay that takes a message after DATA and never answers', () => {
  let relay: TTestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
    s = await serverWith(relay.url({ maxConnections: 2, socketTimeout: 1000 }));
  });
  afterAll(async () => {
    await s?.close();
    await relay?.close();
  });

  it('leaves the delivery unknown and sends it once more, marked; lost twice it counts as sent, never failed, never a third time', async () => {
    const once = mail('once');
    const twice = mail('twice');
    const then451 = mail('then-451');
    const fine = mail('fine');
    relay.script.set(once, ['hang', '250']);
    relay.script.set(twice, ['hang', 'hang', 'hang']);
    // A timeout, then a 451: with a budget of 2 relay answers, the timeout must not have used one.
    relay.script.set(then451, ['hang', '451', '250']);
    const { id, token } = await campaignTo('応答なし', [once, twice, then451, fine]);

    await sendUntilDone(id);

    // The relay got each message again once after a timeout, and never a third time.
    expect(Object.fromEntries([once, twice, then451, fine].map((a) => [a, relay.received.get(a) ?? 0]))).toEqual({
      [once]: 2,
      [twice]: 2,
      [then451]: 3,
      [fine]: 1,
    });
    expect(await deliveryOf(id, once)).toMatchObject({ status: 'sent', attempts: 1, in_flight_repeats: 1 });
    // Its answer lost twice: not sent a third time, counted as sent with the reason, no attempt used.
    expect(await deliveryOf(id, twice)).toMatchObject({
      status: 'sent',
      attempts: 0,
      in_flight_repeats: 1,
      error: ANSWER_LOST_TWICE,
    });
    // The 451 was the first relay answer (deferred, not failed at the budget of 2); then 250.
    expect(await deliveryOf(id, then451)).toMatchObject({ status: 'sent', attempts: 2, in_flight_repeats: 1 });
    expect(await deliveryOf(id, fine)).toMatchObject({ status: 'sent', attempts: 1, in_flight_repeats: 0 });

    // The statistics: nothing failed; the possible repeats are counted and shown.
    const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(report).toMatchObject({ status: 'sent', statistics: { audience: 4, sent: 4, failed: 0 } });
    const recipients = (await s.call('GET', `/v1/campaigns/${id}/recipients`, { token })).body.data.items as {
      email: string;
      status: string;
    }[];
    expect(recipients.map((r) => r.status).sort()).toEqual(['sent', 'sent', 'sent', 'sent']);
  }, 60_000);

  it('a connection lost after the body went out is unknown (sent once more, marked); lost before it, the relay took nothing', async () => {
    const after = mail('lost-after');
    const before = mail('lost-before');
    const fine = mail('fine2');
    relay.script.set(after, ['drop', '250']);
    relay.script.set(before, ['drop-early', '250']);
    const { id, token } = await campaignTo('切断', [after, before, fine]);

    // The first run with a long back-off: what it defers stays deferred, so its verdict can be read.
    const base = s.rt.config.campaigns.retryBaseSeconds;
    s.rt.config.campaigns.retryBaseSeconds = 3600;
    try {
      await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    } finally {
      s.rt.config.campaigns.retryBaseSeconds = base;
    }
    // Lost before the body: no attempt, no repeat mark, tried again later (never re-sent by the
    // pool behind our back: maxRequeues 0).
    expect(await deliveryOf(id, before)).toMatchObject({ status: 'deferred', attempts: 0, in_flight_repeats: 0 });
    expect((await deliveryOf(id, before)).error).toMatch(/ECONNECTION/);
    // Lost after it: back in the queue once and marked, the lost answer no attempt. The same run may
    // already have sent it again (its lane claims once more after the timeout; seen on Node 24), then
    // with the relay's answer as its one attempt.
    const lost = await deliveryOf(id, after);
    expect(lost.in_flight_repeats).toBe(1);
    expect([
      { status: 'queued', attempts: 0 },
      { status: 'sent', attempts: 1 },
    ]).toContainEqual({ status: lost.status, attempts: lost.attempts });

    await sendUntilDone(id);
    expect(Object.fromEntries([after, before, fine].map((a) => [a, relay.received.get(a) ?? 0]))).toEqual({
      [after]: 2,
      [before]: 1,
      [fine]: 1,
    });
    expect(await deliveryOf(id, after)).toMatchObject({ status: 'sent', attempts: 1, in_flight_repeats: 1 });
    expect(await deliveryOf(id, before)).toMatchObject({ status: 'sent', attempts: 1, in_flight_repeats: 0 });
    const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(report).toMatchObject({ status: 'sent', statistics: { audience: 3, sent: 3, failed: 0 } });
  }, 60_000);
});

describe('a relay that lets the connection open and never greets', () => {
  const silent = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  const sockets: Socket[] = [];
  beforeAll(async () => {
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    s = await serverWith(`smtp://127.0.0.1:${port}/?pool=true&maxConnections=1&greetingTimeout=300`);
  });
  afterAll(async () => {
    await s?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it('has taken nothing: the delivery is tried again as a relay attempt and fails at the limit, never counted as sent', async () => {
    const nobody = mail('nobody');
    const { id, token } = await campaignTo('挨拶なし', [nobody]);
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    // Not "unknown" (no possible repeat, no "lost twice" counted as sent): a relay attempt, retried.
    expect(await deliveryOf(id, nobody)).toMatchObject({ status: 'deferred', attempts: 1, in_flight_repeats: 0 });
    await sendUntilDone(id);
    expect(await deliveryOf(id, nobody)).toMatchObject({ status: 'failed', attempts: 2, in_flight_repeats: 0 });
    const report = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(report).toMatchObject({ status: 'sent', statistics: { audience: 1, sent: 0, failed: 1 } });
  }, 60_000);
});
