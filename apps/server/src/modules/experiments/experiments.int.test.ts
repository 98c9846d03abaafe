import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows, withTenant } from '../../db/client.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { trackingFor } from '../tracking/links.ts';
import { recorderOf } from '../tracking/record-events.ts';
import { armOf, uniformOf, uniformSql, type TExperimentShape } from './assignment.ts';

/**
 * Experiments through the whole product (issue 26): campaigns with variants and a holdout sent by
 * the real send path over SMTP into the sink, clicks made through the tracking endpoint, the
 * decision taken by the dispatcher when the wait ends (brought forward in the database, as the
 * campaign tests bring a schedule forward), and the rest sent the winner.
 */

let s: TTestServer;
let brandId: string;
const tag = randomBytes(3).toString('hex');
let phones = 0;

beforeAll(async () => {
  s = await startTestServer({ env: { CAMPAIGN_DISPATCH_SECONDS: '1' } });
  await seedDemoSending(s.rt);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  brandId = brand.id;
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brandId],
  );
});
afterAll(async () => {
  await s?.close();
});

/**
 * Guests of the brand (seeded in one statement, with the given ids) put in a static segment. The
 * tests choose ids whose arm they know (armOf, with the campaign's id as the seed) so that a test
 * share of 500 per variant needs no more guests than that: the server still assigns them itself.
 */
async function addGuests(segmentId: string, name: string, ids: string[]): Promise<void> {
  const prefix = `07${String(phones++).padStart(2, '0')}${tag.slice(0, 2).replace(/\D/g, '1')}`;
  await s.sql(
    `with c as (insert into customers (id, brand_id, first_name, last_name, phone, email)
       select id, $1, 'ゲスト', '試験', $2 || lpad(i::text, 6, '0'), $3 || i || '@guest.example.jp'
       from unnest($4::uuid[]) with ordinality as t(id, i)
       returning id)
     insert into segment_members (segment_id, customer_id, brand_id) select $5, c.id, $1 from c`,
    [brandId, prefix, `${name}.${tag}.`, ids, segmentId],
  );
}

/** Ids whose arms under `shape` fill `wanted` (per arm key: 'holdout', 'rest', 'test0', 'test1', ...). */
function guestsFor(shape: TExperimentShape, wanted: Record<string, number>): string[] {
  const left = { ...wanted };
  const ids: string[] = [];
  while (Object.values(left).some((n) => n > 0)) {
    const id = randomUUID();
    const arm = armOf(shape, id);
    const key = arm.kind === 'test' ? `test${arm.variant}` : arm.kind;
    if ((left[key] ?? 0) > 0) {
      left[key]!--;
      ids.push(id);
    }
  }
  return ids;
}

async function template(token: string): Promise<string> {
  const r = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `実験 ${tag} ${randomUUID().slice(0, 4)}`,
      defaultLanguage: 'ja',
      contents: {
        ja: {
          subject: '既定',
          preheader: '',
          document: {
            version: 1,
            sections: [
              {
                id: 's',
                columns: [
                  {
                    id: 'c',
                    blocks: [{ id: 'b', type: 'button', label: '見る', href: 'https://sakura.example.jp/plan' }],
                  },
                ],
              },
            ],
          },
        },
      },
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id as string;
}

