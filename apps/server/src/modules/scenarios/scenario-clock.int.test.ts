import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { guestToMail, runMailScenario } from '../../test/scenarios.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * The manual clock's route on the embedded database as well as on PostgreSQL (this file is in the
 * PGlite smoke pass too): moving the clock ticks the engine in the request, and a tick that queues
 * a mail used to open a second transaction from inside its claimed set's, which waits forever on
 * PGlite's single connection; the route never answered. Now it answers, and the mail arrives.
 */

let s: TTestServer;
let token: string;
let grand: string;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  // The worker's own tick only at start and then once a minute (the longest allowed): the ticks
  // that carry this journey are the route's, which is what the test claims. With a 1 s tick the
  // worker sometimes ran the whole journey before the clock moved, and the route had nothing to do.
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '60', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  // The embedded product seeds the demo's sending identity on its first start; PostgreSQL's template does not.
  if ((await s.sql(`select 1 from sending_domains where domain = 'sakura-hotels.example.jp'`)).length === 0)
    await seedDemoSending(s.rt);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = (select id from hosts where slug = 'sakura-hotels')`,
  );
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
  // ...and the tick queued at start done: on a slow machine it could still be waiting when the
  // journey starts, run it first, and leave the route nothing to do.
  await eventually(async () => {
    const waiting = await s.sql(
      `select 1 from pgboss.job where name = 'scenarios.tick' and state in ('created', 'retry', 'active')`,
    );
    return waiting.length === 0;
  }, 60_000);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('moving the manual clock', () => {
  it('answers after the ticks it runs, and the mail they queue reaches the outbox signed and with one-click unsubscribe', async () => {
    const email = `clock.${tag}@guest.example.jp`;
    const to = await guestToMail(s, token, {
      name: `時計 ${tag}`,
      email,
      phone: `0907${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
      firstName: '時計',
      lastName: 'テスト',
    });
    await runMailScenario(s, token, `時計 ${tag}`, to, `時計の便り ${tag}`);

    const moved = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 5 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.steps).toBeGreaterThan(0);

    const [mail] = await eventually(async () => {
      const mails = (await s.call('GET', `/v1/dev/outbox?to=${encodeURIComponent(email)}`, { token: grand })).body
        .data as {
        to: string[];
        subject: string;
        headers: { key: string; value: string }[];
      }[];
      return mails.length ? mails : null;
    }, 30_000);
    expect(mail?.to).toEqual([email]);
    expect(mail?.subject).toBe(`時計の便り ${tag}`);
    const header = (key: string) => mail?.headers.find((h) => h.key.toLowerCase() === key)?.value ?? '';
    expect(header('dkim-signature')).toContain('d=sakura-hotels.example.jp');
    expect(header('list-unsubscribe')).toMatch(/<https?:\/\/[^>]+>/);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  }, 60_000);
});
