import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { postmarkAuthorization } from '../../test/webhook-signer.ts';
import { pruneFeedbackRaw } from './prune-feedback-raw.ts';
import { webhookApplierOf } from './webhooks/apply-webhook-events.ts';

/**
 * Retention of raw reports (issue 25) over the real server and PostgreSQL: a Postmark webhook's
 * bounce (a real request, signed with the brand's secret) is stored raw twice (the webhook event
 * and the feedback event) and applied; an unreadable mail is kept raw. Past
 * FEEDBACK_RAW_RETENTION_DAYS (10 here) the bodies go; what they meant stays. A signature's
 * one-time token goes once past any replay window.
 */

let s: TTestServer;
let brand: { id: string };
let hook: string;
const secret = `pm-${randomBytes(12).toString('hex')}`;
const tag = randomBytes(3).toString('hex');
let seq = 0;

async function sentMail(name: string) {
  seq += 1;
  const email = `${name}.${tag}.${seq}@guest.example.jp`;
  const [c] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
    [brand.id, name, `080${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(seq).padStart(4, '0')}`, email],
  );
  const [campaign] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status) values ($1, $1, $2, 'sent') returning id`,
    [brand.id, `保持 ${tag} ${seq}`],
  );
  const [d] = await s.sql(
    `insert into deliveries (campaign_id, brand_id, customer_id, email, status, sent_at)
     values ($1, $2, $3, $4, 'sent', now()) returning id`,
    [campaign.id, brand.id, c.id, email],
  );
  return { deliveryId: d.id as string, email };
}

const bounce = (mail: { deliveryId: string; email: string }, id: number) => ({
  RecordType: 'Bounce',
  ID: id,
  Type: 'HardBounce',
  TypeCode: 1,
  MessageID: randomUUID(),
  Email: mail.email,
  Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist',
  Metadata: { 'yado-delivery': mail.deliveryId },
  BouncedAt: new Date().toISOString(),
});

const post = (body: unknown) =>
  s.call('POST', `/v1/public/relay-webhooks/postmark/${hook}`, {
    body,
    headers: { authorization: postmarkAuthorization(secret) },
  });

/** Moves a delivery's stored reports `days` into the past. */
async function age(deliveryId: string, days: number) {
  await s.sql(`update feedback_events set received_at = now() - make_interval(days => $2) where delivery_id = $1`, [
    deliveryId,
    days,
  ]);
  await s.sql(
    `update relay_webhook_events set received_at = now() - make_interval(days => $2) where delivery_id = $1`,
    [deliveryId, days],
  );
}

beforeAll(async () => {
  s = await startTestServer({ env: { FEEDBACK_RAW_RETENTION_DAYS: '10' } });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const { token } = await s.login(DEMO.brandAdmin);
  const res = await s.call('PUT', '/v1/deliverability/relay-webhooks/postmark', { token, body: { secret } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  hook = res.body.data.id;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe('retention of raw reports', () => {
  it('clears the bodies past the configured days and keeps what was applied', async () => {
    const old = await sentMail('old');
    const recent = await sentMail('recent');
    const oldId = 900_000_000 + seq;
    expect((await post(bounce(old, oldId))).body.data).toMatchObject({ applied: 1 });
    expect((await post(bounce(recent, oldId + 1))).body.data).toMatchObject({ applied: 1 });
    await webhookApplierOf(s.rt).idle();
    // A webhook's payload is kept once, with the webhook event: its feedback event holds no copy.
    expect(
      await s.sql(`select raw is not null as has_raw from feedback_events where delivery_id = any($1::uuid[])`, [
        [old.deliveryId, recent.deliveryId],
      ]),
    ).toEqual([{ has_raw: false }, { has_raw: false }]);
    // Reports received as mail keep theirs there: an auto-reply to each mail, as the receiver stores it.
    for (const m of [old, recent])
      await s.sql(
        `insert into feedback_events (brand_id, delivery_id, campaign_id, customer_id, kind, source, raw)
         select brand_id, id, campaign_id, customer_id, 'auto_reply', 'reply', 'Subject: Out of office'::bytea
         from deliveries where id = $1`,
        [m.deliveryId],
      );
    await age(old.deliveryId, 11);
    await age(recent.deliveryId, 9);
    // Mail the receiver could not read, one old and one recent; and a webhook event stored 11 days
    // ago and not applied yet (its payload is still to be read).
    const [oldUnparsed] = await s.sql(
      `insert into inbound_unparsed (brand_id, reason, mail_from, rcpt_to, size, raw, received_at)
       values ($1, 'no_report', '', 'b-x@yado.example', 5, 'hello', now() - interval '11 days') returning id`,
      [brand.id],
    );
    const [recentUnparsed] = await s.sql(
      `insert into inbound_unparsed (brand_id, reason, mail_from, rcpt_to, size, raw, received_at)
       values ($1, 'no_report', '', 'b-y@yado.example', 5, 'hello', now() - interval '9 days') returning id`,
      [brand.id],
    );
    const [pending] = await s.sql(
      `insert into relay_webhook_events (brand_id, provider, event_id, raw, received_at)
       values ($1, 'postmark', $2, '{"RecordType":"Open"}', now() - interval '11 days') returning id`,
      [brand.id, `pending-${tag}`],
    );
    await s.sql(`insert into relay_webhook_pending (event_id, brand_id) values ($1, $2)`, [pending.id, brand.id]);
    // Two signatures' one-time tokens (Mailgun's): one taken three days ago, past any timestamp
    // window, and one an hour ago.
    await s.sql(
      `insert into relay_webhook_replay_keys (brand_id, provider, replay_key, received_at)
       values ($1, 'mailgun', $2, now() - interval '3 days'), ($1, 'mailgun', $3, now() - interval '1 hour')`,
      [brand.id, `old-token-${tag}`, `recent-token-${tag}`],
    );

    const pruned = await pruneFeedbackRaw(s.rt);
    expect(pruned.feedbackEvents).toBeGreaterThanOrEqual(1);
    expect(pruned.unparsed).toBeGreaterThanOrEqual(1);
    expect(pruned.webhookEvents).toBeGreaterThanOrEqual(1);
    expect(pruned.replayKeys).toBeGreaterThanOrEqual(1);
    const tokens = await s.sql(`select replay_key from relay_webhook_replay_keys where replay_key like $1`, [
      `%-token-${tag}`,
    ]);
    expect(tokens).toEqual([{ replay_key: `recent-token-${tag}` }]);

    const feedback = async (deliveryId: string, source = 'webhook') =>
      (
        await s.sql(
          `select kind, source, diagnostic, raw is not null as has_raw from feedback_events where delivery_id = $1 and source = $2`,
          [deliveryId, source],
        )
      )[0];
    const webhook = async (deliveryId: string) =>
      (
        await s.sql(`select kind, raw is not null as has_raw from relay_webhook_events where delivery_id = $1`, [
          deliveryId,
        ])
      )[0];
    // The old ones lost their bodies, nothing else.
    expect(await feedback(old.deliveryId)).toEqual({
      kind: 'hard_bounce',
      source: 'webhook',
      diagnostic: 'smtp;550 5.1.1 The email account that you tried to reach does not exist',
      has_raw: false,
    });
    expect(await feedback(old.deliveryId, 'reply')).toMatchObject({ kind: 'auto_reply', has_raw: false });
    expect(await webhook(old.deliveryId)).toEqual({ kind: 'hard_bounce', has_raw: false });
    const [suppressed] = await s.sql(`select reason from suppressions where email = $1 and lifted_at is null`, [
      old.email,
    ]);
    expect(suppressed).toEqual({ reason: 'hard_bounce' });
    const [unparsed] = await s.sql(
      `select reason, size, raw is not null as has_raw from inbound_unparsed where id = $1`,
      [oldUnparsed.id],
    );
    expect(unparsed).toEqual({ reason: 'no_report', size: 5, has_raw: false });
    // The recent ones, and the webhook event still to be applied, keep theirs.
    expect((await feedback(recent.deliveryId, 'reply')).has_raw).toBe(true);
    expect((await webhook(recent.deliveryId)).has_raw).toBe(true);
    const [keptUnparsed] = await s.sql(`select raw is not null as has_raw from inbound_unparsed where id = $1`, [
      recentUnparsed.id,
    ]);
    expect(keptUnparsed.has_raw).toBe(true);
    const [keptPending] = await s.sql(`select raw is not null as has_raw from relay_webhook_events where id = $1`, [
      pending.id,
    ]);
    expect(keptPending.has_raw).toBe(true);

    // The event's row still deduplicates: the relay's retry of the old event changes nothing.
    const retry = await post(bounce(old, oldId));
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ duplicates: 1, applied: 0 });

    // A second run finds nothing more to clear.
    expect(await pruneFeedbackRaw(s.rt)).toEqual({ feedbackEvents: 0, unparsed: 0, webhookEvents: 0, replayKeys: 0 });
  });

  it('runs as a daily job of the worker', async () => {
    const [schedule] = await s.sql(`select cron from pgboss.schedule where name = 'deliverability.prune-raw'`);
    expect(schedule).toEqual({ cron: '29 3 * * *' });
  });
});
