import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterValue } from '../../test/metrics.ts';
import { DEMO_FEEDBACK_GUESTS, seedDemoCampaign } from '../../seed/demo-campaign.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { MAX_BYTES } from './feedback-receiver.ts';
import { deliveryStatusNotification } from './report-messages.ts';
import { returnPathFor } from './verp.ts';

/**
 * Bounces and complaints that arrive after the send (issue 25), through the whole product: a real
 * server and worker over PostgreSQL; campaign and journey mail over SMTP into the embedded sink,
 * whose `bounce*` and `complain*` rules answer a moment later with a DSN or an ARF report sent over
 * SMTP to the delivery's VERP return path, where the feedback receiver applies the rules. Reports
 * the sink has no rule for are written here and sent to the receiver over SMTP all the same.
 */

let s: TTestServer;
let token: string;
let grand: string;
let brand: { id: string };
let harbor: { id: string };
let hotel: { id: string };
let templateId: string;
let sender: string;
const tag = randomBytes(3).toString('hex');
const DAY = 24 * 60;

let phoneSeq = 0;
async function customer(name: string, brandId = brand.id): Promise<{ id: string; email: string }> {
  const email = `${name}.${tag}@guest.example.jp`;
  phoneSeq += 1;
  const phone = `080${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
    [brandId, name, phone, email],
  );
  if (brandId === brand.id)
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [row.id, hotel.id, brand.id],
    );
  return { id: row.id, email };
}

const mails = async (to: string) => s.sql(`select subject from dev_outbox where $1 = any(rcpt_to)`, [to]);
const suppressionOf = async (email: string) =>
  (
    await s.sql(`select * from suppressions where brand_id = $1 and email = $2 and lifted_at is null`, [
      brand.id,
      email,
    ])
  )[0];

/** A delivery already sent, arranged directly (`minutesAgo` orders a guest's sends). */
async function sentDelivery(c: { id: string; email: string }, minutesAgo: number, brandId = brand.id): Promise<string> {
  const [campaign] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status) values ($1, $1, $2, 'sent') returning id`,
    [brandId, `送信済み ${tag} ${randomBytes(3).toString('hex')}`],
  );
  const [d] = await s.sql(
    `insert into deliveries (campaign_id, brand_id, customer_id, email, status, sent_at)
     values ($1, $2, $3, $4, 'sent', now() - make_interval(mins => $5)) returning id`,
    [campaign.id, brandId, c.id, c.email, minutesAgo],
  );
  return d.id as string;
}

/** One message to the feedback receiver over SMTP, as a relay sends a report (null sender). */
async function toReceiver(to: string, raw: Buffer | string): Promise<{ ok: true } | { code: number }> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: s.rt.feedbackReceiver?.port as number,
    secure: false,
    ignoreTLS: true,
  });
  try {
    await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
    return { ok: true };
  } catch (error) {
    return { code: (error as { responseCode?: number }).responseCode ?? 0 };
  } finally {
    transport.close();
  }
}

const fullDsn = (to: string, recipient: string) =>
  deliveryStatusNotification({
    to,
    recipient,
    reportingMta: 'mx.example.net',
    originalHeaders: 'Subject: x\r\n',
    status: '5.2.2',
    diagnostic: '552 5.2.2 Mailbox full',
  });

const counted = (outcome: string) => counterValue('yado_feedback_messages_total', { outcome });

