import { randomBytes } from 'node:crypto';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { uniformOf } from '../experiments/assignment.ts';

/**
 * The engine through the whole product, on the manual clock: a real server and worker over
 * PostgreSQL, scenario mails over SMTP into the embedded sink. The clock moves through the dev
 * route; the send path (consent, cap, DKIM) is the campaigns', in real time.
 */

let s: TTestServer;
let token: string;
let grand: string;
let brand: { id: string };
let hotel: { id: string };
let templateId: string;
let sender: string;
const tag = randomBytes(3).toString('hex');
const DAY = 24 * 60;

async function clockNow(): Promise<Date> {
  const r = await s.call('GET', '/v1/dev/scenario-clock', { token: grand });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return new Date(r.body.data.now);
}
async function advance(minutes: number) {
  const r = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { now: string; steps: number };
}
/** Local date in Tokyo, `days` after the clock's now. */
const tokyoDate = (base: Date, days: number) =>
  new Date(base.getTime() + 9 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

let phoneSeq = 0;
async function customer(name: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${tag}@guest.example.jp`;
  phoneSeq += 1;
  const phone = `090${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, 'テスト', $3, $4) returning id`,
    [brand.id, name, phone, email],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return { id: row.id, email };
}
async function booking(customerId: string, checkIn: string, nights = 2): Promise<string> {
  const [row] = await s.sql(
    `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
     values ($1, $2, $3, $4, $5::date - 30, $5::date, $5::date + $6::int, $6, 2, 40000, 'confirmed') returning id`,
    [brand.id, customerId, hotel.id, `R-${tag}-${randomBytes(3).toString('hex')}`, checkIn, nights],
  );
  return row.id;
}
const mails = async (to: string) => s.sql(`select subject from dev_outbox where $1 = any(rcpt_to)`, [to]);

async function runScenario(graph: unknown, name: string): Promise<string> {
  const created = await s.call('POST', '/v1/scenarios', { token, body: { name, graph } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const run = await s.call('POST', `/v1/scenarios/${created.body.data.id}/actions`, { token, body: { action: 'run' } });
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  expect(run.body.data.status).toBe('running');
  return created.body.data.id;
}

const journeysOf = async (scenarioId: string) =>
  (await s.call('GET', `/v1/scenarios/${scenarioId}/journeys?pageSize=100`, { token })).body.data.items as {
    customerId: string;
    state: string;
    path: { nodeId: string; event: string; detail: string | null }[];
  }[];

beforeAll(async () => {
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '1', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  await s.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00' where host_id = $1`,
    [brand.id],
  );
  const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
  sender = settings.sender_email;
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `旅程 ${tag}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  templateId = template.body.data.id;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('a pre-arrival scenario on the manual clock', () => {
  it('mails each guest once, 3 days before check-in; a moved stay moves the wait; a cancelled stay leaves', async () => {
    const start = await clockNow();
    const kept = await customer('kept');
    const moved = await customer('moved');
    const cancelled = await customer('cancelled');
    await booking(kept.id, tokyoDate(start, 10));
    const movedBooking = await booking(moved.id, tokyoDate(start, 10));
    const cancelledBooking = await booking(cancelled.id, tokyoDate(start, 10));

    const fromPreset = await s.call('POST', '/v1/presets/builtin:pre_arrival/scenarios', {
      token,
      body: { name: `到着前 ${tag}` },
    });
    expect(fromPreset.status, JSON.stringify(fromPreset.body)).toBe(200);
    const draft = fromPreset.body.data;
    expect(draft.status).toBe('draft');
    // The preset's email still needs its template, subject and sender: the run says so at the node.
    const refused = await s.call('POST', `/v1/scenarios/${draft.id}/actions`, { token, body: { action: 'run' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('scenario_invalid');
    expect(refused.body.error.fields['nodes.email'].code).toBe('email_incomplete');

    const graph = structuredClone(draft.graph);
    graph.nodes.find((n: { id: string }) => n.id === 'email').data = {
      templateId,
      subject: `またのお越しを ${tag}`,
      senderEmail: sender,
    };
    expect((await s.call('PUT', `/v1/scenarios/${draft.id}`, { token, body: { graph } })).status).toBe(200);
    const run = await s.call('POST', `/v1/scenarios/${draft.id}/actions`, { token, body: { action: 'run' } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.status).toBe('running');
    // A running scenario cannot be changed.
    const change = await s.call('PUT', `/v1/scenarios/${draft.id}`, { token, body: { name: 'x' } });
    expect(change.status).toBe(409);
    expect(change.body.error.code).toBe('scenario_not_editable');

    await advance(1);
    const entered = await journeysOf(draft.id);
    const mine = entered.filter((j) => [kept.id, moved.id, cancelled.id].includes(j.customerId));
    expect(mine).toHaveLength(3);
    expect(mine.every((j) => j.state === 'waiting')).toBe(true);

    // The daily sync brings a moved stay and a cancellation.
    await s.sql(
      `update bookings set check_in = check_in + 10, check_out = check_out + 10, updated_at = now() where id = $1`,
      [movedBooking],
    );
    await s.sql(`update bookings set status = 'cancelled', updated_at = now() where id = $1`, [cancelledBooking]);

    await advance(8 * DAY);
    await eventually(async () => ((await mails(kept.email)).length ? true : null), 30_000);
    await advance(1);
    const afterFirst = await journeysOf(draft.id);
    const byCustomer = (id: string) => afterFirst.find((j) => j.customerId === id);
    expect(byCustomer(kept.id)?.state).toBe('done');
    expect(byCustomer(kept.id)?.path.map((p) => p.event)).toEqual(['entered', 'done', 'entered', 'queued', 'sent']);
    expect(byCustomer(cancelled.id)?.state).toBe('left');
    expect(byCustomer(cancelled.id)?.path.at(-1)).toMatchObject({ event: 'left', detail: 'booking_cancelled' });
    expect(byCustomer(moved.id)?.state).toBe('waiting');
    expect(await mails(moved.email)).toHaveLength(0);

    await advance(10 * DAY);
    await eventually(async () => ((await mails(moved.email)).length ? true : null), 30_000);
    await advance(1);
    expect(await mails(kept.email)).toEqual([{ subject: `またのお越しを ${tag}` }]);
    expect(await mails(moved.email)).toHaveLength(1);
    expect(await mails(cancelled.email)).toHaveLength(0);

    const summary = await s.call('GET', `/v1/scenarios/${draft.id}/summary`, { token });
    const emailNode = summary.body.data.nodes.find((n: { nodeId: string }) => n.nodeId === 'email');
    expect(emailNode.counts).toMatchObject({ entered: 2, done: 2, failed: 0 });
    const details = await s.call('GET', `/v1/scenarios/${draft.id}/emails`, { token });
    expect(details.body.data.items[0]).toMatchObject({
      nodeId: 'email',
      sent: 2,
      failed: 0,
      openRate: 0,
      clickRate: 0,
    });
    // Rates are fractions of the delivered, as a campaign's (the console shows them as percent): one
    // of the two opened (arranged in the rollup the tracking module keeps).
    await s.sql(`update campaign_stats set unique_opens = 1 where campaign_id = $1`, [
      details.body.data.items[0].campaignId,
    ]);
    const opened = await s.call('GET', `/v1/scenarios/${draft.id}/emails`, { token });
    expect(opened.body.data.items[0]).toMatchObject({ opened: 1, openRate: 0.5, clickRate: 0 });
    // The hidden campaign is the scenario's: not in the campaign list.
    const campaigns = await s.call('GET', '/v1/campaigns?pageSize=100', { token });
    expect(campaigns.body.data.items.some((c: { id: string }) => c.id === details.body.data.items[0].campaignId)).toBe(
      false,
    );

    const stop = await s.call('POST', `/v1/scenarios/${draft.id}/actions`, {
      token,
      body: { action: 'stop', confirmation: STOP_SENTENCE },
    });
    expect(stop.status).toBe(200);
    expect(stop.body.data.status).toBe('stopped');
    // Stopping halts mails not yet sent too: the node's hidden campaign no longer sends.
    expect(await s.sql(`select status from campaigns where scenario_id = $1`, [draft.id])).toEqual([
      { status: 'cancelled' },
    ]);

    // A journey's log goes with it: a deleted customer's rows, then the deleted scenario's.
    const stepsOf = async (where: string, id: string) =>
      (
        await s.sql(
          `select count(*)::int as n from journey_steps where journey_id in (select id from journeys where ${where} = $1)`,
          [id],
        )
      )[0].n as number;
    const keptJourney = (
      await s.sql(`select id from journeys where scenario_id = $1 and customer_id = $2`, [draft.id, kept.id])
    )[0].id as string;
    expect(await stepsOf('id', keptJourney)).toBeGreaterThan(0);
    expect((await s.call('DELETE', `/v1/customers/${kept.id}`, { token })).status).toBe(200);
    expect(await s.sql(`select count(*)::int as n from journey_steps where journey_id = $1`, [keptJourney])).toEqual([
      { n: 0 },
    ]);
    expect(await stepsOf('scenario_id', draft.id)).toBeGreaterThan(0);
    await s.sql(`delete from scenarios where id = $1`, [draft.id]);
    expect(await s.sql(`select count(*)::int as n from journey_steps where scenario_id = $1`, [draft.id])).toEqual([
      { n: 0 },
    ]);
  }, 180_000);
});

describe('consent and the frequency cap apply to scenario mails', () => {
  it('skips the second mail of a guest who unsubscribed mid-journey and of one at the cap, and they go on', async () => {
    await s.sql(
      `update campaign_email_settings set frequency_cap_count = 1, frequency_cap_days = 30 where host_id = $1`,
      [brand.id],
    );
    const leaving = await customer('leaving');
    const capped = await customer('capped');
    const segment = await staticSegment(s, token, `旅程 ${tag}`, [leaving.id, capped.id]);
    const email = (subject: string) => ({ templateId, subject, senderEmail: sender });
    const id = await runScenario(
      {
        nodes: [
          { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
          { id: 'first', type: 'email', data: email(`一通目 ${tag}`) },
          { id: 'wait', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
          { id: 'second', type: 'email', data: email(`二通目 ${tag}`) },
        ],
        edges: [
          { id: 'a', source: 'start', target: 'first' },
          { id: 'b', source: 'first', target: 'wait' },
          { id: 'c', source: 'wait', target: 'second' },
        ],
      },
      `同意 ${tag}`,
    );
    await advance(1);
    await eventually(
      async () => ((await mails(leaving.email)).length && (await mails(capped.email)).length ? true : null),
      30_000,
    );
    // The send answered and the worker's tick moved both on to the delay.
    await eventually(async () => {
      const js = await journeysOf(id);
      return js.length === 2 && js.every((j) => j.path.at(-1)?.event === 'waiting') ? true : null;
    }, 30_000);
    await s.sql(`update customers set email_status = 'unsubscribed' where id = $1`, [leaving.id]);
    // Consent and the cap are checked when the mail is queued (and consent again right before sending).
    await advance(DAY + 1);
    const js = await journeysOf(id);
    const last = (cid: string) => js.find((j) => j.customerId === cid)?.path.at(-1);
    expect(last(leaving.id)).toMatchObject({ nodeId: 'second', event: 'skipped', detail: 'unsubscribed' });
    expect(last(capped.id)).toMatchObject({ nodeId: 'second', event: 'skipped', detail: 'frequency_cap' });
    expect(await mails(leaving.email)).toHaveLength(1);
    expect(await mails(capped.email)).toHaveLength(1);
    // The step's counts: both passed it, neither was mailed (the canvas shows sent 0, skipped 2).
    const summary = await s.call('GET', `/v1/scenarios/${id}/summary`, { token });
    const second = summary.body.data.nodes.find((n: { nodeId: string }) => n.nodeId === 'second');
    expect(second.counts).toMatchObject({ done: 2, skipped: 2 });
    await s.sql(
      `update campaign_email_settings set frequency_cap_count = null, frequency_cap_days = null where host_id = $1`,
      [brand.id],
    );
  }, 120_000);
});

describe("a segment's relative dates", () => {
  it("count from the scenario clock's day, not the real one", async () => {
    const start = await clockNow();
    // Ten days on, "check-in in the next 3 days" holds for a stay 12 days after today and no longer for tomorrow's.
    const ahead = await customer('ahead');
    const tomorrow = await customer('tomorrow');
    await booking(ahead.id, tokyoDate(start, 12));
    await booking(tomorrow.id, tokyoDate(start, 1));
    const filter = {
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          items: [{ kind: 'condition', field: 'checkInDate', operator: 'in_next_days', value: 3 }],
        },
      ],
    };
    const created = await s.call('POST', '/v1/segments', {
      token,
      body: { name: `三日以内 ${tag}`, type: 'dynamic', filter },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await advance(10 * DAY);
    const id = await runScenario(
      {
        nodes: [
          { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: created.body.data.id } },
          { id: 'first', type: 'email', data: { templateId, subject: `到着前 ${tag}`, senderEmail: sender } },
        ],
        edges: [{ id: 'a', source: 'start', target: 'first' }],
      },
      `時計 ${tag}`,
    );
    await advance(1);
    const entered = await eventually(async () => {
      const js = await journeysOf(id);
      return js.some((j) => j.customerId === ahead.id) ? js : null;
    }, 30_000);
    expect(entered.map((j) => j.customerId)).not.toContain(tomorrow.id);
  }, 120_000);
});

describe('a send that cannot happen', () => {
  it('fails the node with its reason and sends the customer down the error path; birthdays enter once a day', async () => {
    const guest = await customer('birthday');
    const now = await clockNow();
    const today = tokyoDate(now, 0);
    await s.sql(`update customers set date_of_birth = $2::date - interval '30 years' where id = $1`, [guest.id, today]);
    const doomed = (
      await s.call('POST', '/v1/templates', {
        token,
        body: {
          name: `消える ${tag}`,
          defaultLanguage: 'ja',
          contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
        },
      })
    ).body.data.id;
    const id = await runScenario(
      {
        nodes: [
          { id: 'born', type: 'trigger', data: { kind: 'birthday' } },
          {
            id: 'greet',
            type: 'email',
            data: { templateId: doomed, subject: `おめでとう ${tag}`, senderEmail: sender },
          },
          { id: 'fallback', type: 'email', data: { templateId, subject: `代わり ${tag}`, senderEmail: sender } },
        ],
        edges: [
          { id: 'a', source: 'born', target: 'greet' },
          { id: 'b', source: 'greet', target: 'fallback', handle: 'error' },
        ],
      },
      `誕生日 ${tag}`,
    );
    // The template goes away under the running scenario.
    await s.sql(`delete from templates where id = $1`, [doomed]);
    // Today's birthdays enter (the greeting is due at the send time, 09:00 in Tokyo, or at once when past).
    await advance(1);
    expect((await journeysOf(id)).filter((j) => j.customerId === guest.id)).toHaveLength(1);
    await advance(DAY);
    await eventually(async () => ((await mails(guest.email)).length ? true : null), 30_000).catch(
      async (error: unknown) => {
        throw new Error(`${String(error)}: ${JSON.stringify(await journeysOf(id))}`);
      },
    );
    expect(await mails(guest.email)).toEqual([{ subject: `代わり ${tag}` }]);
    const [journey] = (await journeysOf(id)).filter((j) => j.customerId === guest.id);
    expect(journey?.path.find((p) => p.nodeId === 'greet' && p.event === 'failed')?.detail).toBe(
      'campaign_template_deleted',
    );
    const summary = (await s.call('GET', `/v1/scenarios/${id}/summary`, { token })).body.data;
    expect(summary.nodes.find((n: { nodeId: string }) => n.nodeId === 'greet')).toMatchObject({
      state: 'error',
      message: 'campaign_template_deleted',
      counts: { failed: 1 },
    });
    // The next day's tick enters nobody again for this birthday.
    await advance(DAY);
    expect((await journeysOf(id)).filter((j) => j.customerId === guest.id)).toHaveLength(1);
  }, 120_000);
});

describe("a scenario's holdout (issue 26)", () => {
  it('lets held-out guests enter and be recorded, never mails them, and reports the comparison', async () => {
    const guests = await Promise.all(Array.from({ length: 30 }, (_, i) => customer(`holdout${i}`)));
    const segment = await staticSegment(
      s,
      token,
      `保留 ${tag}`,
      guests.map((g) => g.id),
    );
    const created = await s.call('POST', '/v1/scenarios', {
      token,
      body: {
        name: `保留 ${tag}`,
        holdoutPercent: 20,
        graph: {
          nodes: [
            { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
            { id: 'mail', type: 'email', data: { templateId, subject: `保留 ${tag}`, senderEmail: sender } },
          ],
          edges: [{ id: 'a', source: 'start', target: 'mail' }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.holdoutPercent).toBe(20);
    const id = created.body.data.id as string;
    const run = await s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    await advance(1);
    const held = guests.filter((g) => uniformOf(id, g.id) < 0.2);
    const mailed = guests.filter((g) => uniformOf(id, g.id) >= 0.2);
    await eventually(async () => {
      for (const g of mailed) if ((await mails(g.email)).length === 0) return null;
      return true;
    }, 30_000);
    const journeys = await s.sql(`select customer_id, held_out from journeys where scenario_id = $1`, [id]);
    expect(journeys).toHaveLength(30);
    for (const j of journeys) expect(j.held_out).toBe(held.some((g) => g.id === j.customer_id));
    for (const g of held) expect(await mails(g.email)).toHaveLength(0);
    const skipped = await s.sql(
      `select d.customer_id from deliveries d join campaigns c on c.id = d.campaign_id where c.scenario_id = $1 and d.skip_reason = 'holdout'`,
      [id],
    );
    expect(skipped.map((r) => r.customer_id).sort()).toEqual(held.map((g) => g.id).sort());
    const report = await s.call('GET', `/v1/scenarios/${id}/holdout`, { token });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.data.percent).toBe(20);
    expect(report.body.data.windows[0]).toMatchObject({
      window: 'attribution',
      holdout: { guests: held.length },
      mailed: { guests: mailed.length },
      result: { kind: 'too_small', holdout: held.length },
    });
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    expect((await s.call('GET', `/v1/scenarios/${id}/holdout`, { token: harbor })).status).toBe(404);
  }, 120_000);
});
