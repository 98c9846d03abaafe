import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { recordDeliveryOutcomes } from '../tracking/rollups.ts';
import { addDays, dashboardWindow, localDay } from './dashboard-window.ts';
import { keepDailyCustomerCounts } from './keep-daily-customer-counts.ts';

/**
 * The dashboard's three blocks per role and level, against another brand: a hotel group's figures
 * hold only its hotels, a hotel's only itself, and the platform has no dashboard at all.
 * Customers and allocations are arranged in the database; campaign figures are arranged in the
 * tracking rollup the dashboard reads (dashboard-rollups.int.test.ts drives real sends and events).
 */

let s: TTestServer;
const id: Record<string, string> = {};
const window = dashboardWindow(new Date(), 'Asia/Tokyo');
const lastWeek = addDays(window.to, -8);

async function customer(
  brand: string,
  phone: string,
  status: 'active' | 'unsubscribed',
  hotels: string[],
): Promise<void> {
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email, email_status) values ($1, '太郎', '山田', $2, $3, $4) returning id`,
    [id[brand], phone, `${phone}@guest.test`, status],
  );
  for (const hotel of hotels)
    await s.sql(
      `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'import')`,
      [row.id, id[hotel], id[brand]],
    );
}

async function stats(
  host: string,
  day: string,
  v: { sent: number; delivered: number; opens: number; clicks: number; conversions: number; revenue: number },
) {
  await s.sql(
    `insert into host_daily_stats (host_id, day, brand_id, sent, delivered, unique_opens, opens, unique_clicks, clicks, conversions, revenue)
     select h.id, $2, h.brand_id, $3, $4, $5, $5, $6, $6, $7, $8 from hosts h where h.id = $1`,
    [id[host], day, v.sent, v.delivered, v.opens, v.clicks, v.conversions, v.revenue],
  );
}

/** A campaign; a sent or failed one with its mails per hotel (delivered, opened, clicked) in the per campaign rollup. */
async function campaign(
  host: string,
  name: string,
  status: string,
  at: { sendAt?: string; finishedAt?: string },
  mails: Record<string, number[]> = {},
) {
  const [row] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status, send_at, started_at, finished_at) select h.brand_id, h.id, $2, $3, $4, $5, $5 from hosts h where h.id = $1 returning id, brand_id`,
    [id[host], name, status, at.sendAt ?? null, at.finishedAt ?? null],
  );
  for (const [hotel, [delivered, opened, clicked]] of Object.entries(mails))
    await s.sql(
      `insert into campaign_host_stats (campaign_id, host_id, brand_id, sent, delivered, unique_opens, opens, unique_clicks, clicks) values ($1, $2, $3, $4, $4, $5, $5, $6, $6)`,
      [row.id, id[hotel], row.brand_id, delivered, opened, clicked],
    );
}