async function campaignTo(customerIds: string[], name: string): Promise<string> {
  const segment = await staticSegment(s, token, `${name} ${tag}`, customerIds);
  const created = await s.call('POST', '/v1/campaigns', {
    token,
    body: {
      name: `${name} ${tag}`,
      subject: `${name} ${tag}`,
      recipients: { segmentIds: [segment], excludeSegmentIds: [] },
      templateId,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  expect((await s.call('POST', `/v1/campaigns/${id}/send-now`, { token, body: {} })).status).toBe(200);
  await eventually(
    async () => ((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data.status === 'sent' ? true : null),
    30_000,
  );
  return id;
}

beforeAll(async () => {
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '1', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
  const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
  sender = settings.sender_email;
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `跳ね返り ${tag}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  templateId = template.body.data.id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('bounces and complaints after the send', () => {
  it('suppresses a hard bounce, unsubscribes a complainer, and the next campaign mails neither', async () => {
    const hard = await customer('bounce');
    const complainer = await customer('complain');
    const fine = await customer('fine');
    const first = await campaignTo([hard.id, complainer.id, fine.id], '一回目');
    // Every delivery went out with its VERP return path under the brand's yado.<domain>.
    const [outbox] = await s.sql(`select mail_from from dev_outbox where $1 = any(rcpt_to)`, [hard.email]);
    expect(outbox.mail_from).toMatch(
      new RegExp(`^b-[a-z2-7]{42}@yado\\.${sender.split('@')[1]?.replace(/\./g, '\\.')}$`),
    );
    // The sink's DSN and ARF report arrive at the receiver a moment later.
    const suppressed = await eventually(() => suppressionOf(hard.email), 15_000);
    expect(suppressed).toMatchObject({
      reason: 'hard_bounce',
      customer_id: hard.id,
      campaign_id: first,
      until: null,
      scenario_id: null,
    });
    expect(suppressed.diagnostic).toContain('5.1.1');
    // The customer shows since when the address bounced: the suppression's time.
    const bounced = (await s.call('GET', `/v1/customers/${hard.id}`, { token })).body.data;
    expect(bounced.emailBouncedAt).toBe(suppressed.created_at.toISOString());
    const complained = await eventually(() => suppressionOf(complainer.email), 15_000);
    expect(complained).toMatchObject({ reason: 'complaint', campaign_id: first, until: null });
    // The complaint unsubscribed the guest from the brand's marketing, shown on the customer and audited.
    const shown = (await s.call('GET', `/v1/customers/${complainer.id}`, { token })).body.data;
    expect(shown).toMatchObject({ emailStatus: 'unsubscribed', unsubscribeReason: 'complaint' });
    const audit = await s.sql(`select action, actor_user_id, changes from audit_log where target_id = $1`, [
      complainer.id,
    ]);
    expect(audit).toEqual([
      {
        action: 'guest_unsubscribe',
        actor_user_id: null,
        changes: { emailStatus: ['active', 'unsubscribed'], source: 'complaint', campaignId: first },
      },
    ]);
    // The reports are kept as received, once per delivery and kind.
    const events = await s.sql(
      `select f.kind, f.source, f.status, f.raw is not null as kept from feedback_events f join deliveries d on d.id = f.delivery_id
       where d.campaign_id = $1 order by f.kind`,
      [first],
    );
    expect(events).toEqual([
      { kind: 'complaint', source: 'arf', status: null, kept: true },
      { kind: 'hard_bounce', source: 'dsn', status: '5.1.1', kept: true },
    ]);
    expect(
      (await s.sql(`select email from suppressions where brand_id = $1 and email = $2`, [brand.id, fine.email])).length,
    ).toBe(0);
    // The campaign's statistics count them, with their rates (API, as the console reads it).
    // Delivered: what the relay accepted less the mail that bounced afterwards; the complaint rate is
    // of those delivered.
    const statistics = async () => (await s.call('GET', `/v1/campaigns/${first}/statistics`, { token })).body.data;
    const report = await statistics();
    expect(report.totals).toMatchObject({ sent: 3, delivered: 2, hardBounces: 1, softBounces: 0, complaints: 1 });
    expect(report.rates).toMatchObject({ hardBounceRate: 1 / 3, softBounceRate: 0, complaintRate: 1 / 2 });
    expect(report.unopened).toBe(2);
    // Taken out of delivered in the hour it was sent (every rollup agrees with the total).
    const [hours] = await s.sql(
      `select sum(delivered)::int as delivered, min(delivered)::int as least from campaign_stats_hourly where campaign_id = $1`,
      [first],
    );
    expect(hours).toEqual({ delivered: 2, least: 2 });
    const [byHotel] = await s.sql(
      `select sum(delivered)::int as delivered from campaign_host_stats where campaign_id = $1`,
      [first],
    );
    expect(byHotel.delivered).toBe(2);
    // A second report of the same mail, of the other kind (a relay's "mailbox full" after its "no such
    // user"): counted as a soft bounce, but the mail left delivered once only.
    const [hardDelivery] = await s.sql(
      `select d.id, b.bounced_at from deliveries d left join delivery_bounces b on b.delivery_id = d.id
       where d.campaign_id = $1 and d.customer_id = $2`,
      [first, hard.id],
    );
    expect(hardDelivery.bounced_at).not.toBeNull();
    const to = returnPathFor(s.rt, hardDelivery.id, sender);
    expect(await toReceiver(to, fullDsn(to, hard.email))).toEqual({ ok: true });
    const again = await eventually(async () => {
      const r = await statistics();
      return r.totals.softBounces === 1 ? r : null;
    }, 15_000);
    expect(again.totals).toMatchObject({ sent: 3, delivered: 2, hardBounces: 1, softBounces: 1, complaints: 1 });
    // The next campaign: the guest who can and wants to receive it, only.
    const second = await campaignTo([hard.id, complainer.id, fine.id], '二回目');
    const deliveries = await s.sql(`select customer_id, status, skip_reason from deliveries where campaign_id = $1`, [
      second,
    ]);
    const by = new Map(deliveries.map((d) => [d.customer_id, d]));
    expect(by.get(fine.id)).toMatchObject({ status: 'sent' });
    // Left out of the snapshot (not mailable), so no delivery at all.
    expect(by.get(hard.id)).toBeUndefined();
    expect(by.get(complainer.id)).toBeUndefined();
    expect(await mails(hard.email)).toHaveLength(1);
    expect(await mails(complainer.email)).toHaveLength(1);
    expect(await mails(fine.email)).toHaveLength(2);
    // The audience preview counts the suppressed address as bounced.
    const segment = await staticSegment(s, token, `見込み ${tag}`, [hard.id, fine.id]);
    const preview = await s.call('POST', '/v1/campaigns/audience', {
      token,
      body: { segmentIds: [segment], excludeSegmentIds: [] },
    });
    expect(preview.body.data).toMatchObject({ bounced: 1, recipients: 1 });
  }, 120_000);

  it('suppresses for 30 days when 3 of the last 5 sends soft-bounced, and counts a repeated report once', async () => {
    const guest = await customer('mailbox');
    const d = [];
    // Sent long enough ago that the frequency cap holds none of them back afterwards.
    for (let i = 0; i < 5; i++) d.push(await sentDelivery(guest, 90 * DAY - i * 10));
    const report = (deliveryId: string) =>
      toReceiver(
        returnPathFor(s.rt, deliveryId, sender),
        fullDsn(returnPathFor(s.rt, deliveryId, sender), guest.email),
      );
    const duplicates = await counted('duplicate');
    expect(await report(d[0] as string)).toEqual({ ok: true });
    expect(await report(d[0] as string)).toEqual({ ok: true });
    expect(await counted('duplicate')).toBe(duplicates + 1);
    expect(await report(d[1] as string)).toEqual({ ok: true });
    expect(await suppressionOf(guest.email)).toBeUndefined();
    expect(await report(d[4] as string)).toEqual({ ok: true });
    const suppressed = await suppressionOf(guest.email);
    expect(suppressed).toMatchObject({ reason: 'soft_bounces', customer_id: guest.id });
    expect(suppressed.diagnostic).toContain('5.2.2');
    const days = (new Date(suppressed.until).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // A guest whose third soft bounce is older than the last five sends stays mailable.
    const other = await customer('mailbox2');
    const e = [];
    for (let i = 0; i < 6; i++) e.push(await sentDelivery(other, 60 - i * 10));
    for (const id of [e[0], e[4], e[5]] as string[])
      expect(
        await toReceiver(returnPathFor(s.rt, id, sender), fullDsn(returnPathFor(s.rt, id, sender), other.email)),
      ).toEqual({
        ok: true,
      });
    expect(await suppressionOf(other.email)).toBeUndefined();
    // After the 30 days the address is mailed again.
    await s.sql(`update suppressions set until = now() - interval '1 second' where id = $1`, [suppressed.id]);
    const segment = await staticSegment(s, token, `再開 ${tag}`, [guest.id]);
    const preview = await s.call('POST', '/v1/campaigns/audience', {
      token,
      body: { segmentIds: [segment], excludeSegmentIds: [] },
    });
    expect(preview.body.data).toMatchObject({ bounced: 0, recipients: 1 });
  });

  it("refuses a forged return path and one naming another brand's delivery, counted, nothing changed", async () => {
    const guest = await customer('forged');
    const delivery = await sentDelivery(guest, 5);
    const domain = sender.split('@')[1] as string;
    const refusedToken = await counted('refused_token');
    const refusedBrand = await counted('refused_brand');
    const good = returnPathFor(s.rt, delivery, sender);
    const forged = `${good.slice(0, 10)}${good[10] === 'a' ? 'b' : 'a'}${good.slice(11)}`;
    expect(await toReceiver(forged, fullDsn(forged, guest.email))).toEqual({ code: 550 });
    expect(await toReceiver(`b-${'a'.repeat(42)}@yado.${domain}`, 'x')).toEqual({ code: 550 });
    expect(await toReceiver(`postmaster@yado.${domain}`, 'x')).toEqual({ code: 550 });
    expect(await counted('refused_token')).toBe(refusedToken + 3);
    // A valid token of harbor-view's delivery, at さくらホテルズ' return-path domain.
    const harborGuest = await customer('harbor', harbor.id);
    const harborDelivery = await sentDelivery(harborGuest, 5, harbor.id);
    const foreign = returnPathFor(s.rt, harborDelivery, sender);
    expect(await toReceiver(foreign, fullDsn(foreign, harborGuest.email))).toEqual({ code: 550 });
    expect(await counted('refused_brand')).toBe(refusedBrand + 1);
    expect(
      await s.sql(`select id from feedback_events where delivery_id = any($1::uuid[])`, [[delivery, harborDelivery]]),
    ).toEqual([]);
  });

  it('keeps and counts what it cannot read, refuses what is too big, and never changes a guest for it', async () => {
    const guest = await customer('garbage');
    const delivery = await sentDelivery(guest, 5);
    const to = returnPathFor(s.rt, delivery, sender);
    const unparsed = await counted('unparsed');
    const garbage = Buffer.concat([
      Buffer.from('Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\n'),
      randomBytes(2000),
    ]);
    expect(await toReceiver(to, garbage)).toEqual({ ok: true });
    expect(await toReceiver(to, 'From: someone@example.jp\r\nSubject: Question about my stay\r\n\r\nHello?')).toEqual({
      ok: true,
    });
    expect(await counted('unparsed')).toBe(unparsed + 2);
    const kept = await s.sql(
      `select reason, size, length(raw) as length from inbound_unparsed where delivery_id = $1 order by received_at`,
      [delivery],
    );
    expect(kept).toEqual([
      { reason: 'dsn_without_status_part', size: expect.any(Number), length: expect.any(Number) },
      { reason: 'not_a_report', size: expect.any(Number), length: expect.any(Number) },
    ]);
    expect(kept[0].length).toBe(kept[0].size);
    const tooLarge = await counted('too_large');
    const huge = `Subject: big\r\n\r\n${'x'.repeat(MAX_BYTES + 1024)}`;
    const answer = await toReceiver(to, huge);
    expect(answer).toMatchObject({ code: 552 });
    expect(await counted('too_large')).toBe(tooLarge + 1);
    // An out-of-office answer is recorded and changes nothing.
    expect(
      await toReceiver(
        to,
        'From: guest@example.jp\r\nAuto-Submitted: auto-replied\r\nSubject: Out of office\r\n\r\nAway',
      ),
    ).toEqual({ ok: true });
    expect(await s.sql(`select kind, source from feedback_events where delivery_id = $1`, [delivery])).toEqual([
      { kind: 'auto_reply', source: 'reply' },
    ]);
    expect(await suppressionOf(guest.email)).toBeUndefined();
    const [row] = await s.sql(`select email_status from customers where id = $1`, [guest.id]);
    expect(row).toEqual({ email_status: 'active' });
    // The receiver still works.
    expect(await toReceiver(to, fullDsn(to, guest.email))).toEqual({ ok: true });
  });
});

describe("the demo's campaign", () => {
  it('shows the loop to a newcomer: its statistics count a hard and a soft bounce and a complaint, the suppression list gains two', async () => {
    await seedDemoCampaign(s.rt);
    const [demo] = await s.sql(
      `select id from campaigns where name = '箱根の冬のご案内' order by created_at desc limit 1`,
    );
    // Scheduled a couple of minutes ahead (the first sync brings the guests in meanwhile); brought forward here.
    await s.sql(`update campaigns set send_at = now() where id = $1`, [demo.id]);
    const [bounce, full, complain] = DEMO_FEEDBACK_GUESTS.map((g) => g.email);
    const report = await eventually(async () => {
      const r = (await s.call('GET', `/v1/campaigns/${demo.id}/statistics`, { token })).body.data;
      return r.totals.hardBounces === 1 && r.totals.softBounces === 1 && r.totals.complaints === 1 ? r : null;
    }, 60_000);
    expect(report.totals.delivered).toBe(report.totals.sent - 2);
    for (const email of [bounce, full, complain]) expect(await mails(email!)).toHaveLength(1);
    expect((await suppressionOf(bounce!))?.reason).toBe('hard_bounce');
    expect((await suppressionOf(complain!))?.reason).toBe('complaint');
    // One soft bounce is not three of the last five: the full mailbox is tried again next time.
    expect(await suppressionOf(full!)).toBeUndefined();
    const [complainer] = await s.sql(
      `select email_status, unsubscribe_reason from customers where brand_id = $1 and email = $2`,
      [brand.id, complain],
    );
    expect(complainer).toEqual({ email_status: 'unsubscribed', unsubscribe_reason: 'complaint' });
    // The suppression list as the console reads it.
    const listed = await s.call('GET', `/v1/suppressions?search=demo%40guest.example.jp`, { token });
    expect(listed.body.data.items.map((i: { email: string }) => i.email).sort()).toEqual([bounce, complain].sort());
  }, 120_000);
});

describe('answers during the send', () => {
  it('suppresses a 550 5.1.1 at once, and never the guest of a policy block (counted against the domain)', async () => {
    const unknown = await customer('unknown');
    const blocked = await customer('blocked');
    const campaign = await campaignTo([unknown.id, blocked.id], '同期');
    const events = await s.sql(
      `select d.customer_id, f.kind, f.source, f.status, f.sending_domain from feedback_events f join deliveries d on d.id = f.delivery_id
       where d.campaign_id = $1`,
      [campaign],
    );
    const by = new Map(events.map((e) => [e.customer_id, e]));
    const domain = sender.split('@')[1];
    expect(by.get(unknown.id)).toMatchObject({
      kind: 'hard_bounce',
      source: 'smtp',
      status: '5.1.1',
      sending_domain: domain,
    });
    expect(by.get(blocked.id)).toMatchObject({
      kind: 'policy_block',
      source: 'smtp',
      status: '5.7.1',
      sending_domain: domain,
    });
    expect(await suppressionOf(unknown.email)).toMatchObject({ reason: 'hard_bounce', campaign_id: campaign });
    expect(await suppressionOf(blocked.email)).toBeUndefined();
    const [row] = await s.sql(`select email_status from customers where id = $1`, [blocked.id]);
    expect(row).toEqual({ email_status: 'active' });
    expect((await s.call('GET', `/v1/customers/${blocked.id}`, { token })).body.data.emailBouncedAt).toBeNull();
    const report = (await s.call('GET', `/v1/campaigns/${campaign}/statistics`, { token })).body.data;
    expect(report.totals).toMatchObject({ failed: 2, bounced: 1, hardBounces: 1, softBounces: 0 });
  }, 60_000);
});

describe('a journey', () => {
  it("skips a journey's next mail to an address that bounced after its first", async () => {
    const guest = await customer('bounce-journey');
    const fine = await customer('fine-journey');
    const segment = await staticSegment(s, token, `旅程 ${tag}`, [guest.id, fine.id]);
    const email = (subject: string) => ({ templateId, subject, senderEmail: sender });
    const created = await s.call('POST', '/v1/scenarios', {
      token,
      body: {
        name: `跳ね返り ${tag}`,
        graph: {
          nodes: [
            { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
            { id: 'first', type: 'email', data: email(`一通目 ${tag}`) },
            { id: 'wait', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
            { id: 'second', type: 'email', data: email(`二通目 ${tag}`) },
          ],
          edges: [
            { id: 'a', source: 'start', target: 'first' },
            { id: 'b', source: 'first', target: 'wait' },
            { id: 'c', source: 'wait', target: 'second' },
          ],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const scenarioId = created.body.data.id as string;
    expect(
      (await s.call('POST', `/v1/scenarios/${scenarioId}/actions`, { token, body: { action: 'run' } })).status,
    ).toBe(200);
    const advance = (minutes: number) => s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes } });
    await advance(1);
    const suppressed = await eventually(() => suppressionOf(guest.email), 30_000);
    // The journey's hidden campaign and its scenario are named as where it came from.
    expect(suppressed).toMatchObject({ reason: 'hard_bounce', scenario_id: scenarioId });
    await eventually(async () => ((await mails(fine.email)).length ? true : null), 30_000);
    const journeys = async () =>
      (await s.call('GET', `/v1/scenarios/${scenarioId}/journeys?pageSize=100`, { token })).body.data.items as {
        customerId: string;
        path: { nodeId: string; event: string; detail: string | null }[];
      }[];
    await eventually(async () => {
      const js = await journeys();
      return js.length === 2 && js.every((j) => j.path.at(-1)?.event === 'waiting') ? true : null;
    }, 30_000);
    await advance(DAY + 1);
    await eventually(async () => ((await mails(fine.email)).length === 2 ? true : null), 30_000);
    const last = (await journeys()).find((j) => j.customerId === guest.id)?.path.at(-1);
    expect(last).toMatchObject({ nodeId: 'second', event: 'skipped', detail: 'bounced' });
    expect(await mails(guest.email)).toHaveLength(1);
  }, 120_000);
});
