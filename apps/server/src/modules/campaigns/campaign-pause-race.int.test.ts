import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedCampaignFor } from '../../test/campaign-send.ts';
import type { TTestServer } from '../../test/harness.ts';
import { relayedTestServer, startTestRelay, type TTestRelay } from '../../test/test-relay.ts';
import { sendCampaign } from './send-campaign.ts';

/**
 * The pause's hand-over race (issue 24, the drill saw a mail start milliseconds after the pause was
 * answered): the statement that checks consent and marks a mail "handed" reads the campaign's row
 * under a share lock, so a pause committing meanwhile is waited for and seen. The pause is made
 * through the API while the relay (an SMTP server of the test's own) holds a message and the other
 * slots go on handing theirs. Once the pause is answered, the mails handed so far are in flight and
 * finish; the relay receives no MAIL FROM beyond them. Resumed, the campaign sends the rest.
 */

const GUESTS = 30;

let s: TTestServer;
let relay: TTestRelay;
let brand: { id: string };
const tag = randomBytes(3).toString('hex');
const guests: string[] = [];

beforeAll(async () => {
  relay = await startTestRelay();
  s = await relayedTestServer(relay.url({ maxConnections: 4 }), { CAMPAIGN_BATCH_SIZE: '10' });
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
  const rows = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email)
     select $1, '客' || g, '山田', '0906' || $2 || lpad(g::text, 4, '0'), 'p' || g || '.' || $3 || '@guest.example.jp'
     from generate_series(1, ${GUESTS}) g returning id`,
    [brand.id, String(parseInt(tag, 16) % 10000).padStart(4, '0'), tag],
  );
  for (const row of rows) {
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, hotel.id, brand.id],
    );
    guests.push(row.id as string);
  }
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
});

describe('a pause while the slots are handing mails over', () => {
  it('hands nothing more once the pause is answered: the relay sees no new MAIL FROM; resumed, the rest goes', async () => {
    const { id, token } = await startedCampaignFor(s, `一時停止の競合 ${tag}`, guests);
    let handedAtPause = -1;
    let mailFromAtPause = -1;
    relay.onMessage = async () => {
      if (handedAtPause >= 0 || relay.mailFrom.length < 6) return;
      handedAtPause = 0; // once
      const paused = await s.call('POST', `/v1/campaigns/${id}/pause`, { token, body: {} });
      expect(paused.status, JSON.stringify(paused.body)).toBe(200);
      mailFromAtPause = relay.mailFrom.length;
      // What was handed before the pause committed: answered already, or in an SMTP conversation.
      const [row] = await s.sql(
        `select count(*)::int as n from deliveries where campaign_id = $1
         and (status = 'sent' or (status = 'sending' and handed_at is not null))`,
        [id],
      );
      handedAtPause = row.n as number;
    };
    try {
      await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    } finally {
      relay.onMessage = null;
    }
    expect(handedAtPause).toBeGreaterThan(0);
    expect(handedAtPause).toBeLessThan(GUESTS);
    // Only the mails handed before the pause reached the relay (those in flight finished).
    expect(relay.mailFrom.length).toBe(handedAtPause);
    expect(relay.mailFrom.length).toBeGreaterThanOrEqual(mailFromAtPause);
    const [counts] = await s.sql(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'queued')::int as queued
       from deliveries where campaign_id = $1`,
      [id],
    );
    expect(counts).toEqual({ sent: handedAtPause, queued: GUESTS - handedAtPause });

    const resumed = await s.call('POST', `/v1/campaigns/${id}/resume`, { token, body: {} });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    expect(relay.mailFrom.length).toBe(GUESTS);
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data).toMatchObject({
      status: 'sent',
      statistics: { audience: GUESTS, sent: GUESTS },
    });
  }, 60_000);
});
