import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { trackingFor } from '../tracking/links.ts';
import { sendCampaign, startCampaign } from './send-campaign.ts';

/**
 * A mail whose relay answer was lost (handed to SMTP, then its worker was killed before the answer
 * was recorded) is sent again once, last. If the guest unsubscribes in between through that very
 * mail's one-click link, the link shows the mail reached them: the statistics must count it as
 * sent (what the relay accepted, issue 24), not as skipped, and it is not sent again. Found by the
 * send drill (bench/send-drill.ts): the product counted one mail fewer than its SMTP sink received.
 * The crash is set up as the fence test in campaigns.int.test.ts sets it up: the delivery held and
 * handed by a worker whose lease is gone, or already put back by the next send.
 */

let s: TTestServer;
const tag = randomBytes(3).toString('hex');
const mail = (local: string) => `${local}.${tag}@guest.example.jp`;

beforeAll(async () => {
  s = await startTestServer({ worker: false });
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

const oneClick = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });

describe('an unsubscribe through a mail whose answer was lost in a crash', () => {
  it('counts the mail as sent (it reached the guest) and sends it no second time; other unsubscribes still skip', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    const locals = ['inflight', 'putback', 'elsewhere', 'unhanded'];
    const guests = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       select $1, 'ゲスト', '失', '0706' || lpad(g::text, 3, '0') || $3, ($2::text[])[g] from generate_series(1, 4) g returning id, email`,
      [brand.id, locals.map(mail), String(Math.floor(Math.random() * 1e4)).padStart(4, '0')],
    );
    const idOf = new Map(guests.map((g) => [(g.email as string).split('.')[0] as string, g.id as string]));
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) select unnest($1::uuid[]), $2, $3, 'manual'`,
      [guests.map((g) => g.id), hotel.id, brand.id],
    );
    const segment = await staticSegment(
      s,
      token,
      `失 ${tag}`,
      guests.map((g) => g.id as string),
    );
    const templateId = (
      await s.call('POST', '/v1/templates', {
        token,
        body: {
          name: `失 ${tag}`,
          defaultLanguage: 'ja',
          contents: { ja: { subject: '失', preheader: '', document: { version: 1, sections: [] } } },
        },
      })
    ).body.data.id;
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token,
        body: { name: `失 ${tag}`, subject: '失', recipients: { segmentIds: [segment] }, templateId },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token, body: {} })).status).toBe(200);
    await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    const delivery = async (local: string) =>
      (
        await s.sql(`select id, customer_id from deliveries where campaign_id = $1 and customer_id = $2`, [
          c.id,
          idOf.get(local),
        ])
      )[0] as { id: string; customer_id: string };
    const linkOf = async (local: string) => {
      const d = await delivery(local);
      return trackingFor(s.rt, d.id, { customerId: d.customer_id }).unsubscribeUrl;
    };

    // The crash: a worker (whose lease is gone) had handed three mails to SMTP and recorded no answer.
    const dead = randomUUID();
    for (const local of ['inflight', 'putback', 'elsewhere'])
      await s.sql(
        `update deliveries set status = 'sending', claimed_by = $3, claim_token = $4, claimed_at = now(), handed_at = now()
         where campaign_id = $1 and customer_id = $2`,
        [c.id, idOf.get(local), dead, randomUUID()],
      );
    // One was put back already (as the next send does: queued, marked as a possible repeat).
    await s.sql(
      `update deliveries set status = 'queued', in_flight_repeats = 1, claimed_by = null, claim_token = null, handed_at = null
       where campaign_id = $1 and customer_id = $2`,
      [c.id, idOf.get('putback')],
    );
    // Two guests unsubscribe through the mail they received; one is unsubscribed by the hotel (no
    // sign the mail arrived); one whose mail never went out unsubscribes through its link.
    expect((await oneClick(await linkOf('inflight'))).status).toBe(200);
    expect((await oneClick(await linkOf('putback'))).status).toBe(200);
    await s.sql(`update customers set email_status = 'unsubscribed', email_status_changed_at = now() where id = $1`, [
      idOf.get('elsewhere'),
    ]);
    expect((await oneClick(await linkOf('unhanded'))).status).toBe(200);

    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });

    const rows = new Map(
      (await s.sql(`select customer_id, status, skip_reason from deliveries where campaign_id = $1`, [c.id])).map(
        (r) => [r.customer_id as string, { status: r.status, skip_reason: r.skip_reason }],
      ),
    );
    expect(rows.get(idOf.get('inflight') as string)).toEqual({ status: 'sent', skip_reason: null });
    expect(rows.get(idOf.get('putback') as string)).toEqual({ status: 'sent', skip_reason: null });
    expect(rows.get(idOf.get('elsewhere') as string)).toEqual({ status: 'skipped', skip_reason: 'unsubscribed' });
    expect(rows.get(idOf.get('unhanded') as string)).toEqual({ status: 'skipped', skip_reason: 'unsubscribed' });
    // No second copy to anyone (the first went out before the crash, outside this sink).
    const sunk = await s.sql(`select 1 from dev_outbox o, unnest(o.rcpt_to) r where r like $1`, [
      `%.${tag}@guest.example.jp`,
    ]);
    expect(sunk).toHaveLength(0);
    // The campaign's statistics and the statistics API say the same: two sent, two skipped.
    const shown = (await s.call('GET', `/v1/campaigns/${c.id}`, { token })).body.data;
    expect(shown).toMatchObject({ status: 'sent', statistics: { sent: 2, skipped: 2, failed: 0 } });
    const report = (await s.call('GET', `/v1/campaigns/${c.id}/statistics`, { token })).body.data;
    expect(report.totals).toMatchObject({ sent: 2, skipped: 2, unsubscribes: 3 });
  });
});
