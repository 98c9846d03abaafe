import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment as makeStaticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO_FEEDBACK_GUESTS, seedDemoCampaign } from '../../seed/demo-campaign.ts';
import { withTenant } from '../../db/client.ts';
import { sendCampaign, startCampaign } from './send-campaign.ts';
import { ANSWER_LOST_TWICE, recordOutcomes } from './send-queries.ts';

/**
 * Campaign routes over HTTP, and the send's rules driven step by step (start, then send) on a
 * server without a worker of its own, so each step's effect can be checked before the next:
 * mail goes over real SMTP into the embedded sink.
 */

let s: TTestServer;
let brand: { id: string };
let shinjuku: { id: string };
let kyoto: { id: string };
const HARBOR = { 'x-user-role': 'admin', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };
const tag = randomBytes(3).toString('hex');
const mail = (local: string) => `${local}.${tag}@guest.example.jp`;

const contents = (subject: string) => ({
  subject,
  preheader: '',
  document: {
    version: 1,
    sections: [
      {
        id: 's1',
        columns: [
          {
            id: 'c1',
            blocks: [
              {
                id: 't',
                type: 'text',
                content: {
                  type: 'doc',
                  content: [
                    {
                      type: 'paragraph',
                      content: [
                        { type: 'personalTag', attrs: { key: 'full_name' } },
                        { type: 'text', text: ' 夏のご案内です。' },
                      ],
                    },
                  ],
                },
              },
              { id: 'b', type: 'button', label: '予約する', href: 'https://sakura.example.jp/summer' },
            ],
          },
        ],
      },
    ],
  },
});

async function token(email: string) {
  return (await s.login(email)).token;
}

async function customer(
  hotelId: string,
  first: string,
  email: string | null,
  status: 'active' | 'unsubscribed' = 'active',
): Promise<string> {
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, email_status) values ($1, $2, '山田', $3, $4, $5) returning id`,
    [brand.id, first, `090${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, email, status],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotelId, brand.id],
  );
  return row.id as string;
}

async function staticSegment(
  t: string,
  name: string,
  customerIds: string[],
  headers?: Record<string, string>,
): Promise<string> {
  return makeStaticSegment(s, t, `${name} ${tag}`, customerIds, headers);
}

