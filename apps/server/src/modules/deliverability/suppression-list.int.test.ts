import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

/**
 * The suppression list's routes (issue 25): the brand reads its own list, a brand admin lifts and
 * adds, audited; other brands, other levels and roles without the right get nothing.
 */

let s: TTestServer;
let admin: string;
let sakura: { id: string };
let harbor: { id: string };
const tag = randomBytes(3).toString('hex');
const HARBOR_VIEWER = { 'x-user-role': 'viewer', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };

let phoneSeq = 0;
async function customer(name: string, brandId: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${tag}@guest.example.jp`;
  phoneSeq += 1;
  const phone = `070${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email)
     values ($1, $2, 'テスト', $3, $4) returning id`,
    [brandId, name, phone, email],
  );
  return { id: row.id, email };
}

async function suppress(
  c: { id: string; email: string },
  brandId: string,
  reason: string,
  extra: { diagnostic?: string; campaignId?: string; until?: string } = {},
): Promise<string> {
  const [row] = await s.sql(
    `insert into suppressions (brand_id, email, customer_id, reason, diagnostic, campaign_id, until)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [brandId, c.email, c.id, reason, extra.diagnostic ?? null, extra.campaignId ?? null, extra.until ?? null],
  );
  return row.id as string;
}

const list = (token: string, query = '', headers?: Record<string, string>) =>
  s.call('GET', `/v1/suppressions${query}`, { token, headers });