/** A scenario of a host in a status, started `daysAgo` days ago, with `entered` customers' journeys. */
async function scenario(host: string, name: string, status: string, daysAgo: number, entered = 0): Promise<string> {
  const [row] = await s.sql(
    `insert into scenarios (brand_id, host_id, name, status, graph, run, started_at, run_number)
     select h.brand_id, h.id, $2, $3, '{}'::jsonb, '{}'::jsonb, now() - make_interval(days => $4), 1 from hosts h where h.id = $1 returning id, brand_id`,
    [id[host], name, status, daysAgo],
  );
  await s.sql(
    `insert into journeys (brand_id, scenario_id, customer_id, entry_key, entered_at, updated_at)
     select $2, $1, c.id, 'test', now(), now() from customers c where c.brand_id = $2 order by c.phone limit $3`,
    [row.id, row.brand_id, entered],
  );
  return row.id;
}

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  for (const row of await s.sql(`select id, slug from hosts`)) id[row.slug] = row.id;
  // さくら: c1 at 新宿, c2 at 新宿 and 横浜 (one customer of 関東 however many hotels), c3 at 横浜
  // (unsubscribed), c4 at 京都 (関西), c5 at no hotel. Harbor View: two of its own.
  await customer('sakura-hotels', '09000000001', 'active', ['sakura-shinjuku']);
  await customer('sakura-hotels', '09000000002', 'active', ['sakura-shinjuku', 'sakura-yokohama']);
  await customer('sakura-hotels', '09000000003', 'unsubscribed', ['sakura-yokohama']);
  await customer('sakura-hotels', '09000000004', 'active', ['sakura-kyoto']);
  await customer('sakura-hotels', '09000000005', 'active', []);
  await customer('harbor-view', '09000000006', 'active', ['harbor-kobe']);
  await customer('harbor-view', '09000000007', 'unsubscribed', ['harbor-okinawa']);

  await stats('sakura-shinjuku', window.to, {
    sent: 100,
    delivered: 100,
    opens: 40,
    clicks: 10,
    conversions: 2,
    revenue: 50_000,
  });
  await stats('sakura-shinjuku', window.from, {
    sent: 100,
    delivered: 100,
    opens: 20,
    clicks: 10,
    conversions: 1,
    revenue: 30_000,
  });
  await stats('sakura-shinjuku', lastWeek, {
    sent: 50,
    delivered: 50,
    opens: 10,
    clicks: 5,
    conversions: 0,
    revenue: 0,
  });
  await stats('sakura-yokohama', window.to, {
    sent: 200,
    delivered: 200,
    opens: 50,
    clicks: 20,
    conversions: 1,
    revenue: 20_000,
  });
  await stats('sakura-kyoto', window.to, {
    sent: 1000,
    delivered: 1000,
    opens: 100,
    clicks: 30,
    conversions: 5,
    revenue: 100_000,
  });
  // The brand's own row: guests allocated to no hotel.
  await stats('sakura-hotels', window.to, { sent: 10, delivered: 10, opens: 0, clicks: 0, conversions: 0, revenue: 0 });
  // Older than both windows: never counted.
  await stats('sakura-shinjuku', addDays(window.to, -20), {
    sent: 999,
    delivered: 999,
    opens: 999,
    clicks: 999,
    conversions: 9,
    revenue: 9,
  });
  await stats('harbor-kobe', window.to, { sent: 7, delivered: 7, opens: 7, clicks: 7, conversions: 7, revenue: 7 });

  const soon = new Date(Date.now() + 86_400_000).toISOString();
  await campaign('sakura-shinjuku', '新宿の冬プラン', 'scheduled', { sendAt: soon });
  await campaign('sakura-kyoto', '京都の紅葉', 'scheduled', { sendAt: new Date(Date.now() + 3_600_000).toISOString() });
  // Rates are over the mails of the campaigns sent in each week.
  await campaign(
    'sakura-kyoto',
    '京都の秋',
    'sent',
    { finishedAt: new Date().toISOString() },
    { 'sakura-kyoto': [1000, 100, 30] },
  );
  await campaign(
    'sakura-shinjuku',
    '新宿の秋',
    'sent',
    { finishedAt: new Date().toISOString() },
    { 'sakura-shinjuku': [200, 60, 20], 'sakura-yokohama': [200, 50, 20] },
  );
  await campaign(
    'sakura-shinjuku',
    '新宿の夏',
    'failed',
    { finishedAt: new Date(Date.now() - 9 * 86_400_000).toISOString() },
    { 'sakura-shinjuku': [50, 10, 5] },
  );
  await campaign('harbor-kobe', 'Kobe autumn', 'scheduled', { sendAt: soon });
  // A scenario's mails go out through a hidden campaign: not a campaign sent, nor in the rates.
  const journeyMails = await scenario('sakura-shinjuku', '新宿の誕生日', 'running', 3, 2);
  await campaign(
    'sakura-shinjuku',
    '新宿の誕生日 · メール',
    'sent',
    { finishedAt: new Date().toISOString() },
    { 'sakura-shinjuku': [500, 500, 500] },
  );
  await s.sql(
    `update campaigns set scenario_id = $1, scenario_node_id = 'mail', scenario_round = 1 where name = '新宿の誕生日 · メール'`,
    [journeyMails],
  );
  await scenario('sakura-hotels', 'ブランドのウェルカム', 'running', 1, 3);
  await scenario('sakura-kyoto', '京都の前泊案内', 'running', 10);
  await scenario('sakura-yokohama', '横浜の下書き', 'draft', 0);
  await scenario('sakura-shinjuku', '新宿の終了済み', 'completed', 20);
  await scenario('harbor-kobe', 'Kobe welcome', 'running', 2, 1);
});
afterAll(async () => {
  await s?.close();
});

const get = async (email: string, block: string, headers?: Record<string, string>) => {
  const { token } = await s.login(email);
  const res = await s.call('GET', `/v1/dashboard/${block}`, { token, headers });
  return res;
};