async function template(t: string): Promise<string> {
  const res = await s.call('POST', '/v1/templates', {
    token: t,
    body: { name: `夏 ${tag} ${Math.random()}`, defaultLanguage: 'ja', contents: { ja: contents('夏のご案内') } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as string;
}

async function sinkTo(address: string) {
  return s.sql(`select id, subject, rcpt_to from dev_outbox where $1 = any(rcpt_to)`, [address]);
}

/** Runs the send the way the worker does: the start, then the send until nothing is due. */
async function runSend(campaignId: string) {
  await startCampaign(s.rt, { campaignId, brandId: brand.id });
  await sendCampaign(s.rt, { campaignId, brandId: brand.id });
}

beforeAll(async () => {
  s = await startTestServer({ worker: false, env: { CAMPAIGN_RETRY_BASE_SECONDS: '1', CAMPAIGN_RETRY_LIMIT: '3' } });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [shinjuku] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
  [kyoto] = await s.sql(`select id from hosts where slug = 'sakura-kyoto'`);
  // The tests send at any hour: no quiet hours for the demo brand here (they have tests of their own).
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
});
afterAll(async () => {
  await s?.close();
});

describe('campaign routes', () => {
  it('are described in the OpenAPI document, from the contracts', async () => {
    const res = await s.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/campaigns',
        '/v1/campaigns/{id}',
        '/v1/campaigns/{id}/schedule',
        '/v1/campaigns/{id}/send-now',
        '/v1/campaigns/audience',
        '/v1/campaigns/quiet-hours',
        '/v1/campaigns/{id}/test-send',
        '/v1/campaigns/{id}/pause',
        '/v1/campaigns/{id}/resume',
      ]),
    );
  });

  it('create, read, update, list with a status filter and headline, duplicate, delete', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, 'ルート', [await customer(shinjuku.id, '一', mail('route1'))]);
    const created = await s.call('POST', '/v1/campaigns', {
      token: t,
      body: { name: `夏の特典 ${tag}`, subject: '夏の特典', recipients: { segmentIds: [seg] }, templateId },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const c = created.body.data;
    expect(c).toMatchObject({
      status: 'draft',
      templateId,
      recipients: { segmentIds: [seg], excludeSegmentIds: [] },
      editable: true,
    });
    const updated = await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { preHeader: 'お得なご案内' } });
    expect(updated.body.data.preHeader).toBe('お得なご案内');
    const list = await s.call('GET', `/v1/campaigns?status=draft&search=${encodeURIComponent(tag)}`, { token: t });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((i: { id: string }) => i.id)).toContain(c.id);
    expect(list.body.data.headline.byStatus.draft).toBeGreaterThanOrEqual(1);
    const copy = await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, { token: t, body: {} });
    // The copy's name in the user's language.
    expect(copy.body.data.name).toBe(`夏の特典 ${tag}（コピー）`);
    expect((await s.call('DELETE', `/v1/campaigns/${copy.body.data.id}`, { token: t })).status).toBe(200);
    expect((await s.call('GET', `/v1/campaigns/${copy.body.data.id}`, { token: t })).status).toBe(404);
    // The console's language wins over the profile's (ja here); a name given is kept.
    const inConsole = await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, { token: t, body: { language: 'en' } });
    expect(inConsole.status, JSON.stringify(inConsole.body)).toBe(200);
    expect(inConsole.body.data.name).toBe(`夏の特典 ${tag} (copy)`);
    const named = await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, {
      token: t,
      body: { language: 'en', name: `夏の特典 ${tag} 2` },
    });
    expect(named.body.data.name).toBe(`夏の特典 ${tag} 2`);
    for (const id of [inConsole.body.data.id, named.body.data.id])
      expect((await s.call('DELETE', `/v1/campaigns/${id}`, { token: t })).status).toBe(200);
    const inLanguage = async (language: 'ja' | 'en') =>
      expect((await s.call('PUT', '/v1/auth/me/language', { token: t, body: { language } })).status).toBe(200);
    await inLanguage('en');
    try {
      const english = await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, { token: t, body: {} });
      expect(english.body.data.name).toBe(`夏の特典 ${tag} (copy)`);
      // And the other way round: an English profile reading the console in Japanese.
      const japanese = await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, { token: t, body: { language: 'ja' } });
      expect(japanese.body.data.name).toBe(`夏の特典 ${tag}（コピー）`);
    } finally {
      await inLanguage('ja');
    }
  });

  it('answers a test send to an address the relay refuses as malformed with 400 and the reason, not 502', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, 'テスト送信', [await customer(shinjuku.id, '試', mail('trial'))]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `テスト送信 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    const refused = await s.call('POST', `/v1/campaigns/${c.id}/test-send`, {
      token: t,
      body: { emails: ['malformed.trial@example.jp'] },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'test_address_refused',
      params: { email: 'malformed.trial@example.jp', reason: expect.stringContaining('Bad recipient address syntax') },
    });

    // Among good addresses, the refused one does not stop them: each gets its test once, and the
    // answer says how many went, so the user fixes the one address instead of mailing the rest again.
    const good = [mail('trial-a'), mail('trial-b')];
    const partly = await s.call('POST', `/v1/campaigns/${c.id}/test-send`, {
      token: t,
      body: { emails: [good[0], 'malformed.trial2@example.jp', good[1]] },
    });
    expect(partly.status, JSON.stringify(partly.body)).toBe(400);
    expect(partly.body.error).toMatchObject({
      code: 'test_address_refused_others_sent',
      params: { email: 'malformed.trial2@example.jp', sent: '2', total: '3' },
    });
    for (const to of good) {
      const got = await eventually(async () => {
        const found = await s.outbox(to);
        return found.length ? found : null;
      });
      expect(got).toHaveLength(1);
    }
  });

  it('records who created, edited, scheduled, sent now, took back, cancelled, duplicated and deleted a campaign in the audit log', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, '監査', [await customer(shinjuku.id, '監', mail('audit'))]);
    const name = `監査 ${tag}`;
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    expect(
      (await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { name: `${name} 改`, subject: 's2' } })).status,
    ).toBe(200);
    // Saved as it was: nothing changed, nothing recorded.
    expect((await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { subject: 's2' } })).status).toBe(200);
    const at = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-07-01T10:00', timeZone: 'Asia/Tokyo' } },
    });
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    // An edit of a scheduled campaign checks its schedule again: an edit, not a second scheduling.
    expect(
      (await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { preHeader: 'ご案内' } })).body.data.status,
    ).toBe('scheduled');
    expect((await s.call('POST', `/v1/campaigns/${c.id}/draft`, { token: t, body: {} })).body.data.status).toBe(
      'draft',
    );
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    expect((await s.call('POST', `/v1/campaigns/${c.id}/cancel`, { token: t, body: {} })).body.data.status).toBe(
      'cancelled',
    );
    const copy = (
      await s.call('POST', `/v1/campaigns/${c.id}/duplicate`, { token: t, body: { name: `${name} コピー` } })
    ).body.data;
    expect((await s.call('DELETE', `/v1/campaigns/${copy.id}`, { token: t })).status).toBe(200);

    const grand = await token(DEMO.grand);
    const log = await s.call('GET', `/v1/audit?hostId=${brand.id}&limit=200`, { token: grand });
    expect(log.status).toBe(200);
    const ours = log.body.data.filter((e: { targetId: string }) => e.targetId === c.id || e.targetId === copy.id);
    expect(ours.map((e: { action: string }) => e.action)).toEqual([
      'delete',
      'duplicate',
      'cancel',
      'send_now',
      'unschedule',
      'update',
      'schedule',
      'update',
      'create',
    ]);
    for (const e of ours)
      expect(e).toMatchObject({ actorEmail: DEMO.brandAdmin, actingRole: 'admin', targetType: 'campaign' });
    const [deleted, duplicated, , , , preHeader, scheduled, renamed, created] = ours;
    expect(created.changes).toEqual({ name });
    expect(renamed.changes).toEqual({ name: [name, `${name} 改`], fields: ['subject'] });
    expect(scheduled.changes).toEqual({ name: `${name} 改`, sendAt: '2099-07-01 10:00', timeZone: 'Asia/Tokyo' });
    expect(preHeader.changes).toEqual({ name: `${name} 改`, fields: ['preHeader'] });
    expect(duplicated).toMatchObject({ targetId: copy.id, changes: { name: `${name} コピー`, copyOf: `${name} 改` } });
    expect(deleted).toMatchObject({ targetId: copy.id, changes: { name: `${name} コピー` } });
    // Another brand's log does not show them.
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const harborLog = await s.call('GET', `/v1/audit?hostId=${harbor.id}&limit=200`, { token: grand });
    expect(harborLog.body.data.filter((e: { targetId: string }) => e.targetId === c.id)).toEqual([]);
  });

  it('refuses scheduling in the past, without a template or segment, and an empty audience, with clear codes', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const empty = await staticSegment(t, '空', [await customer(shinjuku.id, '解除', mail('gone'), 'unsubscribed')]);
    const noTemplate = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: 'x', subject: 'x', recipients: { segmentIds: [empty] } },
      })
    ).body.data;
    const r1 = await s.call('POST', `/v1/campaigns/${noTemplate.id}/send-now`, { token: t, body: {} });
    expect([r1.status, Object.keys(r1.body.error.fields ?? {})]).toEqual([400, ['templateId']]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: 'y', subject: 'y', recipients: { segmentIds: [empty] }, templateId },
      })
    ).body.data;
    const past = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2020-01-01T10:00', timeZone: 'Asia/Tokyo' } },
    });
    expect([past.status, past.body.error.code]).toEqual([400, 'campaign_schedule_past']);
    const badDate = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-02-30T10:00', timeZone: 'Asia/Tokyo' } },
    });
    expect(badDate.status).toBe(400);
    const badZone = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-02-20T10:00', timeZone: 'Mars/Olympus' } },
    });
    expect(badZone.status).toBe(400);
    const emptyAudience = await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} });
    expect([emptyAudience.status, emptyAudience.body.error.code]).toEqual([422, 'campaign_audience_empty']);
    // A segment deleted after it was chosen.
    await s.sql(`delete from segments where id = $1`, [empty]);
    const deleted = await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} });
    expect([deleted.status, deleted.body.error.code]).toEqual([409, 'campaign_segment_deleted']);
    const notJson = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'soon' } },
    });
    expect(notJson.status).toBe(400);
  });

  it('says the campaign email settings are missing (422) for a brand that cannot send', async () => {
    const t = await token(DEMO.harborAdmin);
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-kobe'`);
    const [harborBrand] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    const [row] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, 'Ann', 'Lee', '07099990000', $2) returning id`,
      [harborBrand.id, mail('harbor')],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, harbor.id, harborBrand.id],
    );
    const seg = await staticSegment(t, 'Harbor', [row.id], HARBOR);
    const templateId = (
      await s.call('POST', '/v1/templates', {
        token: t,
        headers: HARBOR,
        body: { name: 'h', defaultLanguage: 'ja', contents: { ja: contents('Summer') } },
      })
    ).body.data.id;
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        headers: HARBOR,
        body: { name: 'Summer', subject: 'Summer', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    const res = await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, headers: HARBOR, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('campaign email settings missing (sender email and verified domains)');
  });

  it('holds its segments and template while scheduled and lets them go when cancelled', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, '保持', [await customer(shinjuku.id, '保', mail('hold'))]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `保持 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    const scheduled = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-07-01T10:00', timeZone: 'Asia/Tokyo' } },
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', sendAt: '2099-07-01T01:00:00.000Z' });
    expect((await s.call('DELETE', `/v1/segments/${seg}`, { token: t })).body.error.code).toBe('segment_in_use');
    expect((await s.call('DELETE', `/v1/templates/${templateId}`, { token: t })).body.error.code).toBe(
      'template_in_use',
    );
    const renamed = await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { name: `保持2 ${tag}` } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.data.status).toBe('scheduled');
    expect((await s.call('POST', `/v1/campaigns/${c.id}/cancel`, { token: t, body: {} })).body.data.status).toBe(
      'cancelled',
    );
    expect((await s.call('PUT', `/v1/campaigns/${c.id}`, { token: t, body: { name: 'z' } })).body.error.code).toBe(
      'campaign_not_editable',
    );
    expect((await s.call('DELETE', `/v1/segments/${seg}`, { token: t })).status).toBe(200);
  });

  it('names every campaign that has not finished when refusing to delete their template, not one that has', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, '複数', [await customer(shinjuku.id, '複', mail('many'))]);
    const campaign = async (name: string) => {
      const made = await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `${name} ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.data.id as string;
    };
    const schedule = async (id: string) => {
      const at = await s.call('POST', `/v1/campaigns/${id}/schedule`, {
        token: t,
        body: { schedule: { kind: 'at', localTime: '2099-07-01T10:00', timeZone: 'Asia/Tokyo' } },
      });
      expect(at.status, JSON.stringify(at.body)).toBe(200);
    };
    const [a, b, c, d, cancelled] = [
      await campaign('A 春'),
      await campaign('B 夏'),
      await campaign('C 秋'),
      await campaign('D 冬'),
      await campaign('E 取消'),
    ];
    await campaign('F 下書き');
    for (const id of [d, b, a, cancelled]) await schedule(id);
    expect((await s.call('POST', `/v1/campaigns/${cancelled}/cancel`, { token: t, body: {} })).status).toBe(200);

    const refusal = async () => {
      const refused = await s.call('DELETE', `/v1/templates/${templateId}`, { token: t });
      expect(refused.status).toBe(409);
      return refused.body.error;
    };
    // Scheduled, by name; neither the draft nor the cancelled campaign holds the template.
    expect(await refusal()).toEqual({
      code: 'template_in_use',
      message: `This template is used by campaigns that have not finished: "A 春 ${tag}", "B 夏 ${tag}" and "D 冬 ${tag}". Cancel those campaigns, or wait until they have been sent, before deleting the template.`,
      params: { campaign: `A 春 ${tag}`, campaigns: [`A 春 ${tag}`, `B 夏 ${tag}`, `D 冬 ${tag}`] },
    });
    await schedule(c);
    expect((await refusal()).message).toBe(
      `This template is used by campaigns that have not finished: "A 春 ${tag}", "B 夏 ${tag}", "C 秋 ${tag}" and 1 more. Cancel those campaigns, or wait until they have been sent, before deleting the template.`,
    );
    for (const id of [a, b, c]) {
      expect((await s.call('POST', `/v1/campaigns/${id}/cancel`, { token: t, body: {} })).status).toBe(200);
    }
    expect(await refusal()).toEqual({
      code: 'template_in_use',
      message: `This template is used by "D 冬 ${tag}", a campaign that has not finished. Cancel that campaign, or wait until it has been sent, before deleting the template.`,
      params: { campaign: `D 冬 ${tag}`, campaigns: [`D 冬 ${tag}`] },
    });
  });

  it('previews the audience and warns of quiet hours', async () => {
    const t = await token(DEMO.brandAdmin);
    const a = await customer(shinjuku.id, '甲', mail('pa'));
    const b = await customer(shinjuku.id, '乙', mail('pb'));
    const u = await customer(shinjuku.id, '丙', mail('pu'), 'unsubscribed');
    const n = await customer(shinjuku.id, '丁', null);
    const x = await customer(shinjuku.id, '戊', mail('px'));
    const one = await staticSegment(t, 'P1', [a, b, u, n]);
    const two = await staticSegment(t, 'P2', [b, x]);
    const out = await staticSegment(t, 'P3', [x]);
    const res = await s.call('POST', '/v1/campaigns/audience', {
      token: t,
      body: { segmentIds: [one, two], excludeSegmentIds: [out] },
    });
    expect(res.body.data).toEqual({
      matched: 4,
      unsubscribed: 1,
      noEmail: 1,
      bounced: 0,
      frequencyCapped: 0,
      recipients: 2,
    });
    await s.sql(
      `update campaign_email_settings set quiet_hours_start = '21:00', quiet_hours_end = '08:00' where host_id = $1`,
      [brand.id],
    );
    const night = await s.call('POST', '/v1/campaigns/quiet-hours', {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-07-01T23:30', timeZone: 'Asia/Tokyo' } },
    });
    const day = await s.call('POST', '/v1/campaigns/quiet-hours', {
      token: t,
      body: { schedule: { kind: 'at', localTime: '2099-07-01T12:00', timeZone: 'Asia/Tokyo' } },
    });
    await s.sql(
      `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
      [brand.id],
    );
    expect(night.body.data).toMatchObject({ inQuietHours: true, deferredTo: '2099-07-01T23:00:00.000Z' });
    expect(day.body.data.inQuietHours).toBe(false);
  });

  it("tells every reader of a scheduled campaign due in its host's quiet hours when it goes out instead", async () => {
    const admin = await token(DEMO.hotelAdmin);
    const templateId = await template(admin);
    const seg = await staticSegment(admin, '静穏', [await customer(shinjuku.id, '静', mail('quiet'))]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: admin,
        body: { name: `静穏 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    const kept: { host_id: string; quiet_hours_start: string; quiet_hours_end: string }[] = await s.sql(
      'select host_id, quiet_hours_start, quiet_hours_end from campaign_email_settings',
    );
    await s.sql(`update campaign_email_settings set quiet_hours_start = '21:00', quiet_hours_end = '08:00'`);
    try {
      const schedule = (localTime: string) =>
        s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
          token: admin,
          body: { schedule: { kind: 'at', localTime, timeZone: 'Asia/Tokyo' } },
        });
      expect((await schedule('2099-07-01T23:30')).status).toBe(200);
      // The viewer may not ask the quiet-hours check (it needs build rights), yet reads the hold.
      const viewer = await token(DEMO.hotelViewer);
      expect((await s.call('POST', '/v1/campaigns/quiet-hours', { token: viewer, body: {} })).status).toBe(403);
      const held = {
        quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
        until: '2099-07-01T23:00:00.000Z',
      };
      expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: viewer })).body.data.scheduledHold).toEqual(held);
      const listed = (await s.call('GET', '/v1/campaigns?status=scheduled&pageSize=100', { token: viewer })).body.data;
      expect(listed.items.find((x: { id: string }) => x.id === c.id).scheduledHold).toEqual(held);
      // Due in the day: nothing holds it.
      expect((await s.call('POST', `/v1/campaigns/${c.id}/draft`, { token: admin, body: {} })).status).toBe(200);
      expect((await schedule('2099-07-01T12:00')).body.data.scheduledHold).toBeNull();
    } finally {
      for (const row of kept)
        await s.sql(
          'update campaign_email_settings set quiet_hours_start = $2, quiet_hours_end = $3 where host_id = $1',
          [row.host_id, row.quiet_hours_start, row.quiet_hours_end],
        );
    }
  });

  it('answers each role as its entitlements say, and 404 for another brand', async () => {
    const admin = await token(DEMO.hotelAdmin);
    const templateId = await template(admin);
    const seg = await staticSegment(admin, '役割', [await customer(shinjuku.id, '役', mail('role'))]);
    const body = { name: `役割 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId };
    const c = (await s.call('POST', '/v1/campaigns', { token: admin, body })).body.data;
    const viewer = await token(DEMO.hotelViewer);
    const staff = await token(DEMO.hotelStaff);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: viewer })).status).toBe(200);
    expect((await s.call('POST', '/v1/campaigns', { token: viewer, body })).status).toBe(403);
    expect((await s.call('PUT', `/v1/campaigns/${c.id}`, { token: viewer, body: { name: 'v' } })).status).toBe(403);
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: viewer, body: {} })).status).toBe(403);
    expect(
      (await s.call('PUT', `/v1/campaigns/${c.id}`, { token: staff, body: { name: `スタッフ ${tag}` } })).status,
    ).toBe(200);
    expect((await s.call('DELETE', `/v1/campaigns/${c.id}`, { token: staff })).status).toBe(403);
    // Another brand's campaign does not exist for Harbor View.
    const harbor = await token(DEMO.harborAdmin);
    for (const [method, path] of [
      ['GET', `/v1/campaigns/${c.id}`],
      ['PUT', `/v1/campaigns/${c.id}`],
      ['DELETE', `/v1/campaigns/${c.id}`],
      ['POST', `/v1/campaigns/${c.id}/send-now`],
      ['POST', `/v1/campaigns/${c.id}/cancel`],
      ['POST', `/v1/campaigns/${c.id}/duplicate`],
      ['GET', `/v1/campaigns/${c.id}/deliveries`],
    ] as const)
      expect(
        (
          await s.call(method, path, {
            token: harbor,
            headers: HARBOR,
            body: method === 'GET' || method === 'DELETE' ? undefined : {},
          })
        ).status,
        `${method} ${path}`,
      ).toBe(404);
    // Another brand's segment cannot be chosen.
    const foreign = await s.call('POST', '/v1/campaigns', {
      token: harbor,
      headers: HARBOR,
      body: { name: 'f', recipients: { segmentIds: [seg] } },
    });
    expect(foreign.status).toBe(400);
    // The brand reads the hotel's campaign; only the hotel changes it.
    const brandAdmin = await token(DEMO.brandAdmin);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: brandAdmin })).body.data.editable).toBe(false);
    expect((await s.call('PUT', `/v1/campaigns/${c.id}`, { token: brandAdmin, body: { name: 'b' } })).status).toBe(403);
    expect((await s.call('DELETE', `/v1/campaigns/${c.id}`, { token: admin })).status).toBe(200);
  });
});

