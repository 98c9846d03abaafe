import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_LIST_STATUSES, listStatusOf } from '@yado/contracts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { quietNow } from '../../test/quiet-hours.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { sendCampaign, startCampaign } from './send-campaign.ts';

/**
 * What the console reads of a sending campaign held by quiet hours (the list, one campaign, the
 * dashboard's next campaigns), and what a hotel (or its group) reads of its brand's campaign that
 * reached its guests: the same campaign, read-only, with its own guests' figures only, alike on
 * the list, the statistics and the dashboard. Over HTTP, on a server without a worker, the send
 * run step by step into the embedded SMTP sink.
 */

let s: TTestServer;
let brand: { id: string };
let shinjuku: { id: string; name: string };
let kyoto: { id: string; name: string };
let hakone: { id: string; name: string };
const tag = randomBytes(3).toString('hex');
const mail = (local: string) => `${local}.${tag}@guest.example.jp`;
const HARBOR = { 'x-user-role': 'admin', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };

const token = async (email: string) => (await s.login(email)).token;

async function customer(hotelId: string, first: string, email: string): Promise<string> {
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '山田', $3, $4) returning id`,
    [brand.id, first, `090${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, email],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotelId, brand.id],
  );
  return row.id as string;
}

/**
 * A brand campaign to these customers, sent now and run once (what quiet hours allow goes); with
 * `run` false only started: its deliveries all wait in the queue.
 */
