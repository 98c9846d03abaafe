import { randomBytes } from 'node:crypto';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * Stopping a scenario whose mail is queued and not yet sent. No worker runs in this server, so the
 * mail the clock's tick queues stays queued until the stop: the email details then say it was not
 * sent because the scenario stopped, not that it is still on its way.
 */

let s: TTestServer;
let token: string;
let grand: string;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  s = await startTestServer({ worker: false, env: { SCENARIO_CLOCK: 'manual' } });
  if ((await s.sql(`select 1 from sending_domains where domain = 'sakura-hotels.example.jp'`)).length === 0)
    await seedDemoSending(s.rt);
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('stopping a scenario with a mail still queued', () => {
  it('cancels the mail, and the email details count it as not sent because of the stop, not as queued', async () => {
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
    const [guest] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '停止', 'テスト', $2, $3) returning id`,
      [brand.id, `0906${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`, `stop.${tag}@guest.example.jp`],
    );
    const segment = await staticSegment(s, token, `停止 ${tag}`, [guest.id]);
    const template = await s.call('POST', '/v1/templates', {
      token,
      body: {
        name: `停止 ${tag}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
      },
    });
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
        {
          id: 'mail',
          type: 'email',
          data: { templateId: template.body.data.id, subject: `停止の便り ${tag}`, senderEmail: settings.sender_email },
        },
      ],
      edges: [{ id: 'a', source: 'start', target: 'mail' }],
    };
    const id = (await s.call('POST', '/v1/scenarios', { token, body: { name: `停止 ${tag}`, graph } })).body.data
      .id as string;
    const run = await s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } });
    expect(run.body.data.status, JSON.stringify(run.body)).toBe('running');
    const moved = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const details = async () => {
      const res = await s.call('GET', `/v1/scenarios/${id}/emails`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.items[0];
    };
    expect(await details()).toMatchObject({ nodeId: 'mail', queued: 1, sent: 0, skipped: 0, cancelled: 0 });

    const stop = await s.call('POST', `/v1/scenarios/${id}/actions`, {
      token,
      body: { action: 'stop', confirmation: STOP_SENTENCE },
    });
    expect(stop.body.data.status, JSON.stringify(stop.body)).toBe('stopped');

    expect(await details()).toMatchObject({ nodeId: 'mail', queued: 0, sent: 0, skipped: 0, failed: 0, cancelled: 1 });
    // The delivery itself says so, as a cancelled campaign's do, and the campaign's statistics count it.
    const [delivery] = await s.sql(
      `select d.status, d.skip_reason, cs.skipped from deliveries d join campaigns c on c.id = d.campaign_id
         left join campaign_stats cs on cs.campaign_id = c.id where c.scenario_id = $1`,
      [id],
    );
    expect(delivery).toEqual({ status: 'skipped', skip_reason: 'cancelled', skipped: 1 });
  }, 60_000);
});
