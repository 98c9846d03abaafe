import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { sendCampaign, startCampaign } from '../campaigns/send-campaign.ts';

/**
 * A template's report ("View report") lists the campaigns that used it as the campaign list shows
 * them to the acting host: a hotel never sees another hotel's campaign, and its brand's campaign
 * with its own guests' figures only. Over HTTP, on a server without a worker, each send run once
 * into the embedded SMTP sink.
 */

let s: TTestServer;
let brand: { id: string };
let shinjuku: { id: string };
let kyoto: { id: string };
const tag = randomBytes(3).toString('hex');
const mail = (local: string) => `${local}.${tag}@guest.example.jp`;
const AT_KYOTO = { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kyoto', 'x-host-level': 'hotel' };

const token = async (email: string) => (await s.login(email)).token;

async function customer(hotelId: string, first: string, email: string): Promise<string> {
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '山田', $3, $4) returning id`,
    [brand.id, first, `090${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, email],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotelId, brand.id],
  );
  return row.id as string;
}

/** A campaign of the brand admin's (or, with `headers`, of the host they act at) with the template, sent now and run once. */
async function sentCampaign(
  name: string,
  templateId: string,
  customerIds: string[],
  headers?: Record<string, string>,
): Promise<string> {
  const t = await token(DEMO.brandAdmin);
  const as = headers ? { headers } : {};
  const segment = await s.call('POST', '/v1/segments', {
    token: t,
    ...as,
    body: { name: `${name} ${tag}`, type: 'static' },
  });
  expect(segment.status, JSON.stringify(segment.body)).toBe(200);
  await s.call('POST', `/v1/segments/${segment.body.data.id}/members`, { token: t, ...as, body: { customerIds } });
  const created = await s.call('POST', '/v1/campaigns', {
    token: t,
    ...as,
    body: { name: `${name} ${tag}`, subject: name, recipients: { segmentIds: [segment.body.data.id] }, templateId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  const sent = await s.call('POST', `/v1/campaigns/${id}/send-now`, { token: t, ...as, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await startCampaign(s.rt, { campaignId: id, brandId: brand.id });
  await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
  return id;
}

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [shinjuku] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
  [kyoto] = await s.sql(`select id from hosts where slug = 'sakura-kyoto'`);
  // No quiet hours: the sends go at any hour the test runs.
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
});
afterAll(async () => {
  await s?.close();
});

describe("a template's report", () => {
  it("shows a hotel its brand's campaign with its own guests' figures, and no other hotel's campaign", async () => {
    const admin = await token(DEMO.brandAdmin);
    const template = await s.call('POST', '/v1/templates', {
      token: admin,
      body: {
        name: `共通 ${tag}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: '共通', preheader: '', document: { version: 1, sections: [] } } },
      },
    });
    expect(template.status, JSON.stringify(template.body)).toBe(200);
    const templateId = template.body.data.id as string;

    const brandWide = await sentCampaign('ブランド便', templateId, [
      await customer(shinjuku.id, '新宿', mail('report-shinjuku')),
      await customer(kyoto.id, '京都', mail('report-kyoto')),
      await customer(kyoto.id, '京都二', mail('report-kyoto-2')),
    ]);
    const kyotoOwn = await sentCampaign(
      '京都の便',
      templateId,
      [await customer(kyoto.id, '京都三', mail('report-kyoto-3'))],
      AT_KYOTO,
    );

    const report = async (t: string) => {
      const res = await s.call('GET', `/v1/templates/${templateId}/report`, { token: t });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { timeZone: string; campaigns: Record<string, unknown>[] };
    };
    const byId = (r: { campaigns: Record<string, unknown>[] }) =>
      Object.fromEntries(r.campaigns.map((c) => [c.campaignId, c]));

    // The brand reads both whole.
    const brandReport = await report(admin);
    expect(brandReport.timeZone).toBe('Asia/Tokyo');
    expect(byId(brandReport)).toMatchObject({
      [brandWide]: { status: 'sent', paused: false, recipients: 3, delivered: 3 },
      [kyotoOwn]: { status: 'sent', paused: false, recipients: 1, delivered: 1 },
    });

    // 新宿 reads the brand's campaign for its one guest, as its campaign list does, and not 京都's.
    const staff = await token(DEMO.hotelStaff);
    const listed = (await s.call('GET', '/v1/campaigns?pageSize=100', { token: staff })).body.data.items as {
      id: string;
      statistics: { audience: number };
    }[];
    expect(listed.find((c) => c.id === brandWide)?.statistics.audience).toBe(1);
    expect(listed.find((c) => c.id === kyotoOwn)).toBeUndefined();
    const hotelReport = await report(staff);
    expect(hotelReport.campaigns).toHaveLength(1);
    expect(hotelReport.campaigns[0]).toMatchObject({
      campaignId: brandWide,
      status: 'sent',
      recipients: 1,
      delivered: 1,
    });
  });
});