async function brandCampaign(name: string, customerIds: string[], { run = true } = {}): Promise<string> {
  const t = await token(DEMO.brandAdmin);
  const segment = (await s.call('POST', '/v1/segments', { token: t, body: { name: `${name} ${tag}`, type: 'static' } }))
    .body.data.id as string;
  await s.call('POST', `/v1/segments/${segment}/members`, { token: t, body: { customerIds } });
  const templateId = (
    await s.call('POST', '/v1/templates', {
      token: t,
      body: {
        name: `${name} ${tag}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: name, preheader: '', document: { version: 1, sections: [] } } },
      },
    })
  ).body.data.id as string;
  const created = await s.call('POST', '/v1/campaigns', {
    token: t,
    body: { name: `${name} ${tag}`, subject: name, recipients: { segmentIds: [segment] }, templateId },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  const sent = await s.call('POST', `/v1/campaigns/${id}/send-now`, { token: t, body: {} });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await startCampaign(s.rt, { campaignId: id, brandId: brand.id });
  if (run) await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
  return id;
}

async function setQuietHours(hotelId: string, quiet: { start: string; end: string } | null) {
  await s.sql(
    `insert into campaign_email_settings (host_id, brand_id, quiet_hours_start, quiet_hours_end) values ($1, $2, $3, $4)
     on conflict (host_id) do update set quiet_hours_start = excluded.quiet_hours_start, quiet_hours_end = excluded.quiet_hours_end`,
    [hotelId, brand.id, quiet?.start ?? null, quiet?.end ?? null],
  );
}

const listed = async (t: string, id: string, headers?: Record<string, string>) => {
  const res = await s.call('GET', '/v1/campaigns?pageSize=100', { token: t, ...(headers ? { headers } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.items as { id: string }[]).find((c) => c.id === id) as Record<string, any> | undefined;
};

const performance = async (t: string) => {
  const res = await s.call('GET', '/v1/dashboard/campaign-performance', { token: t });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [shinjuku] = await s.sql(`select id, name from hosts where slug = 'sakura-shinjuku'`);
  [kyoto] = await s.sql(`select id, name from hosts where slug = 'sakura-kyoto'`);
  [hakone] = await s.sql(`select id, name from hosts where slug = 'sakura-hakone'`);
  // No quiet hours at the brand: each test gives a hotel its own.
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
});
afterAll(async () => {
  await s?.close();
});

describe('a campaign held by quiet hours', () => {
  it('says so with the hotel, when they end and how many wait, on the list, the campaign and the dashboard', async () => {
    const quiet = quietNow();
    await setQuietHours(hakone.id, quiet);
    try {
      const id = await brandCampaign('静かな夜', [
        await customer(hakone.id, '一', mail('held-1')),
        await customer(hakone.id, '二', mail('held-2')),
        await customer(shinjuku.id, '三', mail('free')),
      ]);
      const t = await token(DEMO.brandAdmin);
      const expected = {
        reason: 'quiet_hours',
        localTime: quiet.end,
        timeZone: 'Asia/Tokyo',
        hostName: hakone.name,
        otherHosts: 0,
        waiting: 2,
        // 新宿's guest is sent: nothing else is on its way.
        whole: true,
      };

      const one = (await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data;
      expect(one.status).toBe('pending');
      expect(one.statistics).toMatchObject({ audience: 3, sent: 1, queued: 2 });
      expect(one.hold).toMatchObject(expected);
      const until = new Date(one.hold.until);
      expect(until.getTime()).toBeGreaterThan(Date.now());
      expect(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Asia/Tokyo',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(until),
      ).toBe(quiet.end);

      expect((await listed(t, id))?.hold).toEqual(one.hold);
      const next = (await performance(t)).nextScheduled.find((c: { id: string }) => c.id === id);
      expect(next).toMatchObject({ sendAt: one.hold.until, hold: expected });

      // Morning comes in 箱根 (the quiet hours lifted): nothing is held any more, and it is sent.
      await setQuietHours(hakone.id, null);
      expect((await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data.hold).toBeNull();
      await sendCampaign(s.rt, { campaignId: id, brandId: brand.id });
      const done = (await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data;
      expect(done).toMatchObject({ status: 'sent', hold: null });
      expect((await performance(t)).nextScheduled.some((c: { id: string }) => c.id === id)).toBe(false);
    } finally {
      await setQuietHours(hakone.id, null);
    }
  });

  it('is not said of a paused campaign, on the list, the campaign or the dashboard: the pause holds it', async () => {
    const quiet = quietNow();
    await setQuietHours(hakone.id, quiet);
    try {
      const id = await brandCampaign('止めた夜', [await customer(hakone.id, '一', mail('paused-1'))]);
      const t = await token(DEMO.brandAdmin);
      expect((await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data.hold).toMatchObject({ waiting: 1 });

      const paused = await s.call('POST', `/v1/campaigns/${id}/pause`, { token: t, body: {} });
      expect(paused.status, JSON.stringify(paused.body)).toBe(200);
      expect(paused.body.data).toMatchObject({
        status: 'pending',
        hold: null,
        paused: { by: { name: expect.any(String) } },
      });
      expect((await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data).toMatchObject({ hold: null });
      expect((await listed(t, id))?.hold).toBeNull();
      expect((await performance(t)).nextScheduled.some((c: { id: string }) => c.id === id)).toBe(false);

      // Resumed, the quiet hours hold it again, and say until when.
      await s.call('POST', `/v1/campaigns/${id}/resume`, { token: t, body: {} });
      const resumed = (await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data;
      expect(resumed).toMatchObject({ paused: null, hold: { localTime: quiet.end, waiting: 1 } });
    } finally {
      await setQuietHours(hakone.id, null);
    }
  });

  it('is partial while another hotel still sends, naming the hotel whose quiet hours end first', async () => {
    const quiet = quietNow();
    await setQuietHours(hakone.id, quiet);
    await setQuietHours(kyoto.id, { start: quiet.start, end: quiet.end.replace(':00', ':30') });
    try {
      const id = await brandCampaign('二つの宿', [
        await customer(hakone.id, '箱', mail('two-hakone')),
        await customer(kyoto.id, '京', mail('two-kyoto')),
      ]);
      const t = await token(DEMO.brandAdmin);
      // A guest of 新宿 added to the queue by hand: not held, so the hold is not the whole send.
      const extra = await customer(shinjuku.id, '新', mail('two-extra'));
      await s.sql(
        `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status) values ($1, $2, $3, $4, $5, 'queued')`,
        [id, brand.id, extra, shinjuku.id, mail('two-extra')],
      );
      const hold = (await s.call('GET', `/v1/campaigns/${id}`, { token: t })).body.data.hold;
      expect(hold).toMatchObject({
        hostName: hakone.name,
        localTime: quiet.end,
        otherHosts: 1,
        waiting: 2,
        whole: false,
      });
    } finally {
      await setQuietHours(hakone.id, null);
      await setQuietHours(kyoto.id, null);
    }
  });
});

describe("the list's status filter", () => {
  it('finds a sending campaign under the status its badge shows: Paused, Waiting (held whole), else Pending', async () => {
    const quiet = quietNow();
    await setQuietHours(hakone.id, quiet);
    try {
      // 新宿 has no quiet hours: started, its guest still to send.
      const sending = await brandCampaign('送信中', [await customer(shinjuku.id, '一', mail('filter-sending'))], {
        run: false,
      });
      // 箱根's guest held, 新宿's on its way: partly held, so still sending ("Pending" with a hold note).
      const partly = await brandCampaign(
        '一部待機',
        [
          await customer(hakone.id, '二', mail('filter-partly-h')),
          await customer(shinjuku.id, '三', mail('filter-partly-s')),
        ],
        { run: false },
      );
      // 箱根's guests only: quiet hours hold everything left ("Waiting").
      const held = await brandCampaign('待機', [await customer(hakone.id, '四', mail('filter-held'))]);
      const paused = await brandCampaign('一時停止', [await customer(shinjuku.id, '五', mail('filter-paused'))], {
        run: false,
      });
      const t = await token(DEMO.brandAdmin);
      expect((await s.call('POST', `/v1/campaigns/${paused}/pause`, { token: t, body: {} })).status).toBe(200);

      const ours = [sending, partly, held, paused];
      const found: Record<string, string[]> = {};
      for (const status of CAMPAIGN_LIST_STATUSES) {
        const res = await s.call('GET', `/v1/campaigns?status=${status}&pageSize=100`, { token: t });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const page = res.body.data;
        expect(page.total).toBeLessThanOrEqual(100);
        // Every campaign found shows the badge of the status asked for, and the option counts them.
        for (const item of page.items) expect(listStatusOf(item), item.name).toBe(status);
        expect(page.headline.byStatus[status], status).toBe(page.total);
        found[status] = (page.items as { id: string }[]).map((c) => c.id).filter((id) => ours.includes(id));
      }
      expect(found.pending?.sort()).toEqual([sending, partly].sort());
      expect(found.waiting).toEqual([held]);
      expect(found.paused).toEqual([paused]);
      expect(found.scheduled).toEqual([]);
      const all = (await s.call('GET', '/v1/campaigns?pageSize=100', { token: t })).body.data;
      expect(Object.values(all.headline.byStatus as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(all.total);

      // Resumed, the paused one is found under Pending again.
      await s.call('POST', `/v1/campaigns/${paused}/resume`, { token: t, body: {} });
      const pending = (await s.call('GET', '/v1/campaigns?status=pending&pageSize=100', { token: t })).body.data;
      expect(pending.items.map((c: { id: string }) => c.id)).toContain(paused);
    } finally {
      await setQuietHours(hakone.id, null);
    }
  });
});

describe("a hotel's view of its brand's campaign", () => {
  it('lists it read-only with its own guests only, and the statistics and the dashboard agree', async () => {
    const id = await brandCampaign('ブランド便', [
      await customer(shinjuku.id, '新宿', mail('brand-shinjuku')),
      await customer(kyoto.id, '京都', mail('brand-kyoto')),
      await customer(kyoto.id, '京都二', mail('brand-kyoto-2')),
    ]);
    const brandToken = await token(DEMO.brandAdmin);
    const brandView = (await s.call('GET', `/v1/campaigns/${id}`, { token: brandToken })).body.data;
    expect(brandView).toMatchObject({ status: 'sent', scope: 'campaign', statistics: { audience: 3, sent: 3 } });

    for (const email of [DEMO.hotelStaff, DEMO.hotelViewer]) {
      const t = await token(email);
      const row = await listed(t, id);
      expect(row, email).toMatchObject({
        scope: 'own_guests',
        editable: false,
        hostName: brandView.hostName,
        statistics: { audience: 1, sent: 1, failed: 0 },
      });
      const one = await s.call('GET', `/v1/campaigns/${id}`, { token: t });
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual(row);

      const report = await s.call('GET', `/v1/campaigns/${id}/statistics`, { token: t });
      expect(report.status).toBe(200);
      expect(report.body.data.totals).toMatchObject({ sent: 1, delivered: 1 });
      const hotels = (await s.call('GET', `/v1/campaigns/${id}/statistics/hotels`, { token: t })).body.data.hotels;
      expect(hotels.map((h: { hostName: string }) => h.hostName)).toEqual([shinjuku.name]);
      const recipients = (await s.call('GET', `/v1/campaigns/${id}/recipients`, { token: t })).body.data.items;
      expect(recipients.map((r: { email: string }) => r.email)).toEqual([mail('brand-shinjuku')]);
      const deliveries = (await s.call('GET', `/v1/campaigns/${id}/deliveries`, { token: t })).body.data;
      expect(deliveries.total).toBe(1);
      expect(deliveries.items[0].hotelId).toBe(shinjuku.id);
      // Kept for the whole campaign only: nothing of the other hotels' guests shows through them.
      expect((await s.call('GET', `/v1/campaigns/${id}/statistics/links`, { token: t })).body.data.links).toEqual([]);
      const series = await s.call('GET', `/v1/campaigns/${id}/statistics/series?interval=hour`, { token: t });
      expect(series.body.data.points).toEqual([]);
    }

    // The dashboard counts the campaigns the list shows: those sent this week, the brand's included.
    const t = await token(DEMO.hotelStaff);
    const perf = await performance(t);
    const page = (await s.call('GET', '/v1/campaigns?status=sent&pageSize=100', { token: t })).body.data;
    const since = new Date(`${perf.window.from}T00:00:00+09:00`).getTime();
    const sentThisWeek = page.items.filter(
      (c: { finishedAt: string | null }) => c.finishedAt && Date.parse(c.finishedAt) >= since,
    );
    expect(sentThisWeek.map((c: { id: string }) => c.id)).toContain(id);
    expect(perf.campaignsSent.current).toBe(sentThisWeek.length);
    expect(page.headline.byStatus.sent).toBe(page.total);
    // The list's headline sums what its rows show: of the brand's campaign, the hotel's own guest.
    const all = (await s.call('GET', '/v1/campaigns?pageSize=100', { token: t })).body.data;
    expect(all.total).toBeLessThanOrEqual(100);
    for (const key of ['sent', 'skipped', 'failed'] as const)
      expect(all.headline[key], key).toBe(
        all.items.reduce((n: number, c: { statistics: Record<string, number> }) => n + c.statistics[key]!, 0),
      );
  });

  it('may not change or copy it, and other hotels, groups without its guests and other brands do not see it', async () => {
    const id = await brandCampaign('他館', [await customer(kyoto.id, '京都', mail('other-kyoto'))]);
    const staff = await token(DEMO.hotelStaff);
    expect(await listed(staff, id)).toBeUndefined();
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token: staff })).status).toBe(404);
    expect((await s.call('GET', `/v1/campaigns/${id}/statistics`, { token: staff })).status).toBe(404);
    expect((await s.call('GET', `/v1/campaigns/${id}/recipients`, { token: staff })).status).toBe(404);
    // 関東エリア (新宿, 横浜) has no guest of it either.
    const group = await token(DEMO.groupAdmin);
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token: group })).status).toBe(404);
    const harbor = await token(DEMO.harborAdmin);
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token: harbor, headers: HARBOR })).status).toBe(404);

    const mine = await brandCampaign('自館', [
      await customer(shinjuku.id, '新宿', mail('mine-shinjuku')),
      await customer(kyoto.id, '京都', mail('mine-kyoto')),
    ]);
    const admin = await token(DEMO.hotelAdmin);
    expect((await s.call('POST', `/v1/campaigns/${mine}/duplicate`, { token: admin, body: {} })).status).toBe(403);
    expect((await s.call('POST', `/v1/campaigns/${mine}/cancel`, { token: admin, body: {} })).status).toBe(403);
    expect((await s.call('DELETE', `/v1/campaigns/${mine}`, { token: admin })).status).toBe(403);
    // The group sees it for 新宿's guest, its hotel's.
    const groupRow = await listed(group, mine);
    expect(groupRow).toMatchObject({ scope: 'own_guests', statistics: { audience: 1, sent: 1 } });
  });

  it("shows its brand's campaign held by its own quiet hours on its dashboard, counting its own guests", async () => {
    const quiet = quietNow();
    await setQuietHours(shinjuku.id, quiet);
    await setQuietHours(hakone.id, quiet);
    try {
      const id = await brandCampaign('夜の便', [
        await customer(shinjuku.id, '一', mail('night-s1')),
        await customer(shinjuku.id, '二', mail('night-s2')),
        await customer(hakone.id, '三', mail('night-h')),
      ]);
      const brandHold = (await s.call('GET', `/v1/campaigns/${id}`, { token: await token(DEMO.brandAdmin) })).body.data
        .hold;
      expect(brandHold).toMatchObject({ waiting: 3, otherHosts: 1 });

      const t = await token(DEMO.hotelStaff);
      const expected = { reason: 'quiet_hours', hostName: shinjuku.name, waiting: 2, otherHosts: 0, whole: true };
      const row = await listed(t, id);
      expect(row).toMatchObject({ status: 'pending', scope: 'own_guests', statistics: { audience: 2, queued: 2 } });
      expect(row?.hold).toMatchObject(expected);
      const next = (await performance(t)).nextScheduled.find((c: { id: string }) => c.id === id);
      expect(next?.hold).toEqual(row?.hold);
    } finally {
      await setQuietHours(shinjuku.id, null);
      await setQuietHours(hakone.id, null);
    }
  });
});
