import { randomBytes } from 'node:crypto';
import { JOURNEY_EVENTS } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * What a scenario's reader is told about guests who wait: a mail held by the quiet hours says so
 * with when they end (on the hotel's clock), a wait on a date says until when; and who may pick the
 * email step's sender: hotel staff, who edit scenarios but not the campaign email settings.
 */

let s: TTestServer;
let admin: string;
let staff: string;
let grand: string;
let brand: { id: string };
let hotel: { id: string };
const tag = randomBytes(3).toString('hex');

const pad = (n: number) => String(n).padStart(2, '0');
/** HH:00 in Tokyo, `hours` from now (real time: quiet hours keep it). */
const tokyoHour = (hours: number) => `${pad((new Date().getUTCHours() + 9 + hours + 48) % 24)}:00`;

async function template(token: string): Promise<string> {
  const made = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `保留 ${tag} ${randomBytes(2).toString('hex')}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data.id;
}

let seq = 0;
async function guest(firstName: string, lastName: string): Promise<string> {
  seq += 1;
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, $3, $4, $5) returning id`,
    [
      brand.id,
      firstName,
      lastName,
      `080${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${pad(seq)}00`,
      `${firstName}.${seq}.${tag}@guest.example.jp`,
    ],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [row.id, hotel.id, brand.id],
  );
  return row.id;
}