describe('the dashboard of a brand', () => {
  it('shows the brand, its hotel groups and hotels', async () => {
    const res = await get(DEMO.brandAdmin, 'level-info');
    expect(res.status).toBe(200);
    expect(res.body.data.host).toMatchObject({
      name: 'さくらホテルズ',
      level: 'brand',
      address: '東京都千代田区丸の内1-1-1',
      phone: '0312345678',
    });
    expect(res.body.data.hotelGroups.map((g: any) => [g.name, g.hotelCount])).toEqual([
      ['関東エリア', 2],
      ['関西エリア', 1],
    ]);
    expect(res.body.data.hotels.map((h: any) => h.name).sort()).toEqual(
      ['さくらホテル 京都', 'さくらホテル 新宿', 'さくらホテル 横浜', 'さくら旅館 箱根'].sort(),
    );
  });

  it('counts all of the brand’s customers, and has no figure for a week it did not count', async () => {
    const res = await get(DEMO.brandAdmin, 'customer-statistics');
    expect(res.status).toBe(200);
    expect(res.body.data.window).toEqual(window);
    expect(res.body.data.customers).toEqual({ current: 5, previous: null });
    expect(res.body.data.activeCustomers).toEqual({ current: 4, previous: null });
    expect(res.body.data.unsubscribedCustomers).toEqual({ current: 1, previous: null });
    expect(res.body.data.bookingConnected).toBe(false);
    expect(res.body.data.lastSync).toBeNull();
  });

  it('gives the hard-bounce rate of the mails handed to the relay and the complaint rate of delivered, against the week before', async () => {
    const brandId = id['sakura-hotels'];
    const before = (await get(DEMO.brandAdmin, 'campaign-performance')).body.data;
    expect(before.bounceRate).toEqual({ current: 0, previous: 0 });
    expect(before.complaintRate).toEqual({ current: 0, previous: 0 });
    // Every mail of the brand's campaigns bounced, and one in two delivered complained.
    await s.sql(
      `update campaign_host_stats set hard_bounces = sent + failed, complaints = delivered / 2 where brand_id = $1 and delivered % 2 = 0`,
      [brandId],
    );
    await s.sql(
      `update campaign_host_stats set hard_bounces = sent + failed where brand_id = $1 and delivered % 2 = 1`,
      [brandId],
    );
    try {
      const d = (await get(DEMO.brandAdmin, 'campaign-performance')).body.data;
      expect(d.bounceRate).toEqual({ current: 1, previous: 1 });
      expect(d.complaintRate.current).toBeGreaterThan(0.4);
      expect(d.complaintRate.current).toBeLessThanOrEqual(0.5);
      expect(d.complaintRate.previous).toBeGreaterThan(0);
    } finally {
      await s.sql(`update campaign_host_stats set hard_bounces = 0, complaints = 0 where brand_id = $1`, [brandId]);
    }
  });

  it('sums every hotel and the brand’s own row, day by day and per hotel', async () => {
    const res = await get(DEMO.brandAdmin, 'campaign-performance');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.sent).toEqual({ current: 1410, previous: 50 });
    expect(d.openRate.current).toBeCloseTo(210 / 1400);
    expect(d.openRate.previous).toBeCloseTo(10 / 50);
    expect(d.clickRate.current).toBeCloseTo(70 / 1400);
    expect(d.bookings).toEqual({ current: 9, previous: 0 });
    expect(d.revenue).toEqual({ current: 200_000, previous: 0 });
    expect(d.daily).toHaveLength(7);
    expect(d.daily[0]).toMatchObject({ day: window.from, sent: 100, opened: 20, bookings: 1, revenue: 30_000 });
    expect(d.daily[6]).toMatchObject({
      day: window.to,
      sent: 1310,
      opened: 190,
      clicked: 60,
      bookings: 8,
      revenue: 170_000,
    });
    expect(d.daily.slice(1, 6).every((x: any) => x.sent === 0)).toBe(true);
    const byName = Object.fromEntries(d.hotels.map((h: any) => [h.name, h]));
    expect(Object.keys(byName).sort()).toEqual(
      ['さくらホテル 京都', 'さくらホテル 新宿', 'さくらホテル 横浜', 'さくら旅館 箱根'].sort(),
    );
    expect(byName['さくらホテル 新宿']).toMatchObject({
      sent: 200,
      opened: 60,
      clicked: 20,
      bookings: 3,
      revenue: 80_000,
    });
    expect(byName['さくら旅館 箱根']).toMatchObject({ sent: 0, opened: 0, revenue: 0 });
    expect(d.campaignsSent).toEqual({ current: 2, previous: 0 });
    expect(d.campaignsFailed).toEqual({ current: 0, previous: 1 });
    expect(d.nextScheduled.map((c: any) => c.name)).toEqual(['京都の紅葉', '新宿の冬プラン']);
    expect(d).not.toHaveProperty('scenarios');
  });

  it('lists the running scenarios of the brand and everything below it, most recently started first', async () => {
    const res = await get(DEMO.brandAdmin, 'running-scenarios');
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(3);
    expect(res.body.data.scenarios.map((x: any) => [x.name, x.hostName, x.entered])).toEqual([
      ['ブランドのウェルカム', 'さくらホテルズ', 3],
      ['新宿の誕生日', 'さくらホテル 新宿', 2],
      ['京都の前泊案内', 'さくらホテル 京都', 0],
    ]);
    const started = new Date(res.body.data.scenarios[0].startedAt).getTime();
    expect(Math.abs(started - (Date.now() - 86_400_000))).toBeLessThan(600_000);
  });
});

