import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { guestToMail, runMailScenario } from '../../test/scenarios.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * The summary's email card says why its mails were skipped, not only how many: the email details
 * count an email step's skipped deliveries by reason. No worker runs, so the one mailable guest's
 * mail stays queued; the others are skipped when the clock's tick queues the step.
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

describe("an email step's skipped mails, by reason", () => {
  it('counts each reason apart, most first, for the brand only', async () => {
    const to = await guestToMail(s, token, {
      name: `理由 ${tag}`,
      email: `reasons.${tag}@guest.example.jp`,
      phone: `0907${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
      firstName: '理由',
      lastName: 'テスト',
    });
    // Beside the mailable guest: two who unsubscribed and one without an address, in the same segment.
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const others = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email, email_status)
       values ($1, '配信停止', '一', $2, $3, 'unsubscribed'), ($1, '配信停止', '二', $4, $5, 'unsubscribed'),
              ($1, 'アドレスなし', '三', $6, null, 'active')
       returning id`,
      [
        brand.id,
        `0908${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
        `off1.${tag}@guest.example.jp`,
        `0909${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
        `off2.${tag}@guest.example.jp`,
        `0905${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
      ],
    );
    const added = await s.call('POST', `/v1/segments/${to.segmentId}/members`, {
      token,
      body: { customerIds: others.map((r) => r.id) },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = await runMailScenario(s, token, `理由 ${tag}`, to, `理由の便り ${tag}`);
    const moved = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const res = await s.call('GET', `/v1/scenarios/${id}/emails`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.items).toHaveLength(1);
    expect(res.body.data.items[0]).toMatchObject({
      nodeId: 'mail',
      queued: 1,
      skipped: 3,
      skippedBy: [
        { reason: 'unsubscribed', count: 2 },
        { reason: 'no_email', count: 1 },
      ],
    });

    // Another brand's user reads nothing of it.
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    const theirs = await s.call('GET', `/v1/scenarios/${id}/emails`, { token: harbor });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs.body)).not.toContain('skippedBy');
  }, 60_000);
});
