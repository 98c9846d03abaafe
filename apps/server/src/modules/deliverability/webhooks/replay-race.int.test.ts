import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSending } from '../../../seed/demo-sending.ts';
import { DEMO, startTestServer, type TTestServer } from '../../../test/harness.ts';
import { mailgunSignature } from '../../../test/webhook-signer.ts';
import { webhookApplierOf } from './apply-webhook-events.ts';

/**
 * A Mailgun signature's one-time token taken by two batches at once (issue 25), over PostgreSQL:
 * another process's batch has taken the token and not yet committed, so this one's replay check
 * cannot see it. Its request must still be refused as a replay once the other commits, its event
 * neither stored nor applied. (PGlite has one connection: its batches never overlap.)
 */

let s: TTestServer;
let brand: { id: string };
let sender: string;
let hook: string;
const mailgunKey = `key-${randomBytes(16).toString('hex')}`;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  s = await startTestServer();
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  sender = (await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]))[0]
    .sender_email;
  const { token } = await s.login(DEMO.brandAdmin);
  const res = await s.call('PUT', '/v1/deliverability/relay-webhooks/mailgun', { token, body: { secret: mailgunKey } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  hook = res.body.data.id;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

async function sentMail(): Promise<{ deliveryId: string; messageId: string; email: string; customerId: string }> {
  const email = `race.${tag}@guest.example.jp`;
  const [c] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '競合', 'テスト', $2, $3) returning id`,
    [brand.id, `0907${String(parseInt(tag, 16) % 1_000_000).padStart(7, '0')}`, email],
  );
  const [campaign] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status) values ($1, $1, $2, 'sent') returning id`,
    [brand.id, `競合 ${tag}`],
  );
  const [d] = await s.sql(
    `insert into deliveries (campaign_id, brand_id, customer_id, email, status, sent_at)
     values ($1, $2, $3, $4, 'sent', now()) returning id`,
    [campaign.id, brand.id, c.id, email],
  );
  return { deliveryId: d.id, messageId: `${d.id}.${campaign.id}@${sender.split('@')[1]}`, email, customerId: c.id };
}

describe('a token taken by two batches at once', () => {
  it('refuses the second as a replay once the first commits; its event is neither stored nor applied', async () => {
    const mail = await sentMail();
    const signature = mailgunSignature(mailgunKey);
    const eventId = randomBytes(11).toString('base64url');
    const body = {
      signature,
      'event-data': {
        id: eventId,
        timestamp: Number(signature.timestamp),
        recipient: mail.email,
        message: { headers: { 'message-id': mail.messageId, to: mail.email } },
        event: 'complained',
      },
    };
    // The other batch: the token taken, uncommitted.
    const other = new pg.Client({ connectionString: s.rt.config.databaseUrl ?? undefined });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(
        `insert into relay_webhook_replay_keys (brand_id, provider, replay_key) values ($1, 'mailgun', $2)`,
        [brand.id, signature.token],
      );
      let answered = false;
      const posting = s.call('POST', `/v1/public/relay-webhooks/mailgun/${hook}`, { body }).then((r) => {
        answered = true;
        return r;
      });
      // The batch waits on the other's uncommitted token (its insert of the same key).
      for (let i = 0; i < 100; i++) {
        const [waiting] = await s.sql(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%relay_webhook_replay_keys%'`,
        );
        if (waiting.n > 0 || answered) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(answered).toBe(false);
      await other.query('commit');
      const res = await posting;
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('webhook_replayed');
    } finally {
      await other.end();
    }
    await webhookApplierOf(s.rt).idle();
    expect(
      await s.sql(`select count(*)::int as n from relay_webhook_events where brand_id = $1 and event_id = $2`, [
        brand.id,
        eventId,
      ]),
    ).toEqual([{ n: 0 }]);
    expect((await s.sql(`select email_status from customers where id = $1`, [mail.customerId]))[0]).toEqual({
      email_status: 'active',
    });
  });
});