describe('scenario mails', () => {
  it('are neither campaigns sent nor in the rates, for the brand, the group and the hotel', async () => {
    // The hidden campaign finished today with 500 mails all opened and clicked; the figures above
    // (2 campaigns sent, open rate 210 / 1400 for the brand) hold without it.
    const brand = (await get(DEMO.brandAdmin, 'campaign-performance')).body.data;
    expect(brand.campaignsSent.current).toBe(2);
    expect(brand.openRate.current).toBeCloseTo(210 / 1400);
    const group = (await get(DEMO.groupAdmin, 'campaign-performance')).body.data;
    expect(group.campaignsSent.current).toBe(1);
    expect(group.clickRate.current).toBeCloseTo(40 / 400);
    const hotel = (await get(DEMO.hotelViewer, 'campaign-performance')).body.data;
    expect(hotel.campaignsSent.current).toBe(1);
    expect(hotel.openRate.current).toBeCloseTo(0.3);
  });
});

describe('the dashboard of a hotel group', () => {
  it('holds only the group’s hotels', async () => {
    const info = await get(DEMO.groupAdmin, 'level-info');
    expect(info.body.data.host.name).toBe('関東エリア');
    expect(info.body.data.hotelGroups).toEqual([]);
    expect(info.body.data.hotels.map((h: any) => h.name).sort()).toEqual(
      ['さくらホテル 新宿', 'さくらホテル 横浜'].sort(),
    );

    const customers = await get(DEMO.groupAdmin, 'customer-statistics');
    // c1, c2 (at two of its hotels, counted once) and c3; not 京都's c4 nor the brand's c5.
    expect(customers.body.data.customers.current).toBe(3);
    expect(customers.body.data.unsubscribedCustomers.current).toBe(1);

    const perf = (await get(DEMO.groupAdmin, 'campaign-performance')).body.data;
    expect(perf.sent.current).toBe(400);
    expect(perf.revenue.current).toBe(100_000);
    expect(perf.openRate.current).toBeCloseTo(110 / 400);
    expect(perf.hotels.map((h: any) => h.name).sort()).toEqual(['さくらホテル 新宿', 'さくらホテル 横浜'].sort());
    expect(perf.campaignsSent.current).toBe(1);
    expect(perf.nextScheduled.map((c: any) => c.name)).toEqual(['新宿の冬プラン']);
  });
});

describe('the running scenarios of a hotel group and a hotel', () => {
  it('gives a group its own and its hotels’ only, and a hotel its own, to every role', async () => {
    const names = async (email: string) => {
      const res = await get(email, 'running-scenarios');
      expect(res.status, email).toBe(200);
      return res.body.data.scenarios.map((x: any) => x.name);
    };
    expect(await names(DEMO.groupAdmin)).toEqual(['新宿の誕生日']);
    for (const email of [DEMO.hotelAdmin, DEMO.hotelStaff, DEMO.hotelViewer])
      expect(await names(email), email).toEqual(['新宿の誕生日']);
    // Acting as 京都 from the brand: only 京都's.
    const kyoto = await get(DEMO.brandAdmin, 'running-scenarios', {
      'x-user-role': 'admin',
      'x-host-slug': 'sakura-kyoto',
      'x-host-level': 'hotel',
    });
    expect(kyoto.body.data).toMatchObject({ total: 1, scenarios: [{ name: '京都の前泊案内', entered: 0 }] });
  });
});