beforeAll(async () => {
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '1', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  await seedDemoSending(s.rt);
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [hotel] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
  admin = (await s.login(DEMO.brandAdmin)).token;
  staff = (await s.login(DEMO.hotelStaff)).token;
  grand = (await s.login(DEMO.grand)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe("hotel staff and the email step's sender", () => {
  it('reads the sender where the campaign editor reads it, and finishes and runs a preset with it', async () => {
    // The campaign email settings are for those who manage them; the Setup overview is for all who edit.
    expect((await s.call('GET', '/v1/sending/settings', { token: staff })).status).toBe(403);
    const setup = await s.call('GET', '/v1/sending/setup', { token: staff });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const sender = setup.body.data.settings.effective.senderEmail as string;
    expect(sender).toMatch(/@/);
    expect(setup.body.data.settings.canSend).toBe(true);

    const draft = await s.call('POST', '/v1/presets/builtin:pre_arrival/scenarios', {
      token: staff,
      body: { name: `到着前 ${tag}`, language: 'en' },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const graph = structuredClone(draft.body.data.graph);
    graph.nodes.find((n: { id: string }) => n.id === 'email').data = {
      templateId: await template(staff),
      subject: `See you soon ${tag}`,
      senderEmail: sender,
    };
    const saved = await s.call('PUT', `/v1/scenarios/${draft.body.data.id}`, { token: staff, body: { graph } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const run = await s.call('POST', `/v1/scenarios/${draft.body.data.id}/actions`, {
      token: staff,
      body: { action: 'run' },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.status).toBe('running');
  }, 60_000);
});

describe('guests who wait', () => {
  it("say a mail is held by the quiet hours and until when, and a wait on a date until when; names read as the customer list's", async () => {
    // Quiet hours around now on the hotel's clock (Tokyo): queued mails stay queued until they end.
    const start = tokyoHour(-1);
    const end = tokyoHour(2);
    await s.sql(
      `update campaign_email_settings set quiet_hours_start = $2, quiet_hours_end = $3
        where host_id in (select id from hosts where id = $1 or brand_id = $1)`,
      [brand.id, start, end],
    );
    const rachel = await guest('Rachel', 'Harris');
    const taro = await guest('太郎', '山田');
    const segment = await staticSegment(s, admin, `保留 ${tag}`, [rachel, taro]);
    const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
    const email = { templateId: await template(admin), subject: `保留 ${tag}`, senderEmail: settings.sender_email };
    const created = await s.call('POST', '/v1/scenarios', {
      token: admin,
      body: {
        name: `保留 ${tag}`,
        graph: {
          nodes: [
            { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
            { id: 'mail', type: 'email', data: email },
          ],
          edges: [{ id: 'a', source: 'start', target: 'mail' }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    expect(
      (await s.call('POST', `/v1/scenarios/${id}/actions`, { token: admin, body: { action: 'run' } })).status,
    ).toBe(200);
    expect((await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } })).status).toBe(200);

    const journeys = await eventually(async () => {
      const r = await s.call('GET', `/v1/scenarios/${id}/journeys?pageSize=100`, { token: admin });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const items = r.body.data.items as {
        customerId: string;
        customerName: string;
        state: string;
        dueAt: string | null;
        hold: { reason: string; until: string; localTime: string; timeZone: string; hostName: string } | null;
        path: { event: string }[];
      }[];
      return items.length === 2 && items.every((j) => j.path.at(-1)?.event === 'queued') ? items : null;
    }, 30_000);
    for (const j of journeys) {
      expect(j.state).toBe('waiting');
      expect(j.dueAt).toBeNull();
      expect(j.hold).toMatchObject({ reason: 'quiet_hours', localTime: end, timeZone: 'Asia/Tokyo' });
      expect(j.hold?.hostName).toBeTruthy();
      const until = Date.parse(j.hold!.until);
      expect(until).toBeGreaterThan(Date.now());
      expect(until).toBeLessThanOrEqual(Date.now() + 2 * 3600_000);
      for (const step of j.path) expect(JOURNEY_EVENTS).toContain(step.event);
    }
    // The customer list's own full name: "Rachel Harris", 山田 太郎.
    expect(journeys.find((j) => j.customerId === rachel)?.customerName).toBe('Rachel Harris');
    expect(journeys.find((j) => j.customerId === taro)?.customerName).toBe('山田 太郎');
    // Either order finds a guest.
    for (const search of ['Rachel Harris', 'Harris Rachel']) {
      const found = await s.call('GET', `/v1/scenarios/${id}/journeys?search=${encodeURIComponent(search)}`, {
        token: admin,
      });
      expect(found.body.data.items.map((j: { customerId: string }) => j.customerId)).toEqual([rachel]);
    }

    // The summary's step: 2 waiting, held by the quiet hours until their end.
    const summary = await s.call('GET', `/v1/scenarios/${id}/summary`, { token: admin });
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    const mail = summary.body.data.nodes.find((n: { nodeId: string }) => n.nodeId === 'mail');
    expect(mail.counts.waiting).toBe(2);
    expect(mail.hold).toMatchObject({ reason: 'quiet_hours', localTime: end, waiting: 2, whole: true });
    expect(mail.nextDueAt).toBeNull();

    // Quiet hours off: nothing is said to hold them any more.
    await s.sql(
      `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00'
        where host_id in (select id from hosts where id = $1 or brand_id = $1)`,
      [brand.id],
    );
    const after = await s.call('GET', `/v1/scenarios/${id}/journeys?pageSize=100`, { token: admin });
    for (const j of after.body.data.items as { state: string; hold: unknown }[])
      if (j.state === 'waiting') expect(j.hold).toBeNull();
  }, 90_000);

  it('gives the end of a wait on a date for the step where guests wait', async () => {
    const guestId = await guest('Hand', 'Test');
    const segment = await staticSegment(s, admin, `待機 ${tag}`, [guestId]);
    const created = await s.call('POST', '/v1/scenarios', {
      token: admin,
      body: {
        name: `待機 ${tag}`,
        graph: {
          nodes: [
            { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
            { id: 'wait', type: 'delay', data: { kind: 'duration', amount: 2, unit: 'days' } },
          ],
          edges: [{ id: 'a', source: 'start', target: 'wait' }],
        },
      },
    });
    const id = created.body.data.id;
    expect(
      (await s.call('POST', `/v1/scenarios/${id}/actions`, { token: admin, body: { action: 'run' } })).status,
    ).toBe(200);
    expect((await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } })).status).toBe(200);
    const waiting = await eventually(async () => {
      const r = await s.call('GET', `/v1/scenarios/${id}/journeys`, { token: admin });
      const [j] = r.body.data.items as { state: string; dueAt: string | null; hold: unknown }[];
      return j?.dueAt ? j : null;
    }, 30_000);
    expect(waiting).toMatchObject({ state: 'waiting', hold: null });
    const summary = await s.call('GET', `/v1/scenarios/${id}/summary`, { token: admin });
    const wait = summary.body.data.nodes.find((n: { nodeId: string }) => n.nodeId === 'wait');
    expect(wait.counts.waiting).toBe(1);
    expect(wait.nextDueAt).toBe(waiting.dueAt);
    expect(wait.hold).toBeNull();
  }, 60_000);
});
