import { Resolver } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { DEMO_DOMAINS, seedDemoSending } from '../../seed/demo-sending.ts';
import { counterValue } from '../../test/metrics.ts';

/**
 * "Send now" through the whole product: the route queues the start, the in-process worker snapshots
 * the audience and sends over SMTP into the embedded sink; the mail is checked as a receiver
 * would: DKIM passes for the brand's domain and covers the one-click unsubscribe headers.
 */

let s: TTestServer;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  s = await startTestServer({ env: { CAMPAIGN_DISPATCH_SECONDS: '1' } });
  await seedDemoSending(s.rt);
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
});
afterAll(async () => {
  await s?.close();
});

describe('a campaign sent now', () => {
  it('arrives DKIM-signed with signed List-Unsubscribe headers, a footer and tracked links', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
    const address = `guest.${tag}@guest.example.jp`;
    const [c1] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '花子', '佐藤', $2, $3) returning id`,
      [brand.id, `0801${tag.slice(0, 3)}7777`.replace(/\D/g, '7').slice(0, 11), address],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [c1.id, hotel.id, brand.id],
    );
    const segment = await staticSegment(s, token, `即時 ${tag}`, [c1.id]);
    const template = await s.call('POST', '/v1/templates', {
      token,
      body: {
        name: `即時 ${tag}`,
        defaultLanguage: 'ja',
        contents: {
          ja: {
            subject: 'ご案内',
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
    const c = await s.call('POST', '/v1/campaigns', {
      token,
      body: {
        name: `即時 ${tag}`,
        subject: '夏の特別プラン',
        recipients: { segmentIds: [segment] },
        templateId: template.body.data.id,
      },
    });
    const commits = (path: string) => counterValue('yado_campaign_send_commits_total', { path });
    const [pipelined, stepwise] = [await commits('pipelined'), await commits('stepwise')];
    const sent = await s.call('POST', `/v1/campaigns/${c.body.data.id}/send-now`, { token, body: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const done = await eventually(async () => {
      const r = await s.call('GET', `/v1/campaigns/${c.body.data.id}`, { token });
      return r.body.data.status === 'sent' ? r.body.data : null;
    }, 30_000);
    expect(done.statistics).toMatchObject({ audience: 1, sent: 1 });
    // The usual step (the mail checked and marked handed, then its 2xx recorded with the rollups)
    // commits in one round trip each time: nothing here asks for the statement-at-a-time path.
    expect(await commits('pipelined')).toBeGreaterThanOrEqual(pipelined + 2);
    expect(await commits('stepwise')).toBe(stepwise);

    const [row] = await s.sql(`select raw, subject from dev_outbox where $1 = any(rcpt_to)`, [address]);
    expect(row.subject).toBe('夏の特別プラン');
    const raw = Buffer.from(row.raw);
    const text = raw.toString('utf8');
    const resolver = new Resolver();
    resolver.setServers(s.rt.config.dns.servers as string[]);
    const result = await dkimVerify(raw, {
      resolver: (name: string, type: string) =>
        type === 'TXT' ? resolver.resolveTxt(name) : resolver.resolve(name, type as 'A'),
    });
    expect(result.results[0]?.status.result).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe(DEMO_DOMAINS.verified);
    const signature = /^DKIM-Signature:([\s\S]*?)\r\n(?![ \t])/im.exec(text)?.[1]?.replace(/\s+/g, '') ?? '';
    const signed = (/(?:^|;)h=([^;]+)/.exec(signature)?.[1] ?? '').toLowerCase().split(':');
    expect(signed).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject', 'message-id']),
    );
    const unfolded = text.replace(/\r\n[ \t]+/g, ' ');
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(unfolded).toMatch(/^List-Unsubscribe: <http[^>]+\/v1\/public\/unsubscribe\?token=[^>]+>, ?<mailto:/m);
    expect(text).toMatch(/mailto:/);
    const [delivery] = await s.sql(`select id, message_id from deliveries where campaign_id = $1`, [c.body.data.id]);
    expect(unfolded).toContain(`Message-ID: <${delivery.id}.${c.body.data.id}@${DEMO_DOMAINS.verified}>`);
    // Footer (Act on Specified Electronic Mail) and tracked links, in the decoded HTML.
    const decoded = await simpleParser(raw);
    expect(decoded.html).toContain('〒100-0005 東京都千代田区丸の内1-1-1');
    expect(decoded.html).toContain('/t/o/');
    expect(decoded.html).toContain('/t/c/');
    expect(decoded.html).not.toContain('href="https://sakura.example.jp/plan"');
    expect(decoded.text).toContain('さくらホテルズ株式会社');
  });

  it('starts a campaign scheduled a moment ahead by itself (the dispatcher)', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
    const address = `later.${tag}@guest.example.jp`;
    const [cu] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '次郎', '佐藤', '08012398765', $2) returning id`,
      [brand.id, address],
    );
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
      [cu.id, hotel.id, brand.id],
    );
    const segment = await staticSegment(s, token, `予約 ${tag}`, [cu.id]);
    const templateId = (
      await s.call('POST', '/v1/templates', {
        token,
        body: {
          name: `予約 ${tag}`,
          defaultLanguage: 'ja',
          contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
        },
      })
    ).body.data.id;
    const c = (
      await s.call('POST', '/v1/campaigns', {
        token,
        body: { name: `予約 ${tag}`, subject: '予約送信', recipients: { segmentIds: [segment] }, templateId },
      })
    ).body.data;
    const soon = new Date(Date.now() + 61_000);
    const local = new Date(soon.getTime() + 9 * 3600_000).toISOString().slice(0, 16);
    const scheduled = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token,
      body: { schedule: { kind: 'at', localTime: local, timeZone: 'Asia/Tokyo' } },
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    // Brought forward in the database rather than waiting a minute: the dispatcher finds it due.
    await s.sql(`update campaigns set send_at = now() where id = $1`, [c.id]);
    await eventually(
      async () => ((await s.sql(`select 1 from dev_outbox where $1 = any(rcpt_to)`, [address])).length ? true : null),
      30_000,
    );
    // The sink has the mail a moment before the delivery's outcome is written: wait for the count.
    const sent = await eventually(async () => {
      const n = (await s.call('GET', `/v1/campaigns/${c.id}`, { token })).body.data.statistics.sent as number;
      return n > 0 ? n : null;
    }, 10_000);
    expect(sent).toBe(1);
  });
});