describe('the dashboard of a hotel', () => {
  it('holds only the hotel, for its admin and its viewer alike', async () => {
    for (const email of [DEMO.hotelAdmin, DEMO.hotelViewer]) {
      const info = await get(email, 'level-info');
      expect(info.body.data).toMatchObject({
        host: { name: 'さくらホテル 新宿', hotelGroupName: '関東エリア' },
        hotelGroups: [],
        hotels: [],
      });
      const customers = (await get(email, 'customer-statistics')).body.data;
      expect(customers.customers.current).toBe(2);
      const perf = (await get(email, 'campaign-performance')).body.data;
      expect(perf.sent).toEqual({ current: 200, previous: 50 });
      expect(perf.openRate.current).toBeCloseTo(0.3);
      expect(perf.clickRate).toEqual({ current: 0.1, previous: 0.1 });
      expect(perf.hotels).toBeNull();
      expect(perf.campaignsFailed).toEqual({ current: 0, previous: 1 });
      expect(perf.nextScheduled.map((c: any) => c.name)).toEqual(['新宿の冬プラン']);
    }
  });

  it('compares with the count kept on the last day of the week before, and recounts a stale count of today', async () => {
    await s.sql(
      `insert into customer_count_days (host_id, day, brand_id, customers, active, unsubscribed) values ($1, $2, $3, 1, 1, 0)
       on conflict (host_id, day) do update set customers = 1, active = 1, unsubscribed = 0`,
      [id['sakura-shinjuku'], window.previousTo, id['sakura-hotels']],
    );
    // A count of today taken long ago is not trusted: a new customer shows.
    await s.sql(
      `update customer_count_days set counted_at = now() - interval '1 hour' where host_id = $1 and day = $2`,
      [id['sakura-shinjuku'], window.to],
    );
    await customer('sakura-hotels', '09000000008', 'unsubscribed', ['sakura-shinjuku']);
    const d = (await get(DEMO.hotelAdmin, 'customer-statistics')).body.data;
    expect(d.customers).toEqual({ current: 3, previous: 1 });
    expect(d.activeCustomers).toEqual({ current: 2, previous: 1 });
    expect(d.unsubscribedCustomers).toEqual({ current: 1, previous: 0 });
    const [row] = await s.sql(`select customers, counted_at from customer_count_days where host_id = $1 and day = $2`, [
      id['sakura-shinjuku'],
      window.to,
    ]);
    expect(row.customers).toBe(3);
    expect(new Date(d.countedAt).getTime()).toBe(new Date(row.counted_at).getTime());
    expect(Date.now() - new Date(d.countedAt).getTime()).toBeLessThan(60_000);
  });
});

describe('the daily customer counts', () => {
  it('keep each host’s count at the end of its yesterday, once, and the dashboard compares with it', async () => {
    await s.sql(`delete from customer_count_days where day = $1`, [window.previousTo]);
    // Six days ago, "yesterday" was the last day of the week before today's window.
    const then = new Date(Date.now() - 6 * 86_400_000);
    const [{ n }] = await s.sql(
      `select count(*)::int as n from hosts where level <> 'grand_user' and deleted_at is null`,
    );
    expect(await keepDailyCustomerCounts(s.rt, then)).toBe(n);
    expect(await keepDailyCustomerCounts(s.rt, then)).toBe(0);
    const rows = await s.sql(`select host_id, customers from customer_count_days where day = $1`, [window.previousTo]);
    expect(rows).toHaveLength(n);
    expect(rows.find((r) => r.host_id === id['harbor-view'])?.customers).toBe(2);

    // Today's counts were taken earlier in this file, before a customer was added: let them age out.
    await s.sql(`update customer_count_days set counted_at = now() - interval '1 hour' where day = $1`, [window.to]);
    for (const email of [DEMO.brandAdmin, DEMO.groupAdmin, DEMO.hotelViewer, DEMO.harborAdmin]) {
      const d = (await get(email, 'customer-statistics')).body.data;
      // Nothing changed since the count: the week before equals now, known for every scope.
      expect(d.customers.previous, email).toBe(d.customers.current);
      expect(d.unsubscribedCustomers.previous, email).toBe(d.unsubscribedCustomers.current);
    }
  });
});

