import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startedCampaignFor } from '../../test/campaign-send.ts';
import type { TTestServer } from '../../test/harness.ts';
import { quietNow } from '../../test/quiet-hours.ts';
import { relayedTestServer, startTestRelay, type TTestRelay } from '../../test/test-relay.ts';
import { DEMO_DOMAINS } from '../../seed/demo-sending.ts';
import { sendCampaign } from './send-campaign.ts';

/**
 * Settings that hold a send, changed while it runs (issue 24): quiet hours switched on, the
 * frequency cap lowered, the sending domain lapsing. Each takes effect at the next claim, not only
 * when the send started. The change is made by the relay (an SMTP server of the test's own) while
 * it holds the first message's answer, so it surely lands mid-send. The send claims one delivery
 * at a time over one SMTP connection, so what was claimed before the change is bounded: the
 * message in SMTP, the two waiting for the connection and the one a lane holds (`AHEAD`).
 */

const GUESTS = 10;
const AHEAD = 4;

let s: TTestServer;
let relay: TTestRelay;
let brand: { id: string };
let hakone: { id: string; name: string };
const tag = randomBytes(3).toString('hex');
const guests: string[] = [];

beforeAll(async () => {
  relay = await startTestRelay();
  s = await relayedTestServer(relay.url({ maxConnections: 1 }), { CAMPAIGN_BATCH_SIZE: '1', CAMPAIGN_SEND_LANES: '1' });
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hakone] = await s.sql(`select id, name from hosts where slug = 'sakura-hakone'`);
  for (let g = 0; g < GUESTS; g++) {
    const [row] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '山田', $3, $4) returning id`,
      [
        brand.id,
        `客${g}`,
        `0907${tag.slice(0, 3).replace(/\D/g, '1')}${String(g).padStart(4, '0')}`,
        `g${g}.${tag}@guest.example.jp`,
      ],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, hakone.id, brand.id],
    );
    guests.push(row.id as string);
  }
});
afterAll(async () => {
  await s?.close();
  await relay?.close();
});

/** A brand campaign to the guests, sent now: the audience snapshotted, nothing sent yet. */
const brandCampaign = (name: string) => startedCampaignFor(s, `${name} ${tag}`, guests);

/** Runs the send with `change` made while the relay holds the answer to its first message. */
async function sendChangingMidway(id: string, change: () => Promise<void>): Promise<void> {
  let changed = false;
  relay.onMessage = async () => {
    if (changed) return;
    changed = true;
    await change();
  };
  try {
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
  } finally {
    relay.onMessage = null;
  }
  expect(changed).toBe(true);
}

const counts = async (id: string) =>
  (
    await s.sql(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'queued')::int as queued,
         count(*) filter (where status = 'skipped' and skip_reason = 'frequency_cap')::int as capped
       from deliveries where campaign_id = $1`,
      [id],
    )
  )[0] as { sent: number; queued: number; capped: number };

async function setQuietHours(hotelId: string, quiet: { start: string; end: string } | null) {
  await s.sql(
    `insert into campaign_email_settings (host_id, brand_id, quiet_hours_start, quiet_hours_end) values ($1, $2, $3, $4)
     on conflict (host_id) do update set quiet_hours_start = excluded.quiet_hours_start, quiet_hours_end = excluded.quiet_hours_end`,
    [hotelId, brand.id, quiet?.start ?? null, quiet?.end ?? null],
  );
}

const setCap = (count: number) =>
  s.sql(`update campaign_email_settings set frequency_cap_count = $2, frequency_cap_days = 7 where host_id = $1`, [
    brand.id,
    count,
  ]);

describe('settings that hold a send, changed during the send', () => {
  it('quiet hours switched on hold the rest at the next claim, and the statistics show the hold', async () => {
    const { id, token } = await brandCampaign('途中で静かに');
    const quiet = quietNow();
    try {
      await sendChangingMidway(id, () => setQuietHours(hakone.id, quiet));
      const { sent, queued } = await counts(id);
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(AHEAD);
      expect(queued).toBe(GUESTS - sent);
      const one = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
      expect(one).toMatchObject({ status: 'pending', statistics: { audience: GUESTS, sent, queued } });
      expect(one.hold).toMatchObject({ reason: 'quiet_hours', hostName: hakone.name, waiting: queued, whole: true });
    } finally {
      await setQuietHours(hakone.id, null);
    }
    // Morning in 箱根: the rest goes, each guest once.
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    expect(await counts(id)).toMatchObject({ sent: GUESTS, queued: 0 });
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data).toMatchObject({
      status: 'sent',
      hold: null,
    });
  }, 60_000);

  it('a frequency cap lowered mid-send skips the rest for the cap at the next claim', async () => {
    // Each guest had one mail of the campaign above this week; a cap of 5 lets this one go.
    await setCap(5);
    const { id, token } = await brandCampaign('途中で上限');
    await sendChangingMidway(id, () => setCap(1).then(() => undefined));
    const { sent, capped } = await counts(id);
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(AHEAD);
    expect(capped).toBe(GUESTS - sent);
    const one = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(one).toMatchObject({ status: 'sent', statistics: { audience: GUESTS, sent, skipped: capped } });
    await setCap(10);
  }, 60_000);

  it('a sending domain that lapses mid-send holds the rest with the problem until it verifies again', async () => {
    const { id, token } = await brandCampaign('途中で失効');
    const verified = (state: 'verified' | 'unverified') =>
      s.sql(
        `update sending_domains set state = $2, lapsed_at = case when $2 = 'verified' then null else now() end where domain = $1`,
        [DEMO_DOMAINS.verified, state],
      );
    try {
      await sendChangingMidway(id, () => verified('unverified').then(() => undefined));
      const { sent, queued } = await counts(id);
      expect(sent).toBeGreaterThanOrEqual(1);
      expect(sent).toBeLessThanOrEqual(AHEAD);
      expect(queued).toBe(GUESTS - sent);
      const one = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
      expect(one).toMatchObject({ status: 'pending', statistics: { audience: GUESTS, sent, queued } });
      expect(one.problem).toMatch(/domain|sending_settings/);
    } finally {
      await verified('verified');
    }
    await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
    expect(await counts(id)).toMatchObject({ sent: GUESTS, queued: 0 });
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data).toMatchObject({
      status: 'sent',
      problem: null,
    });
  }, 60_000);
});
