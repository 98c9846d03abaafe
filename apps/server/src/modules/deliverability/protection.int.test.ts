import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';

/**
 * Protection (issue 25) end to end: a campaign to guests whose mailboxes do not exist (`bounce*`:
 * the embedded sink accepts them and sends a DSN to the return path a moment later) pauses itself
 * once it has handed the brand's minimum to the relay and its hard-bounce rate reaches the
 * threshold; the rest waits until an admin resumes it. The send is paced (CAMPAIGN_DOMAIN_RATE,
 * small batches, one lane) so the reports come in while it still sends, as they do at scale. The
 * minimum is the brand's setting (`pause_min_sent`), lowered here from its default 1,000.
 */

let s: TTestServer;
let token: string;
let brand: { id: string };
let hotel: { id: string };
let templateId: string;
const tag = randomBytes(3).toString('hex');
const MIN_SENT = 20;
const GUESTS = 100;

beforeAll(async () => {
  s = await startTestServer({
    env: {
      CAMPAIGN_DISPATCH_SECONDS: '1',
      CAMPAIGN_DOMAIN_RATE: '20',
      CAMPAIGN_BATCH_SIZE: '10',
      CAMPAIGN_SEND_LANES: '1',
    },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00', pause_min_sent = $2
     where host_id = $1`,
    [brand.id, MIN_SENT],
  );
  token = (await s.login(DEMO.brandAdmin)).token;
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `保護 ${tag}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  templateId = template.body.data.id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** `n` guests numbered from `from` (GUESTS by default, one in four with a mailbox that does not exist). */
async function guests(
  local = (i: number) => (i % 4 === 0 ? `bounce${i}` : `guest${i}`),
  n = GUESTS,
  from = 0,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + n; i++) {
    const [row] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
      [
        brand.id,
        local(i),
        `090${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(i).padStart(4, '0')}`,
        `${local(i)}.${tag}@guest.example.jp`,
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

const counts = async (campaignId: string) =>
  Object.fromEntries(
    (
      await s.sql(`select status, count(*)::int as n from deliveries where campaign_id = $1 group by status`, [
        campaignId,
      ])
    ).map((r) => [r.status, r.n]),
  ) as Record<string, number>;

/** What the send looked like when a wait ran out (CI shows only the failure's message). */
const sendState = async (id: string) => ({
  campaign: (await s.sql(`select status, paused_at, paused_reason, problem from campaigns where id = $1`, [id]))[0],
  deliveries: await s.sql(
    `select status, attempts, in_flight_repeats, next_attempt_at > now() as later, claim_token is not null as claimed, handed_at is not null as handed,
                  left(error, 80) as error, count(*)::int as n
           from deliveries where campaign_id = $1 group by 1, 2, 3, 4, 5, 6, 7`,
    [id],
  ),
  leases: await s.sql(`select id, expires_at > now() as live from worker_leases`),
  jobs: await s.sql(`select state, count(*)::int as n from pgboss.job where name = 'campaigns.send' group by 1`),
  logs: s.logs.filter((l) => /"level":(40|50|60)/.test(l)).slice(-6),
});

describe('protection', () => {
  it('pauses a campaign whose hard-bounce rate crosses the threshold past the minimum; the rest waits until resumed', async () => {
    const segment = await staticSegment(s, token, `保護 ${tag}`, await guests());
    const created = await s.call('POST', '/v1/campaigns', {
      token,
      body: {
        name: `保護 ${tag}`,
        subject: `保護 ${tag}`,
        recipients: { segmentIds: [segment], excludeSegmentIds: [] },
        templateId,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);

    const paused = await eventually(async () => {
      const c = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
      return c.paused ? c : null;
    }, 30_000);
    expect(paused.status).toBe('pending');
    expect(paused.paused).toMatchObject({ by: null, reason: { kind: 'hard_bounce' } });
    expect(paused.paused.reason.rate).toBeGreaterThanOrEqual(0.05);

    // The mails in flight finish; then nothing more is claimed.
    const settled = await eventually(
      async () => {
        const c = await counts(id);
        return (c.sending ?? 0) === 0 ? c : null;
      },
      10_000,
      () => sendState(id),
    );
    expect(settled.queued ?? 0).toBeGreaterThan(0);
    const handed = (settled.sent ?? 0) + (settled.failed ?? 0);
    expect(handed).toBeGreaterThanOrEqual(MIN_SENT);
    expect(handed).toBeLessThan(GUESTS);
    // Still waiting a few dispatch rounds later.
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await counts(id)).queued).toBe(settled.queued);

    // The system paused it, audited without an actor, with the reason.
    const [audit] = await s.sql(
      `select actor_user_id, changes from audit_log where target_id = $1 and action = 'pause'`,
      [id],
    );
    expect(audit.actor_user_id).toBeNull();
    expect(audit.changes).toMatchObject({ name: `保護 ${tag}`, pausedReason: 'hard_bounce' });
    expect(audit.changes.rate).toMatch(/^\d+\.\d%$/);
    expect(parseFloat(audit.changes.rate)).toBeGreaterThanOrEqual(5);

    // The list says so too.
    const listed = (await s.call('GET', `/v1/campaigns?search=${encodeURIComponent(`保護 ${tag}`)}`, { token })).body
      .data.items[0];
    expect(listed.paused).toMatchObject({ by: null, reason: { kind: 'hard_bounce' } });

    // An admin resumes it: the rest goes out, and protection does not pause it a second time.
    expect((await s.call('POST', `/v1/campaigns/${id}/resume`, { token, body: {} })).status).toBe(200);
    const done = await eventually(
      async () => {
        const c = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
        return c.status === 'sent' ? c : null;
      },
      60_000,
      () => sendState(id),
    );
    expect(done.paused).toBeNull();
    const final = await counts(id);
    expect((final.sent ?? 0) + (final.failed ?? 0) + (final.skipped ?? 0)).toBe(GUESTS);
    const pauses = await s.sql(`select count(*)::int as n from audit_log where target_id = $1 and action = 'pause'`, [
      id,
    ]);
    expect(pauses[0].n).toBe(1);
  }, 120_000);

  it('a campaign whose last mails cross the threshold ends sent, without a pause, and warns of its rates', async () => {
    // As many guests as the minimum, every address refused by the relay (the sink answers 550 5.1.1
    // to `unknown*`): the step that records the last of them reaches the minimum with nothing left
    // to hold, so it is not paused (a pause that holds nothing is not one): it finishes as sent, and
    // its report and the brand admins' banner say its rate is past the limit.
    const ids = await guests((i) => `unknown${i}x`, MIN_SENT, GUESTS);
    const name = `保護末尾 ${tag}`;
    const segment = await staticSegment(s, token, name, ids);
    const created = await s.call('POST', '/v1/campaigns', {
      token,
      body: { name, subject: name, recipients: { segmentIds: [segment], excludeSegmentIds: [] }, templateId },
    });
    const id = created.body.data.id as string;
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
    const done = await eventually(
      async () => {
        const c = (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;
        return c.status === 'sent' ? c : null;
      },
      30_000,
      () => sendState(id),
    );
    expect(done.paused).toBeNull();
    expect(done.statistics).toMatchObject({ sent: 0, failed: MIN_SENT });
    // No pause on record, and no reason left on the campaign.
    const pauses = await s.sql(`select changes from audit_log where target_id = $1 and action = 'pause'`, [id]);
    expect(pauses).toEqual([]);
    const [row] = await s.sql(`select paused_reason from campaigns where id = $1`, [id]);
    expect(row.paused_reason).toBeNull();
    const listed = (await s.call('GET', `/v1/campaigns?search=${encodeURIComponent(name)}`, { token })).body.data
      .items[0];
    expect(listed).toMatchObject({ status: 'sent', paused: null });
    // Its statistics warn with the rate past the threshold.
    const report = (await s.call('GET', `/v1/campaigns/${id}/statistics`, { token })).body.data;
    expect(report.warning).toEqual({ kind: 'hard_bounce', rate: 1, pausePct: 5 });
    // The brand admins are told: the next campaign to the same list would bounce as well.
    const alerts = (await s.call('GET', '/v1/deliverability/protection/alerts', { token })).body.data;
    expect(alerts).toContainEqual({
      campaignId: id,
      name,
      kind: 'hard_bounce',
      rate: 1,
      pausePct: 5,
      paused: false,
      finished: true,
    });
  }, 60_000);
});
