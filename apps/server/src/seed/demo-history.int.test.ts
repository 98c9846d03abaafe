import { createBookingSim } from '@yado/booking-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../test/harness.ts';
import { connectDemoBrands } from '../modules/booking/connect-demo-brands.ts';
import { seedDemo } from './demo.ts';
import { seedDemoSending } from './demo-sending.ts';
import { DEMO_HISTORY_BRAND, DEMO_HISTORY_MARK, seedDemoHistory } from './demo-history.ts';

let s: TTestServer;
beforeAll(async () => {
  // The simulator on real time, as `npm start` embeds it (the dashboard reads the real today).
  s = await startTestServer({ bookingSim: createBookingSim({ seed: 7, guestsPerAccount: 2000, rateLimit: false }) });
  // What startRuntime runs on the first start of the embedded product (the test template was seeded without it).
  await seedDemoSending(s.rt);
  await connectDemoBrands(s.rt, [DEMO_HISTORY_BRAND]);
  await seedDemoHistory(s.rt);
}, 300_000);
afterAll(async () => {
  await s?.close();
});

const n = async (text: string, values: unknown[]) => Number((await s.sql(text, values))[0].n);

describe('the demo history of a first start', () => {
  it('gives the dashboard figures for the last 7 days and the 7 before that agree with the deliveries, events and bookings', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/dashboard/campaign-performance', { token });
    expect(res.status).toBe(200);
    const p = res.body.data;
    const [brand] = await s.sql(`select id from hosts where slug = $1`, [DEMO_HISTORY_BRAND]);
    const w = p.window;
    const weeks = [
      { key: 'current', from: w.from, to: w.to },
      { key: 'previous', from: w.previousFrom, to: w.previousTo },
    ] as const;
    const inWeek = (column: string) =>
      `${column} >= ($2::date)::timestamp at time zone $4 and ${column} < ($3::date + 1)::timestamp at time zone $4`;
    for (const week of weeks) {
      const args = [brand.id, week.from, week.to, w.timezone];
      const sent = await n(
        `select count(*) as n from deliveries where brand_id = $1 and status = 'sent' and ${inWeek('sent_at')}`,
        args,
      );
      const bookings = await n(
        `select count(*) as n from campaign_conversions where brand_id = $1 and ${inWeek('at')}`,
        args,
      );
      const revenue = await n(
        `select coalesce(sum(amount), 0) as n from campaign_conversions where brand_id = $1 and ${inWeek('at')}`,
        args,
      );
      // The rates: uniquely opened and clicked mails (a click counts as its open) over the mails
      // delivered by the campaigns whose send started in the week.
      const ofWeek = `from deliveries d join campaigns c on c.id = d.campaign_id left join delivery_engagement e on e.delivery_id = d.id
        where d.brand_id = $1 and d.status = 'sent' and ${inWeek('c.started_at')}`;
      const delivered = await n(`select count(*) as n ${ofWeek}`, args);
      const opened = await n(`select count(e.opened_at) as n ${ofWeek}`, args);
      const clicked = await n(`select count(e.clicked_at) as n ${ofWeek}`, args);
      const machine = await n(
        `select count(*) as n from tracking_events where brand_id = $1 and kind = 'machine_open' and ${inWeek('occurred_at')}`,
        args,
      );
      expect(sent).toBeGreaterThan(0);
      expect(bookings).toBeGreaterThan(0);
      expect(opened).toBeGreaterThan(0);
      expect(clicked).toBeGreaterThan(0);
      expect(machine).toBeGreaterThan(0);
      expect(p.sent[week.key]).toBe(sent);
      expect(p.bookings[week.key]).toBe(bookings);
      expect(p.revenue[week.key]).toBe(revenue);
      expect(p.openRate[week.key]).toBeCloseTo(opened / delivered, 12);
      expect(p.clickRate[week.key]).toBeCloseTo(clicked / delivered, 12);
      // Issue 25's 7-day rates: hard bounces of the mails handed to the relay (sent + failed),
      // complaints of delivered, by the feedback events of those campaigns.
      const handed = await n(
        `select count(*) as n from deliveries d join campaigns c on c.id = d.campaign_id
          where d.brand_id = $1 and d.status in ('sent', 'failed') and ${inWeek('c.started_at')}`,
        args,
      );
      const feedback = (kind: string) =>
        n(
          `select count(*) as n from feedback_events f join campaigns c on c.id = f.campaign_id
            where f.brand_id = $1 and f.kind = '${kind}' and ${inWeek('c.started_at')}`,
          args,
        );
      const hard = await feedback('hard_bounce');
      expect(hard).toBeGreaterThan(0);
      expect(p.bounceRate[week.key]).toBeCloseTo(hard / handed, 12);
      expect(p.complaintRate[week.key]).toBeCloseTo((await feedback('complaint')) / delivered, 12);
      // Below protection's pause thresholds (5 % hard bounces, 0.3 % complaints).
      expect(p.bounceRate[week.key]).toBeLessThan(0.05);
      expect(p.complaintRate[week.key]).toBeLessThan(0.003);
      expect(p.campaignsSent[week.key]).toBe(
        await n(
          `select count(*) as n from campaigns where brand_id = $1 and status = 'sent' and ${inWeek('finished_at')}`,
          args,
        ),
      );
    }
    // The daily chart: each day's first opens and clicks, by the hand-counted engagement.
    for (const day of p.daily) {
      const args = [brand.id, day.day, day.day, w.timezone];
      expect(day.opened).toBe(
        await n(`select count(*) as n from delivery_engagement where brand_id = $1 and ${inWeek('opened_at')}`, args),
      );
      expect(day.clicked).toBe(
        await n(`select count(*) as n from delivery_engagement where brand_id = $1 and ${inWeek('clicked_at')}`, args),
      );
    }
    // Every conversion is a booking of the clicking guest, made on or after the click's day.
    const wrong = await n(
      `select count(*) as n from campaign_conversions v join bookings b on b.id = v.booking_id
        join delivery_engagement e on e.delivery_id = v.delivery_id
        where v.brand_id = $1 and (b.customer_id <> e.customer_id or (e.clicked_at at time zone 'Asia/Tokyo')::date > b.booking_date)`,
      [brand.id],
    );
    expect(wrong).toBe(0);
  });

  it('marks the past campaigns as demo history, sent, and their statistics agree with the dashboard', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const past = await s.sql(
      `select id, name, status, template_id from campaigns where name like $1 order by started_at`,
      [`%${DEMO_HISTORY_MARK}`],
    );
    expect(past.length).toBe(8);
    expect(past.every((c) => c.status === 'sent')).toBe(true);
    for (const c of past) {
      const stats = await s.call('GET', `/v1/campaigns/${c.id}/statistics`, { token });
      expect(stats.status).toBe(200);
      const [row] = await s.sql(
        `select count(*) filter (where status = 'sent')::int as sent, count(e.opened_at)::int as opened
          from deliveries d left join delivery_engagement e on e.delivery_id = d.id where d.campaign_id = $1`,
        [c.id],
      );
      expect(stats.body.data.totals.sent).toBe(row.sent);
      expect(stats.body.data.totals.uniqueOpens).toBe(row.opened);
      // Bounces and complaints, as the feedback events and the relay's answers recorded them.
      const [fb] = await s.sql(
        `select count(*) filter (where kind = 'hard_bounce')::int as hard, count(*) filter (where kind = 'soft_bounce')::int as soft,
          count(*) filter (where kind = 'complaint')::int as complaints from feedback_events where campaign_id = $1`,
        [c.id],
      );
      const [failed] = await s.sql(
        `select count(*)::int as n from deliveries where campaign_id = $1 and status = 'failed'`,
        [c.id],
      );
      expect(stats.body.data.totals.hardBounces).toBe(fb.hard);
      expect(stats.body.data.totals.softBounces).toBe(fb.soft);
      expect(stats.body.data.totals.complaints).toBe(fb.complaints);
      expect(stats.body.data.totals.failed).toBe(failed.n);
      expect(stats.body.data.rates.hardBounceRate ?? 0).toBeLessThan(0.05);
      expect(stats.body.data.rates.complaintRate ?? 0).toBeLessThan(0.003);
      // The message composes, personalised for one of its recipients.
      const [to] = await s.sql(`select customer_id from deliveries where campaign_id = $1 limit 1`, [c.id]);
      const preview = await s.call('POST', `/v1/templates/${c.template_id}/preview`, {
        token,
        body: { language: 'ja', customerId: to.customer_id },
      });
      expect(preview.status).toBe(200);
      expect(preview.body.data.html).toContain('さくらホテルズ');
    }
    // No mail reached the sink: the past was recorded, not sent.
    expect((await s.call('GET', '/v1/dev/outbox', { token: (await s.login(DEMO.grand)).token })).body.data).toEqual([]);
  });

  it('gives the suppression list the dead addresses, full mailboxes and complainers of the past campaigns', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = $1`, [DEMO_HISTORY_BRAND]);
    // Who should be on it, by hand: every hard-bounced address; every complainer; a guest three of
    // whose last five sends (before the bounce) soft-bounced, while the 30 days last.
    const expected = await s.sql(
      `select lower(d.email) as email, 'hard_bounce' as reason from feedback_events f join deliveries d on d.id = f.delivery_id
          where f.brand_id = $1 and f.kind = 'hard_bounce'
        union
        select lower(d.email), 'complaint' from feedback_events f join deliveries d on d.id = f.delivery_id
          where f.brand_id = $1 and f.kind = 'complaint'
        union
        select lower(d.email), 'soft_bounces' from feedback_events f join deliveries d on d.id = f.delivery_id
          where f.brand_id = $1 and f.kind = 'soft_bounce' and f.received_at > now() - interval '30 days'
            and (select count(*) from (select l.id from deliveries l where l.customer_id = d.customer_id and l.status in ('sent', 'failed')
                and l.sent_at <= d.sent_at order by l.sent_at desc, l.id desc limit 5) last
              where exists (select 1 from feedback_events g where g.delivery_id = last.id and g.kind = 'soft_bounce')) >= 3`,
      [brand.id],
    );
    const listed: { email: string; reason: string; campaign: { name: string } | null }[] = [];
    for (let page = 1; ; page++) {
      const res = await s.call('GET', `/v1/suppressions?page=${page}&pageSize=100`, { token });
      expect(res.status).toBe(200);
      listed.push(...res.body.data.items);
      if (listed.length >= res.body.data.total) break;
    }
    const reasons = new Set(listed.map((x) => x.reason));
    expect(reasons).toEqual(new Set(['hard_bounce', 'soft_bounces', 'complaint']));
    const byEmail = (rows: { email: string; reason: string }[]) =>
      rows.map((x) => `${x.email} ${x.reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(byEmail(listed)).toEqual(byEmail(expected));
    expect(listed.every((x) => x.campaign?.name.endsWith(DEMO_HISTORY_MARK))).toBe(true);
    // A complainer left all of the brand's marketing, with "complaint" as the source.
    const complainers = await n(
      `select count(*) as n from feedback_events f join customers c on c.id = f.customer_id
        where f.brand_id = $1 and f.kind = 'complaint' and c.email_status = 'unsubscribed'`,
      [brand.id],
    );
    expect(complainers).toBeGreaterThanOrEqual(1);
    expect(complainers).toBeLessThanOrEqual(2);
    // No later campaign mailed a suppressed address after it was suppressed.
    const mailedAfter = await n(
      `select count(*) as n from suppressions x join deliveries d on d.brand_id = x.brand_id and lower(d.email) = x.email
        where x.brand_id = $1 and d.status in ('sent', 'failed') and d.sent_at > x.created_at and (x.until is null or d.sent_at < x.until)`,
      [brand.id],
    );
    expect(mailedAfter).toBe(0);
  });

  it('is not seeded again on a later start', async () => {
    // The whole first-start chain (history included) hangs on this: the platform exists, so no seed.
    expect(await seedDemo(s.rt.database.db)).toBe(false);
  });
});