describe('another brand and the platform', () => {
  it('gives another brand only its own figures', async () => {
    const info = (await get(DEMO.harborAdmin, 'level-info')).body.data;
    expect(info.host.name).toBe('Harbor View Hotels');
    expect(info.hotels.map((h: any) => h.name).sort()).toEqual(['Harbor View Kobe', 'Harbor View Okinawa']);
    const customers = (await get(DEMO.harborAdmin, 'customer-statistics')).body.data;
    expect(customers.customers.current).toBe(2);
    const perf = (await get(DEMO.harborAdmin, 'campaign-performance')).body.data;
    expect(perf.sent.current).toBe(7);
    expect(perf.hotels.map((h: any) => h.name).sort()).toEqual(['Harbor View Kobe', 'Harbor View Okinawa']);
    expect(perf.nextScheduled.map((c: any) => c.name)).toEqual(['Kobe autumn']);
    const scenarios = (await get(DEMO.harborAdmin, 'running-scenarios')).body.data;
    expect(scenarios).toMatchObject({
      total: 1,
      scenarios: [{ name: 'Kobe welcome', hostName: 'Harbor View Kobe', entered: 1 }],
    });
  });

  it('refuses another brand’s host as the acting context', async () => {
    const res = await get(DEMO.harborAdmin, 'campaign-performance', {
      'x-user-role': 'admin',
      'x-host-slug': 'sakura-shinjuku',
      'x-host-level': 'hotel',
    });
    expect(res.status).toBe(403);
  });

  it('has no dashboard for the granduser, and none without signing in', async () => {
    for (const block of ['level-info', 'customer-statistics', 'campaign-performance', 'running-scenarios']) {
      expect((await get(DEMO.grand, block)).status).toBe(403);
      expect((await s.call('GET', `/v1/dashboard/${block}`)).status).toBe(401);
    }
  });
});

describe('days in two time zones', () => {
  it('counts each hotel’s mails on its own calendar day, and a brand’s day is the sum of its hotels’ same day', async () => {
    // Harbor View (Tokyo) with 沖縄 moved to Honolulu, 19 hours behind. Half past midnight of
    // yesterday in Tokyo is still the afternoon of the day before in Honolulu.
    await s.sql(`update hosts set timezone = 'Pacific/Honolulu' where id = $1`, [id['harbor-okinawa']]);
    const tokyo = dashboardWindow(new Date(), 'Asia/Tokyo');
    const yesterday = addDays(tokyo.to, -1);
    const at = new Date(new Date(`${yesterday}T00:30:00+09:00`).getTime());
    expect(localDay(at, 'Asia/Tokyo')).toBe(yesterday);
    expect(localDay(at, 'Pacific/Honolulu')).toBe(addDays(yesterday, -1));
    const as = (slug: string) => ({ 'x-user-role': 'admin', 'x-host-slug': slug, 'x-host-level': 'hotel' });
    const perf = async (headers?: Record<string, string>) =>
      (await get(DEMO.harborAdmin, 'campaign-performance', headers)).body.data;
    const before = await perf();

    const [camp] = await s.sql(
      `insert into campaigns (brand_id, host_id, name, status, started_at, finished_at) values ($1, $1, 'Midnight', 'sent', $2, $2) returning id`,
      [id['harbor-view'], at.toISOString()],
    );
    const outcomes = [
      ...Array.from({ length: 3 }, () => id['harbor-kobe']!),
      ...Array.from({ length: 5 }, () => id['harbor-okinawa']!),
    ].map((hotelId) => ({
      deliveryId: crypto.randomUUID(),
      campaignId: camp.id,
      brandId: id['harbor-view']!,
      hotelId,
      outcome: 'sent' as const,
      at,
    }));
    await withTenant(s.rt.database.db, { scopeAll: false, brandId: id['harbor-view']! }, (tx) =>
      recordDeliveryOutcomes(tx, outcomes),
    );

    const brand = await perf();
    const sentOn = (d: any, day: string) => d.daily.find((x: any) => x.day === day)?.sent ?? 0;
    expect(sentOn(brand, yesterday) - sentOn(before, yesterday)).toBe(3);
    expect(sentOn(brand, addDays(yesterday, -1)) - sentOn(before, addDays(yesterday, -1))).toBe(5);
    const kobe = await perf(as('harbor-kobe'));
    const okinawa = await perf(as('harbor-okinawa'));
    expect(kobe.window.timezone).toBe('Asia/Tokyo');
    expect(okinawa.window.timezone).toBe('Pacific/Honolulu');
    expect(sentOn(kobe, yesterday)).toBe(3);
    expect(sentOn(okinawa, addDays(yesterday, -1))).toBe(5);
    // Every day of the brand's chart is exactly its hotels' own figures of that date (the brand has no row of its own here).
    for (const day of brand.daily) {
      for (const key of ['sent', 'opened', 'clicked', 'bookings', 'revenue'])
        expect(day[key], `${day.day} ${key}`).toBe(
          (kobe.daily.find((x: any) => x.day === day.day)?.[key] ?? 0) +
            (okinawa.daily.find((x: any) => x.day === day.day)?.[key] ?? 0),
        );
    }
    // The campaign is one instant: it finished yesterday in Tokyo, the brand's zone.
    expect(brand.campaignsSent.current).toBe(before.campaignsSent.current + 1);
  });
});

