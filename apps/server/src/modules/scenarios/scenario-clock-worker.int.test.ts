import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { guestToMail, runMailScenario } from '../../test/scenarios.ts';
import { lockWaiters } from '../../test/test-relay.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * The manual clock's route and the worker's own tick, in one process over PostgreSQL. A tick of
 * the worker's that had claimed a due journey (FOR UPDATE SKIP LOCKED) when the clock moved made
 * the route's ticks skip it, and the route answered before the journey had moved: a test that
 * moved the clock and then read the journey saw it where it was. The route now waits for the
 * worker's tick under way and holds the next ones while it moves the clock and ticks.
 */

let s: TTestServer;
let token: string;
let grand: string;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  s = await startTestServer({
    env: { SCENARIO_CLOCK: 'manual', SCENARIO_TICK_SECONDS: '1', CAMPAIGN_DISPATCH_SECONDS: '1' },
  });
  await seedDemoSending(s.rt);
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const advance = (minutes: number) => s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes } });

describe('moving the clock while the worker ticks', () => {
  it("answers only once a journey that the worker's tick had claimed has moved on", async () => {
    const to = await guestToMail(s, token, {
      name: `競合 ${tag}`,
      email: `race.${tag}@guest.example.jp`,
      phone: `0906${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
      firstName: '時計',
      lastName: '競合',
    });
    const id = await runMailScenario(s, token, `競合 ${tag}`, to, `競合 ${tag}`, 3);
    expect((await advance(1)).status).toBe(200);
    const path = async () =>
      ((await s.call('GET', `/v1/scenarios/${id}/journeys?pageSize=10`, { token })).body.data.items[0]?.path ?? []).map(
        (p: { nodeId: string; event: string }) => `${p.nodeId}:${p.event}`,
      );
    expect((await path()).at(-1)).toBe('wait:waiting');

    // The log of journey steps locked: a tick that claims the journey waits, holding it, to log its step.
    const lock = new pg.Client({ connectionString: s.rt.config.databaseUrl ?? undefined });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table journey_steps in exclusive mode');
      // The delay ends now: the worker's next tick claims the journey and waits on the lock.
      await s.sql(`update journeys set due_at = (select now from scenario_clock) where scenario_id = $1`, [id]);
      await eventually(async () => (await lockWaiters(s, '%journey_steps%')) > 0, 30_000);
      // The route's answer, and where the journey stood when it came.
      const moving = advance(1).then(async (r) => ({ status: r.status, path: await path() }));
      // Let go once it answered, or after a while if it waits (as it now should) for that tick.
      await Promise.race([moving, new Promise((r) => setTimeout(r, 3000))]);
      await lock.query('commit');
      const moved = await moving;
      expect(moved.status).toBe(200);
      expect(moved.path).toContain('wait:done');
    } finally {
      await lock.query('rollback').catch(() => undefined);
      await lock.end();
    }
    const stopped = await s.call('POST', `/v1/scenarios/${id}/actions`, {
      token,
      body: { action: 'stop', confirmation: STOP_SENTENCE },
    });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
  }, 120_000);
});
