import { ERROR_MESSAGES, type TRelayWebhook } from '@yado/contracts';
import { createHmac, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSecret, sealSecret } from '../../../crypto/secret-box.ts';
import { planSettings, selectRows, withTenant } from '../../../db/client.ts';
import { counterValue } from '../../../test/metrics.ts';
import { seedDemoSending } from '../../../seed/demo-sending.ts';
import { DEMO, startTestServer, type TTestServer } from '../../../test/harness.ts';
import {
  mailgunSignature,
  postmarkAuthorization,
  sendgridHeaders as signedSendgridHeaders,
  sendgridKeyPair,
  signSns,
  snsCertificate,
} from '../../../test/webhook-signer.ts';
import { returnPathFor } from '../verp.ts';
import { webhookApplierOf } from './apply-webhook-events.ts';
import { STORE_EVENTS } from './receive-webhook.ts';
import type { TSnsMessage } from './verify.ts';

/**
 * Relay webhooks (issue 25) through the real server over PostgreSQL, with real signatures made
 * here: an RSA key pair and a self-signed certificate (made by openssl) served over HTTPS by a
 * local stand-in for SNS (SNS_HOST_PATTERN and SNS_EXTRA_CA_FILE point the server at it), an
 * ECDSA P-256 key pair for SendGrid, and secrets of our own for Mailgun and Postmark.
 */

let s: TTestServer;
let token: string;
let brand: { id: string };
let harbor: { id: string };
let sender: string;
let sns: Server;
let snsBase: string;
let snsKey: string;
const confirmations: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'yado-sns-'));
const tag = randomBytes(3).toString('hex');
const TOPIC = 'arn:aws:sns:ap-northeast-1:123456789012:yado-ses-events';

const sendgridKeys = sendgridKeyPair();
const mailgunKey = `key-${randomBytes(16).toString('hex')}`;
const postmarkSecret = `pm-${randomBytes(12).toString('hex')}`;
const hooks: Record<string, string> = {};

let phoneSeq = 0;
async function customer(name: string, brandId = brand.id): Promise<{ id: string; email: string }> {
  const email = `${name}.${tag}.${(phoneSeq += 1)}@guest.example.jp`;
  const phone = `090${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
    [brandId, name, phone, email],
  );
  return { id: row.id, email };
}

interface TMail {
  deliveryId: string;
  messageId: string;
  email: string;
  customerId: string;
}

async function sentMail(name: string, brandId = brand.id): Promise<TMail> {
  const c = await customer(name, brandId);
  const [campaign] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status) values ($1, $1, $2, 'sent') returning id`,
    [brandId, `送信済み ${tag} ${randomBytes(3).toString('hex')}`],
  );
  const [d] = await s.sql(
    `insert into deliveries (campaign_id, brand_id, customer_id, email, status, sent_at)
     values ($1, $2, $3, $4, 'sent', now()) returning id`,
    [campaign.id, brandId, c.id, c.email],
  );
  return {
    deliveryId: d.id,
    messageId: `<${d.id}.${campaign.id}@${sender.split('@')[1]}>`,
    email: c.email,
    customerId: c.id,
  };
}

/** The stored events applied (the intake answers once stored; the rules follow a moment later). */
const settled = () => webhookApplierOf(s.rt).idle();
async function suppressionOf(email: string) {
  await settled();
  return (
    await s.sql(`select reason, diagnostic from suppressions where email = $1 and lifted_at is null`, [email])
  )[0];
}
async function feedbackOf(deliveryId: string) {
  await settled();
  return s.sql(`select kind, source, status from feedback_events where delivery_id = $1 order by kind`, [deliveryId]);
}
async function statusOf(customerId: string) {
  await settled();
  // Bounced: the address's active hard-bounce suppression, as the customer shows it.
  return (
    await s.sql(
      `select c.email_status, (select s.created_at from suppressions s where s.brand_id = c.brand_id and s.email = c.email_key
          and s.lifted_at is null and s.reason = 'hard_bounce') as email_bounced_at
       from customers c where c.id = $1`,
      [customerId],
    )
  )[0];
}

const counted = (provider: string, outcome: string) =>
  counterValue('yado_feedback_webhook_events_total', { provider, outcome });

/** Posts and expects a refusal: the status, the code, and one more in the metric. */
async function refused(
  provider: string,
  path: string,
  init: { rawBody: string; headers?: Record<string, string> },
  status: number,
  code: string,
  outcome: string,
): Promise<void> {
  const before = await counted(provider, outcome);
  const res = await s.call('POST', path, init);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(await counted(provider, outcome)).toBe(before + 1);
}

// ---- SNS ----

function snsSigned(
  fields: Omit<TSnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>,
  options: {
    version?: '1' | '2';
    certUrl?: string;
    key?: string;
  } = {},
): TSnsMessage {
  return signSns(fields, {
    key: options.key ?? snsKey,
    certUrl: options.certUrl ?? `${snsBase}/SimpleNotificationService-test.pem`,
    version: options.version,
  });
}