beforeAll(async () => {
  s = await startTestServer();
  [sakura] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
  admin = (await s.login(DEMO.brandAdmin)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the suppression list', () => {
  it("shows the brand's active entries with reason, diagnostic, source and dates; search and filter by reason", async () => {
    const [campaign] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, status) values ($1, $1, $2, 'sent') returning id`,
      [sakura.id, `冬のご案内 ${tag}`],
    );
    const hard = await customer('hard', sakura.id);
    const soft = await customer('soft', sakura.id);
    const expired = await customer('expired', sakura.id);
    await suppress(hard, sakura.id, 'hard_bounce', { diagnostic: '550 5.1.1 User unknown', campaignId: campaign.id });
    await suppress(soft, sakura.id, 'soft_bounces', { until: new Date(Date.now() + 86_400_000).toISOString() });
    await suppress(expired, sakura.id, 'soft_bounces', { until: new Date(Date.now() - 60_000).toISOString() });

    const res = await list(admin, `?search=${tag}`);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    const byEmail = Object.fromEntries(res.body.data.items.map((i: { email: string }) => [i.email, i]));
    expect(byEmail[hard.email]).toMatchObject({
      reason: 'hard_bounce',
      diagnostic: '550 5.1.1 User unknown',
      customer: { id: hard.id, name: expect.stringContaining('hard') },
      campaign: { id: campaign.id, name: `冬のご案内 ${tag}` },
      scenario: null,
      until: null,
    });
    expect(byEmail[soft.email].until).not.toBeNull();
    // An expired soft entry is no longer suppressing: not listed.
    expect(byEmail[expired.email]).toBeUndefined();

    const filtered = await list(admin, `?search=${tag}&reason=hard_bounce`);
    expect(filtered.body.data.items.map((i: { email: string }) => i.email)).toEqual([hard.email]);
    // Search is by address, case-insensitively; LIKE wildcards are taken literally.
    expect((await list(admin, `?search=${encodeURIComponent(`SOFT.${tag}`)}`)).body.data.total).toBe(1);
    expect((await list(admin, `?search=%25${tag}`)).body.data.total).toBe(0);
    const bad = await list(admin, '?reason=spam');
    expect(bad.status).toBe(400);
  });

  it("lifts a hard bounce (clearing the customer's bounce mark) and a complaint (leaving the guest unsubscribed), audited", async () => {
    const hard = await customer('lift-hard', sakura.id);
    const complainer = await customer('lift-complain', sakura.id);
    await s.sql(`update customers set email_status = 'unsubscribed', unsubscribe_reason = 'complaint' where id = $1`, [
      complainer.id,
    ]);
    const hardId = await suppress(hard, sakura.id, 'hard_bounce');
    const complaintId = await suppress(complainer, sakura.id, 'complaint');
    // The customer shows the bounce while the address is suppressed for it.
    expect((await s.call('GET', `/v1/customers/${hard.id}`, { token: admin })).body.data.emailBouncedAt).toEqual(
      expect.any(String),
    );

    const lifted = await s.call('POST', `/v1/suppressions/${hardId}/lift`, { token: admin, body: {} });
    expect(lifted.status, JSON.stringify(lifted.body)).toBe(200);
    expect(lifted.body.data).toEqual({ id: hardId });
    const [row] = await s.sql(`select lifted_at, lifted_by from suppressions where id = $1`, [hardId]);
    expect(row.lifted_at).not.toBeNull();
    const [me] = await s.sql(`select id from users where email = $1`, [DEMO.brandAdmin]);
    expect(row.lifted_by).toBe(me.id);
    expect((await s.call('GET', `/v1/customers/${hard.id}`, { token: admin })).body.data.emailBouncedAt).toBeNull();

    expect((await s.call('POST', `/v1/suppressions/${complaintId}/lift`, { token: admin, body: {} })).status).toBe(200);
    const [guest] = await s.sql(`select email_status from customers where id = $1`, [complainer.id]);
    expect(guest.email_status).toBe('unsubscribed');

    const audit = await s.sql(
      `select action, target_type, actor_user_id, changes from audit_log where target_id = any($1::text[]) order by at, id`,
      [[hardId, complaintId]],
    );
    expect(audit).toEqual([
      {
        action: 'lift',
        target_type: 'suppression',
        actor_user_id: me.id,
        changes: { email: hard.email, reason: 'hard_bounce' },
      },
      {
        action: 'lift',
        target_type: 'suppression',
        actor_user_id: me.id,
        changes: { email: complainer.email, reason: 'complaint' },
      },
    ]);
    // Gone from the list; a second lift finds nothing.
    expect((await list(admin, `?search=lift-hard.${tag}`)).body.data.total).toBe(0);
    const again = await s.call('POST', `/v1/suppressions/${hardId}/lift`, { token: admin, body: {} });
    expect([again.status, again.body.error.code]).toEqual([404, 'suppression_not_found']);
  });

  it('adds an address by hand once, refusing a bad address with a field error in the language asked', async () => {
    const c = await customer('manual', sakura.id);
    const added = await s.call('POST', '/v1/suppressions', { token: admin, body: { email: c.email.toUpperCase() } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data).toMatchObject({ email: c.email, reason: 'manual', customer: { id: c.id }, until: null });
    const twice = await s.call('POST', '/v1/suppressions', { token: admin, body: { email: c.email } });
    expect([twice.status, twice.body.error.code]).toEqual([409, 'suppression_exists']);
    const bad = await s.call('POST', '/v1/suppressions', { token: admin, body: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.email.code).toBe('email_invalid');
    const [audit] = await s.sql(`select action, changes from audit_log where target_id = $1`, [added.body.data.id]);
    expect(audit).toEqual({ action: 'create', changes: { email: c.email, reason: 'manual' } });
    // The audience skips it like any suppressed address.
    const [mailable] = await s.sql(
      `select exists (select 1 from suppressions s where s.brand_id = $1 and s.email = $2 and s.lifted_at is null) as on_list`,
      [sakura.id, c.email],
    );
    expect(mailable.on_list).toBe(true);
  });

  it("gives with each page, an empty one too, the acting host's zone the console shows the entries' times in", async () => {
    const zoned = await customer('zoned', harbor.id);
    const zonedId = await suppress(zoned, harbor.id, 'soft_bounces', {
      until: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const zones = async (token: string, headers?: Record<string, string>) =>
      Promise.all(
        [`?search=zoned.${tag}`, '?search=nobody-at-all'].map(async (query) => {
          const page = (await list(token, query, headers)).body.data;
          return [page.items.length, page.timeZone];
        }),
      );
    expect(await zones(admin)).toEqual([
      [0, 'Asia/Tokyo'],
      [0, 'Asia/Tokyo'],
    ]);
    const [{ timezone: harborZone }] = await s.sql(`select timezone from hosts where slug = 'harbor-view'`);
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where slug = 'harbor-view'`);
    try {
      // Another brand's admin, and a viewer acting as it, get its zone.
      const harborAdmin = (await s.login(DEMO.harborAdmin)).token;
      const multi = (await s.login(DEMO.multi)).token;
      const inHonolulu = [
        [1, 'Pacific/Honolulu'],
        [0, 'Pacific/Honolulu'],
      ];
      expect(await zones(harborAdmin)).toEqual(inHonolulu);
      expect(await zones(multi, HARBOR_VIEWER)).toEqual(inHonolulu);
    } finally {
      await s.sql(`update hosts set timezone = $1 where slug = 'harbor-view'`, [harborZone]);
      await s.sql(`delete from suppressions where id = $1`, [zonedId]);
    }
  });

  it("gives another brand's users, other levels and roles without the right nothing", async () => {
    const mine = await customer('private', sakura.id);
    const id = await suppress(mine, sakura.id, 'hard_bounce');
    const theirs = await customer('theirs', harbor.id);
    const theirId = await suppress(theirs, harbor.id, 'complaint');

    // Another brand's admin lists only their own, and cannot lift ours.
    const harborAdmin = (await s.login(DEMO.harborAdmin)).token;
    const other = await list(harborAdmin, `?search=${tag}`);
    expect(other.status).toBe(200);
    expect(other.body.data.items.map((i: { email: string }) => i.email)).toEqual([theirs.email]);
    expect(JSON.stringify(other.body)).not.toContain(mine.email);
    const foreignLift = await s.call('POST', `/v1/suppressions/${id}/lift`, { token: harborAdmin, body: {} });
    expect(foreignLift.status).toBe(404);
    // Our admin cannot lift theirs either.
    expect((await s.call('POST', `/v1/suppressions/${theirId}/lift`, { token: admin, body: {} })).status).toBe(404);
    const [still] = await s.sql(`select lifted_at from suppressions where id = any($1::uuid[])`, [[id]]);
    expect(still.lifted_at).toBeNull();

    // A hotel or hotel group reads nothing: the list is the brand's.
    for (const email of [DEMO.hotelAdmin, DEMO.groupAdmin]) {
      const { token } = await s.login(email);
      const res = await list(token);
      expect([res.status, res.body.error.code], email).toEqual([403, 'suppressions_brand_only']);
      expect(res.body.data).toBeUndefined();
    }
    // A brand viewer reads the list but may neither lift nor add.
    const multi = (await s.login(DEMO.multi)).token;
    expect((await list(multi, `?search=${tag}`, HARBOR_VIEWER)).status).toBe(200);
    const viewerLift = await s.call('POST', `/v1/suppressions/${theirId}/lift`, {
      token: multi,
      headers: HARBOR_VIEWER,
      body: {},
    });
    expect([viewerLift.status, viewerLift.body.error.code]).toEqual([403, 'forbidden']);
    const viewerAdd = await s.call('POST', '/v1/suppressions', {
      token: multi,
      headers: HARBOR_VIEWER,
      body: { email: `x.${tag}@guest.example.jp` },
    });
    expect(viewerAdd.status).toBe(403);
    // The granduser has no brand to keep a list for.
    const grand = (await s.login(DEMO.grand)).token;
    expect((await list(grand)).body.error.code).toBe('suppressions_brand_only');
    const [theirsStill] = await s.sql(`select lifted_at from suppressions where id = $1`, [theirId]);
    expect(theirsStill.lifted_at).toBeNull();
  });

  it("shows on the customer the active entry for their address, by the send paths' rule, within the brand", async () => {
    const soft = await customer('detail-soft', sakura.id);
    const ended = await customer('detail-ended', sakura.id);
    const manual = await customer('detail-manual', sakura.id);
    const clear = await customer('detail-clear', sakura.id);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await suppress(soft, sakura.id, 'soft_bounces', { until });
    await suppress(ended, sakura.id, 'soft_bounces', { until: new Date(Date.now() - 60_000).toISOString() });
    await suppress(manual, sakura.id, 'manual');
    const [made] = await s.sql(`select created_at from suppressions where customer_id = $1`, [soft.id]);
    const detail = (id: string, token = admin, headers?: Record<string, string>) =>
      s.call('GET', `/v1/customers/${id}`, { token, headers });

    const shown = await detail(soft.id);
    expect(shown.status).toBe(200);
    // The guest's email status stays active: the entry is what holds their mail back.
    expect(shown.body.data.emailStatus).toBe('active');
    expect(shown.body.data.suppression).toEqual({
      reason: 'soft_bounces',
      createdAt: made.created_at.toISOString(),
      until,
    });
    // Soft bounces whose until has passed are mailed again: no entry shows.
    expect((await detail(ended.id)).body.data.suppression).toBeNull();
    expect((await detail(manual.id)).body.data.suppression).toMatchObject({ reason: 'manual', until: null });
    expect((await detail(clear.id)).body.data.suppression).toBeNull();

    // Another brand's users get nothing, as before.
    const harborAdmin = (await s.login(DEMO.harborAdmin)).token;
    expect((await detail(soft.id, harborAdmin)).status).toBe(404);
    const multi = (await s.login(DEMO.multi)).token;
    const foreign = await detail(manual.id, multi, HARBOR_VIEWER);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain(manual.email);
  });
});
