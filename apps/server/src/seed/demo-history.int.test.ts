import { createBookingSim } from '@yado/booking-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../test/harness.ts';
import { connectDemoBrands } from '../modules/booking/connect-demo-brands.ts';
import { seedDemo } from './demo.ts';
import { seedDemoSending } from './demo-sending.ts';
import { DEMO_HISTORY_BRAND, DEMO_HISTORY_MARK, seedDemoHistory } from './demo-history.ts';
import { DEMO_JOURNEY_DAYS, DEMO_JOURNEY_NAME, DEMO_MORNING_END_MS } from './demo-journeys.ts';

let s: TTestServer;
/** The moment of the seed: the history is everything before it. */
let seededAt: Date;
beforeAll(async () => {
  // The simulator on real time, as `npm start` embeds it (the dashboard reads the real today).
  // The worker ticks twice a second: its ticks, at today's time, must never take up the past the
  // seed writes (they are held meanwhile).
  s = await startTestServer({
    bookingSim: createBookingSim({ seed: 7, guestsPerAccount: 2000, rateLimit: false }),
    env: { SCENARIO_TICK_SECONDS: '0.5' },
  });
  // What startRuntime runs on the first start of the embedded product (the test template was seeded without it).
  await seedDemoSending(s.rt);
  await connectDemoBrands(s.rt, [DEMO_HISTORY_BRAND]);
  seededAt = new Date();
  await seedDemoHistory(s.rt, seededAt);
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
      // Delivered: accepted by the relay and not bounced afterwards (a DSN of the demo's past).
      const delivered = await n(
        `select count(*) as n ${ofWeek} and not exists (select from delivery_bounces b where b.delivery_id = d.id)`,
        args,
      );
      expect(delivered).toBeLessThan(await n(`select count(*) as n ${ofWeek}`, args));
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
    // Each made, with its segment and template, before its send: none dated the day of the seed.
    const made = await s.sql(
      `select c.created_at < c.started_at and t.created_at = c.created_at and s.created_at = c.created_at as before
        from campaigns c join templates t on t.id = c.template_id
        join campaign_segments cs on cs.campaign_id = c.id join segments s on s.id = cs.segment_id
        where c.name like $1`,
      [`%${DEMO_HISTORY_MARK}`],
    );
    expect(made.map((m) => m.before)).toEqual(Array(8).fill(true));
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
    // No mail of the past reached the sink: it was recorded, not sent. (The birthday scenario runs
    // on live after the seed: a seed in the morning leaves that morning's mails to the live engine,
    // which sends them into the sink, each claimed after the seed's moment.)
    const outbox = (await s.call('GET', '/v1/dev/outbox', { token: (await s.login(DEMO.grand)).token })).body.data as {
      to: string[];
      subject: string;
    }[];
    const subjects = new Set(
      (await s.sql(`select subject from campaigns where name like $1`, [`%${DEMO_HISTORY_MARK}`])).map(
        (r) => r.subject,
      ),
    );
    expect(outbox.filter((m) => subjects.has(m.subject))).toEqual([]);
    const live = await n(
      `select count(*) as n from deliveries d join campaigns c on c.id = d.campaign_id join scenarios sc on sc.id = c.scenario_id
        where sc.name = $1 and d.claimed_at >= $2`,
      [DEMO_JOURNEY_NAME, seededAt.toISOString()],
    );
    expect(outbox.length).toBeLessThanOrEqual(live);
  });

  it('shows every seeded segment\'s audience in the list, as a recount finds it (not "Not counted")', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const list = await s.call('GET', '/v1/segments?pageSize=100', { token });
    expect(list.status).toBe(200);
    const segments = list.body.data.items as {
      id: string;
      audience: number | null;
      audienceCountedAt: string | null;
    }[];
    // The eight past campaigns' segments at least, each counted when the seed ended.
    expect(segments.length).toBeGreaterThanOrEqual(8);
    for (const segment of segments) {
      expect(segment.audienceCountedAt).not.toBeNull();
      const recount = await s.call('POST', `/v1/segments/${segment.id}/count`, { token });
      expect(recount.status).toBe(200);
      expect(segment.audience).toBe(recount.body.data.total);
    }
    expect(segments.some((segment) => (segment.audience ?? 0) > 0)).toBe(true);
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
    const listed: {
      email: string;
      reason: string;
      campaign: { name: string } | null;
      scenario: { name: string } | null;
    }[] = [];
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
    // Past campaigns' and the demo scenario's mails (its hidden campaigns carry the scenario's name).
    expect(listed.every((x) => (x.campaign ?? x.scenario)?.name.includes(DEMO_HISTORY_MARK))).toBe(true);
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

  it('has run the birthday scenario for a month: its guests entered on their birthdays, and its branch saw only the opens before it', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = $1`, [DEMO_HISTORY_BRAND]);
    const [scenario] = await s.sql(`select id, status, started_at, graph, description from scenarios where name = $1`, [
      DEMO_JOURNEY_NAME,
    ]);
    expect(scenario.status).toBe('running');
    // Its description says how long it has run, as its dates do (it said 90 days of a month's run).
    expect(scenario.description).toBe(`デモ履歴: ${DEMO_JOURNEY_DAYS}日前から動いているシナリオ`);
    // It started at Tokyo's midnight DEMO_JOURNEY_DAYS days before the seed's day, so whole days
    // since then are that many at any hour of the seed (rounding said 31 from Tokyo's noon on).
    expect(DEMO_JOURNEY_DAYS).toBe(Math.floor((seededAt.getTime() - Date.parse(scenario.started_at)) / 86_400_000));
    expect(Date.parse(scenario.started_at)).toBeLessThan(seededAt.getTime() - 29 * 86_400_000);
    // A graph the editor accepts as it is.
    const check = await s.call('POST', '/v1/scenarios/validate', { token, body: { graph: scenario.graph } });
    expect(check.status).toBe(200);
    expect(check.body.data.faults).toEqual([]);
    // Who entered in the past, by hand: the brand's guests whose birthday (29 February: the 28th in
    // other years) is one of the scenario's days whose morning was over at the seed (a morning not
    // over is the live engine's, which runs on after the seed: what it does is not the history's).
    const since = new Date(scenario.started_at).toISOString();
    const entered = await n(
      `with days as (
          select d::date as day from generate_series(($2::timestamptz at time zone 'Asia/Tokyo')::date, ($3::timestamptz at time zone 'Asia/Tokyo')::date, interval '1 day') d
          where (d::date + $4::interval) at time zone 'Asia/Tokyo' <= $3::timestamptz)
        select count(*) as n from customers c join days on (extract(month from c.date_of_birth), extract(day from c.date_of_birth)) = (extract(month from days.day), extract(day from days.day))
          or (extract(month from c.date_of_birth) = 2 and extract(day from c.date_of_birth) = 29 and extract(month from days.day) = 2
            and extract(day from days.day) = 28 and extract(day from (date_trunc('year', days.day) + interval '59 days')) <> 29)
        where c.brand_id = $1 and c.date_of_birth is not null`,
      [brand.id, since, seededAt.toISOString(), `${DEMO_MORNING_END_MS / 1000} seconds`],
    );
    expect(entered).toBeGreaterThan(50);
    const journeys = await s.sql(
      `select j.id, j.customer_id, j.state, j.node_id, to_char(j.entered_at at time zone 'Asia/Tokyo', 'MM-DD') as entered_on,
          to_char(c.date_of_birth, 'MM-DD') as born_on
        from journeys j join customers c on c.id = j.customer_id where j.scenario_id = $1 and j.entered_at < $2`,
      [scenario.id, seededAt.toISOString()],
    );
    expect(journeys.length).toBe(entered);
    expect(journeys.filter((j) => j.entered_on !== j.born_on && j.born_on !== '02-29')).toEqual([]);
    // Each got the greeting (or its skip with the reason) on the birthday, in the past; those whose
    // three days were past at the seed went on by the branch (its steps before the seed), the rest
    // wait at the delay. A guest has one journey (one birthday in the scenario's month).
    const past = new Set(journeys.map((j) => j.customer_id as string));
    const mails = (
      await s.sql(
        `select c.scenario_node_id as node, d.customer_id, d.status, d.sent_at, (select min(t.occurred_at) from tracking_events t
            where t.delivery_id = d.id and t.kind = 'open') as first_open
          from deliveries d join campaigns c on c.id = d.campaign_id where c.scenario_id = $1`,
        [scenario.id],
      )
    ).filter((m) => past.has(m.customer_id));
    const steps = await s.sql(
      `select st.journey_id, st.event, st.at, j.customer_id from journey_steps st join journeys j on j.id = st.journey_id
        where st.scenario_id = $1 and st.node_id = 'opened' and st.event in ('yes', 'no') and st.at < $2`,
      [scenario.id, seededAt.toISOString()],
    );
    expect(steps.length).toBeGreaterThan(0);
    const branched = new Map(steps.map((x) => [x.customer_id as string, x.event as string]));
    const written = mails.filter((m) => m.node === 'greeting' || branched.has(m.customer_id));
    const greetings = written.filter((m) => m.node === 'greeting');
    expect(greetings.length).toBe(entered);
    // Sent, or skipped with the reason (unsubscribed, no address, suppressed), or refused by a dead
    // address: nothing left queued, nothing answered after the seed's moment.
    expect(greetings.filter((m) => m.status === 'sent').length).toBeGreaterThan(entered * 0.3);
    expect(written.filter((m) => !['sent', 'skipped', 'failed'].includes(m.status))).toEqual([]);
    expect(written.filter((m) => m.sent_at && Date.parse(m.sent_at) >= seededAt.getTime())).toEqual([]);
    const greetingOf = new Map(greetings.map((m) => [m.customer_id, m]));
    for (const step of steps) {
      const open = greetingOf.get(step.customer_id)?.first_open;
      const openedBefore = !!open && Date.parse(open) <= Date.parse(step.at);
      expect({ journey: step.journey_id, event: step.event }).toEqual({
        journey: step.journey_id,
        event: openedBefore ? 'yes' : 'no',
      });
    }
    const yes = steps.filter((x) => x.event === 'yes').length;
    expect(yes).toBeGreaterThan(0);
    const followUps = written.filter((m) => m.node !== 'greeting');
    expect(followUps.filter((m) => m.node === 'invitation').map((m) => branched.get(m.customer_id))).toEqual(
      Array(yes).fill('yes'),
    );
    expect(followUps.filter((m) => m.node === 'reminder').map((m) => branched.get(m.customer_id))).toEqual(
      Array(steps.length - yes).fill('no'),
    );
    // The console reads the same: the dashboard's running scenario and the email steps' counts
    // (between a count before and one after, as the live engine may act meanwhile).
    const enteredNow = () => n(`select count(*) as n from journeys where scenario_id = $1`, [scenario.id]);
    const sentNow = (node: string) =>
      n(
        `select count(*) as n from deliveries d join campaigns c on c.id = d.campaign_id
          where c.scenario_id = $1 and c.scenario_node_id = $2 and d.status = 'sent'`,
        [scenario.id, node],
      );
    const before = await enteredNow();
    const running = await s.call('GET', '/v1/dashboard/running-scenarios', { token });
    const listed = running.body.data.scenarios.find((x: { id: string }) => x.id === scenario.id);
    expect(listed.entered).toBeGreaterThanOrEqual(before);
    expect(listed.entered).toBeLessThanOrEqual(await enteredNow());
    for (const node of ['greeting', 'invitation', 'reminder']) {
      const low = await sentNow(node);
      const emails = await s.call('GET', `/v1/scenarios/${scenario.id}/emails`, { token });
      expect(emails.status).toBe(200);
      const detail = emails.body.data.items.find((x: { nodeId: string }) => x.nodeId === node);
      expect(detail.sent).toBeGreaterThanOrEqual(low);
      expect(detail.sent).toBeLessThanOrEqual(await sentNow(node));
      expect(detail.sent).toBeGreaterThanOrEqual(written.filter((m) => m.node === node && m.status === 'sent').length);
    }
  });

  it("gives the customers panel its week-before figures: the counts at that day's end, from the first sync and the history's unsubscribes", async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const [brand] = await s.sql(`select id from hosts where slug = $1`, [DEMO_HISTORY_BRAND]);
    const res = await s.call('GET', '/v1/dashboard/customer-statistics', { token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    const end = `(($2::date + 1)::timestamp at time zone $3)`;
    // Suppressed at a moment: an entry of the brand's list for the address, made by then and
    // neither lifted nor ended then (the history's hard bounces, complaints and soft bounces).
    const suppressedAt = (c: string, at: string) =>
      `exists (select 1 from suppressions x where x.brand_id = ${c}.brand_id and x.email = lower(${c}.email)
      and x.created_at <= ${at} and (x.lifted_at is null or x.lifted_at > ${at})
      and (x.until is null or x.until > ${at}))`;
    const [then] = await s.sql(
      `select count(*) filter (where created_at <= ${end})::int as customers,
        count(*) filter (where created_at <= ${end} and email_status = 'unsubscribed'
          and coalesce(email_status_changed_at, created_at) <= ${end})::int as unsubscribed,
        count(*) filter (where created_at <= ${end} and nullif(email, '') is null
          and not (email_status = 'unsubscribed' and coalesce(email_status_changed_at, created_at) <= ${end}))::int as no_address,
        count(*) filter (where created_at <= ${end} and nullif(email, '') is not null
          and not (email_status = 'unsubscribed' and coalesce(email_status_changed_at, created_at) <= ${end})
          and ${suppressedAt('c', end)})::int as suppressed
        from customers c where brand_id = $1`,
      [brand.id, d.window.previousTo, d.window.timezone],
    );
    // Now: as the list stood when the dashboard counted (the live engine may mail on meanwhile).
    const [nowCounts] = await s.sql(
      `select count(*)::int as customers, count(*) filter (where email_status = 'unsubscribed')::int as unsubscribed,
        count(*) filter (where email_status <> 'unsubscribed' and nullif(email, '') is null)::int as no_address,
        count(*) filter (where email_status <> 'unsubscribed' and nullif(email, '') is not null
          and ${suppressedAt('c', '$2::timestamptz')})::int as suppressed
        from customers c where brand_id = $1`,
      [brand.id, d.countedAt],
    );
    expect(then.customers).toBeGreaterThan(0);
    expect(d.customers).toEqual({ current: nowCounts.customers, previous: then.customers });
    expect(d.unsubscribedCustomers).toEqual({ current: nowCounts.unsubscribed, previous: then.unsubscribed });
    // Active: those a campaign can mail, so neither the active customers without an address nor
    // those whose address is suppressed (a complainer is among the unsubscribed already).
    expect(nowCounts.suppressed).toBeGreaterThan(0);
    expect(then.suppressed).toBeGreaterThan(0);
    expect(d.activeCustomers).toEqual({
      current: nowCounts.customers - nowCounts.unsubscribed - nowCounts.no_address - nowCounts.suppressed,
      previous: then.customers - then.unsubscribed - then.no_address - then.suppressed,
    });
    // The booking system's opt-outs came with the first sync; the difference is the guests who
    // unsubscribed since (one-click or by a complaint), by the events of the history's mails.
    const [week] = await s.sql(
      `select count(distinct d.customer_id)::int as n from tracking_events t join deliveries d on d.id = t.delivery_id
        where t.brand_id = $1 and t.kind = 'unsubscribe' and t.occurred_at > ${end}`,
      [brand.id, d.window.previousTo, d.window.timezone],
    );
    expect(d.unsubscribedCustomers.current - d.unsubscribedCustomers.previous).toBe(week.n);
    expect(d.unsubscribedCustomers.previous).toBeGreaterThan(d.customers.previous * 0.1);
  });

  it('is not seeded again on a later start', async () => {
    // The whole first-start chain (history included) hangs on this: the platform exists, so no seed.
    expect(await seedDemo(s.rt.database.db)).toBe(false);
  });
});