describe('customers without an email address', () => {
  it('count as customers but not as active ones, as the campaign audience leaves them out', async () => {
    // Harbor View has an active guest with an address (神戸) and an unsubscribed one (沖縄); two
    // more active ones at 神戸 have none (one null, one blank).
    for (const [phone, email] of [
      ['09000000009', null],
      ['09000000010', ''],
    ] as const) {
      const [row] = await s.sql(
        `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '次郎', '佐藤', $2, $3) returning id`,
        [id['harbor-view'], phone, email],
      );
      await s.sql(
        `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'import')`,
        [row.id, id['harbor-kobe'], id['harbor-view']],
      );
    }
    await s.sql(`update customer_count_days set counted_at = now() - interval '1 hour' where day = $1`, [window.to]);
    const brand = (await get(DEMO.harborAdmin, 'customer-statistics')).body.data;
    expect(brand.customers.current).toBe(4);
    expect(brand.activeCustomers.current).toBe(1);
    expect(brand.unsubscribedCustomers.current).toBe(1);
    const kobe = (
      await get(DEMO.harborAdmin, 'customer-statistics', {
        'x-user-role': 'admin',
        'x-host-slug': 'harbor-kobe',
        'x-host-level': 'hotel',
      })
    ).body.data;
    expect([kobe.customers.current, kobe.activeCustomers.current, kobe.unsubscribedCustomers.current]).toEqual([
      3, 1, 0,
    ]);

    // A campaign to every customer of the brand reaches the same one.
    const { token } = await s.login(DEMO.harborAdmin);
    const segment = await s.call('POST', '/v1/segments', { token, body: { name: 'Everyone', type: 'static' } });
    const added = await s.call('POST', `/v1/segments/${segment.body.data.id}/members`, {
      token,
      body: { selection: {} },
    });
    expect(added.body.data.total).toBe(4);
    const preview = await s.call('POST', '/v1/campaigns/audience', {
      token,
      body: { segmentIds: [segment.body.data.id] },
    });
    expect(preview.body.data).toMatchObject({ matched: 4, unsubscribed: 1, noEmail: 2, recipients: 1 });
    expect(preview.body.data.recipients).toBe(brand.activeCustomers.current);
  });
});

