import { randomBytes } from 'node:crypto';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * Journeys respect the stay (issue 27), on the manual clock over PostgreSQL with a real worker and
 * the embedded SMTP sink: bookings are written as the sync writes them, and the clock is set to the
 * very minutes that matter in Tokyo (the scenario's and the hotel's time zone; send time 09:00,
 * check-in 15:00). Each test takes later days than the one before, as the clock only moves forward,
 * and stops its scenario at the end, so no scenario mails another test's guests.
 */

let s: TTestServer;
let token: string;
let grand: string;
let brand: { id: string };
let hotel: { id: string };
let templateId: string;
let sender: string;
/** Tokyo's date of the clock when the file starts: the tests' days count from it. */
let base: string;
const tag = randomBytes(3).toString('hex');

/** The Tokyo date `days` after the base day. */
const day = (days: number) => {
  const d = new Date(`${base}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
/** The instant of a Tokyo wall-clock time. */
const tokyo = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`).toISOString();

async function clockNow(): Promise<Date> {
  const r = await s.call('GET', '/v1/dev/scenario-clock', { token: grand });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return new Date(r.body.data.now);
}
/** Sets the clock to an instant (the route ticks at the old time, moves, ticks again). */
async function setClock(to: string): Promise<void> {
  const r = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { to } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.data.now).toBe(to);
}
async function advance(minutes: number): Promise<void> {
  const r = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

let phoneSeq = 0;
async function customer(name: string): Promise<{ id: string; email: string }> {
  const email = `${name}.${tag}@guest.example.jp`;
  phoneSeq += 1;
  const phone = `070${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, '滞在', $3, $4) returning id`,
    [brand.id, name, phone, email],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return { id: row.id, email };
}
/** A reservation as the sync upserts it (updated_at now, so the next tick reads it). */
async function booking(customerId: string, checkIn: string, status = 'confirmed', nights = 2): Promise<string> {
  const [row] = await s.sql(
    `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
     values ($1, $2, $3, $4, $5::date - 30, $5::date, $5::date + $6::int, $6, 2, 40000, $7) returning id`,
    [brand.id, customerId, hotel.id, `S-${tag}-${randomBytes(4).toString('hex')}`, checkIn, nights, status],
  );
  return row.id;
}

/** A running "N days before check-in" (or check-in day) scenario that mails at 09:00 Tokyo time. */
async function runStayScenario(name: string, trigger: Record<string, unknown>, sendTime = '09:00'): Promise<string> {
  const graph = {
    nodes: [
      { id: 'stay', type: 'trigger', data: trigger },
      { id: 'mail', type: 'email', data: { templateId, subject: `${name} ${tag}`, senderEmail: sender } },
    ],
    edges: [{ id: 'a', source: 'stay', target: 'mail' }],
  };
  const run = { period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime };
  const created = await s.call('POST', '/v1/scenarios', { token, body: { name: `${name} ${tag}`, graph, run } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await start(created.body.data.id);
  return created.body.data.id;
}

/**
 * The scenarios started and not yet stopped. Each test stops its own; one that fails before it
 * does is stopped after it (afterEach), or its scenario enrols and mails the later tests' guests
 * and fails them too: a test made to fail before its stop failed two or three later ones, each on
 * a mail from the earlier scenario in its outbox.
 */
const running = new Set<string>();
async function start(scenarioId: string): Promise<void> {
  const started = await s.call('POST', `/v1/scenarios/${scenarioId}/actions`, { token, body: { action: 'run' } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  running.add(scenarioId);
  expect(started.body.data.status).toBe('running');
}
async function stop(scenarioId: string): Promise<void> {
  running.delete(scenarioId);
  const r = await s.call('POST', `/v1/scenarios/${scenarioId}/actions`, {
    token,
    body: { action: 'stop', confirmation: STOP_SENTENCE },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

type TJourney = {
  customerId: string;
  bookingId: string | null;
  state: string;
  path: { nodeId: string; event: string; detail: string | null; at: string }[];
};
/** The journeys of one customer, as the console's journey history reads them. */
async function journeysOf(scenarioId: string, customerId: string): Promise<TJourney[]> {
  const r = await s.call('GET', `/v1/scenarios/${scenarioId}/journeys?pageSize=100`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data.items as TJourney[]).filter((j) => j.customerId === customerId);
}
/** The scenario's deliveries to a customer (written in the tick that queues the mail). */
async function deliveriesTo(scenarioId: string, customerId: string) {
  return s.sql(
    `select d.status from deliveries d join campaigns c on c.id = d.campaign_id where c.scenario_id = $1 and d.customer_id = $2`,
    [scenarioId, customerId],
  );
}
const outbox = (to: string) => s.sql(`select subject from dev_outbox where $1 = any(rcpt_to)`, [to]);
const sent = (to: string, count = 1) =>
  eventually(async () => ((await outbox(to)).length >= count ? true : null), 30_000);

beforeAll(async () => {
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '1', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  expect((await s.sql(`select timezone from hosts where id = $1`, [hotel.id]))[0].timezone).toBe('Asia/Tokyo');
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
      name: `滞在 ${tag}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  templateId = template.body.data.id;
  const now = await clockNow();
  base = new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}, 120_000);
afterEach(async () => {
  for (const id of [...running]) await stop(id);
});
afterAll(async () => {
  await s?.close();
});

describe('a guest with two rooms for the same dates', () => {
  it('gets one journey and one mail; when the room carrying it is cancelled, the journey follows the other room', async () => {
    const id = await runStayScenario('二部屋', { kind: 'before_check_in', days: 3 });
    const guest = await customer('two-rooms');
    const first = await booking(guest.id, day(6));
    const second = await booking(guest.id, day(6));
    await advance(1);
    const [journey, ...more] = await journeysOf(id, guest.id);
    expect(more).toEqual([]);
    expect(journey?.state).toBe('waiting');
    expect([first, second]).toContain(journey?.bookingId);

    // The sync brings both rooms again, then the cancellation of the room the journey carries.
    await s.sql(`update bookings set guests = guests + 1, updated_at = now() where id = any($1::uuid[])`, [
      [first, second],
    ]);
    await advance(1);
    expect(await journeysOf(id, guest.id)).toHaveLength(1);
    const carried = journey?.bookingId as string;
    await s.sql(`update bookings set status = 'cancelled', updated_at = now() where id = $1`, [carried]);
    await advance(1);
    const [after, ...none] = await journeysOf(id, guest.id);
    expect(none).toEqual([]);
    expect(after?.state).toBe('waiting');
    expect(after?.bookingId).toBe(carried === first ? second : first);

    await setClock(tokyo(day(3), '09:00'));
    await sent(guest.email);
    await advance(1);
    expect(await outbox(guest.email)).toEqual([{ subject: `二部屋 ${tag}` }]);
    expect(await deliveriesTo(id, guest.id)).toHaveLength(1);
    await stop(id);
  }, 120_000);
});

describe('a booking read late', () => {
  it('waits for the next send time before check-in, or is skipped with the reason; a checked-in guest gets nothing', async () => {
    const arrival = day(7);
    const id = await runStayScenario('遅い予約', { kind: 'before_check_in', days: 3 });

    // The 01:00 daily sync brings a stay for today: 3 days before is long past, 09:00 is still before check-in.
    await setClock(tokyo(arrival, '01:00'));
    const early = await customer('synced-at-one');
    await booking(early.id, arrival);
    await advance(1);
    expect(await deliveriesTo(id, early.id)).toEqual([]);
    const [waiting] = await journeysOf(id, early.id);
    expect(waiting?.state).toBe('waiting');

    // "Sync now" at 08:00 brings a guest who checked in early: nothing goes out.
    await setClock(tokyo(arrival, '08:00'));
    const inHouse = await customer('checked-in');
    await booking(inHouse.id, arrival, 'checked_in');
    await advance(1);
    const [skippedIn] = await journeysOf(id, inHouse.id);
    expect(skippedIn?.state).toBe('left');
    expect(skippedIn?.path.at(-1)).toMatchObject({ nodeId: 'stay', event: 'skipped', detail: 'checked_in' });

    await setClock(tokyo(arrival, '08:59'));
    expect(await deliveriesTo(id, early.id)).toEqual([]);
    await setClock(tokyo(arrival, '09:00'));
    await sent(early.email);
    const [mailed] = await journeysOf(id, early.id);
    expect(mailed?.path.find((p) => p.event === 'queued')?.at).toBe(tokyo(arrival, '09:00'));

    // At 10:00 the next send time is tomorrow, after check-in: skipped, with the reason.
    await setClock(tokyo(arrival, '10:00'));
    const tooLate = await customer('synced-at-ten');
    await booking(tooLate.id, arrival);
    await advance(1);
    const [late] = await journeysOf(id, tooLate.id);
    expect(late?.state).toBe('left');
    expect(late?.path.map((p) => [p.event, p.detail])).toEqual([
      ['entered', null],
      ['skipped', 'late_booking'],
    ]);

    // "Sync now" at 16:00 on the arrival day, after check-in.
    await setClock(tokyo(arrival, '16:00'));
    const afternoon = await customer('synced-at-four');
    await booking(afternoon.id, arrival);
    await advance(1);
    const [past] = await journeysOf(id, afternoon.id);
    expect(past?.state).toBe('left');
    expect(past?.path.at(-1)).toMatchObject({ event: 'skipped', detail: 'check_in_passed' });

    await advance(24 * 60);
    for (const guest of [inHouse, tooLate, afternoon]) expect(await deliveriesTo(id, guest.id)).toEqual([]);
    expect(await outbox(early.email)).toHaveLength(1);
    await stop(id);
  }, 120_000);

  it('mails nobody arriving today when the scenario is started that afternoon', async () => {
    const arrival = day(9);
    const guest = await customer('arrives-today');
    await booking(guest.id, arrival);
    await setClock(tokyo(arrival, '16:00'));
    const id = await runStayScenario('当日', { kind: 'check_in_day' });
    await advance(1);
    await advance(1);
    const [journey] = await journeysOf(id, guest.id);
    expect(journey?.state).toBe('left');
    expect(journey?.path.at(-1)).toMatchObject({ event: 'skipped', detail: 'check_in_passed' });
    expect(await deliveriesTo(id, guest.id)).toEqual([]);
    await stop(id);
  }, 120_000);
});

describe('a send time after check-in', () => {
  it('skips a check-in day mail set for 16:00, saying the send time is after check-in', async () => {
    const id = await runStayScenario('夕方', { kind: 'check_in_day' }, '16:00');
    const guest = await customer('evening');
    await booking(guest.id, day(11));
    await advance(1);
    const [journey] = await journeysOf(id, guest.id);
    expect(journey?.state).toBe('left');
    expect(journey?.path.at(-1)).toMatchObject({ event: 'skipped', detail: 'send_time_after_check_in' });
    await stop(id);
  }, 120_000);
});

describe('an engine that was down for days', () => {
  it('skips a pre-arrival mail whose stay has ended, with the reason, instead of sending it after check-out', async () => {
    const arrival = day(13);
    const id = await runStayScenario('停止中', { kind: 'before_check_in', days: 3 });
    const guest = await customer('engine-down');
    await booking(guest.id, arrival);
    await advance(1);
    expect((await journeysOf(id, guest.id))[0]?.state).toBe('waiting');
    // No tick between now and the morning after check-out (arrival + 2 nights).
    await setClock(tokyo(day(15), '10:00'));
    const [journey] = await journeysOf(id, guest.id);
    expect(journey?.state).toBe('left');
    expect(journey?.path.at(-1)).toMatchObject({ nodeId: 'stay', event: 'skipped', detail: 'stay_ended' });
    expect(await deliveriesTo(id, guest.id)).toEqual([]);
    await stop(id);
  }, 120_000);
});

describe('a moved stay', () => {
  it("moves the wait, and the journey's history says from when to when", async () => {
    const id = await runStayScenario('変更', { kind: 'before_check_in', days: 3 });
    const guest = await customer('moved');
    const stay = await booking(guest.id, day(30));
    await advance(1);
    expect((await journeysOf(id, guest.id))[0]?.path.map((p) => p.event)).toEqual(['entered']);
    await s.sql(
      `update bookings set check_in = check_in + 2, check_out = check_out + 2, updated_at = now() where id = $1`,
      [stay],
    );
    await advance(1);
    const [journey] = await journeysOf(id, guest.id);
    expect(journey?.state).toBe('waiting');
    const from = new Date(tokyo(day(27), '09:00')).toISOString().replace('.000Z', 'Z');
    const to = new Date(tokyo(day(29), '09:00')).toISOString().replace('.000Z', 'Z');
    expect(journey?.path.map((p) => [p.nodeId, p.event, p.detail])).toEqual([
      ['stay', 'entered', null],
      ['stay', 'moved', `${from}/${to}`],
    ]);
    // The same booking synced again without a change of dates moves nothing.
    await s.sql(`update bookings set guests = guests + 1, updated_at = now() where id = $1`, [stay]);
    await advance(1);
    expect((await journeysOf(id, guest.id))[0]?.path).toHaveLength(2);
    await stop(id);
  }, 120_000);
});

describe('an engine that was down for days', () => {
  it('mails, late, the guests whose stay is still ahead, and skips those who arrived meanwhile', async () => {
    await setClock(tokyo(day(40), '10:00'));
    const graph = {
      nodes: [
        { id: 'stay', type: 'trigger', data: { kind: 'before_check_in', days: 3 } },
        { id: 'wait', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'hours' } },
        { id: 'mail', type: 'email', data: { templateId, subject: `停止 ${tag}`, senderEmail: sender } },
      ],
      edges: [
        { id: 'a', source: 'stay', target: 'wait' },
        { id: 'b', source: 'wait', target: 'mail' },
      ],
    };
    const run = { period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime: '09:00' };
    const created = await s.call('POST', '/v1/scenarios', { token, body: { name: `停止 ${tag}`, graph, run } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    const guests: { arrival: number; id: string; email: string }[] = [];
    for (const arrival of [44, 49, 50, 53, 54]) {
      const guest = await customer(`down${arrival}`);
      await booking(guest.id, day(arrival));
      guests.push({ arrival, ...guest });
    }
    await start(id);
    await advance(1);
    // Ten days pass in one move (the engine down): at 10:00 on day 50.
    await advance(10 * 24 * 60);
    await advance(120);
    const path = async (arrival: number) => {
      const guest = guests.find((g) => g.arrival === arrival)!;
      return (await journeysOf(id, guest.id))[0]?.path.map((p) => `${p.nodeId}:${p.event}`) ?? [];
    };
    // Arrived during the downtime: skipped with the reason. Arriving at 15:00 today or later: mailed now.
    expect(await path(44)).toContain('stay:skipped');
    expect(await path(49)).toContain('stay:skipped');
    for (const arrival of [50, 53]) {
      const guest = guests.find((g) => g.arrival === arrival)!;
      await sent(guest.email);
      // The journey learns that its mail was sent at the engine's next tick.
      await eventually(async () => ((await path(arrival)).includes('mail:sent') ? true : null), 30_000);
    }
    // Its moment (day 51, 09:00) is still ahead: waiting.
    expect(await path(54)).toEqual(['stay:entered']);
    await stop(id);
  }, 180_000);
});

describe('a mail after a delay in a pre-arrival journey', () => {
  /** A running scenario: trigger, then a delay, then a mail. */
  async function runWithDelay(name: string, trigger: Record<string, unknown>, delay: Record<string, unknown>) {
    const graph = {
      nodes: [
        { id: 'stay', type: 'trigger', data: trigger },
        { id: 'wait', type: 'delay', data: delay },
        { id: 'mail', type: 'email', data: { templateId, subject: `${name} ${tag}`, senderEmail: sender } },
      ],
      edges: [
        { id: 'a', source: 'stay', target: 'wait' },
        { id: 'b', source: 'wait', target: 'mail' },
      ],
    };
    const run = { period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime: '09:00' };
    const created = await s.call('POST', '/v1/scenarios', { token, body: { name: `${name} ${tag}`, graph, run } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    await start(id);
    return id;
  }

  it('is checked against the stay when it is due: skipped with the reason once the guest arrived; a post-stay mail still goes out', async () => {
    await setClock(tokyo(day(60), '10:00'));
    // "1 day before check-in", then 2 days: the mail falls on the day after arrival.
    const pre = await runWithDelay(
      '到着後',
      { kind: 'before_check_in', days: 1 },
      { kind: 'duration', amount: 2, unit: 'days' },
    );
    // A post-stay journey keyed on check-out: its mail after a delay is meant after the stay.
    const post = await runWithDelay(
      '滞在後',
      { kind: 'after_check_out', days: 0 },
      { kind: 'duration', amount: 1, unit: 'hours' },
    );
    const passed = await customer('after-passed');
    const checkedIn = await customer('after-checkedin');
    const ended = await customer('after-ended');
    await booking(passed.id, day(70));
    const checkedInStay = await booking(checkedIn.id, day(70));
    await booking(ended.id, day(70), 'confirmed', 1);
    const leaving = await customer('after-stay');
    await booking(leaving.id, day(70), 'confirmed', 1);
    await advance(1);
    // The trigger's moment (day 69, 09:00) is before check-in: every pre-arrival journey goes on to wait.
    await setClock(tokyo(day(69), '09:30'));
    for (const guest of [passed, checkedIn, ended]) {
      const [journey] = await journeysOf(pre, guest.id);
      expect(journey?.state).toBe('waiting');
      expect(journey?.path.map((p) => `${p.nodeId}:${p.event}`)).toEqual([
        'stay:entered',
        'stay:done',
        'wait:entered',
        'wait:waiting',
      ]);
    }
    await setClock(tokyo(day(70), '16:00'));
    await s.sql(`update bookings set status = 'checked_in', updated_at = now() where id = $1`, [checkedInStay]);
    await advance(1);
    // The delay ends at 09:00 on day 71: after check-in for all three, after check-out for the one-night stay.
    await setClock(tokyo(day(71), '10:00'));
    for (const [guest, reason] of [
      [passed, 'check_in_passed'],
      [checkedIn, 'checked_in'],
      [ended, 'stay_ended'],
    ] as const) {
      const [journey] = await journeysOf(pre, guest.id);
      expect(journey?.state, guest.email).toBe('left');
      expect(journey?.path.at(-1), guest.email).toMatchObject({ nodeId: 'mail', event: 'skipped', detail: reason });
      expect(await deliveriesTo(pre, guest.id)).toEqual([]);
    }
    // The post-stay mail (check-out on day 71) is sent on the check-out day, after the stay.
    await setClock(tokyo(day(71), '12:00'));
    // Both one-night guests' post-stay mails, each as the relay takes it (in either order).
    await sent(leaving.email);
    await sent(ended.email);
    // No pre-arrival mail reached the three (the one-night guest gets the post-stay one: it checked out today).
    for (const guest of [passed, checkedIn, ended])
      expect((await outbox(guest.email)).map((m) => m.subject)).not.toContain(`到着後 ${tag}`);
    expect((await outbox(ended.email)).map((m) => m.subject)).toEqual([`滞在後 ${tag}`]);
    await stop(pre);
    await stop(post);
  }, 180_000);
});

describe('a stopped scenario', () => {
  it('counts the guests still waiting at the entrance as left because of the stop, apart from those who left of their own accord, and calls no such step a success', async () => {
    await setClock(tokyo(day(80), '10:00'));
    const id = await runStayScenario('停止', { kind: 'before_check_in', days: 3 });
    const waits = await customer('stop-waits');
    const mailed = await customer('stop-mailed');
    const cancels = await customer('stop-cancels');
    await booking(waits.id, day(90));
    await booking(mailed.id, day(84));
    const cancelled = await booking(cancels.id, day(90));
    await advance(1);
    await s.sql(`update bookings set status = 'cancelled', updated_at = now() where id = $1`, [cancelled]);
    await advance(1);
    // 3 days before the stay at 09:00: one guest gets the mail and is done with the journey.
    await setClock(tokyo(day(81), '09:00'));
    await sent(mailed.email);
    await eventually(async () => {
      await advance(1);
      return (await journeysOf(id, mailed.id))[0]?.state === 'done' ? true : null;
    }, 30_000);
    await stop(id);

    const summary = await s.call('GET', `/v1/scenarios/${id}/summary`, { token });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    const step = (nodeId: string) =>
      summary.body.data.nodes.find((n: { nodeId: string }) => n.nodeId === nodeId) as Record<string, unknown>;
    // At the entrance: 3 entered, 1 went on, 1 left with the cancelled stay, 1 was still waiting for
    // its day and left because of the stop.
    expect(step('stay')).toEqual({
      nodeId: 'stay',
      state: 'stopped',
      message: null,
      counts: { entered: 3, waiting: 0, done: 1, skipped: 0, failed: 0, left: 2, stopped: 1 },
      // No one waits there any more: no wait ends, nothing held.
      nextDueAt: null,
      hold: null,
    });
    // Everyone who reached the mail was mailed before the stop: that step did succeed.
    expect(step('mail')).toMatchObject({ state: 'success', counts: { entered: 1, done: 1, left: 0, stopped: 0 } });
    const scenario = await s.call('GET', `/v1/scenarios/${id}`, { token });
    expect(scenario.body.data.nodes).toEqual(summary.body.data.nodes);
    expect((await journeysOf(id, waits.id))[0]?.path.at(-1)).toMatchObject({
      nodeId: 'stay',
      event: 'left',
      detail: 'scenario_stopped',
    });
  }, 120_000);
});