function sesNotification(
  mail: TMail,
  event: Record<string, unknown>,
  options: { version?: '1' | '2'; at?: Date; topic?: string; certUrl?: string; key?: string } = {},
): TSnsMessage {
  const message = {
    ...event,
    mail: {
      timestamp: new Date().toISOString(),
      messageId: `0106${randomBytes(8).toString('hex')}-ses`,
      source: sender,
      destination: [mail.email],
      commonHeaders: { messageId: mail.messageId, subject: 'x' },
    },
  };
  return snsSigned(
    {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: options.topic ?? TOPIC,
      Message: JSON.stringify(message),
      Timestamp: (options.at ?? new Date()).toISOString(),
    },
    options,
  );
}

const sesBounce = (mail: TMail, status = '5.1.1') => ({
  notificationType: 'Bounce',
  bounce: {
    bounceType: 'Permanent',
    bounceSubType: 'General',
    bouncedRecipients: [
      { emailAddress: mail.email, action: 'failed', status, diagnosticCode: `smtp; 550 ${status} user unknown` },
    ],
  },
});

const postSes = (message: TSnsMessage, hook = hooks.ses) =>
  s.call('POST', `/v1/public/relay-webhooks/ses/${hook}`, {
    rawBody: JSON.stringify(message),
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': message.Type },
  });

// ---- SendGrid ----

const sendgridHeaders = (body: string, at?: number, key: KeyObject = sendgridKeys.privateKey) =>
  signedSendgridHeaders(body, key, at);

const sendgridEvent = (mail: TMail, event: Record<string, unknown>) => ({
  email: mail.email,
  timestamp: Math.floor(Date.now() / 1000),
  'smtp-id': mail.messageId,
  sg_event_id: randomBytes(16).toString('base64url'),
  sg_message_id: `${randomBytes(8).toString('hex')}.filter`,
  ...event,
});

// ---- Mailgun ----

function mailgunBody(
  mail: TMail,
  event: Record<string, unknown>,
  options: { at?: number; key?: string; token?: string; id?: string } = {},
) {
  const signature = mailgunSignature(options.key ?? mailgunKey, options);
  return {
    signature,
    'event-data': {
      id: options.id ?? randomBytes(11).toString('base64url'),
      timestamp: Number(signature.timestamp),
      recipient: mail.email,
      message: { headers: { 'message-id': mail.messageId.slice(1, -1), to: mail.email } },
      ...event,
    },
  };
}

// ---- Postmark ----

const basic = postmarkAuthorization;
const postmarkBounce = (mail: TMail, type: string, id = Math.floor(Math.random() * 1e9)) => ({
  RecordType: 'Bounce',
  ID: id,
  Type: type,
  TypeCode: 1,
  MessageID: randomUUID(),
  Email: mail.email,
  Details:
    type === 'HardBounce' ? 'smtp;550 5.1.1 The email account that you tried to reach does not exist' : 'mailbox full',
  Metadata: { 'yado-delivery': mail.deliveryId },
  BouncedAt: new Date().toISOString(),
});