describe('customers whose address is on the suppression list', () => {
  it('are not active, as the campaign audience leaves them out, now and in the daily counts kept', async () => {
    // Harbor View has one active guest with an address (06), an unsubscribed one and two without an
    // address. Five more at 神戸, each with an entry of the brand's suppression list as the rules
    // write it (the address in lower case): a hard bounce (no end), a complaint (which also
    // unsubscribes the guest), soft bounces whose 30 days are over, soft bounces still within
    // them, and a manual entry lifted since.
    const guest = async (phone: string, email: string, status: 'active' | 'unsubscribed' = 'active') => {
      const [row] = await s.sql(
        `insert into customers (brand_id, first_name, last_name, phone, email, email_status) values ($1, '花子', '鈴木', $2, $3, $4) returning id`,
        [id['harbor-view'], phone, email, status],
      );
      await s.sql(
        `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'import')`,
        [row.id, id['harbor-kobe'], id['harbor-view']],
      );
      return row.id as string;
    };
    const entry = async (customerId: string, email: string, reason: string, extra: string) =>
      s.sql(
        `insert into suppressions (brand_id, email, customer_id, reason, until, lifted_at, created_at) values ($1, $2, $3, $4, ${extra})`,
        [id['harbor-view'], email.toLowerCase(), customerId, reason],
      );
    const hard = await guest('09000000011', 'Bounced.Hard@guest.test');
    await entry(hard, 'Bounced.Hard@guest.test', 'hard_bounce', `null, null, now() - interval '3 days'`);
    const complained = await guest('09000000012', 'complained@guest.test', 'unsubscribed');
    await entry(complained, 'complained@guest.test', 'complaint', `null, null, now() - interval '2 days'`);
    const expired = await guest('09000000013', 'full.mailbox@guest.test');
    await entry(
      expired,
      'full.mailbox@guest.test',
      'soft_bounces',
      `now() - interval '1 day', null, now() - interval '31 days'`,
    );
    const soft = await guest('09000000014', 'still.full@guest.test');
    await entry(
      soft,
      'still.full@guest.test',
      'soft_bounces',
      `now() + interval '20 days', null, now() - interval '10 days'`,
    );
    const lifted = await guest('09000000015', 'lifted@guest.test');
    await entry(lifted, 'lifted@guest.test', 'manual', `null, now() - interval '1 hour', now() - interval '5 days'`);
    // Another brand's entry for Harbor View's active guest's address suppresses nothing here.
    await s.sql(
      `insert into suppressions (brand_id, email, reason) values ($1, '09000000006@guest.test', 'hard_bounce')`,
      [id['sakura-hotels']],
    );

    await s.sql(`update customer_count_days set counted_at = now() - interval '1 hour' where day = $1`, [window.to]);
    const brand = (await get(DEMO.harborAdmin, 'customer-statistics')).body.data;
    // Active: 06, the expired soft bounces and the lifted entry; unsubscribed: 07 and the complainer.
    expect([brand.customers.current, brand.activeCustomers.current, brand.unsubscribedCustomers.current]).toEqual([
      9, 3, 2,
    ]);
    const kobe = (
      await get(DEMO.harborAdmin, 'customer-statistics', {
        'x-user-role': 'admin',
        'x-host-slug': 'harbor-kobe',
        'x-host-level': 'hotel',
      })
    ).body.data;
    expect([kobe.customers.current, kobe.activeCustomers.current, kobe.unsubscribedCustomers.current]).toEqual([
      8, 3, 1,
    ]);

    // A campaign to every customer of the brand reaches the same three.
    const { token } = await s.login(DEMO.harborAdmin);
    const segment = await s.call('POST', '/v1/segments', { token, body: { name: 'Everyone now', type: 'static' } });
    const added = await s.call('POST', `/v1/segments/${segment.body.data.id}/members`, {
      token,
      body: { selection: {} },
    });
    expect(added.body.data.total).toBe(9);
    const preview = await s.call('POST', '/v1/campaigns/audience', {
      token,
      body: { segmentIds: [segment.body.data.id] },
    });
    expect(preview.body.data).toMatchObject({ matched: 9, unsubscribed: 2, noEmail: 2, bounced: 2, recipients: 3 });
    expect(preview.body.data.recipients).toBe(brand.activeCustomers.current);

    // The count kept for yesterday (what "the week before" compares with) counts alike.
    const harbor = [id['harbor-view'], id['harbor-kobe']];
    const yesterday = addDays(localDay(new Date(), 'Asia/Tokyo'), -1);
    await s.sql(`delete from customer_count_days where host_id = any($1::uuid[]) and day = $2`, [harbor, yesterday]);
    await keepDailyCustomerCounts(s.rt);
    const kept = await s.sql(
      `select host_id, customers, active, unsubscribed from customer_count_days where host_id = any($1::uuid[]) and day = $2`,
      [harbor, yesterday],
    );
    const keptOf = (host: string) => kept.find((r) => r.host_id === id[host]);
    expect(keptOf('harbor-view')).toMatchObject({ customers: 9, active: 3, unsubscribed: 2 });
    expect(keptOf('harbor-kobe')).toMatchObject({ customers: 8, active: 3, unsubscribed: 1 });
  });
});
