import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { applyFeedback } from './apply-feedback.ts';

/**
 * Deliverability per sending domain (issue 25) through the real server, worker and PostgreSQL: a
 * campaign over SMTP into the embedded sink, which refuses `unknown*` (550 5.1.1) and `blocked*`
 * (554 5.7.1, a policy block) during the send and reports on `bounce*` (DSN 5.1.1), `full*` (DSN
 * 5.2.2) and `complain*` (ARF) a moment later to the return path; the view counts each against
 * the domain the mail went out from.
 */

let s: TTestServer;
let token: string;
let brand: { id: string };
let harbor: { id: string };
let hotel: { id: string };
let domain: string;
const tag = randomBytes(3).toString('hex');
let phoneSeq = 0;

async function customer(name: string): Promise<string> {
  phoneSeq += 1;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
    [
      brand.id,
      name,
      `070${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`,
      `${name}.${tag}@guest.example.jp`,
    ],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return row.id as string;
}

const view = (as: { token: string; headers?: Record<string, string> }) =>
  s.call('GET', '/v1/deliverability/domains', as);

beforeAll(async () => {
  s = await startTestServer({ env: { CAMPAIGN_DISPATCH_SECONDS: '1' } });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
  const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
  domain = (settings.sender_email as string).split('@')[1] as string;
  token = (await s.login(DEMO.brandAdmin)).token;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('deliverability per sending domain', () => {
  it('counts what a campaign handed to the relay and what became of it, with rates and the policy blocks', async () => {
    const guests = await Promise.all(
      ['unknown', 'blocked', 'bounce', 'full', 'complain', 'fine1', 'fine2', 'fine3'].map(customer),
    );
    const segment = await staticSegment(s, token, `到達 ${tag}`, guests);
    const template = await s.call('POST', '/v1/templates', {
      token,
      body: {
        name: `到達 ${tag}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
      },
    });
    const created = await s.call('POST', '/v1/campaigns', {
      token,
      body: {
        name: `到達 ${tag}`,
        subject: `到達 ${tag}`,
        recipients: { segmentIds: [segment], excludeSegmentIds: [] },
        templateId: template.body.data.id,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
    // Sent, and the three later reports (DSN, DSN, ARF) applied.
    await eventually(
      async () => ((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data.status === 'sent' ? true : null),
      30_000,
    );
    await eventually(async () => {
      const [row] = await s.sql(
        `select count(*)::int as n from feedback_events f join deliveries d on d.id = f.delivery_id
         where d.campaign_id = $1 and f.source in ('dsn', 'arf')`,
        [id],
      );
      return row.n === 3 ? true : null;
    }, 30_000);

    // Twenty days ago, 100 mails handed over and delivered: in the 30 days only. And another
    // brand's domain with figures of its own, which this brand never sees.
    await s.sql(
      `insert into sending_domain_stats_hourly (brand_id, domain, hour, handed, delivered)
       values ($1, $2, date_trunc('hour', now()) - interval '20 days', 100, 100)`,
      [brand.id, domain],
    );
    const [harborDomain] = await s.sql(`select domain from sending_domains where brand_id = $1`, [harbor.id]);
    await s.sql(
      `insert into sending_domain_stats_hourly (brand_id, domain, hour, handed, delivered, complaints)
       values ($1, $2, date_trunc('hour', now()), 7, 7, 1)`,
      [harbor.id, harborDomain.domain],
    );

    const res = await view({ token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.domains.map((d: { domain: string }) => d.domain)).toEqual([domain]);
    const [d] = res.body.data.domains;
    expect(d).toMatchObject({ domain, state: 'verified', lapsedAt: null });
    const [week, month] = d.windows;
    expect(week).toEqual({
      days: 7,
      handed: 8,
      // Accepted: six; then `bounce` and `full` bounced afterwards.
      delivered: 4,
      hardBounces: 2,
      softBounces: 1,
      complaints: 1,
      policyBlocks: 1,
      autoReplies: 0,
      hardBounceRate: 2 / 8,
      complaintRate: 1 / 4,
      policyBlockRate: 1 / 8,
    });
    expect(month).toMatchObject({ days: 30, handed: 108, delivered: 104, hardBounces: 2, complaints: 1 });
    expect(month.complaintRate).toBeCloseTo(1 / 104);
    expect(d.recentPolicyBlocks).toHaveLength(1);
    expect(d.recentPolicyBlocks[0]).toMatchObject({ status: '5.7.1' });
    expect(d.recentPolicyBlocks[0].diagnostic).toContain('5.7.1');

    // A report applied at its own past moment (as the demo history applies its reports) counts in
    // that hour: in the 30 days, not in the 7 (it was counted in the hour it was written before).
    const [fine] = await s.sql(
      `select d.id from deliveries d join customers c on c.id = d.customer_id where d.campaign_id = $1 and c.first_name = 'fine1'`,
      [id],
    );
    await withTenant(s.rt.database.db, { scopeAll: false, brandId: brand.id }, (tx) =>
      applyFeedback(
        tx,
        [
          {
            deliveryId: fine.id as string,
            kind: 'hard_bounce',
            source: 'dsn',
            status: '5.1.1',
            diagnostic: '550 5.1.1 No such user',
            sendingDomain: domain,
          },
        ],
        new Date(Date.now() - 20 * 86_400_000),
      ),
    );
    const later = (await view({ token })).body.data.domains[0].windows;
    expect(later[0]).toMatchObject({ days: 7, hardBounces: 2 });
    expect(later[1]).toMatchObject({ days: 30, hardBounces: 3 });

    // Another brand's admin sees its own domain and figures only.
    const other = await view({ token: (await s.login(DEMO.harborAdmin)).token });
    expect(other.status).toBe(200);
    expect(other.body.data.domains).toHaveLength(1);
    expect(other.body.data.domains[0]).toMatchObject({ domain: harborDomain.domain, state: 'unverified' });
    expect(other.body.data.domains[0].windows[0]).toMatchObject({ handed: 7, complaints: 1, complaintRate: 1 / 7 });
    expect(JSON.stringify(other.body)).not.toContain(domain);
  }, 90_000);

  it('is refused without the entitlement and below the brand level', async () => {
    // multi@demo.test as Brand Viewer of Harbor View: no domain authentication entitlement.
    const multi = (await s.login(DEMO.multi)).token;
    const viewer = await view({
      token: multi,
      headers: { 'x-user-role': 'viewer', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' },
    });
    expect(viewer.status).toBe(403);
    expect(JSON.stringify(viewer.body)).not.toContain('domains');
    // A hotel's admin manages domain authentication but the figures are the brand's.
    const hotelAdmin = await view({ token: (await s.login(DEMO.hotelAdmin)).token });
    expect([hotelAdmin.status, hotelAdmin.body.error.code]).toEqual([403, 'domain_deliverability_brand_only']);
    expect(hotelAdmin.body.error.message).toBe('Deliverability is kept per brand. Switch to the brand to see it.');
  });
});