beforeAll(async () => {
  // The stand-in for SNS: its TLS certificate is also the signing certificate it serves.
  const made = snsCertificate(dir);
  snsKey = made.key;
  const cert = made.cert;
  sns = createServer({ key: snsKey, cert }, (request, response) => {
    if (request.url?.startsWith('/SimpleNotificationService')) return response.end(cert);
    if (request.url?.startsWith('/confirm')) {
      confirmations.push(request.url);
      return response.end('<ConfirmSubscriptionResponse/>');
    }
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => sns.listen(0, '127.0.0.1', resolve));
  snsBase = `https://localhost:${(sns.address() as AddressInfo).port}`;
  s = await startTestServer({
    env: { SNS_HOST_PATTERN: '^localhost:\\d+$', SNS_EXTRA_CA_FILE: made.certFile },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [harbor] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
  const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
  sender = settings.sender_email;
  token = (await s.login(DEMO.brandAdmin)).token;
  const setups: [string, Record<string, unknown>][] = [
    ['ses', { topicArn: TOPIC }],
    ['sendgrid', { secret: sendgridKeys.verificationKey }],
    ['mailgun', { secret: mailgunKey }],
    ['postmark', { secret: postmarkSecret }],
  ];
  for (const [provider, body] of setups) {
    const res = await s.call('PUT', `/v1/deliverability/relay-webhooks/${provider}`, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    hooks[provider] = res.body.data.id;
  }
}, 120_000);

afterAll(async () => {
  await s?.close();
  await new Promise((resolve) => sns?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('relay webhook settings', () => {
  it('gives each provider its address and never the secret; brand context only', async () => {
    const res = await s.call('GET', '/v1/deliverability/relay-webhooks', { token });
    expect(res.status).toBe(200);
    const mailgun = res.body.data.find((h: { provider: string }) => h.provider === 'mailgun');
    expect(mailgun).toMatchObject({
      id: hooks.mailgun,
      url: `${s.url}/v1/public/relay-webhooks/mailgun/${hooks.mailgun}`,
      secretHint: `…${mailgunKey.slice(-4)}`,
    });
    expect(JSON.stringify(res.body)).not.toContain(mailgunKey);
    expect(JSON.stringify(res.body)).not.toContain(postmarkSecret);
    const [stored] = await s.sql(`select secret from relay_webhooks where id = $1`, [hooks.mailgun]);
    expect(stored.secret).not.toContain(mailgunKey);
    const audit = await s.sql(`select changes from audit_log where target_id = $1`, [hooks.mailgun]);
    expect(audit).toEqual([{ changes: { provider: 'mailgun', created: true, secret: 'changed' } }]);
    expect(s.logs.join('\n')).not.toContain(mailgunKey);
    // A hotel's admin cannot set the brand's relay.
    const hotelToken = (await s.login(DEMO.hotelAdmin)).token;
    const fromHotel = await s.call('GET', '/v1/deliverability/relay-webhooks', { token: hotelToken });
    expect(fromHotel.status).toBe(403);
    // A SendGrid key that is no EC public key, and a provider without its secret, are refused.
    const badKey = await s.call('PUT', '/v1/deliverability/relay-webhooks/sendgrid', {
      token,
      body: { secret: 'abc' },
    });
    expect(badKey.status).toBe(400);
    const unknown = await s.call('PUT', '/v1/deliverability/relay-webhooks/sparkpost', { token, body: {} });
    expect(unknown.status).toBe(404);
  });

  it('refuses each malformed secret or topic with its own catalogue code, never a validator text, and keeps what was set', async () => {
    const put = (provider: string, body: Record<string, unknown>) =>
      s.call('PUT', `/v1/deliverability/relay-webhooks/${provider}`, { token, body });
    const refusedWith = async (provider: string, body: Record<string, unknown>, field: string, code: string) => {
      const res = await put(provider, body);
      expect(res.status, `${provider} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields, `${provider} ${JSON.stringify(body)}`).toEqual({
        [field]: { code, message: ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES] },
      });
    };
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const sendgridPrivatePem = sendgridKeys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    // SendGrid: "garbage" is not taken for an empty field; neither is another kind of key, nor a private one.
    await refusedWith('sendgrid', { secret: 'garbage' }, 'secret', 'webhook_sendgrid_key_invalid');
    for (const secret of [
      p384.export({ format: 'der', type: 'spki' }).toString('base64'),
      rsa.export({ format: 'pem', type: 'spki' }).toString(),
      sendgridPrivatePem,
    ])
      await refusedWith('sendgrid', { secret }, 'secret', 'webhook_sendgrid_key_invalid');
    // Empty (or blank) is the required field, whatever was stored; too long is too long.
    await refusedWith('sendgrid', { secret: '' }, 'secret', 'webhook_secret_required');
    await refusedWith('mailgun', { secret: '   ' }, 'secret', 'webhook_secret_required');
    await refusedWith('postmark', { secret: 'x'.repeat(4097) }, 'secret', 'value_too_long');
    // Mailgun: one word of letters, digits and hyphens; Postmark: no control characters.
    await refusedWith('mailgun', { secret: 'my signing key' }, 'secret', 'webhook_mailgun_key_invalid');
    await refusedWith('mailgun', { secret: 'short' }, 'secret', 'webhook_mailgun_key_invalid');
    await refusedWith('postmark', { secret: 'pass\nword' }, 'secret', 'webhook_password_invalid');
    // SES: the topic's pattern.
    await refusedWith(
      'ses',
      { topicArn: 'arn:aws:sqs:ap-northeast-1:123456789012:q' },
      'topicArn',
      'webhook_topic_invalid',
    );
    await refusedWith('ses', { topicArn: 'yado-ses-events' }, 'topicArn', 'webhook_topic_invalid');
    // Nothing was changed by the refusals.
    const now = (await s.call('GET', '/v1/deliverability/relay-webhooks', { token })).body.data as TRelayWebhook[];
    expect(now.find((h) => h.provider === 'ses')?.topicArn).toBe(TOPIC);
    expect(now.find((h) => h.provider === 'mailgun')?.secretHint).toBe(`…${mailgunKey.slice(-4)}`);
    expect(now.find((h) => h.provider === 'sendgrid')?.secretHint).toBe(`…${sendgridKeys.verificationKey.slice(-4)}`);

    // What the relays give is taken: SendGrid's key as PEM too, pasted with its line breaks, and trimmed.
    const pem = createPublicKey({
      key: Buffer.from(sendgridKeys.verificationKey, 'base64'),
      format: 'der',
      type: 'spki',
    })
      .export({ format: 'pem', type: 'spki' })
      .toString();
    expect((await put('sendgrid', { secret: `\n${pem}\n` })).status).toBe(200);
    expect((await put('sendgrid', { secret: ` ${sendgridKeys.verificationKey} ` })).status).toBe(200);
    expect((await put('mailgun', { secret: mailgunKey })).status).toBe(200);
    // An SES topic trimmed; empty is any topic.
    const ses = await put('ses', { topicArn: ` ${TOPIC} ` });
    expect(ses.status).toBe(200);
    expect(ses.body.data.topicArn).toBe(TOPIC);
    const [stored] = await s.sql(`select secret from relay_webhooks where id = $1`, [hooks.sendgrid]);
    expect(openSecret(stored.secret, s.rt.config.dataEncryptionKey)).toBe(sendgridKeys.verificationKey);
  });
});

describe('Amazon SES through SNS', () => {
  it('confirms the subscription by its SubscribeURL, only on the SNS host', async () => {
    const subscription = (url: string) =>
      snsSigned({
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        Token: 'tok',
        TopicArn: TOPIC,
        Message: 'You have chosen to subscribe',
        SubscribeURL: url,
        Timestamp: new Date().toISOString(),
      });
    const ses = async () =>
      ((await s.call('GET', '/v1/deliverability/relay-webhooks', { token })).body.data as TRelayWebhook[]).find(
        (h) => h.provider === 'ses',
      ) as TRelayWebhook;
    expect(await ses()).toMatchObject({ subscription: 'pending', lastEventAt: null });
    const ok = await postSes(subscription(`${snsBase}/confirm?Token=tok`));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.confirmed).toBe(true);
    expect(confirmations).toEqual(['/confirm?Token=tok']);
    // The settings say so: the brand sees SNS took the address.
    expect((await ses()).subscription).toBe('confirmed');
    await refused(
      'ses',
      `/v1/public/relay-webhooks/ses/${hooks.ses}`,
      { rawBody: JSON.stringify(subscription('https://attacker.example/confirm')) },
      400,
      'webhook_certificate_url',
      'refused_certificate',
    );
    expect(confirmations).toHaveLength(1);
  });

  it('applies a bounce (signature version 2) once and a complaint (version 1)', async () => {
    const bounced = await sentMail('ses-bounce');
    const message = sesNotification(bounced, sesBounce(bounced));
    const first = await postSes(message);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ received: 1, applied: 1, duplicates: 0 });
    expect(await suppressionOf(bounced.email)).toMatchObject({ reason: 'hard_bounce' });
    // SNS delivers at least once: the same message again changes nothing.
    const again = await postSes(message);
    expect(again.body.data).toMatchObject({ received: 1, applied: 0, duplicates: 1 });
    expect(await feedbackOf(bounced.deliveryId)).toEqual([{ kind: 'hard_bounce', source: 'webhook', status: '5.1.1' }]);
    const [kept] = await s.sql(`select raw from relay_webhook_events where event_id = $1`, [message.MessageId]);
    expect(kept.raw.bounce.bounceType).toBe('Permanent');
    // Marked as no longer delivered; this mail was arranged without the send's rollups, so there
    // was no delivered to take it out of, and none goes below zero.
    const [undelivered] = await s.sql(
      `select exists (select from delivery_bounces b where b.delivery_id = d.id) as bounced, st.delivered, st.hard_bounces
       from deliveries d join campaign_stats st on st.campaign_id = d.campaign_id where d.id = $1`,
      [bounced.deliveryId],
    );
    expect(undelivered).toEqual({ bounced: true, delivered: 0, hard_bounces: 1 });

    const complainer = await sentMail('ses-complaint');
    const complaint = sesNotification(
      complainer,
      {
        notificationType: 'Complaint',
        complaint: { complaintFeedbackType: 'abuse', complainedRecipients: [{ emailAddress: complainer.email }] },
      },
      { version: '1' },
    );
    const res = await postSes(complaint);
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await suppressionOf(complainer.email)).toMatchObject({ reason: 'complaint' });
    expect((await statusOf(complainer.customerId)).email_status).toBe('unsubscribed');

    const delivered = await sentMail('ses-delivered');
    const delivery = await postSes(
      sesNotification(delivered, { notificationType: 'Delivery', delivery: { smtpResponse: '250 ok' } }),
    );
    expect(delivery.body.data).toMatchObject({ applied: 1 });
    expect(await feedbackOf(delivered.deliveryId)).toEqual([{ kind: 'delivered', source: 'webhook', status: null }]);
    expect(await suppressionOf(delivered.email)).toBeUndefined();
  });

  it('refuses a forged, altered, old, off-host, other-topic or other-brand notification, changing nothing', async () => {
    const mail = await sentMail('ses-refused');
    const path = `/v1/public/relay-webhooks/ses/${hooks.ses}`;
    const post = (m: TSnsMessage) => ({ rawBody: JSON.stringify(m), headers: { 'content-type': 'text/plain' } });
    // Signed by another key than the certificate's.
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
    await refused(
      'ses',
      path,
      post(sesNotification(mail, sesBounce(mail), { key: otherKey })),
      401,
      'webhook_unverified',
      'refused_signature',
    );
    // Altered after signing.
    const altered = sesNotification(mail, sesBounce(mail));
    altered.Message = altered.Message.replace('5.1.1', '5.1.2');
    await refused('ses', path, post(altered), 401, 'webhook_unverified', 'refused_signature');
    // Unknown signature version.
    const v3 = { ...sesNotification(mail, sesBounce(mail)), SignatureVersion: '3' };
    await refused('ses', path, post(v3), 401, 'webhook_unverified', 'refused_signature');
    // Signed two hours ago.
    const old = sesNotification(mail, sesBounce(mail), { at: new Date(Date.now() - 2 * 3600_000) });
    await refused('ses', path, post(old), 401, 'webhook_too_old', 'refused_old');
    // The certificate from elsewhere, or over plain http.
    for (const certUrl of [
      'https://sns.evil.example/cert.pem',
      `${snsBase.replace('https', 'http')}/SimpleNotificationService-x.pem`,
    ])
      await refused(
        'ses',
        path,
        post(sesNotification(mail, sesBounce(mail), { certUrl })),
        400,
        'webhook_certificate_url',
        'refused_certificate',
      );
    // Another topic than the brand set.
    const other = sesNotification(mail, sesBounce(mail), { topic: 'arn:aws:sns:ap-northeast-1:999999999999:other' });
    await refused('ses', path, post(other), 403, 'webhook_topic', 'refused_topic');
    // A delivery of another brand, though signed.
    const foreign = await sentMail('ses-foreign', harbor.id);
    await refused(
      'ses',
      path,
      post(sesNotification(foreign, sesBounce(foreign))),
      403,
      'webhook_foreign_delivery',
      'refused_brand',
    );
    // Not JSON.
    await refused(
      'ses',
      path,
      { rawBody: 'not json', headers: { 'content-type': 'text/plain' } },
      400,
      'webhook_body_invalid',
      'refused_body',
    );
    // Nobody's webhook.
    await refused(
      'ses',
      `/v1/public/relay-webhooks/ses/${randomUUID()}`,
      post(sesNotification(mail, sesBounce(mail))),
      404,
      'webhook_unknown',
      'refused_unknown',
    );
    expect(await feedbackOf(mail.deliveryId)).toEqual([]);
    expect(await feedbackOf(foreign.deliveryId)).toEqual([]);
    expect(await suppressionOf(mail.email)).toBeUndefined();
    expect(await suppressionOf(foreign.email)).toBeUndefined();
    expect(await statusOf(mail.customerId)).toEqual({ email_status: 'active', email_bounced_at: null });
  });

  it("takes SES's own test notice on the topic and ignores it", async () => {
    const notice = snsSigned({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Message: 'Successfully validated SNS topic for Amazon SES event publishing.',
      Timestamp: new Date().toISOString(),
    });
    const res = await postSes(notice);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ received: 1, applied: 0, ignored: 1 });
  });

  it('finds the delivery by the VERP return path when the headers are gone', async () => {
    const mail = await sentMail('ses-verp');
    const message = JSON.parse(sesNotification(mail, sesBounce(mail)).Message);
    message.mail.commonHeaders = {};
    message.mail.source = returnPathFor(s.rt, mail.deliveryId, sender);
    const signed = snsSigned({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Message: JSON.stringify(message),
      Timestamp: new Date().toISOString(),
    });
    const res = await postSes(signed);
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await suppressionOf(mail.email)).toMatchObject({ reason: 'hard_bounce' });
  });
});

describe('SendGrid signed event webhook', () => {
  const path = () => `/v1/public/relay-webhooks/sendgrid/${hooks.sendgrid}`;

  it('applies a batch once: bounce and spam report; an open is stored and ignored', async () => {
    const bounced = await sentMail('sg-bounce');
    const complainer = await sentMail('sg-complaint');
    const body = JSON.stringify([
      sendgridEvent(bounced, {
        event: 'bounce',
        type: 'bounce',
        status: '5.1.1',
        reason: '550 5.1.1 The email account does not exist',
      }),
      sendgridEvent(complainer, { event: 'spamreport' }),
      sendgridEvent(complainer, { event: 'open' }),
    ]);
    const res = await s.call('POST', path(), { rawBody: body, headers: sendgridHeaders(body) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ received: 3, applied: 2, duplicates: 0, ignored: 1 });
    // A relay reads the answer: nosniff, but none of the console's page headers (a CSP, say).
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(await suppressionOf(bounced.email)).toMatchObject({ reason: 'hard_bounce' });
    expect(await suppressionOf(complainer.email)).toMatchObject({ reason: 'complaint' });
    // SendGrid retries a batch: signed anew, the same events.
    const retry = await s.call('POST', path(), { rawBody: body, headers: sendgridHeaders(body) });
    expect(retry.body.data).toMatchObject({ received: 3, applied: 0, duplicates: 3 });
    expect(await feedbackOf(bounced.deliveryId)).toEqual([{ kind: 'hard_bounce', source: 'webhook', status: '5.1.1' }]);
  });

  it('refuses a wrong key, an altered body and an old timestamp', async () => {
    const mail = await sentMail('sg-refused');
    const body = JSON.stringify([
      sendgridEvent(mail, { event: 'bounce', type: 'bounce', status: '5.1.1', reason: 'unknown user' }),
    ]);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    await refused(
      'sendgrid',
      path(),
      { rawBody: body, headers: sendgridHeaders(body, undefined, stranger) },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    await refused(
      'sendgrid',
      path(),
      { rawBody: body.replace('5.1.1', '5.1.2'), headers: sendgridHeaders(body) },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    const { 'x-twilio-email-event-webhook-signature': _, ...unsigned } = sendgridHeaders(body);
    await refused(
      'sendgrid',
      path(),
      { rawBody: body, headers: unsigned },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    const old = Math.floor(Date.now() / 1000) - 3600;
    await refused(
      'sendgrid',
      path(),
      { rawBody: body, headers: sendgridHeaders(body, old) },
      401,
      'webhook_too_old',
      'refused_old',
    );
    const foreign = await sentMail('sg-foreign', harbor.id);
    const foreignBody = JSON.stringify([sendgridEvent(foreign, { event: 'spamreport' })]);
    await refused(
      'sendgrid',
      path(),
      { rawBody: foreignBody, headers: sendgridHeaders(foreignBody) },
      403,
      'webhook_foreign_delivery',
      'refused_brand',
    );
    expect(await feedbackOf(mail.deliveryId)).toEqual([]);
    expect(await statusOf(foreign.customerId)).toEqual({ email_status: 'active', email_bounced_at: null });
  });

  it('refuses a body over 1 MB', async () => {
    const body = JSON.stringify([{ pad: 'x'.repeat(1024 * 1024 + 10) }]);
    const before = await counted('sendgrid', 'refused_body');
    const res = await s.call('POST', path(), { rawBody: body, headers: sendgridHeaders('') });
    expect(res.status).toBe(413);
    expect(await counted('sendgrid', 'refused_body')).toBe(before + 1);
  });
});

describe('Mailgun webhooks', () => {
  const path = () => `/v1/public/relay-webhooks/mailgun/${hooks.mailgun}`;

  it('applies a permanent failure once; a repeat with a new token is a duplicate, a reused token a replay', async () => {
    const mail = await sentMail('mg-bounce');
    const failure = {
      event: 'failed',
      severity: 'permanent',
      reason: 'bounce',
      'delivery-status': { code: 550, message: '5.1.1 The email account that you tried to reach does not exist' },
    };
    const body = mailgunBody(mail, failure);
    const res = await s.call('POST', path(), { body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await suppressionOf(mail.email)).toMatchObject({ reason: 'hard_bounce' });
    const repeat = await s.call('POST', path(), { body: mailgunBody(mail, failure, { id: body['event-data'].id }) });
    expect(repeat.body.data).toMatchObject({ applied: 0, duplicates: 1 });
    const other = await sentMail('mg-replay');
    const replay = mailgunBody(
      other,
      { event: 'complained' },
      { token: body.signature.token, at: Number(body.signature.timestamp) },
    );
    await refused('mailgun', path(), { rawBody: JSON.stringify(replay) }, 409, 'webhook_replayed', 'refused_replay');
    expect(await statusOf(other.customerId)).toMatchObject({ email_status: 'active' });
    // A temporary failure is Mailgun retrying: recorded, the guest untouched.
    const soft = await sentMail('mg-temporary');
    const temporary = await s.call('POST', path(), {
      body: mailgunBody(soft, {
        event: 'failed',
        severity: 'temporary',
        'delivery-status': { code: 452, message: '4.2.2 mailbox full' },
      }),
    });
    expect(temporary.body.data).toMatchObject({ applied: 1 });
    expect(await feedbackOf(soft.deliveryId)).toEqual([{ kind: 'deferred', source: 'webhook', status: '4.2.2' }]);
  });

  it('refuses a wrong signing key, an old timestamp and another brand', async () => {
    const mail = await sentMail('mg-refused');
    await refused(
      'mailgun',
      path(),
      { rawBody: JSON.stringify(mailgunBody(mail, { event: 'complained' }, { key: 'key-wrong' })) },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    const old = Math.floor(Date.now() / 1000) - 3600;
    await refused(
      'mailgun',
      path(),
      { rawBody: JSON.stringify(mailgunBody(mail, { event: 'complained' }, { at: old })) },
      401,
      'webhook_too_old',
      'refused_old',
    );
    const foreign = await sentMail('mg-foreign', harbor.id);
    await refused(
      'mailgun',
      path(),
      { rawBody: JSON.stringify(mailgunBody(foreign, { event: 'complained' })) },
      403,
      'webhook_foreign_delivery',
      'refused_brand',
    );
    expect(await statusOf(mail.customerId)).toMatchObject({ email_status: 'active' });
    expect(await statusOf(foreign.customerId)).toMatchObject({ email_status: 'active' });
  });

  it("takes a subaccount's event by its parent-signature, made under the primary account's key the brand pasted", async () => {
    // The subaccount signs with its own key (not ours) and adds the primary account's signature.
    const asSubaccount = (body: ReturnType<typeof mailgunBody>, parentKey: string) => {
      const { timestamp, token } = body.signature;
      const parent = createHmac('sha256', parentKey).update(`${timestamp}${token}`).digest('hex');
      return { ...body, signature: { ...body.signature, 'parent-signature': parent } };
    };
    const mail = await sentMail('mg-subaccount');
    const body = asSubaccount(mailgunBody(mail, { event: 'complained' }, { key: 'key-subaccount-own' }), mailgunKey);
    const res = await s.call('POST', path(), { body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await statusOf(mail.customerId)).toMatchObject({ email_status: 'unsubscribed' });
    // Neither signature under our key: refused, the guest untouched.
    const other = await sentMail('mg-subaccount-forged');
    const forged = asSubaccount(
      mailgunBody(other, { event: 'complained' }, { key: 'key-subaccount-own' }),
      'key-wrong',
    );
    await refused(
      'mailgun',
      path(),
      { rawBody: JSON.stringify(forged) },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    expect(await statusOf(other.customerId)).toMatchObject({ email_status: 'active' });
  });
});

describe('Postmark webhooks', () => {
  const path = () => `/v1/public/relay-webhooks/postmark/${hooks.postmark}`;

  it('applies a hard bounce (basic auth) and a spam complaint (custom header) once each', async () => {
    const bounced = await sentMail('pm-bounce');
    const bounce = postmarkBounce(bounced, 'HardBounce');
    const res = await s.call('POST', path(), { body: bounce, headers: { authorization: basic(postmarkSecret) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await suppressionOf(bounced.email)).toMatchObject({ reason: 'hard_bounce' });
    const again = await s.call('POST', path(), { body: bounce, headers: { authorization: basic(postmarkSecret) } });
    expect(again.body.data).toMatchObject({ applied: 0, duplicates: 1 });
    const complainer = await sentMail('pm-complaint');
    const complaint = {
      RecordType: 'SpamComplaint',
      ID: 42_000 + phoneSeq,
      Type: 'SpamComplaint',
      MessageID: randomUUID(),
      Email: complainer.email,
      Metadata: { 'yado-delivery': complainer.deliveryId },
    };
    const res2 = await s.call('POST', path(), {
      body: complaint,
      headers: { 'x-yado-webhook-secret': postmarkSecret },
    });
    expect(res2.body.data).toMatchObject({ applied: 1 });
    expect((await statusOf(complainer.customerId)).email_status).toBe('unsubscribed');
  });

  it('queues an event to apply beside it and never writes the stored event again', async () => {
    const bounced = await sentMail('pm-queued');
    const res = await s.call('POST', path(), {
      body: postmarkBounce(bounced, 'SoftBounce'),
      headers: { authorization: basic(postmarkSecret) },
    });
    expect(res.body.data).toMatchObject({ applied: 1 });
    expect(await feedbackOf(bounced.deliveryId)).toMatchObject([{ kind: 'soft_bounce', source: 'webhook' }]);
    // Applied: its pending row gone, in the transaction that recorded the feedback; the event's row
    // still the version the intake wrote (an update would carry the applying transaction's id).
    const [row] = await s.sql(
      `select e.xmin::text = f.xmin::text as rewritten,
         exists (select from relay_webhook_pending p where p.event_id = e.id) as pending
       from relay_webhook_events e join feedback_events f on f.delivery_id = e.delivery_id
       where e.delivery_id = $1`,
      [bounced.deliveryId],
    );
    expect(row).toEqual({ rewritten: false, pending: false });
    // An event with nothing to apply (no delivery of ours) is stored with nothing queued.
    const stray = postmarkBounce({ ...bounced, deliveryId: randomUUID() }, 'HardBounce');
    const res2 = await s.call('POST', path(), { body: stray, headers: { authorization: basic(postmarkSecret) } });
    expect(res2.body.data).toMatchObject({ applied: 0, ignored: 1 });
    const [strayRow] = await s.sql(
      `select exists (select from relay_webhook_pending p where p.event_id = e.id) as pending
       from relay_webhook_events e where e.provider = 'postmark' and e.event_id = $1`,
      [`bounce:${stray.ID}`],
    );
    expect(strayRow).toEqual({ pending: false });
  });

  it('refuses a wrong or missing secret', async () => {
    const mail = await sentMail('pm-refused');
    const body = JSON.stringify(postmarkBounce(mail, 'HardBounce'));
    await refused(
      'postmark',
      path(),
      { rawBody: body, headers: { authorization: basic('wrong') } },
      401,
      'webhook_unverified',
      'refused_signature',
    );
    await refused('postmark', path(), { rawBody: body }, 401, 'webhook_unverified', 'refused_signature');
    expect(await suppressionOf(mail.email)).toBeUndefined();
  });
});

describe('the webhooks a process holds', () => {
  const path = () => `/v1/public/relay-webhooks/postmark/${hooks.postmark}`;
  const post = async (secret: string) => {
    const mail = await sentMail('pm-held');
    return (
      await s.call('POST', path(), {
        body: postmarkBounce(mail, 'SoftBounce'),
        headers: { authorization: basic(secret) },
      })
    ).status;
  };
  /** What another process writes: the settings changed behind this one's back. */
  const sealed = (secret: string) => sealSecret(secret, s.rt.config.dataEncryptionKey);

  it('reads a webhook changed elsewhere again once its copy is 10 s old, without holding a request for it', async () => {
    const rotated = `pm-${randomBytes(12).toString('hex')}`;
    expect(await post(postmarkSecret)).toBe(200);
    await s.sql(`update relay_webhooks set secret = $1 where id = $2`, [sealed(rotated), hooks.postmark]);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      // Fresh: the copy held is used.
      expect(await post(rotated)).toBe(401);
      vi.setSystemTime(Date.now() + 10_500);
      // Old: still answered from the copy while one read in the background refreshes it...
      expect(await post(postmarkSecret)).toBe(200);
      // ...after which the new secret is the one.
      await expect.poll(() => post(rotated)).toBe(200);
      expect(await post(postmarkSecret)).toBe(401);
      // A webhook deleted elsewhere: refused once its copy is refreshed.
      const [row] = await s.sql(`delete from relay_webhooks where id = $1 returning *`, [hooks.postmark]);
      vi.setSystemTime(Date.now() + 10_500);
      await expect.poll(() => post(rotated)).toBe(404);
      await s.sql(`insert into relay_webhooks (id, brand_id, provider, secret) values ($1, $2, 'postmark', $3)`, [
        row.id,
        row.brand_id,
        sealed(postmarkSecret),
      ]);
      // Not held at all now: read before use.
      expect(await post(postmarkSecret)).toBe(200);
      // A copy past a minute (its refreshes failing) is never used: read again first.
      await s.sql(`update relay_webhooks set secret = $1 where id = $2`, [sealed(rotated), hooks.postmark]);
      vi.setSystemTime(Date.now() + 61_000);
      expect(await post(rotated)).toBe(200);
    } finally {
      vi.useRealTimers();
      await s.sql(`update relay_webhooks set secret = $1 where id = $2`, [sealed(postmarkSecret), hooks.postmark]);
    }
  });
});

describe("the store's plan", () => {
  it('probes the indexes for each event, however few rows the tables held when it was planned', async () => {
    // As each connection plans it: once, for any values ('generic'). This test's tables hold a few
    // dozen rows, measured, as a new installation's are; a relay may then post into them for months
    // on the same connections.
    await s.sql('analyze relay_webhook_events, relay_webhook_replay_keys, deliveries');
    const plan = await withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, async (tx) => {
      await tx.execute(planSettings('generic'));
      await tx.execute(sql.raw(`prepare store_plan_test as ${STORE_EVENTS}`));
      try {
        const rows = await selectRows<{ 'QUERY PLAN': string }>(tx, sql.raw('explain execute store_plan_test(null)'));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await tx.execute(sql.raw('deallocate store_plan_test'));
      }
    });
    // Each event probes: the replay check by the tokens' key (their table's only index: on the
    // events, an empty table's plan probed them by brand, a walk of the brand's events), the brand
    // check and the delivery by the deliveries' key; nothing is read whole or hashed.
    expect(plan).toMatch(/using relay_webhook_replay_keys_pkey on relay_webhook_replay_keys/);
    expect(plan.match(/using deliveries_pkey on deliveries/g)).toHaveLength(2);
    expect(plan).not.toMatch(/Seq Scan on (relay_webhook_events|deliveries)\b/);
    expect(plan).not.toMatch(/Hash (Join|Semi Join|Anti Join)/);
  });
});
