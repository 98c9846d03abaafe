import { createBookingSim, createManualClock, type TBookingSim } from '@yado/booking-sim';
import { STAT_COUNTERS } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { syncBookings } from '../booking/sync-bookings.ts';
import { trackingFor } from './links.ts';
import { recorderOf, writeEvents } from './record-events.ts';
import { recordDeliveryOutcomes } from './rollups.ts';

/**
 * Tracking through HTTP on the real server and PostgreSQL: signed pixel, click and unsubscribe
 * addresses, forged ones refused, the rollups against a recomputation from the raw events after
 * sends, opens, clicks, an unsubscribe and synced bookings (conversions), and the report per role.
 *
 * The campaign and its deliveries are arranged with SQL as the campaigns module's send would leave
 * them (that module reports outcomes through recordDeliveryOutcomes, called here the same way).
 */

const SAKURA = 'DBK-100234';
const SAKURA_KEY = 'dbk_demo_sakura_7f3c9a1e5b2d4068';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const clock = createManualClock(new Date());
let sim: TBookingSim;
let s: TTestServer;
let brandId: string;
let shinjuku: string;
let campaignId: string;
let deliveries: { id: string; customer_id: string; hotel_id: string | null; status: string }[];

beforeAll(async () => {
  sim = createBookingSim({ seed: 13, guestsPerAccount: 1200, now: clock.now, rateLimit: false });
  s = await startTestServer({ bookingSim: sim });
  [{ id: brandId }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [{ id: shinjuku }] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
  const { token } = await s.login(DEMO.brandAdmin);
  expect(
    (await s.call('POST', '/v1/booking/connection', { token, body: { accountId: SAKURA, apiKey: SAKURA_KEY } })).status,
  ).toBe(200);
  await eventually(
    async () =>
      (await s.sql(`select 1 from booking_sync_runs where brand_id = $1 and status <> 'running'`, [brandId]))[0],
    60_000,
  );

  // A campaign of さくらホテル 新宿, sent an hour ago to every guest of the brand with an email.
  [{ id: campaignId }] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, subject, status, audience, started_at, finished_at)
     values ($1, $2, 'Summer', 'Summer', 'sent', 0, now() - interval '1 hour', now() - interval '1 hour') returning id`,
    [brandId, shinjuku],
  );
  deliveries = await s.sql(
    `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, attempts, sent_at)
     select $1, c.brand_id, c.id, (select a.hotel_id from customer_allocations a where a.customer_id = c.id order by a.hotel_id limit 1), c.email,
       case when row_number() over (order by c.id) % 10 = 0 then 'failed' else 'sent' end, 1, now() - interval '1 hour'
     from customers c where c.brand_id = $2 and c.email is not null and c.email_status = 'active'
     returning id, customer_id, hotel_id, status`,
    [campaignId, brandId],
  );
  expect(deliveries.length).toBeGreaterThan(20);
  await s.sql(`update campaigns set audience = $2 where id = $1`, [campaignId, deliveries.length]);
  await withTenant(s.rt.database.db, { scopeAll: false, brandId }, (tx) =>
    recordDeliveryOutcomes(
      tx,
      deliveries.map((d) => ({
        deliveryId: d.id,
        campaignId,
        brandId,
        hotelId: d.hotel_id,
        outcome: d.status === 'sent' ? 'sent' : 'failed',
        bounce: d.status === 'failed',
      })),
    ),
  );
}, 180_000);

afterAll(async () => {
  await s?.close();
});

const sent = () => deliveries.filter((d) => d.status === 'sent');
const tokenOf = (url: string, marker: string) => url.slice(url.indexOf(marker) + marker.length);
const get = (url: string, headers: Record<string, string> = { 'user-agent': SAFARI }) =>
  fetch(url, { headers, redirect: 'manual' });

async function statistics(token: string, id = campaignId) {
  return s.call('GET', `/v1/campaigns/${id}/statistics`, { token });
}

describe('the open pixel', () => {
  it('answers a 1x1 GIF to anyone, signed or not, and counts only signed opens, machine opens apart', async () => {
    const [a, b, c] = sent();
    const ta = trackingFor(s.rt, a!.id);
    for (let i = 0; i < 3; i++) {
      const res = await get(ta.openPixelUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      // Helmet is skipped on this hot path; the headers that matter for an image are set directly.
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBeNull();
      expect((await res.arrayBuffer()).byteLength).toBe(42);
    }
    // Apple Mail Privacy Protection fetches with a bare user agent.
    expect((await get(trackingFor(s.rt, b!.id).openPixelUrl, { 'user-agent': 'Mozilla/5.0' })).status).toBe(200);
    expect((await get(trackingFor(s.rt, c!.id).openPixelUrl, { 'user-agent': 'Barracuda Sentinel' })).status).toBe(200);
    const forged = await get(`${s.url}/t/o/${tokenOf(ta.openPixelUrl, '/t/o/').slice(0, -2)}AA`);
    expect(forged.status).toBe(200);
    expect(forged.headers.get('content-type')).toBe('image/gif');
    expect((await get(`${s.url}/t/o/not-a-token`)).status).toBe(200);
    await recorderOf(s.rt).flush();

    const { token } = await s.login(DEMO.brandAdmin);
    const res = await statistics(token);
    expect(res.status).toBe(200);
    expect(res.body.data.totals).toMatchObject({ opens: 3, uniqueOpens: 1, machineOpens: 2 });
    expect(res.body.data.totals.sent).toBe(sent().length);
    expect(res.body.data.totals.failed).toBe(deliveries.length - sent().length);
    expect(res.body.data.rates.uniqueOpenRate).toBeCloseTo(1 / sent().length);
  });
});

describe('a replayed pixel', () => {
  it('still answers, but records at most 30 events of one delivery a minute', async () => {
    const d = sent()[8]!;
    const { token } = await s.login(DEMO.brandAdmin);
    await recorderOf(s.rt).flush();
    const before = (await statistics(token)).body.data.totals.opens;
    const url = trackingFor(s.rt, d.id).openPixelUrl;
    for (let i = 0; i < 40; i++) expect((await get(url)).status).toBe(200);
    await recorderOf(s.rt).flush();
    expect((await statistics(token)).body.data.totals.opens - before).toBe(30);
  });
});

describe('the click redirect', () => {
  it('sends a signed click to its link and refuses forged, altered and truncated ones with 404, never a redirect', async () => {
    const [a] = sent();
    const url = 'https://sakura-hotels.example.jp/summer?plan=early&utm_source=yado';
    const click = trackingFor(s.rt, a!.id).clickUrl(url, 0);
    const res = await get(click);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(url);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    // A click is counted in the event log; its request (token in the path) is not logged below warn.
    expect(s.logs.some((line) => line.includes(tokenOf(click, '/t/c/')))).toBe(false);

    const token = tokenOf(click, '/t/c/');
    const [id, index, , mac] = token.split('.');
    const evil = Buffer.from('https://evil.example/login', 'utf8').toString('base64url');
    for (const forged of [
      `${id}.${index}.${evil}.${mac}`,
      token.slice(0, -1),
      token.slice(0, 30),
      `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`,
      `${id}.1.${token.split('.')[2]}.${mac}`,
      evil,
    ]) {
      const refused = await get(`${s.url}/t/c/${forged}`);
      expect(refused.status, forged).toBe(404);
      expect(refused.headers.get('location')).toBeNull();
      expect((await refused.json()).error.code).toBe('not_found');
    }
  });

  it('counts every click, unique clicks per delivery and per link, and a click as an open of an unopened mail', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    await recorderOf(s.rt).flush();
    const before = (await statistics(token)).body.data.totals;
    // Every sent delivery clicks link 1 once; the first three click link 0 again.
    await Promise.all(
      sent().map((d) => get(trackingFor(s.rt, d.id).clickUrl('https://sakura-hotels.example.jp/rooms', 1))),
    );
    for (const d of sent().slice(0, 3))
      await get(
        trackingFor(s.rt, d.id).clickUrl('https://sakura-hotels.example.jp/summer?plan=early&utm_source=yado', 0),
      );
    // A link checker's HEAD is no click.
    await fetch(trackingFor(s.rt, sent()[5]!.id).clickUrl('https://sakura-hotels.example.jp/rooms', 1), {
      method: 'HEAD',
      redirect: 'manual',
    });
    await recorderOf(s.rt).flush();

    const after = (await statistics(token)).body.data.totals;
    expect(after.clicks - before.clicks).toBe(sent().length + 3);
    expect(after.uniqueClicks).toBe(sent().length);
    expect(after.uniqueOpens).toBe(sent().length);
    const links = (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/links`, { token })).body.data.links;
    expect(links).toEqual([
      {
        index: 0,
        url: 'https://sakura-hotels.example.jp/summer?plan=early&utm_source=yado',
        clicks: 4,
        uniqueClicks: 3,
      },
      { index: 1, url: 'https://sakura-hotels.example.jp/rooms', clicks: sent().length, uniqueClicks: sent().length },
    ]);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('unsubscribes the guest brand-wide at once; a replay changes nothing; undo from the page re-subscribes', async () => {
    const d = sent()[1]!;
    const t = trackingFor(s.rt, d.id, { mailto: 'info@sakura-hotels.example.jp' });
    expect(t.listUnsubscribeHeaders['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const post = () =>
      fetch(t.unsubscribeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    // The page speaks for the brand: its name and its logo, not the product's.
    const logo = `/files/logos/${'c'.repeat(64)}.png`;
    await s.sql(`update hosts set logo_url = $1 where id = $2`, [logo, brandId]);
    const first = await post();
    expect(first.status).toBe(200);
    const page = (await first.json()).data;
    expect(page).toMatchObject({
      brandName: 'さくらホテルズ',
      brandLogoUrl: logo,
      emailStatus: 'unsubscribed',
      canUndo: true,
    });
    const [customer] = await s.sql(
      `select email_status, unsubscribe_reason, email_status_changed_at from customers where id = $1`,
      [d.customer_id],
    );
    expect(customer).toMatchObject({ email_status: 'unsubscribed', unsubscribe_reason: 'one_click' });
    const changedAt = customer.email_status_changed_at.getTime();

    const replay = await post();
    expect(replay.status).toBe(200);
    const [again] = await s.sql(`select email_status, email_status_changed_at from customers where id = $1`, [
      d.customer_id,
    ]);
    expect(again.email_status_changed_at.getTime()).toBe(changedAt);
    const events = await s.sql(
      `select kind, source from tracking_events where delivery_id = $1 and kind = 'unsubscribe'`,
      [d.id],
    );
    expect(events).toEqual([{ kind: 'unsubscribe', source: 'one_click' }]);
    const audit = await s.sql(
      `select action, actor_user_id, changes from audit_log where target_id = $1 and action = 'guest_unsubscribe'`,
      [d.customer_id],
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].actor_user_id).toBeNull();
    expect(audit[0].changes).toMatchObject({ emailStatus: ['active', 'unsubscribed'], source: 'one_click' });

    // The console shows the status with its source and time.
    const { token } = await s.login(DEMO.brandAdmin);
    const detail = await s.call('GET', `/v1/customers/${d.customer_id}`, { token });
    expect(detail.body.data).toMatchObject({ emailStatus: 'unsubscribed', unsubscribeReason: 'one_click' });
    expect(detail.body.data.emailStatusChangedAt).toBeTruthy();

    const pageInfo = await s.call('GET', `/v1/public/unsubscribe?token=${tokenOf(t.unsubscribeUrl, 'token=')}`);
    expect(pageInfo.status).toBe(200);
    expect(pageInfo.body.data).toMatchObject({ emailStatus: 'unsubscribed', canUndo: true });
    const undo = await s.call('POST', `/v1/public/unsubscribe/undo?token=${tokenOf(t.unsubscribeUrl, 'token=')}`, {
      body: {},
    });
    expect(undo.status).toBe(200);
    expect(undo.body.data).toMatchObject({ emailStatus: 'active', canUndo: false });
    expect((await s.sql(`select email_status from customers where id = $1`, [d.customer_id]))[0].email_status).toBe(
      'active',
    );

    // Unsubscribing from the page records its own source.
    const fromPage = await s.call(
      'POST',
      `/v1/public/unsubscribe?token=${tokenOf(t.unsubscribeUrl, 'token=')}&source=page`,
      { body: {} },
    );
    expect(fromPage.status).toBe(200);
    expect(
      (await s.sql(`select unsubscribe_reason from customers where id = $1`, [d.customer_id]))[0].unsubscribe_reason,
    ).toBe('page');
    expect((await statistics(token)).body.data.totals.unsubscribes).toBe(2);
  });

  it("shows the unsubscribed message in the page's language, inherited hotel → hotel group → brand, English falling back to Japanese", async () => {
    // A guest whose page is Japanese (JP, or no country) and one whose page is English (elsewhere).
    const guests = await s.sql(
      `select d.id, c.country from deliveries d join customers c on c.id = d.customer_id where d.campaign_id = $1 and d.status = 'sent'`,
      [campaignId],
    );
    const jaGuest = guests.find((g) => !g.country || g.country === 'JP')!;
    const enGuest = guests.find((g) => g.country && g.country !== 'JP')!;
    expect(jaGuest && enGuest).toBeTruthy();
    const pageOf = async (deliveryId: string) => {
      const url = trackingFor(s.rt, deliveryId).unsubscribeUrl;
      const res = await s.call('GET', `/v1/public/unsubscribe?token=${tokenOf(url, 'token=')}`);
      expect(res.status).toBe(200);
      return res.body.data as {
        language: string;
        message: string | null;
        messages: { ja: string | null; en: string | null };
      };
    };
    const [{ id: group }] = await s.sql(`select id from hosts where slug = 'sakura-kanto'`);
    const hosts = [brandId, group, shinjuku];
    const before = await s.sql(
      `select host_id, unsubscribed_message, unsubscribed_message_en from campaign_email_settings where host_id = any($1)`,
      [hosts],
    );
    const set = (hostId: string, ja: string | null, en: string | null) =>
      s.sql(
        `insert into campaign_email_settings (host_id, brand_id, unsubscribed_message, unsubscribed_message_en) values ($1, $2, $3, $4)
         on conflict (host_id) do update set unsubscribed_message = $3, unsubscribed_message_en = $4`,
        [hostId, brandId, ja, en],
      );
    try {
      for (const h of hosts) await set(h, null, null);
      // Nothing set: the page shows its default text.
      expect(await pageOf(enGuest.id)).toMatchObject({
        language: 'en',
        message: null,
        messages: { ja: null, en: null },
      });

      // Only the brand's Japanese message: English pages show it too.
      await set(brandId, '配信を停止しました。', null);
      expect(await pageOf(jaGuest.id)).toMatchObject({ language: 'ja', message: '配信を停止しました。' });
      expect(await pageOf(enGuest.id)).toMatchObject({
        language: 'en',
        message: '配信を停止しました。',
        messages: { ja: '配信を停止しました。', en: '配信を停止しました。' },
      });

      // The brand's English message: each language's page shows its own.
      await set(brandId, '配信を停止しました。', 'You have been unsubscribed.');
      expect((await pageOf(jaGuest.id)).message).toBe('配信を停止しました。');
      expect(await pageOf(enGuest.id)).toMatchObject({
        language: 'en',
        message: 'You have been unsubscribed.',
        messages: { ja: '配信を停止しました。', en: 'You have been unsubscribed.' },
      });

      // The hotel group's English one and the hotel's Japanese one win over the brand's, each apart.
      await set(group, null, 'Unsubscribed from the Kanto hotels.');
      await set(shinjuku, '新宿からの配信を停止しました。', null);
      expect((await pageOf(jaGuest.id)).messages).toEqual({
        ja: '新宿からの配信を停止しました。',
        en: 'Unsubscribed from the Kanto hotels.',
      });
      expect((await pageOf(enGuest.id)).message).toBe('Unsubscribed from the Kanto hotels.');
    } finally {
      for (const h of hosts) {
        const row = before.find((r) => r.host_id === h);
        await set(h, row?.unsubscribed_message ?? null, row?.unsubscribed_message_en ?? null);
      }
    }
  });

  it('takes the one-click POST however the mail client encodes its body', async () => {
    const d = sent()[4]!;
    const url = trackingFor(s.rt, d.id).unsubscribeUrl;
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    for (const init of [
      { body: form },
      { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'text/plain' } },
      { body: undefined },
    ] as RequestInit[]) {
      const res = await fetch(url, { method: 'POST', ...init });
      expect(res.status).toBe(200);
      expect((await res.json()).data.emailStatus).toBe('unsubscribed');
    }
    const undo = await s.call('POST', `/v1/public/unsubscribe/undo?token=${tokenOf(url, 'token=')}`, { body: {} });
    expect(undo.body.data.emailStatus).toBe('active');
  });

  it('does not lift an unsubscribe the hotel set, through a guest’s old link', async () => {
    const d = sent()[2]!;
    const { token } = await s.login(DEMO.brandAdmin);
    expect(
      (
        await s.call('PUT', '/v1/customers/email-status', {
          token,
          body: { ids: [d.customer_id], emailStatus: 'unsubscribed' },
        })
      ).status,
    ).toBe(200);
    const t = trackingFor(s.rt, d.id);
    const undo = await s.call('POST', `/v1/public/unsubscribe/undo?token=${tokenOf(t.unsubscribeUrl, 'token=')}`, {
      body: {},
    });
    expect(undo.status).toBe(200);
    expect(undo.body.data).toMatchObject({ emailStatus: 'unsubscribed', canUndo: false });
    await s.call('PUT', '/v1/customers/email-status', { token, body: { ids: [d.customer_id], emailStatus: 'active' } });
  });

  it('keeps working after the campaign is deleted: the link names the guest too', async () => {
    const d = sent()[6]!;
    const [gone] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, status) values ($1, $2, 'Deleted later', 'sent') returning id`,
      [brandId, shinjuku],
    );
    const [delivery] = await s.sql(
      `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, status, sent_at) values ($1, $2, $3, $4, 'sent', now()) returning id`,
      [gone.id, brandId, d.customer_id, d.hotel_id],
    );
    const t = trackingFor(s.rt, delivery.id, { customerId: d.customer_id });
    await s.sql(`delete from campaigns where id = $1`, [gone.id]);
    const res = await fetch(t.unsubscribeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({
      brandName: 'さくらホテルズ',
      emailStatus: 'unsubscribed',
      canUndo: true,
    });
    expect(
      (await s.sql(`select email_status, unsubscribe_reason from customers where id = $1`, [d.customer_id]))[0],
    ).toEqual({ email_status: 'unsubscribed', unsubscribe_reason: 'one_click' });
    const [audit] = await s.sql(
      `select changes from audit_log where target_id = $1 and action = 'guest_unsubscribe' order by id desc limit 1`,
      [d.customer_id],
    );
    expect(audit.changes).toMatchObject({ source: 'one_click', campaignId: null });
    // A link without the guest, whose delivery is gone, is refused like a forged one.
    const older = trackingFor(s.rt, delivery.id);
    expect(
      (await s.call('POST', `/v1/public/unsubscribe?token=${tokenOf(older.unsubscribeUrl, 'token=')}`, { body: {} }))
        .status,
    ).toBe(404);
    const undo = await s.call('POST', `/v1/public/unsubscribe/undo?token=${tokenOf(t.unsubscribeUrl, 'token=')}`, {
      body: {},
    });
    expect(undo.body.data.emailStatus).toBe('active');
  });

  it('refuses forged, altered, truncated and other-purpose tokens with 404 and changes nothing', async () => {
    const d = sent()[3]!;
    const t = trackingFor(s.rt, d.id);
    const good = tokenOf(t.unsubscribeUrl, 'token=');
    const open = tokenOf(t.openPixelUrl, '/t/o/');
    for (const forged of [
      good.slice(0, -1),
      `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`,
      good.split('.')[0],
      open,
      'x',
    ]) {
      for (const [method, p] of [
        ['POST', `/v1/public/unsubscribe?token=${encodeURIComponent(forged!)}`],
        ['GET', `/v1/public/unsubscribe?token=${encodeURIComponent(forged!)}`],
        ['POST', `/v1/public/unsubscribe/undo?token=${encodeURIComponent(forged!)}`],
      ] as const) {
        const res = await s.call(method, p, method === 'POST' ? { body: {} } : {});
        expect(res.status, `${method} ${forged}`).toBe(404);
        expect(res.body.error.code).toBe('unsubscribe_link_invalid');
      }
    }
    expect((await s.call('POST', '/v1/public/unsubscribe', { body: {} })).status).toBe(400);
    expect((await s.sql(`select email_status from customers where id = $1`, [d.customer_id]))[0].email_status).toBe(
      'active',
    );
  });
});

describe('conversions', () => {
  it('counts a booking synced within the window after a click, with its amount, once', async () => {
    const before = new Set(
      (await s.sql(`select external_id from bookings where brand_id = $1`, [brandId])).map((b) => b.external_id),
    );
    // Recomputed by hand from the bookings and the raw clicks: new (not synced before this case;
    // a booking synced before, then checked in or moved, is none), not cancelled, of a guest who
    // clicked the mail, booked from the day of the guest's first click to 7 days after the last one.
    // The days are the instants' own in JST (the brand's time zone), never now()'s: the case may run
    // at any hour, its clicks and the simulator's first bookings on either side of a JST midnight.
    const recomputed = async () =>
      (
        await s.sql(
          `select count(*)::int as n, coalesce(sum(b.amount), 0)::int as revenue from bookings b
           where b.brand_id = $1 and b.status <> 'cancelled' and not (b.external_id = any($2::text[]))
             and exists (
               select 1 from tracking_events t join deliveries d on d.id = t.delivery_id
               where t.campaign_id = $3 and t.kind = 'click' and d.customer_id = b.customer_id
               having (min(t.occurred_at) at time zone 'Asia/Tokyo')::date <= b.booking_date
                 and (max(t.occurred_at) at time zone 'Asia/Tokyo')::date + 7 >= b.booking_date)`,
          [brandId, [...before], campaignId],
        )
      )[0] as { n: number; revenue: number };
    // The simulator's guests book at random moments (seeded, but from today's date): a day at a
    // time, within the 7-day window, until at least one of them has booked.
    let expected = { n: 0, revenue: 0 };
    for (let day = 1; day <= 6 && expected.n === 0; day++) {
      clock.advanceDays(1);
      await syncBookings(s.rt, { brandId, trigger: 'manual' });
      expected = await recomputed();
    }
    expect(expected.n).toBeGreaterThan(0);
    const { token } = await s.login(DEMO.brandAdmin);
    const totals = (await statistics(token)).body.data.totals;
    expect(totals.conversions).toBe(expected.n);
    expect(totals.revenue).toBe(expected.revenue);
    // A re-run changes nothing.
    await syncBookings(s.rt, { brandId, trigger: 'manual' });
    expect((await statistics(token)).body.data.totals.conversions).toBe(expected.n);
  });
});

describe('the rollups', () => {
  it('equal a recomputation from the raw events and the deliveries', async () => {
    await recorderOf(s.rt).flush();
    const [raw] = await s.sql(
      `select count(*) filter (where kind = 'open')::int as opens,
         count(distinct delivery_id) filter (where kind in ('open', 'click'))::int as "uniqueOpens",
         count(*) filter (where kind = 'machine_open')::int as "machineOpens",
         count(*) filter (where kind = 'click')::int as clicks,
         count(distinct delivery_id) filter (where kind = 'click')::int as "uniqueClicks",
         count(*) filter (where kind = 'unsubscribe')::int as unsubscribes,
         count(*) filter (where kind = 'conversion')::int as conversions,
         coalesce(sum(amount) filter (where kind = 'conversion'), 0)::int as revenue,
         count(*) filter (where kind = 'bounce')::int as bounced
       from tracking_events where campaign_id = $1`,
      [campaignId],
    );
    const [sends] = await s.sql(
      `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'sent')::int as delivered,
         count(*) filter (where status = 'failed')::int as failed, count(*) filter (where status = 'skipped')::int as skipped
       from deliveries where campaign_id = $1`,
      [campaignId],
    );
    // Bounces and complaints by the deliverability rules (issue 25), from their own records.
    const [feedback] = await s.sql(
      `select count(*) filter (where kind = 'hard_bounce')::int as "hardBounces",
         count(*) filter (where kind = 'soft_bounce')::int as "softBounces",
         count(*) filter (where kind = 'complaint')::int as complaints
       from feedback_events where campaign_id = $1`,
      [campaignId],
    );
    const expected = { ...raw, ...sends, ...feedback };
    const { token } = await s.login(DEMO.brandAdmin);
    expect((await statistics(token)).body.data.totals).toEqual(expected);

    const sum = (rows: Record<string, number>[]) =>
      Object.fromEntries(STAT_COUNTERS.map((k) => [k, rows.reduce((n, r) => n + r[k]!, 0)]));
    const days = (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/series?interval=day`, { token })).body
      .data;
    expect(days.timeZone).toBe('Asia/Tokyo');
    expect(sum(days.points)).toEqual(expected);
    const hours = (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/series?interval=hour`, { token })).body
      .data;
    expect(sum(hours.points)).toEqual(expected);
    const hotels = (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/hotels`, { token })).body.data.hotels;
    expect(sum(hotels)).toEqual(expected);
    const perHotel = await s.sql(
      `select coalesce(hotel_id, brand_id) as host, count(*) filter (where status = 'sent')::int as sent from deliveries where campaign_id = $1 group by 1`,
      [campaignId],
    );
    for (const h of perHotel) expect(hotels.find((x: { hostId: string }) => x.hostId === h.host)?.sent).toBe(h.sent);
    const [daily] = await s.sql(
      `select coalesce(sum(sent), 0)::int as sent, coalesce(sum(clicks), 0)::int as clicks, coalesce(sum(conversions), 0)::int as conversions from host_daily_stats where brand_id = $1`,
      [brandId],
    );
    expect(daily).toEqual({ sent: expected.sent, clicks: expected.clicks, conversions: expected.conversions });
    const links = await s.sql(
      `select link_index, count(*)::int as clicks, count(distinct delivery_id)::int as unique from tracking_events where campaign_id = $1 and kind = 'click' group by 1 order by 1`,
      [campaignId],
    );
    const linkStats = (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/links`, { token })).body.data.links;
    expect(
      linkStats.map((l: { index: number; clicks: number; uniqueClicks: number }) => ({
        link_index: l.index,
        clicks: l.clicks,
        unique: l.uniqueClicks,
      })),
    ).toEqual(links);
  });
});

describe('the report', () => {
  it('lists recipients in keyset pages with their status and events', async () => {
    const { token } = await s.login(DEMO.hotelViewer);
    const seen: { deliveryId: string; status: string; openedAt: string | null; events: { kind: string }[] }[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: any } = await s.call(
        'GET',
        `/v1/campaigns/${campaignId}/recipients?limit=40${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items);
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(new Set(seen.map((r) => r.deliveryId)).size).toBe(deliveries.length);
    const opened = seen.find((r) => r.deliveryId === sent()[0]!.id)!;
    expect(opened.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['open', 'click']));
    expect(opened.openedAt).toBeTruthy();
    const failed = (await s.call('GET', `/v1/campaigns/${campaignId}/recipients?limit=200&status=failed`, { token }))
      .body.data.items;
    expect(failed.length).toBe(deliveries.length - sent().length);
    expect(
      failed.every(
        (r: { status: string; events: { kind: string }[] }) =>
          r.status === 'failed' && r.events.some((e) => e.kind === 'bounce'),
      ),
    ).toBe(true);
    expect((await s.call('GET', `/v1/campaigns/${campaignId}/recipients?cursor=nope`, { token })).status).toBe(400);
  });

  it('lists only the recipients who bounced (hard, soft) or complained when asked, of the guests the caller sees', async () => {
    // A brand campaign to three guests of 新宿 and three of 京都, with what the relay and the
    // providers reported (as the feedback receiver records it); the fifth bounced softly, then complained.
    const [{ id: kyoto }] = await s.sql(`select id from hosts where slug = 'sakura-kyoto'`);
    const [{ id }] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, subject, status, audience, started_at, finished_at)
       values ($1, $1, 'Feedback', 'Feedback', 'sent', 6, now(), now()) returning id`,
      [brandId],
    );
    const guests = await s.sql(
      `select id, email from customers where brand_id = $1 and email is not null order by id limit 6`,
      [brandId],
    );
    const made: string[] = [];
    for (const [i, guest] of guests.entries()) {
      const [row] = await s.sql(
        `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, attempts, sent_at)
         values ($1, $2, $3, $4, $5, $6, 1, now()) returning id`,
        [id, brandId, guest.id, i < 3 ? shinjuku : kyoto, guest.email, i === 0 || i === 3 ? 'failed' : 'sent'],
      );
      made.push(row.id);
    }
    await withTenant(s.rt.database.db, { scopeAll: false, brandId }, (tx) =>
      recordDeliveryOutcomes(
        tx,
        made.map((deliveryId, i) => ({
          deliveryId,
          campaignId: id,
          brandId,
          hotelId: i < 3 ? shinjuku : kyoto,
          outcome: i === 0 || i === 3 ? 'failed' : 'sent',
          bounce: i === 0 || i === 3,
        })),
      ),
    );
    const report = (i: number, kind: string, source: string, status: string | null) =>
      s.sql(
        `insert into feedback_events (brand_id, delivery_id, campaign_id, customer_id, kind, source, status, diagnostic)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [brandId, made[i], id, guests[i].id, kind, source, status, status ? `smtp; 5xx ${status} test` : null],
      );
    await report(0, 'hard_bounce', 'dsn', '5.1.1');
    await report(1, 'soft_bounce', 'dsn', '5.2.2');
    await report(2, 'complaint', 'arf', null);
    await report(3, 'hard_bounce', 'smtp', '5.1.1');
    await report(4, 'soft_bounce', 'dsn', '4.2.2');
    await report(4, 'complaint', 'arf', null);
    // 5: delivered, nothing reported.

    const listed = async (token: string, query: string) => {
      const res = await s.call('GET', `/v1/campaigns/${id}/recipients?limit=50&${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.data.items as { deliveryId: string; feedback: { kind: string } | null }[])
        .map((r) => `${made.indexOf(r.deliveryId)} ${r.feedback?.kind ?? '-'}`)
        .sort();
    };
    const { token } = await s.login(DEMO.brandAdmin);
    expect(await listed(token, 'feedback=hard_bounce')).toEqual(['0 hard_bounce', '3 hard_bounce']);
    expect(await listed(token, 'feedback=soft_bounce')).toEqual(['1 soft_bounce', '4 complaint']);
    expect(await listed(token, 'feedback=complaint')).toEqual(['2 complaint', '4 complaint']);
    expect(await listed(token, 'feedback=hard_bounce&status=sent')).toEqual([]);
    expect(await listed(token, 'feedback=soft_bounce&status=sent')).toEqual(['1 soft_bounce', '4 complaint']);
    expect((await s.call('GET', `/v1/campaigns/${id}/recipients?feedback=bounce`, { token })).status).toBe(400);

    // 新宿's staff read their own guests only, filtered alike; another brand reads nothing.
    const { token: staff } = await s.login(DEMO.hotelStaff);
    expect(await listed(staff, 'feedback=soft_bounce')).toEqual(['1 soft_bounce']);
    expect(await listed(staff, 'feedback=complaint')).toEqual(['2 complaint']);
    const { token: harbor } = await s.login(DEMO.harborAdmin);
    expect((await s.call('GET', `/v1/campaigns/${id}/recipients?feedback=complaint`, { token: harbor })).status).toBe(
      404,
    );
  });

  it("gives an unclassified failure's relay reply, and a bounce's diagnostic, with no address but the recipient's own", async () => {
    const [{ id }] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, subject, status, audience, started_at, finished_at)
       values ($1, $2, 'Relay words', 'Relay words', 'sent', 2, now(), now()) returning id`,
      [brandId, shinjuku],
    );
    const guests = await s.sql(
      `select id, email from customers where brand_id = $1 and email is not null order by id desc limit 2`,
      [brandId],
    );
    const forwarded = `550 5.1.1 <hanako.forward@corp.example.com>: Recipient address rejected (for <${guests[0].email}>)`;
    const made: string[] = [];
    for (const [i, error] of [forwarded, '451 4.3.0 Temporary lookup failure'].entries()) {
      const [row] = await s.sql(
        `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, attempts, error)
         values ($1, $2, $3, $4, $5, 'failed', 3, $6) returning id`,
        [id, brandId, guests[i].id, shinjuku, guests[i].email, error],
      );
      made.push(row.id);
    }
    await s.sql(
      `insert into feedback_events (brand_id, delivery_id, campaign_id, customer_id, kind, source, status, diagnostic)
       values ($1, $2, $3, $4, 'soft_bounce', 'dsn', '4.3.0', $5)`,
      [brandId, made[1], id, guests[1].id, `smtp; 451 4.3.0 <bounce+${made[1]}@mail.sakura.example.jp> lookup failure`],
    );

    const { token } = await s.login(DEMO.hotelStaff);
    const res = await s.call('GET', `/v1/campaigns/${id}/recipients?limit=10`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byId = new Map(
      (res.body.data.items as { deliveryId: string; error: string; feedback: { diagnostic: string } | null }[]).map(
        (r) => [r.deliveryId, r],
      ),
    );
    // Unclassified: the relay's words are all there is to say, the forwarding target's address hidden.
    expect(byId.get(made[0]!)).toMatchObject({
      feedback: null,
      error: `550 5.1.1 <***>: Recipient address rejected (for <${guests[0].email}>)`,
    });
    expect(byId.get(made[1]!)?.feedback?.diagnostic).toBe('smtp; 451 4.3.0 <***> lookup failure');
    const rows = (await s.call('GET', `/v1/campaigns/${id}/deliveries`, { token })).body.data.items as {
      id: string;
      error: string;
    }[];
    expect(rows.find((r) => r.id === made[0])?.error).toBe(byId.get(made[0]!)?.error);
    expect(JSON.stringify([res.body, rows])).not.toContain('hanako.forward');
  });

  it('is read by every role reaching the owning hotel; others get 404, anonymous callers 401', async () => {
    for (const email of [
      DEMO.brandAdmin,
      DEMO.groupAdmin,
      DEMO.hotelAdmin,
      DEMO.hotelStaff,
      DEMO.hotelViewer,
      DEMO.grand,
    ]) {
      const { token } = await s.login(email);
      expect((await statistics(token)).status, email).toBe(200);
    }
    const { token: harbor } = await s.login(DEMO.harborAdmin);
    for (const p of ['statistics', 'statistics/series', 'statistics/links', 'statistics/hotels', 'recipients']) {
      const res = await s.call('GET', `/v1/campaigns/${campaignId}/${p}`, { token: harbor });
      expect(res.status, p).toBe(404);
      expect(res.body.data).toBeUndefined();
    }
    // The same brand, another hotel group: out of reach.
    const { token: multi } = await s.login(DEMO.multi);
    const kansai = { 'x-user-role': 'staff', 'x-host-slug': 'sakura-kansai', 'x-host-level': 'hotel_group' };
    expect(
      (await s.call('GET', `/v1/campaigns/${campaignId}/statistics`, { token: multi, headers: kansai })).status,
    ).toBe(404);
    expect((await s.call('GET', `/v1/campaigns/${campaignId}/statistics`)).status).toBe(401);
    const { token } = await s.login(DEMO.brandAdmin);
    expect((await s.call('GET', '/v1/campaigns/not-a-uuid/statistics', { token })).status).toBe(404);
    expect(
      (await s.call('GET', `/v1/campaigns/${campaignId}/statistics/series?timeZone=Mars/Olympus`, { token })).status,
    ).toBe(400);
  });

  it('fills the statistics of the template report of the template the campaign used', async () => {
    const [template] = await s.sql(
      `insert into templates (brand_id, host_id, name, contents) values ($1, $1, 'Summer template', '{}'::jsonb) returning id`,
      [brandId],
    );
    await s.sql(
      `insert into template_uses (template_id, campaign_id, brand_id, campaign_name, status) values ($1, $2, $3, 'Summer', 'sent')`,
      [template.id, campaignId, brandId],
    );
    await s.sql(`update campaigns set template_id = $1 where id = $2`, [template.id, campaignId]);
    const { token } = await s.login(DEMO.brandAdmin);
    const totals = (await statistics(token)).body.data.totals;
    const report = await s.call('GET', `/v1/templates/${template.id}/report`, { token });
    expect(report.status).toBe(200);
    expect(report.body.data.campaigns).toEqual([
      {
        campaignId,
        campaignName: 'Summer',
        status: 'sent',
        paused: false,
        sentAt: expect.any(String),
        recipients: deliveries.length,
        delivered: totals.delivered,
        opened: totals.uniqueOpens,
        clicked: totals.uniqueClicks,
      },
    ]);
  });

  it('documents the public and report routes in the API description', async () => {
    const doc = (await (await fetch(`${s.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/t/o/{token}',
        '/t/c/{token}',
        '/v1/public/unsubscribe',
        '/v1/public/unsubscribe/undo',
        '/v1/campaigns/{id}/statistics',
        '/v1/campaigns/{id}/statistics/series',
        '/v1/campaigns/{id}/statistics/links',
        '/v1/campaigns/{id}/statistics/hotels',
        '/v1/campaigns/{id}/recipients',
      ]),
    );
    expect(Object.keys(doc.paths['/v1/public/unsubscribe'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('keeps tokens and guests out of the log', () => {
    const log = s.logs.join('\n');
    const d = sent()[1]!;
    expect(log).not.toContain(tokenOf(trackingFor(s.rt, d.id).unsubscribeUrl, 'token='));
    expect(log).not.toContain('sakura-hotels.example.jp/rooms');
  });
});

describe('the conversion window', () => {
  it('is the brand’s to set (1 to 90 days), read by its hotels, audited, and no other brand’s business', async () => {
    const brand = await s.login(DEMO.brandAdmin);
    expect((await s.call('GET', '/v1/tracking/settings', { token: brand.token })).body.data).toEqual({
      conversionWindowDays: 7,
      isDefault: true,
    });
    const set = await s.call('PUT', '/v1/tracking/settings', {
      token: brand.token,
      body: { conversionWindowDays: 14 },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ conversionWindowDays: 14, isDefault: false });
    for (const bad of [0, 91, 2.5, '7']) {
      const refused = await s.call('PUT', '/v1/tracking/settings', {
        token: brand.token,
        body: { conversionWindowDays: bad },
      });
      expect(refused.status, String(bad)).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
    }
    const hotel = await s.login(DEMO.hotelAdmin);
    expect((await s.call('GET', '/v1/tracking/settings', { token: hotel.token })).body.data.conversionWindowDays).toBe(
      14,
    );
    const fromHotel = await s.call('PUT', '/v1/tracking/settings', {
      token: hotel.token,
      body: { conversionWindowDays: 3 },
    });
    expect(fromHotel.status).toBe(403);
    expect(fromHotel.body.error.code).toBe('tracking_brand_only');
    const viewer = await s.login(DEMO.hotelViewer);
    expect(
      (await s.call('PUT', '/v1/tracking/settings', { token: viewer.token, body: { conversionWindowDays: 3 } })).status,
    ).toBe(403);
    const harbor = await s.login(DEMO.harborAdmin);
    expect((await s.call('GET', '/v1/tracking/settings', { token: harbor.token })).body.data).toEqual({
      conversionWindowDays: 7,
      isDefault: true,
    });
    const [audit] = await s.sql(
      `select action, changes from audit_log where target_type = 'tracking_settings' and target_id = $1`,
      [brandId],
    );
    expect(audit).toEqual({ action: 'update', changes: { conversionWindowDays: [7, 14] } });
    await s.call('PUT', '/v1/tracking/settings', { token: brand.token, body: { conversionWindowDays: 7 } });
  });
});

describe('concurrent batches', () => {
  it('count a delivery’s first open and first click once, however many processes write at the same time', async () => {
    const [second] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, status) values ($1, $2, 'Concurrent', 'sent') returning id`,
      [brandId, shinjuku],
    );
    const [d] = await s.sql(
      `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, status, sent_at)
       select $1, $2, customer_id, hotel_id, 'sent', now() - interval '1 hour' from deliveries where id = $3 returning id`,
      [second.id, brandId, sent()[0]!.id],
    );
    const at = new Date();
    // Five writers (as five API processes would), each with its own batch for the same delivery.
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        writeEvents(s.rt, [
          { kind: 'open', deliveryId: d.id, at: new Date(at.getTime() + i) },
          {
            kind: 'click',
            deliveryId: d.id,
            at: new Date(at.getTime() + i),
            linkIndex: 0,
            url: 'https://sakura-hotels.example.jp/',
          },
        ]),
      ),
    );
    const [stats] = await s.sql(
      `select opens, unique_opens, clicks, unique_clicks from campaign_stats where campaign_id = $1`,
      [second.id],
    );
    expect(stats).toEqual({ opens: 5, unique_opens: 1, clicks: 5, unique_clicks: 1 });
    const [link] = await s.sql(`select clicks, unique_clicks from campaign_link_stats where campaign_id = $1`, [
      second.id,
    ]);
    expect(link).toEqual({ clicks: 5, unique_clicks: 1 });
  });
});

describe('an address that tries forged unsubscribe links', () => {
  // Last in this file: from here on this test's address is refused for the rest of the minute.
  it('gets 429 after 30 refusals in a minute, while genuine links are never counted', async () => {
    const genuine = tokenOf(trackingFor(s.rt, sent()[7]!.id).unsubscribeUrl, 'token=');
    for (let i = 0; i < 40; i++)
      expect((await s.call('GET', `/v1/public/unsubscribe?token=${genuine}`)).status).toBe(200);
    let refused = 0;
    let status = 404;
    while (status === 404 && refused < 100) {
      status = (
        await s.call(
          'POST',
          `/v1/public/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAA.${String(refused).padStart(22, 'A')}`,
          { body: {} },
        )
      ).status;
      if (status === 404) refused++;
    }
    expect(status).toBe(429);
    expect(refused).toBeLessThanOrEqual(30);
    const blocked = await s.call('POST', `/v1/public/unsubscribe?token=${genuine}`, { body: {} });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('60');
    expect(blocked.body.error.code).toBe('too_many_attempts');
  });
});
