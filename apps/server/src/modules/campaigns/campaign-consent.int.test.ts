import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { counterValue } from '../../test/metrics.ts';
import { DomainRate } from './domain-rate.ts';
import { sendCampaign, startCampaign } from './send-campaign.ts';

/**
 * Consent between the claim and SMTP: a guest who unsubscribes after their delivery was claimed
 * (marked in flight) but before it went out gets no mail. The recipient domain is paced to one
 * message every five seconds here, so the send is slow enough to unsubscribe in the middle of it.
 * That pace is shared by every worker process, through the database.
 */

let s: TTestServer;
const tag = randomBytes(3).toString('hex');
const RECIPIENTS = 4;

beforeAll(async () => {
  s = await startTestServer({ worker: false, env: { CAMPAIGN_DOMAIN_RATE: '0.2' } });
  await seedDemoSending(s.rt);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
});
afterAll(async () => {
  await s?.close();
});

describe('an unsubscribe in the middle of a batch', () => {
  it('holds: the claimed deliveries of guests who unsubscribed since are skipped, and they get no mail', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    const guests = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       select $1, 'ゲスト' || g, '中途', '0705' || lpad(g::text, 3, '0') || $3, 'midbatch' || g || '.' || $2 || '@paced.example.jp' from generate_series(1, ${RECIPIENTS}) g
       returning id`,
      [brand.id, tag, String(Math.floor(Math.random() * 1e4)).padStart(4, '0')],
    );
    const ids = guests.map((g) => g.id as string);
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select unnest($1::uuid[]), $2, $3, 'manual'`,
      [ids, hotel.id, brand.id],
    );
    const segment = await staticSegment(s, token, `中途 ${tag}`, ids);
    const templateId = (
      await s.call('POST', '/v1/templates', {
        token,
        body: {
          name: `中途 ${tag}`,
          defaultLanguage: 'ja',
          contents: { ja: { subject: '中途', preheader: '', document: { version: 1, sections: [] } } },
        },
      })
    ).body.data.id;
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token,
        body: { name: `中途 ${tag}`, subject: '中途', recipients: { segmentIds: [segment] }, templateId },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token, body: {} })).status).toBe(200);
    await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });

    const stepwise = () => counterValue('yado_campaign_send_commits_total', { path: 'stepwise' });
    const stepwiseBefore = await stepwise();
    const sending = sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    // The first mail is out: every delivery is claimed, the rest wait for their domain's slots.
    await eventually(
      async () =>
        (await s.sql(`select 1 from dev_outbox where rcpt_to[1] like $1`, [`midbatch%.${tag}@paced.example.jp`])).length
          ? true
          : null,
      30_000,
    );
    const unsubscribed = await s.sql(
      `update customers cu set email_status = 'unsubscribed', email_status_changed_at = now()
       from deliveries d
       where d.campaign_id = $1 and d.customer_id = cu.id and d.status = 'sending'
         and not exists (select 1 from dev_outbox o where cu.email = any(o.rcpt_to))
       returning cu.id, cu.email`,
      [c.id],
    );
    expect(unsubscribed.length).toBeGreaterThan(0);
    await sending;

    const rows = await s.sql(
      `select customer_id, status, skip_reason, attempts from deliveries where campaign_id = $1`,
      [c.id],
    );
    const gone = new Set(unsubscribed.map((u) => u.id as string));
    for (const row of rows) {
      if (gone.has(row.customer_id))
        expect(row).toMatchObject({ status: 'skipped', skip_reason: 'unsubscribed', attempts: 0 });
      else expect(row.status).toBe('sent');
    }
    for (const u of unsubscribed)
      expect(await s.sql(`select 1 from dev_outbox where $1 = any(rcpt_to)`, [u.email])).toHaveLength(0);
    const done = (await s.call('GET', `/v1/campaigns/${c.id}`, { token })).body.data;
    expect(done.status).toBe('sent');
    expect(done.statistics).toMatchObject({ audience: RECIPIENTS, sent: RECIPIENTS - unsubscribed.length });
    // An unsubscribed guest's mail refused at the hand-over aborts the one-round-trip step, which
    // is then taken a statement at a time (where the skip is recorded, with its statistics).
    expect(await stepwise()).toBeGreaterThan(stepwiseBefore);
  }, 120_000);
});

describe('the pace per recipient domain', () => {
  it('is shared: two worker processes reserving slots for one domain get consecutive ones, other domains are not held', async () => {
    // Two instances over the same database stand for two worker processes (one slot every 5 s).
    const first = new DomainRate(s.rt.database, 0.2);
    const second = new DomainRate(s.rt.database, 0.2);
    const domain = `shared-${tag}.example.jp`;
    const a = await first.reserve([domain, domain]);
    const b = await second.reserve([domain, domain, `other-${tag}.example.jp`]);
    // The first two slots begin now and in 5 s; the second process's two follow them, at 10 and 15 s.
    expect(a).toBeGreaterThan(4_000);
    expect(a).toBeLessThanOrEqual(5_000);
    expect(b - a).toBeGreaterThan(9_000);
    const [row] = await s.sql(
      `select extract(epoch from next_at - now()) as seconds from domain_send_slots where domain = $1`,
      [domain],
    );
    expect(Number(row.seconds)).toBeGreaterThan(15);
    expect(await new DomainRate(s.rt.database, 0.2).reserve([`fresh-${tag}.example.jp`])).toBe(0);
    expect(await new DomainRate(s.rt.database, 0).reserve([domain])).toBe(0);
  });
});