async function sendExperiment(
  token: string,
  name: string,
  guests: number | ((campaignId: string) => string[]),
  experiment: Record<string, unknown>,
): Promise<string> {
  const created = await s.call('POST', '/v1/segments', { token, body: { name: `${name} ${tag}`, type: 'static' } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const segmentId = created.body.data.id as string;
  const templateId = await template(token);
  const c = await s.call('POST', '/v1/campaigns', {
    token,
    body: {
      name: `${name} ${tag}`,
      subject: `A件名 ${name}`,
      recipients: { segmentIds: [segmentId] },
      templateId,
      experiment,
    },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  const ids =
    typeof guests === 'number' ? Array.from({ length: guests }, () => randomUUID()) : guests(c.body.data.id as string);
  await addGuests(segmentId, name, ids);
  const sent = await s.call('POST', `/v1/campaigns/${c.body.data.id}/send-now`, { token, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return c.body.data.id as string;
}

const campaign = async (token: string, id: string) => (await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data;

/** Waits for the test share to be answered: the campaign then waits for its decision. */
const waiting = (token: string, id: string) =>
  eventually(async () => {
    const c = await campaign(token, id);
    return c.experiment.phase === 'waiting' ? c : null;
  }, 60_000);

const finished = (token: string, id: string) =>
  eventually(async () => {
    const c = await campaign(token, id);
    return c.status === 'sent' ? c : null;
  }, 60_000);

/** The subjects the sink received, by recipient. */
async function subjects(campaignId: string): Promise<Map<string, string[]>> {
  const rows = await s.sql(
    `select o.subject, d.email from dev_outbox o join deliveries d on d.email = any(o.rcpt_to) where d.campaign_id = $1`,
    [campaignId],
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.email, [...(out.get(r.email) ?? []), r.subject]);
  return out;
}

describe('the audience preview of a campaign with a holdout', () => {
  it('counts the guests its holdout will hold out, as the send then does', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const name = 'preview';
    const created = await s.call('POST', '/v1/segments', { token, body: { name: `${name} ${tag}`, type: 'static' } });
    const segmentId = created.body.data.id as string;
    const c = await s.call('POST', '/v1/campaigns', {
      token,
      body: {
        name: `${name} ${tag}`,
        subject: `件名 ${name}`,
        recipients: { segmentIds: [segmentId] },
        templateId: await template(token),
        experiment: { holdoutPercent: 10 },
      },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    const id = c.body.data.id as string;
    const ids = Array.from({ length: 300 }, () => randomUUID());
    await addGuests(segmentId, name, ids);
    const expected = ids.filter(
      (g) => armOf({ seed: id, holdoutShare: 0.1, testShare: 0, variants: 1 }, g).kind === 'holdout',
    ).length;
    expect(expected).toBeGreaterThan(0);

    const plain = await s.call('POST', '/v1/campaigns/audience', { token, body: { segmentIds: [segmentId] } });
    expect(plain.body.data).toMatchObject({ matched: 300, recipients: 300 });
    expect(plain.body.data.heldOut).toBeUndefined();
    const preview = await s.call('POST', '/v1/campaigns/audience', {
      token,
      body: { segmentIds: [segmentId], holdout: { campaignId: id, percent: 10 } },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({ matched: 300, heldOut: expected, recipients: 300 - expected });

    // The send holds out exactly those.
    expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
    const done = await finished(token, id);
    expect(done.statistics).toMatchObject({ heldOut: expected, sent: 300 - expected });
  }, 90_000);
});

describe('an A/B test with a holdout', () => {
  it('mails each variant its subject, never the holdout, waits, and sends the winner (B) to the rest', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    // 10 % held out, 50 % in the test, the rest waits: guests chosen so that each variant has the
    // 500 a winner needs, with 100 held out and 100 in the rest (the holdout's smallest measured size).
    const id = await sendExperiment(
      token,
      'ab',
      (seed) =>
        guestsFor(
          { seed, holdoutShare: 0.1, testShare: 0.5, variants: 2 },
          { holdout: 100, rest: 100, test0: 500, test1: 500 },
        ),
      {
        variants: [{ subject: 'B件名 ab' }],
        testPercent: 50,
        waitHours: 4,
        holdoutPercent: 10,
      },
    );
    const c = await waiting(token, id);
    expect(c.experiment).toMatchObject({ phase: 'waiting', winner: null, testPercent: 50, holdoutPercent: 10 });
    expect(Date.parse(c.experiment.decideAt) - Date.parse(c.startedAt)).toBe(4 * 3600_000);

    // Stored as armOf computes them, for every guest.
    const rows = await s.sql(
      `select id, customer_id, arm, variant, status, skip_reason, email from deliveries where campaign_id = $1`,
      [id],
    );
    expect(rows).toHaveLength(1200);
    const shape = { seed: id, holdoutShare: 0.1, testShare: 0.5, variants: 2 };
    for (const r of rows) {
      const arm = armOf(shape, r.customer_id);
      expect(r.arm).toBe(arm.kind);
      expect(r.variant).toBe(arm.kind === 'test' ? arm.variant : 0);
    }
    const held = rows.filter((r) => r.arm === 'holdout');
    const test = rows.filter((r) => r.arm === 'test');
    expect(held.every((r) => r.status === 'skipped' && r.skip_reason === 'holdout')).toBe(true);
    expect(rows.filter((r) => r.arm === 'rest').every((r) => r.status === 'queued')).toBe(true);
    expect(c.statistics).toMatchObject({ heldOut: held.length, skipped: 0, sent: test.length });
    // The recipient list names them held out; the others carry no reason.
    const listed = (await s.call('GET', `/v1/campaigns/${id}/recipients?limit=200&status=skipped`, { token })).body.data
      .items as { customerId: string; skipReason: string | null }[];
    expect(listed.map((r) => r.customerId).sort()).toEqual(held.map((r) => r.customer_id).sort());
    expect(listed.every((r) => r.skipReason === 'holdout')).toBe(true);
    const sent = (await s.call('GET', `/v1/campaigns/${id}/recipients?limit=5&status=sent`, { token })).body.data
      .items as { skipReason: string | null }[];
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.skipReason === null)).toBe(true);

    const mailed = await subjects(id);
    for (const r of test) expect(mailed.get(r.email)).toEqual([r.variant === 1 ? 'B件名 ab' : 'A件名 ab']);
    for (const r of held) expect(mailed.has(r.email)).toBe(false);
    expect(mailed.size).toBe(test.length);

    // Clicks through the tracking endpoint: 120 of B's mails, 30 of A's.
    const clicks = [
      ...test.filter((r) => r.variant === 1).slice(0, 120),
      ...test.filter((r) => r.variant === 0).slice(0, 30),
    ];
    for (let i = 0; i < clicks.length; i += 25)
      await Promise.all(
        clicks
          .slice(i, i + 25)
          .map((r) =>
            fetch(trackingFor(s.rt, r.id).clickUrl('https://sakura.example.jp/plan', 0), { redirect: 'manual' }),
          ),
      );
    await recorderOf(s.rt).flush();

    // A winner cannot be named for a variant the campaign lacks (checked before anything changes).
    const unknown = await s.call('POST', `/v1/campaigns/${id}/experiment/winner`, { token, body: { key: 'D' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('experiment_variant_unknown');

    // The wait ends (brought forward): the dispatcher decides and the rest is sent B.
    await s.sql(`update campaigns set experiment_decide_at = now() where id = $1`, [id]);
    const done = await finished(token, id);
    expect(done.experiment.winner).toMatchObject({ key: 'B', how: 'significant', by: null });
    expect(done.experiment.phase).toBe('decided');
    const after = await subjects(id);
    const rest = await s.sql(`select email, variant, status from deliveries where campaign_id = $1 and arm = 'rest'`, [
      id,
    ]);
    expect(rest.every((r) => r.variant === 1 && r.status === 'sent')).toBe(true);
    for (const r of rest) expect(after.get(r.email)).toEqual(['B件名 ab']);
    for (const r of held) expect(after.has(r.email)).toBe(false);
    expect(done.statistics).toMatchObject({ heldOut: held.length, skipped: 0, sent: 1200 - held.length });

    const report = await s.call('GET', `/v1/campaigns/${id}/experiment`, { token });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const r = report.body.data;
    expect(r.decision).toMatchObject({ kind: 'winner', key: 'B', metric: 'clicks' });
    expect(r.decision.pValue).toBeLessThan(0.05);
    expect(r.variants.map((v: { key: string; clicks: number }) => [v.key, v.clicks])).toEqual([
      ['A', 30],
      ['B', 120],
    ]);
    const b = r.variants[1];
    expect(b.clickRate.low).toBeLessThan(b.clickRate.value);
    expect(b.clickRate.high).toBeGreaterThan(b.clickRate.value);
    expect(r.holdout.percent).toBe(10);
    expect(r.holdout.windows.map((w: { window: string }) => w.window)).toEqual(['attribution', 'days_30']);
    expect(r.holdout.windows[0].holdout.guests).toBe(held.length);
    expect(r.holdout.windows[0].mailed.guests).toBe(1200 - held.length);
    expect(r.holdout.windows[0].result.kind).toBe('measured');

    // Audited as the server's decision.
    const [audit] = await s.sql(
      `select action, actor_user_id, changes from audit_log where target_id = $1 and action = 'decide_winner'`,
      [id],
    );
    expect(audit).toMatchObject({
      actor_user_id: null,
      changes: expect.objectContaining({ winner: 'B', how: 'significant' }),
    });

    // Another brand's user sees nothing; a user without the campaign entitlement is refused.
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    expect((await s.call('GET', `/v1/campaigns/${id}/experiment`, { token: harbor })).status).toBe(404);
    expect(
      (await s.call('POST', `/v1/campaigns/${id}/experiment/winner`, { token: harbor, body: { key: 'A' } })).status,
    ).toBe(404);
  }, 120_000);
});

describe('an A/A test', () => {
  it('is inconclusive (too few per variant) and sends the control A to the rest', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const id = await sendExperiment(token, 'aa', 120, {
      variants: [{ subject: 'A件名 aa' }],
      testPercent: 50,
      waitHours: 1,
      holdoutPercent: null,
    });
    await waiting(token, id);
    await s.sql(`update campaigns set experiment_decide_at = now() where id = $1`, [id]);
    const done = await finished(token, id);
    expect(done.experiment.winner).toMatchObject({ key: 'A', how: 'inconclusive' });
    const rest = await s.sql(`select variant from deliveries where campaign_id = $1 and arm = 'rest'`, [id]);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((r) => r.variant === 0)).toBe(true);
    const report = (await s.call('GET', `/v1/campaigns/${id}/experiment`, { token })).body.data;
    expect(report.decision).toEqual({ kind: 'inconclusive', reason: 'too_few', key: 'A' });
    expect(report.holdout).toBeNull();
  }, 60_000);
});

describe('a winner picked by hand', () => {
  it('goes to the rest at once, is audited, and a crash after it changes no variant', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [user] = await s.sql(`select id from users where email = $1`, [DEMO.brandAdmin]);
    const id = await sendExperiment(token, 'pick', 80, {
      variants: [{ subject: 'B件名 pick', senderName: 'さくら B' }, { subject: 'C件名 pick' }],
      testPercent: 30,
      waitHours: 72,
      holdoutPercent: null,
    });
    await waiting(token, id);
    // Variants cannot change once the send started.
    const locked = await s.call('PUT', `/v1/campaigns/${id}`, {
      token,
      body: { experiment: { variants: [{ subject: 'x' }] } },
    });
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe('experiment_locked');
    const viewer = (await s.login(DEMO.hotelViewer)).token;
    expect(
      (await s.call('POST', `/v1/campaigns/${id}/experiment/winner`, { token: viewer, body: { key: 'C' } })).status,
    ).toBe(403);
    const picked = await s.call('POST', `/v1/campaigns/${id}/experiment/winner`, { token, body: { key: 'C' } });
    expect(picked.status, JSON.stringify(picked.body)).toBe(200);
    expect(picked.body.data.winner).toMatchObject({ key: 'C', how: 'manual', by: { id: user.id } });
    const again = await s.call('POST', `/v1/campaigns/${id}/experiment/winner`, { token, body: { key: 'B' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('experiment_not_waiting');
    await finished(token, id);
    const mailed = await subjects(id);
    const rows = await s.sql(`select id, email, arm, variant from deliveries where campaign_id = $1`, [id]);
    for (const r of rows.filter((x) => x.arm === 'rest')) expect(mailed.get(r.email)).toEqual(['C件名 pick']);
    const b = rows.find((x) => x.arm === 'test' && x.variant === 1);
    expect(b).toBeDefined();
    const [bMail] = await s.sql(`select raw from dev_outbox where $1 = any(rcpt_to)`, [b.email]);
    expect(Buffer.from(bMail.raw).toString('utf8')).toMatch(/^From: .*(=\?UTF-8|さくら B)/m);
    const report = (await s.call('GET', `/v1/campaigns/${id}/experiment`, { token })).body.data;
    expect(report.decision).toMatchObject({ kind: 'manual', key: 'C', by: { id: user.id } });
    const [audit] = await s.sql(`select actor_user_id from audit_log where target_id = $1 and action = 'pick_winner'`, [
      id,
    ]);
    expect(audit.actor_user_id).toBe(user.id);

    // A crash put the test delivery of B back (its answer lost): it goes again with its stored variant.
    await s.sql(`update deliveries set status = 'queued', sent_at = null where id = $1`, [b.id]);
    await s.sql(`update campaigns set status = 'pending', finished_at = null where id = $1`, [id]);
    await eventually(async () => ((await subjects(id)).get(b.email)?.length === 2 ? true : null), 30_000);
    expect((await subjects(id)).get(b.email)).toEqual(['B件名 pick', 'B件名 pick']);
  }, 60_000);
});

describe('the experiment routes', () => {
  it('are described in the OpenAPI document, from the contracts', async () => {
    const res = await s.call('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/campaigns/{id}/experiment',
        '/v1/campaigns/{id}/experiment/winner',
        '/v1/scenarios/{id}/holdout',
      ]),
    );
  });
});

describe('the SQL assignment', () => {
  it('computes exactly uniformOf for 1,000 guests', async () => {
    const seed = randomUUID();
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    const rows = await withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, (tx) =>
      selectRows<{ id: string; u: number }>(
        tx,
        sql`select id::text as id, ${uniformSql(sql`${seed}::text`, sql`id`)} as u from unnest(${sql.param(ids)}::uuid[]) as id`,
      ),
    );
    expect(rows).toHaveLength(1000);
    for (const r of rows) expect(Number(r.u)).toBe(uniformOf(seed, r.id));
  });
});