describe('the send', () => {
  it('mails each active recipient once, skips the rest, and counts exactly', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const both = await customer(shinjuku.id, '両方', mail('both'));
    const only = await customer(kyoto.id, '京都', mail('kyoto'));
    const unsub = await customer(shinjuku.id, '解除', mail('unsub'), 'unsubscribed');
    const noEmail = await customer(shinjuku.id, '無し', null);
    const excluded = await customer(shinjuku.id, '除外', mail('excluded'));
    const late = await customer(shinjuku.id, '途中', mail('late'));
    const bounce = await customer(shinjuku.id, '跳ね', mail('unknown'));
    const defer = await customer(shinjuku.id, '保留', mail('defer'));
    const a = await staticSegment(t, 'A', [both, only, unsub, noEmail, excluded, late, bounce, defer]);
    const b = await staticSegment(t, 'B', [both]);
    const x = await staticSegment(t, 'X', [excluded]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: {
          name: `送信 ${tag}`,
          subject: '夏のご案内',
          recipients: { segmentIds: [a, b], excludeSegmentIds: [x] },
          templateId,
        },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    const started = (await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data;
    expect(started.status).toBe('pending');
    // both, kyoto, late, bounce, defer: the unsubscribed, the one without email and the excluded are not in it.
    expect(started.statistics.audience).toBe(5);
    // An unsubscribe that arrives after the start holds for the mail not yet sent.
    await s.sql(`update customers set email_status = 'unsubscribed' where id = $1`, [late]);
    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    expect(await sinkTo(mail('both'))).toHaveLength(1);
    expect(await sinkTo(mail('kyoto'))).toHaveLength(1);
    for (const none of ['unsub', 'excluded', 'late', 'unknown', 'defer'])
      expect(await sinkTo(mail(none)), none).toHaveLength(0);
    const deliveries = await s.sql(
      `select customer_id, status, skip_reason, attempts from deliveries where campaign_id = $1`,
      [c.id],
    );
    const byCustomer = new Map(deliveries.map((d) => [d.customer_id, d]));
    expect(byCustomer.get(late)).toMatchObject({ status: 'skipped', skip_reason: 'unsubscribed' });
    expect(byCustomer.get(bounce)).toMatchObject({ status: 'failed' });
    expect(byCustomer.get(defer)).toMatchObject({ status: 'deferred', attempts: 1 });
    // Shown on the customer (its suppression's time).
    const shown = await s.call('GET', `/v1/customers/${bounce}`, { token: t });
    expect(shown.body.data.emailBouncedAt).toEqual(expect.any(String));
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data.status).toBe('pending');
    // The 451s: retried after the doubling back-off (1 s, then 2 s) until the sink accepts (its third try).
    for (const wait of [1100, 2100]) {
      await new Promise((r) => setTimeout(r, wait));
      await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    }
    expect(
      (await s.sql(`select attempts from deliveries where campaign_id = $1 and customer_id = $2`, [c.id, defer]))[0]
        .attempts,
    ).toBe(3);
    expect(await sinkTo(mail('defer'))).toHaveLength(1);
    const done = (await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data;
    expect(done.status).toBe('sent');
    expect(done.statistics).toMatchObject({
      audience: 5,
      sent: 3,
      skipped: 1,
      failed: 1,
      queued: 0,
      sending: 0,
      deferred: 0,
    });
    expect(done.statistics.sent + done.statistics.skipped + done.statistics.failed).toBe(done.statistics.audience);
    // Opens and clicks come from the tracking rollup: none yet, and the rates say so.
    expect(done.statistics).toMatchObject({ opened: 0, clicked: 0, openRate: 0, clickRate: 0 });
    // The tracking rollups got the same exact counts, in the same transactions.
    const [rollup] = await s.sql(
      `select sent, delivered, failed, skipped, bounced from campaign_stats where campaign_id = $1`,
      [c.id],
    );
    expect(rollup).toEqual({ sent: 3, delivered: 3, failed: 1, skipped: 1, bounced: 1 });
    // Sent: the segments may be deleted again.
    expect((await s.call('DELETE', `/v1/segments/${b}`, { token: t })).status).toBe(200);
    const list = await s.call('GET', `/v1/campaigns/${c.id}/deliveries?status=failed`, { token: t });
    expect(list.body.data.items).toHaveLength(1);
    // The hard bounce keeps the address out of the next campaign's audience.
    const again = await s.call('POST', '/v1/campaigns/audience', {
      token: t,
      body: { segmentIds: [a], excludeSegmentIds: [] },
    });
    expect(again.body.data.bounced).toBe(1);
  });

  it("reaches only the hotel's customers from a hotel's campaign", async () => {
    const t = await token(DEMO.hotelAdmin);
    const templateId = await template(t);
    await customer(shinjuku.id, '新宿', mail('scope-shinjuku'));
    await customer(kyoto.id, '京都', mail('scope-kyoto'));
    const everyone = await s.call('POST', '/v1/segments', {
      token: t,
      body: {
        name: `全員 ${tag}`,
        type: 'dynamic',
        filter: {
          version: 1,
          join: 'and',
          groups: [
            {
              kind: 'group',
              join: 'and',
              items: [{ kind: 'condition', field: 'email', operator: 'contains', value: `scope-` }],
            },
          ],
        },
      },
    });
    expect(everyone.status, JSON.stringify(everyone.body)).toBe(200);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: {
          name: `新宿 ${tag}`,
          subject: '新宿から',
          recipients: { segmentIds: [everyone.body.data.id] },
          templateId,
        },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    await runSend(c.id);
    expect(await sinkTo(mail('scope-shinjuku'))).toHaveLength(1);
    expect(await sinkTo(mail('scope-kyoto'))).toHaveLength(0);
    const [d] = await s.sql(`select hotel_id from deliveries where campaign_id = $1`, [c.id]);
    expect(d.hotel_id).toBe(shinjuku.id);
  });

  it('holds customers at the frequency cap as skipped with the reason', async () => {
    const t = await token(DEMO.brandAdmin);
    await s.sql(`update campaign_email_settings set frequency_cap_count = 1 where host_id = $1`, [brand.id]);
    try {
      const templateId = await template(t);
      const seg = await staticSegment(t, '上限', [await customer(shinjuku.id, '上限', mail('cap'))]);
      const first = (
        await s.call('POST', '/v1/campaigns', {
          token: t,
          body: { name: `上限1 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
        })
      ).body.data;
      await s.call('POST', `/v1/campaigns/${first.id}/send-now`, { token: t, body: {} });
      await runSend(first.id);
      const second = (
        await s.call('POST', '/v1/campaigns', {
          token: t,
          body: { name: `上限2 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
        })
      ).body.data;
      expect(
        (await s.call('POST', '/v1/campaigns/audience', { token: t, body: { segmentIds: [seg] } })).body.data,
      ).toMatchObject({ frequencyCapped: 1, recipients: 0 });
      expect((await s.call('POST', `/v1/campaigns/${second.id}/send-now`, { token: t, body: {} })).status).toBe(200);
      await runSend(second.id);
      const [d] = await s.sql(`select status, skip_reason from deliveries where campaign_id = $1`, [second.id]);
      expect(d).toEqual({ status: 'skipped', skip_reason: 'frequency_cap' });
      expect((await s.call('GET', `/v1/campaigns/${second.id}`, { token: t })).body.data.status).toBe('sent');
      expect(await sinkTo(mail('cap'))).toHaveLength(1);
    } finally {
      await s.sql(`update campaign_email_settings set frequency_cap_count = null where host_id = $1`, [brand.id]);
    }
  });

  it('counts each kind of suppression entry in the preview as the snapshot leaves it out, at the frequency cap too', async () => {
    const t = await token(DEMO.brandAdmin);
    const [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    // One guest per kind of entry on the brand's list, written as the deliverability rules write it
    // (the address in lower case, the guest's own in any case).
    const guest = (name: string, local: string) => customer(shinjuku.id, name, mail(local));
    const entry = (local: string, reason: string, until: string, lifted: string, brandId = brand.id) =>
      s.sql(
        `insert into suppressions (brand_id, email, reason, until, lifted_at) values ($1, lower($2), $3, ${until}, ${lifted})`,
        [brandId, mail(local), reason],
      );
    const fine = await guest('可', 'sup-fine');
    const hard = await customer(shinjuku.id, '硬', mail('Sup-Hard'));
    await entry('Sup-Hard', 'hard_bounce', 'null', 'null');
    const complaint = await guest('苦', 'sup-complaint');
    await entry('sup-complaint', 'complaint', 'null', 'null');
    const soft = await guest('軟', 'sup-soft');
    await entry('sup-soft', 'soft_bounces', `now() + interval '20 days'`, 'null');
    // Soft bounces whose 30 days are over: mailed again.
    const expired = await guest('満', 'sup-expired');
    await entry('sup-expired', 'soft_bounces', `now() - interval '1 day'`, 'null');
    const manual = await guest('手', 'sup-manual');
    await entry('sup-manual', 'manual', 'null', 'null');
    const lifted = await guest('解', 'sup-lifted');
    await entry('sup-lifted', 'manual', 'null', `now() - interval '1 hour'`);
    // Another brand's entry for this address suppresses nothing here.
    const elsewhere = await guest('他', 'sup-elsewhere');
    await entry('sup-elsewhere', 'hard_bounce', 'null', 'null', harbor.id);
    const capped = await guest('限', 'sup-capped');
    const everyone = [fine, hard, complaint, soft, expired, manual, lifted, elsewhere, capped];
    const seg = await staticSegment(t, '抑止', everyone);
    const templateId = await template(t);
    const campaign = async (name: string) =>
      (
        await s.call('POST', '/v1/campaigns', {
          token: t,
          body: { name: `${name} ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
        })
      ).body.data.id as string;
    await s.sql(`update campaign_email_settings set frequency_cap_count = 1 where host_id = $1`, [brand.id]);
    try {
      // A mail sent today to the capped guest and to the hard-bounced one: at the cap of one.
      const earlier = await campaign('抑止 前');
      await s.sql(
        `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, sent_at)
         select $1, $2, c.id, $3, c.email, 'sent', now() from customers c where c.id = any($4::uuid[])`,
        [earlier, brand.id, shinjuku.id, [capped, hard]],
      );
      const preview = await s.call('POST', '/v1/campaigns/audience', { token: t, body: { segmentIds: [seg] } });
      // Bounced: the hard bounce, the complaint, the soft bounces within their days and the manual
      // entry; the suppressed guest at the cap is bounced, not capped.
      expect(preview.body.data).toEqual({
        matched: 9,
        unsubscribed: 0,
        noEmail: 0,
        bounced: 4,
        frequencyCapped: 1,
        recipients: 4,
      });
      const next = await campaign('抑止');
      expect((await s.call('POST', `/v1/campaigns/${next}/send-now`, { token: t, body: {} })).status).toBe(200);
      await startCampaign(s.rt, { campaignId: next, brandId: brand.id });
      const rows = await s.sql(
        `select customer_id, status, skip_reason from deliveries where campaign_id = $1 order by customer_id`,
        [next],
      );
      const of = (id: string) => rows.find((r) => r.customer_id === id);
      for (const id of [fine, expired, lifted, elsewhere]) expect(of(id)).toMatchObject({ status: 'queued' });
      expect(of(capped)).toMatchObject({ status: 'skipped', skip_reason: 'frequency_cap' });
      for (const id of [hard, complaint, soft, manual]) expect(of(id)).toBeUndefined();
      expect(rows).toHaveLength(5);
    } finally {
      await s.sql(`update campaign_email_settings set frequency_cap_count = null where host_id = $1`, [brand.id]);
    }
  });

  it("names each recipient as the customer list does (the customer's own full name)", async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const english = await customer(shinjuku.id, 'Rachel', mail('rachel'));
    await s.sql(`update customers set last_name = 'Harris' where id = $1`, [english]);
    const japanese = await customer(shinjuku.id, '花子', mail('hanako'));
    const seg = await staticSegment(t, '名前', [english, japanese]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `名前 ${tag}`, subject: 's', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    await runSend(c.id);
    const shown = async (id: string) => (await s.call('GET', `/v1/customers/${id}`, { token: t })).body.data.fullName;
    expect(await shown(english)).toBe('Rachel Harris');
    const items = (await s.call('GET', `/v1/campaigns/${c.id}/deliveries`, { token: t })).body.data.items as {
      customerId: string;
      customerName: string;
    }[];
    const byCustomer = new Map(items.map((i) => [i.customerId, i.customerName]));
    expect(byCustomer.get(english)).toBe('Rachel Harris');
    expect(byCustomer.get(japanese)).toBe(await shown(japanese));
    expect(byCustomer.get(japanese)).toBe('山田 花子');
  });

  it("sends the demo's campaign to the guests synced for さくら旅館 箱根 through the same path", async () => {
    const [hakone] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    const guest = await customer(hakone.id, '箱根', mail('demo-guest'));
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
       values ($1, $2, $3, $4, current_date, current_date + 10, current_date + 11, 1, 2, 30000, 'confirmed')`,
      [brand.id, guest, hakone.id, `DEMO-${tag}`],
    );
    await seedDemoCampaign(s.rt);
    const [demo] = await s.sql(
      `select id, status, send_at > now() as later from campaigns where name = '箱根の冬のご案内'`,
    );
    // Scheduled a little ahead (the first sync brings the guests in meanwhile); brought forward here.
    expect(demo).toMatchObject({ status: 'scheduled', later: true });
    await s.sql(`update campaigns set send_at = now() where id = $1`, [demo.id]);
    await runSend(demo.id);
    const [sent] = await s.sql(`select status, audience from campaigns where id = $1`, [demo.id]);
    // The synced guest, and the three demo guests whose mail the sink answers (feedback.int.test.ts).
    expect(sent).toEqual({ status: 'sent', audience: 1 + DEMO_FEEDBACK_GUESTS.length });
    const [received] = await sinkTo(mail('demo-guest'));
    expect(received.subject).toBe('箱根の冬のご案内');
    for (const g of DEMO_FEEDBACK_GUESTS) expect(await sinkTo(g.email)).toHaveLength(1);
  });

  it("holds the guests of a hotel inside its quiet hours, in the hotel's time zone and by its own setting, and mails the others", async () => {
    const t = await token(DEMO.brandAdmin);
    const [hakone] = await s.sql(`select id from hosts where slug = 'sakura-hakone'`);
    const [{ timezone: kyotoZone }] = await s.sql(`select timezone from hosts where id = $1`, [kyoto.id]);
    // The brand's quiet hours: four hours around now in Tokyo, which 新宿 (Asia/Tokyo) is inside.
    const hour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(),
      ),
    );
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const templateId = await template(t);
    const night = await customer(shinjuku.id, '夜', mail('quiet-night'));
    const abroad = await customer(kyoto.id, '昼', mail('quiet-abroad'));
    const own = await customer(hakone.id, '自前', mail('quiet-own'));
    const seg = await staticSegment(t, '夜', [night, abroad, own]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `夜 ${tag}`, subject: '夜', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    await s.sql(`update campaign_email_settings set quiet_hours_start = $2, quiet_hours_end = $3 where host_id = $1`, [
      brand.id,
      hh(hour - 2),
      hh(hour + 2),
    ]);
    // 京都 moved to New York for the test: ten or eleven hours behind Tokyo it is mid-day, not quiet.
    await s.sql(`update hosts set timezone = 'America/New_York' where id = $1`, [kyoto.id]);
    // 箱根 has no quiet hours of its own (equal start and end), which wins over the brand's.
    await s.sql(
      `insert into campaign_email_settings (host_id, brand_id, quiet_hours_start, quiet_hours_end) values ($1, $2, '00:00', '00:00')
       on conflict (host_id) do update set quiet_hours_start = '00:00', quiet_hours_end = '00:00'`,
      [hakone.id, brand.id],
    );
    try {
      expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
      await runSend(c.id);
      expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data.status).toBe('pending');
      expect(await sinkTo(mail('quiet-abroad'))).toHaveLength(1);
      expect(await sinkTo(mail('quiet-own'))).toHaveLength(1);
      expect(await sinkTo(mail('quiet-night'))).toHaveLength(0);
      const [held] = await s.sql(
        `select status, attempts from deliveries where campaign_id = $1 and customer_id = $2`,
        [c.id, night],
      );
      expect(held).toEqual({ status: 'queued', attempts: 0 });
    } finally {
      await s.sql(
        `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
        [brand.id],
      );
      await s.sql(
        `update campaign_email_settings set quiet_hours_start = null, quiet_hours_end = null where host_id = $1`,
        [hakone.id],
      );
      await s.sql(`update hosts set timezone = $2 where id = $1`, [kyoto.id, kyotoZone]);
    }
    // Morning comes in 新宿 (here: the quiet hours are lifted): the next look sends the rest.
    await runSend(c.id);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data.status).toBe('sent');
    expect(await sinkTo(mail('quiet-night'))).toHaveLength(1);
    expect(await sinkTo(mail('quiet-abroad'))).toHaveLength(1);
  });

  it("personalises the campaign's subject and pre-header tags like the body, with their fallbacks", async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const named = await customer(shinjuku.id, '花子', mail('subject-named'));
    const [unnamed] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '', '', $2, $3) returning id`,
      [brand.id, `090${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, mail('subject-unnamed')],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [unnamed.id, shinjuku.id, brand.id],
    );
    const seg = await staticSegment(t, '件名', [named, unnamed.id]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: {
          name: `件名 ${tag}`,
          subject: '{{full_name}}、{{hotel_name}}からのご案内',
          preHeader: '{{first_name|お客}}様だけの特別プラン',
          recipients: { segmentIds: [seg] },
          templateId,
        },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    await runSend(c.id);
    const received = async (address: string) => {
      const [row] = await s.sql(`select subject, raw from dev_outbox where $1 = any(rcpt_to)`, [address]);
      return { subject: row.subject as string, html: String((await simpleParser(Buffer.from(row.raw))).html) };
    };
    const [{ name: hotelName }] = await s.sql(`select name from hosts where id = $1`, [shinjuku.id]);
    const hanako = await received(mail('subject-named'));
    expect(hanako.subject).toBe(`山田 花子 様、${hotelName}からのご案内`);
    expect(hanako.html).toContain('花子様だけの特別プラン');
    expect(hanako.html).not.toContain('{{');
    const nobody = await received(mail('subject-unnamed'));
    expect(nobody.subject).toBe(`お客様、${hotelName}からのご案内`);
    expect(nobody.html).toContain('お客様だけの特別プラン');
  });

  it('waits and says why when the sender domain lost its verification, then sends once it is back', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, '検証', [await customer(shinjuku.id, '検証', mail('verify'))]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `検証 ${tag}`, subject: '検証', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} })).status).toBe(200);
    await s.sql(`update sending_domains set state = 'in_verification' where brand_id = $1`, [brand.id]);
    try {
      await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
      const waiting = (await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data;
      // The domain lost its verification: the campaign says that, not that the settings are missing.
      expect(waiting).toMatchObject({ status: 'scheduled', problem: 'domain_not_verified' });
    } finally {
      await s.sql(`update sending_domains set state = 'verified' where brand_id = $1`, [brand.id]);
    }
    await runSend(c.id);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data).toMatchObject({
      status: 'sent',
      problem: null,
    });
    expect(await sinkTo(mail('verify'))).toHaveLength(1);
  });

  it('pauses a sending campaign (nothing claimed, who and when shown, audited) and resumes it where it stopped', async () => {
    const admin = await token(DEMO.hotelAdmin);
    const ids = [await customer(shinjuku.id, '一', mail('pause1')), await customer(shinjuku.id, '二', mail('pause2'))];
    const seg = await staticSegment(admin, '一時停止', ids);
    const templateId = await template(admin);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: admin,
        body: { name: `一時停止 ${tag}`, subject: '夏', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    // Only a sending campaign can be paused, and only a paused one resumed.
    const draft = await s.call('POST', `/v1/campaigns/${c.id}/pause`, { token: admin, body: {} });
    expect(draft.status).toBe(409);
    expect(draft.body.error.code).toBe('campaign_not_sending');
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: admin, body: {} })).status).toBe(200);
    await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    const notPaused = await s.call('POST', `/v1/campaigns/${c.id}/resume`, { token: admin, body: {} });
    expect(notPaused.status).toBe(409);
    expect(notPaused.body.error.code).toBe('campaign_not_paused');
    // Entitlement, ownership and tenancy: a viewer may not, the brand reads but does not own the
    // hotel's campaign, another brand does not see it.
    const viewer = await token(DEMO.hotelViewer);
    expect((await s.call('POST', `/v1/campaigns/${c.id}/pause`, { token: viewer, body: {} })).status).toBe(403);
    const brandAdmin = await token(DEMO.brandAdmin);
    expect((await s.call('POST', `/v1/campaigns/${c.id}/pause`, { token: brandAdmin, body: {} })).status).toBe(403);
    const harbor = await token(DEMO.harborAdmin);
    for (const action of ['pause', 'resume'])
      expect(
        (await s.call('POST', `/v1/campaigns/${c.id}/${action}`, { token: harbor, headers: HARBOR, body: {} })).status,
      ).toBe(404);

    const paused = await s.call('POST', `/v1/campaigns/${c.id}/pause`, { token: admin, body: {} });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data).toMatchObject({ status: 'pending', paused: { at: expect.any(String) } });
    expect(paused.body.data.paused.by.name).toEqual(expect.any(String));
    // Paused: the send claims nothing.
    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    for (const address of [mail('pause1'), mail('pause2')]) expect(await sinkTo(address)).toHaveLength(0);
    expect(await s.sql(`select id from deliveries where campaign_id = $1 and status <> 'queued'`, [c.id])).toHaveLength(
      0,
    );
    // The list shows it paused too.
    const listed = (
      await s.call('GET', `/v1/campaigns?search=${encodeURIComponent(`一時停止 ${tag}`)}`, { token: admin })
    ).body.data;
    expect(listed.items[0].paused).toMatchObject({ at: expect.any(String) });

    // While it was paused, the second guest got three other campaigns' mails: the cap (3 in 7
    // days) holds when it resumes.
    const others = [];
    for (let i = 0; i < 3; i++)
      others.push(
        (
          await s.call('POST', '/v1/campaigns', {
            token: admin,
            body: { name: `他 ${i} ${tag}`, subject: '他', recipients: { segmentIds: [seg] }, templateId },
          })
        ).body.data.id as string,
      );
    await s.sql(
      `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, sent_at)
       select unnest($1::uuid[]), $2, $3, $4, $5, 'sent', now()`,
      [others, brand.id, ids[1], shinjuku.id, mail('pause2')],
    );
    const resumed = await s.call('POST', `/v1/campaigns/${c.id}/resume`, { token: admin, body: {} });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.paused).toBeNull();
    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    expect(await sinkTo(mail('pause1'))).toHaveLength(1);
    expect(await sinkTo(mail('pause2'))).toHaveLength(0);
    expect(
      (
        await s.sql(`select status, skip_reason from deliveries where campaign_id = $1 and customer_id = $2`, [
          c.id,
          ids[1],
        ])
      )[0],
    ).toEqual({ status: 'skipped', skip_reason: 'frequency_cap' });
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: admin })).body.data.status).toBe('sent');
    const audited = await s.sql(
      `select action from audit_log where target_id = $1 and action in ('pause', 'resume') order by at`,
      [c.id],
    );
    expect(audited.map((a) => a.action)).toEqual(['pause', 'resume']);
  });

  it("puts back only a dead worker's mails: a live one keeps its claims, a handed mail goes again once and is shown, a lapsed claim's late answer is not recorded", async () => {
    const admin = await token(DEMO.hotelAdmin);
    const [slow, handed, unhanded] = [
      await customer(shinjuku.id, '遅', mail('fence-slow')),
      await customer(shinjuku.id, '渡', mail('fence-handed')),
      await customer(shinjuku.id, '未', mail('fence-unhanded')),
    ];
    const seg = await staticSegment(admin, '柵', [slow, handed, unhanded] as string[]);
    const templateId = await template(admin);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: admin,
        body: { name: `柵 ${tag}`, subject: '夏', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    expect((await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: admin, body: {} })).status).toBe(200);
    await startCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    // A live worker claimed one an hour ago (slow, not dead); a worker whose lease is gone held the
    // other two, one of them already handed to SMTP.
    const live = crypto.randomUUID();
    const dead = crypto.randomUUID();
    const lapsedToken = crypto.randomUUID();
    await s.sql(
      `insert into worker_leases (id, hostname, pid, expires_at) values ($1, 'elsewhere', 1, now() + interval '1 hour')`,
      [live],
    );
    const claim = (customerId: string, worker: string, claimToken: string, handedAt: string) =>
      s.sql(
        `update deliveries set status = 'sending', claimed_by = $3, claim_token = $4, claimed_at = now() - interval '1 hour', handed_at = ${handedAt}
         where campaign_id = $1 and customer_id = $2`,
        [c.id, customerId, worker, claimToken],
      );
    await claim(slow as string, live, crypto.randomUUID(), 'now()');
    await claim(handed as string, dead, lapsedToken, 'now()');
    await claim(unhanded as string, dead, lapsedToken, 'null');
    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    expect(await sinkTo(mail('fence-slow'))).toHaveLength(0);
    expect(await sinkTo(mail('fence-handed'))).toHaveLength(1);
    expect(await sinkTo(mail('fence-unhanded'))).toHaveLength(1);
    const rows = async () =>
      new Map(
        (
          await s.sql(
            `select customer_id, status, in_flight_repeats, attempts, error from deliveries where campaign_id = $1`,
            [c.id],
          )
        ).map((r) => [r.customer_id as string, r]),
      );
    let by = await rows();
    expect(by.get(slow as string)).toMatchObject({ status: 'sending', in_flight_repeats: 0 });
    // Marked as a possible repeat; the crash was no relay attempt (one answer: one attempt).
    expect(by.get(handed as string)).toMatchObject({ status: 'sent', in_flight_repeats: 1, attempts: 1 });
    expect(by.get(unhanded as string)).toMatchObject({ status: 'sent', in_flight_repeats: 0, attempts: 1 });
    // The lapsed worker's late answer for what was put back is not recorded.
    const [d] = await s.sql(`select id from deliveries where campaign_id = $1 and customer_id = $2`, [c.id, handed]);
    const late = await withTenant(s.rt.database.db, { scopeAll: false, brandId: brand.id }, (tx) =>
      recordOutcomes(tx, lapsedToken, [
        {
          id: d.id,
          customerId: handed as string,
          status: 'failed',
          messageId: null,
          error: '550 late',
          nextAttemptAt: null,
          hardBounce: true,
        },
      ]),
    );
    expect(late).toHaveLength(0);
    expect((await rows()).get(handed as string)).toMatchObject({ status: 'sent' });
    // Shown: the campaign counts the mail handed over twice; the live worker's claim keeps it sending.
    const shown = (await s.call('GET', `/v1/campaigns/${c.id}`, { token: admin })).body.data;
    expect(shown).toMatchObject({ status: 'pending', statistics: { sent: 2, sending: 1, repeats: 1 } });
    // The recipient list marks that guest, and lists only such guests when asked.
    const listed = async (query: string) =>
      (await s.call('GET', `/v1/campaigns/${c.id}/recipients${query}`, { token: admin })).body.data.items as {
        customerId: string;
        possibleRepeat: boolean;
      }[];
    const all = await listed('');
    expect(all).toHaveLength(3);
    expect(all.filter((r) => r.possibleRepeat).map((r) => r.customerId)).toEqual([handed]);
    expect((await listed('?possibleRepeats=true')).map((r) => r.customerId)).toEqual([handed]);
    expect((await listed('?possibleRepeats=false')).map((r) => r.customerId).sort()).toEqual([slow, unhanded].sort());
    expect(
      (await s.call('GET', `/v1/campaigns/${c.id}/recipients?possibleRepeats=maybe`, { token: admin })).status,
    ).toBe(400);
    // Handed again and lost again (its worker died once more): not sent a third time.
    await claim(handed as string, dead, crypto.randomUUID(), 'now()');
    await sendCampaign(s.rt, { campaignId: c.id, brandId: brand.id });
    expect(await sinkTo(mail('fence-handed'))).toHaveLength(1);
    by = await rows();
    expect(by.get(handed as string)).toMatchObject({ status: 'sent', in_flight_repeats: 1, error: ANSWER_LOST_TWICE });
    await s.sql(`delete from worker_leases where id = $1`, [live]);
  });

  it('lists the campaign and its delivery counts on the template report', async () => {
    const t = await token(DEMO.brandAdmin);
    const templateId = await template(t);
    const seg = await staticSegment(t, '報告', [await customer(shinjuku.id, '報告', mail('report'))]);
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token: t,
        body: { name: `報告 ${tag}`, subject: '報告', recipients: { segmentIds: [seg] }, templateId },
      })
    ).body.data;
    await s.call('POST', `/v1/campaigns/${c.id}/send-now`, { token: t, body: {} });
    await runSend(c.id);
    const report = await s.call('GET', `/v1/templates/${templateId}/report`, { token: t });
    expect(report.body.data.campaigns).toEqual([
      expect.objectContaining({ campaignId: c.id, status: 'sent', recipients: 1, delivered: 1, opened: 0 }),
    ]);
    expect(report.body.data.campaigns[0].sentAt).not.toBeNull();
  });
});
