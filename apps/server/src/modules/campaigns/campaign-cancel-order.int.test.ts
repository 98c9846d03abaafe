import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedCampaignFor } from '../../test/campaign-send.ts';
import type { TTestServer } from '../../test/harness.ts';
import {
  lockWaiters,
  relayGuests,
  relayedTestServer,
  startTestRelay,
  until,
  type TTestRelay,
} from '../../test/test-relay.ts';
import { sendCampaign } from './send-campaign.ts';

/**
 * A paused campaign cancelled while its send still records the answers of the mails that were in
 * flight when the pause came. The send's step takes the campaign's statistics (its rollups), then
 * the campaign's row under a share lock (the hand-over check); the cancel must take them in the
 * same order. It took the row first, so the two deadlocked, and PostgreSQL broke it after its
 * deadlock_timeout by failing one, which was run again (and said so in the log).
 *
 * To meet that moment every time, the relay holds both slots' answers while the campaign is
 * paused, and the test holds the sending domain's statistics rows locked, so the step that records
 * those answers stops after the campaign's rollups and before the row. The cancel is sent then,
 * the rows let go once it waits; both must finish without a conflict run again.
 */

const GUESTS = 6;
const CONFLICT = 'a transaction met a conflict and is run again';

let s: TTestServer;
let relay: TTestRelay;
let brand: { id: string };
const tag = randomBytes(3).toString('hex');
const guests: string[] = [];

beforeAll(async () => {
  relay = await startTestRelay();
  s = await relayedTestServer(relay.url({ maxConnections: 2 }), { CAMPAIGN_BATCH_SIZE: '10' });
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  guests.push(...(await relayGuests(s, GUESTS, tag, { local: 'c', phone: '0907' })));
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
});

describe('a paused campaign cancelled while its send records the last answers', () => {
  it('waits for the send step and deadlocks with nothing: no conflict is run again', async () => {
    const { id, token } = await startedCampaignFor(s, `一時停止中の取消 ${tag}`, guests);
    // The relay holds every answer until the test lets go.
    let answer = () => {};
    const answered = new Promise<void>((r) => (answer = r));
    let held = 0;
    relay.onMessage = async () => {
      held++;
      await answered;
    };
    const sending = sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    const lock = new pg.Client({ connectionString: s.rt.config.databaseUrl ?? undefined });
    await lock.connect();
    try {
      await until(async () => held === 2, 'both slots handing a mail');
      const paused = await s.call('POST', `/v1/campaigns/${id}/pause`, { token, body: {} });
      expect(paused.status, JSON.stringify(paused.body)).toBe(200);
      // The sending domain's rows of this hour and the next, made now and held, so the step that
      // records the answers stops there, its campaign rollups taken.
      await s.sql(
        `insert into sending_domain_stats_hourly (brand_id, domain, hour)
         select d.brand_id, d.domain, h from sending_domains d,
           (values (date_trunc('hour', now())), (date_trunc('hour', now()) + interval '1 hour')) v(h)
         where d.brand_id = $1 on conflict do nothing`,
        [brand.id],
      );
      await lock.query('begin');
      await lock.query('select 1 from sending_domain_stats_hourly where brand_id = $1 for update', [brand.id]);
      answer();
      await until(async () => (await lockWaiters(s)) >= 1, 'the send step waiting for the domain rows');
      const cancelling = s.call('POST', `/v1/campaigns/${id}/cancel`, { token, body: {} });
      await until(async () => (await lockWaiters(s)) >= 2, 'the cancel waiting too');
      await lock.query('commit');
      const cancelled = await cancelling;
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      await sending;
    } finally {
      relay.onMessage = null;
      answer();
      await lock.query('rollback').catch(() => undefined);
      await lock.end();
    }
    expect(s.logs.filter((line) => line.includes(CONFLICT))).toEqual([]);
    // The two mails in flight are counted sent, the rest skipped as cancelled.
    const [counts] = await s.sql(
      `select count(*) filter (where status = 'sent')::int as sent,
         count(*) filter (where status = 'skipped' and skip_reason = 'cancelled')::int as cancelled
       from deliveries where campaign_id = $1`,
      [id],
    );
    expect(counts).toEqual({ sent: 2, cancelled: GUESTS - 2 });
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data).toMatchObject({
      status: 'cancelled',
      statistics: { audience: GUESTS, sent: 2 },
    });
  }, 60_000);
});
