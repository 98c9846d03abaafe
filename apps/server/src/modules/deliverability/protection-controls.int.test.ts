import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';

/**
 * What an admin does about protection (issue 25): the brand's thresholds (read, set within bounds,
 * audited, brand only); the warning a campaign's statistics carry before it would pause (over a
 * real send whose `bounce*` guests the embedded sink bounces by DSN); and a paused campaign
 * cancelled rather than resumed (what was not handed is skipped, what was handed counts).
 */

let s: TTestServer;
let token: string;
let brand: { id: string };
let hotel: { id: string };
let templateId: string;
const tag = randomBytes(3).toString('hex');
let phone = 0;

beforeAll(async () => {
  s = await startTestServer({
    env: {
      CAMPAIGN_DISPATCH_SECONDS: '1',
      CAMPAIGN_DOMAIN_RATE: '40',
      CAMPAIGN_BATCH_SIZE: '10',
      CAMPAIGN_SEND_LANES: '1',
    },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
  token = (await s.login(DEMO.brandAdmin)).token;
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `保護操作 ${tag}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  templateId = template.body.data.id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** Guests of the hotel; `bouncing` of them (the first) have mailboxes that do not exist. */
async function guests(count: number, bouncing: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const local = i < bouncing ? `bounce${i}` : `guest${i}`;
    phone += 1;
    const [row] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
      [
        brand.id,
        local,
        `080${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phone).padStart(4, '0')}`,
        `${local}.${phone}.${tag}@guest.example.jp`,
      ],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, hotel.id, brand.id],
    );
    ids.push(row.id as string);
  }
  return ids;
}

async function campaignTo(name: string, customerIds: string[]): Promise<string> {
  const segment = await staticSegment(s, token, name, customerIds);
  const created = await s.call('POST', '/v1/campaigns', {
    token,
    body: { name, subject: name, recipients: { segmentIds: [segment], excludeSegmentIds: [] }, templateId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.id as string;
}

const counts = async (campaignId: string) =>
  Object.fromEntries(
    (
      await s.sql(`select status, count(*)::int as n from deliveries where campaign_id = $1 group by status`, [
        campaignId,
      ])
    ).map((r) => [r.status, r.n]),
  ) as Record<string, number>;

const setProtection = (body: unknown, as = token) =>
  s.call('PUT', '/v1/deliverability/protection', { token: as, body });

describe('protection thresholds', () => {
  it('reads the defaults, saves values within bounds (audited), refuses others per field, and is the brand’s alone', async () => {
    const read = await s.call('GET', '/v1/deliverability/protection', { token });
    expect(read.body.data).toEqual({ minSent: 1000, hardBouncePct: 5, complaintPct: 0.3 });

    const saved = await setProtection({ minSent: 500, hardBouncePct: 4.555, complaintPct: 0.2 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toEqual({ minSent: 500, hardBouncePct: 4.56, complaintPct: 0.2 });
    expect((await s.call('GET', '/v1/deliverability/protection', { token })).body.data).toEqual(saved.body.data);
    const [audit] = await s.sql(
      `select changes from audit_log where target_type = 'campaign_email_settings' and target_id = $1 and changes ? 'pauseMinSent'`,
      [brand.id],
    );
    expect(audit.changes).toEqual({
      pauseMinSent: [1000, 500],
      pauseHardBouncePct: [5, 4.56],
      pauseComplaintPct: [0.3, 0.2],
    });

    const refused = await setProtection({ minSent: 10, hardBouncePct: 50, complaintPct: 0.2 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual({
      minSent: expect.objectContaining({ code: 'protection_out_of_range' }),
      hardBouncePct: expect.objectContaining({ code: 'protection_out_of_range' }),
    });
    expect((await s.call('GET', '/v1/deliverability/protection', { token })).body.data.minSent).toBe(500);

    const hotelToken = (await s.login(DEMO.hotelAdmin)).token;
    const fromHotel = await setProtection({ minSent: 100, hardBouncePct: 1, complaintPct: 0.1 }, hotelToken);
    expect([fromHotel.status, fromHotel.body.error.code]).toEqual([403, 'protection_brand_only']);
  });
});

describe('warning before the pause', () => {
  it('warns with the rate and the threshold once the minimum is handed, without pausing', async () => {
    // 100 mails, 3 hard bounces: 3%, past the warning (half of 5%), short of the pause.
    expect((await setProtection({ minSent: 100, hardBouncePct: 5, complaintPct: 0.3 })).status).toBe(200);
    const id = await campaignTo(`警告 ${tag}`, await guests(100, 3));
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
    const report = await eventually(async () => {
      const r = (await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data;
      return r.totals.hardBounces === 3 && r.totals.sent + r.totals.failed === 100 ? r : null;
    }, 60_000);
    expect(report.warning).toEqual({ kind: 'hard_bounce', rate: 0.03, pausePct: 5 });
    const campaign = await eventually(async () => {
      const c = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
      return c.status === 'sent' ? c : null;
    }, 30_000);
    expect(campaign.paused).toBeNull();
    // The recipient list shows each bounce as classified, with the report's diagnostic.
    const recipients = (await s.call('GET', `/v1/campaigns/${id}/recipients?limit=100`, { token })).body.data.items as {
      email: string;
      feedback: { kind: string; status: string | null; diagnostic: string | null } | null;
    }[];
    const bounced = recipients.filter((r) => r.email.startsWith('bounce'));
    expect(bounced).toHaveLength(3);
    for (const r of bounced) {
      expect(r.feedback).toMatchObject({ kind: 'hard_bounce', status: '5.1.1' });
      expect(r.feedback?.diagnostic).toBeTruthy();
    }
    expect(recipients.filter((r) => r.feedback !== null)).toHaveLength(3);

    // The brand admins' banner lists it, as a warning.
    const alerts = (await s.call('GET', '/v1/deliverability/protection/alerts', { token })).body.data;
    expect(alerts).toContainEqual({
      campaignId: id,
      name: `警告 ${tag}`,
      kind: 'hard_bounce',
      rate: 0.03,
      pausePct: 5,
      paused: false,
      finished: true,
    });

    // With a higher threshold the same rate is below its warning level.
    expect((await setProtection({ minSent: 100, hardBouncePct: 10, complaintPct: 0.3 })).status).toBe(200);
    expect((await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data.warning).toBeNull();
    const none = (await s.call('GET', '/v1/deliverability/protection/alerts', { token })).body.data as {
      campaignId: string;
    }[];
    expect(none.map((a) => a.campaignId)).not.toContain(id);
    // And before the minimum is handed, nothing is said at all.
    expect((await setProtection({ minSent: 200, hardBouncePct: 5, complaintPct: 0.3 })).status).toBe(200);
    expect((await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data.warning).toBeNull();
  }, 90_000);
});

describe('cancelling a paused campaign', () => {
  it('skips what was not handed, lets what was handed count, audits, and sends nothing more', async () => {
    const GUESTS = 120;
    const name = `取消 ${tag}`;
    const id = await campaignTo(name, await guests(GUESTS, 0));
    // Sending, not paused: it cannot be cancelled.
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
    await eventually(async () => ((await counts(id)).sent ?? 0) > 0 || null, 30_000);
    const early = await s.call('POST', `/v1/campaigns/${id}/cancel`, { token, body: {} });
    expect([early.status, early.body.error?.code]).toEqual([409, 'campaign_not_cancellable']);

    expect((await s.call('POST', `/v1/campaigns/${id}/pause`, { token, body: {} })).status).toBe(200);
    // A batch a worker had claimed and not handed to the relay when the pause came (it is put back a
    // moment later): the statistics count it apart, and the cancel dialog among those who will not
    // get the mail (queued + deferred + claimed), as the cancel skips it.
    await s.sql(
      `update deliveries set status = 'sending', claim_token = gen_random_uuid()
       where id in (select id from deliveries where campaign_id = $1 and status = 'queued' limit 5)`,
      [id],
    );
    const shown = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data.statistics;
    expect(shown.claimed).toBeGreaterThanOrEqual(5);
    expect(shown.sending).toBeGreaterThanOrEqual(shown.claimed);
    const cancelled = await s.call('POST', `/v1/campaigns/${id}/cancel`, { token, body: {} });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(cancelled.body.data.paused).toBeNull();

    // In-flight mails finish; every delivery ends sent or skipped as cancelled.
    const settled = await eventually(async () => {
      const c = await counts(id);
      return (c.sending ?? 0) === 0 && !c.queued && !c.deferred ? c : null;
    });
    expect(settled.sent).toBeGreaterThan(0);
    expect(settled.skipped).toBeGreaterThan(0);
    expect((settled.sent ?? 0) + (settled.skipped ?? 0)).toBe(GUESTS);
    const reasons = await s.sql(
      `select distinct skip_reason from deliveries where campaign_id = $1 and status = 'skipped'`,
      [id],
    );
    expect(reasons).toEqual([{ skip_reason: 'cancelled' }]);
    // The recipient list says why each was never mailed.
    const skipped = (await s.call('GET', `/v1/campaigns/${id}/recipients?status=skipped&limit=200`, { token })).body
      .data.items as { skipReason: string | null }[];
    expect(skipped).toHaveLength(settled.skipped ?? 0);
    expect(new Set(skipped.map((r) => r.skipReason))).toEqual(new Set(['cancelled']));

    // The statistics say the same, and nothing more goes out a few dispatch rounds later.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await counts(id)).toEqual(settled);
    const report = (await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data;
    expect([report.totals.sent, report.totals.skipped]).toEqual([settled.sent, settled.skipped]);
    const campaign = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
    expect(campaign.status).toBe('cancelled');
    expect(campaign.statistics).toMatchObject({ sent: settled.sent, skipped: settled.skipped, queued: 0 });

    const [audit] = await s.sql(`select changes from audit_log where target_id = $1 and action = 'cancel'`, [id]);
    expect(audit.changes).toEqual({ name, skipped: settled.skipped });
    expect(settled.skipped).toBe(shown.queued + shown.deferred + shown.claimed);
    // Neither resumed nor cancelled twice.
    expect((await s.call('POST', `/v1/campaigns/${id}/resume`, { token, body: {} })).status).toBe(409);
    const again = await s.call('POST', `/v1/campaigns/${id}/cancel`, { token, body: {} });
    expect([again.status, again.body.error.code]).toEqual([409, 'campaign_not_cancellable']);
  }, 90_000);
});
