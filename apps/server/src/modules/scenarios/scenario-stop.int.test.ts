import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { guestToMail, runMailScenario } from '../../test/scenarios.ts';
import { staticSegment } from '../../test/segments.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * Stopping a scenario whose mail is queued and not yet sent. No worker runs in this server, so the
 * mail the clock's tick queues stays queued until the stop: the email details then say it was not
 * sent because the scenario stopped, not that it is still on its way.
 */

let s: TTestServer;
let token: string;
let grand: string;
const tag = randomBytes(3).toString('hex');

beforeAll(async () => {
  s = await startTestServer({ worker: false, env: { SCENARIO_CLOCK: 'manual' } });
  if ((await s.sql(`select 1 from sending_domains where domain = 'sakura-hotels.example.jp'`)).length === 0)
    await seedDemoSending(s.rt);
  token = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('stopping a scenario with a mail still queued', () => {
  it('cancels the mail, and the email details count it as not sent because of the stop, not as queued', async () => {
    const to = await guestToMail(s, token, {
      name: `停止 ${tag}`,
      email: `stop.${tag}@guest.example.jp`,
      phone: `0906${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`,
      firstName: '停止',
      lastName: 'テスト',
    });
    const id = await runMailScenario(s, token, `停止 ${tag}`, to, `停止の便り ${tag}`);
    const moved = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);

    const details = async () => {
      const res = await s.call('GET', `/v1/scenarios/${id}/emails`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.items[0];
    };
    expect(await details()).toMatchObject({ nodeId: 'mail', queued: 1, sent: 0, skipped: 0, cancelled: 0 });

    const stop = await s.call('POST', `/v1/scenarios/${id}/actions`, {
      token,
      body: { action: 'stop', confirmation: STOP_SENTENCE },
    });
    expect(stop.body.data.status, JSON.stringify(stop.body)).toBe('stopped');

    expect(await details()).toMatchObject({ nodeId: 'mail', queued: 0, sent: 0, skipped: 0, failed: 0, cancelled: 1 });
    // The delivery itself says so, as a cancelled campaign's do, and the campaign's statistics count it.
    const [delivery] = await s.sql(
      `select d.status, d.skip_reason, cs.skipped from deliveries d join campaigns c on c.id = d.campaign_id
         left join campaign_stats cs on cs.campaign_id = c.id where c.scenario_id = $1`,
      [id],
    );
    expect(delivery).toEqual({ status: 'skipped', skip_reason: 'cancelled', skipped: 1 });
  }, 60_000);
});

describe('scenarios stopped before a stop settled their mails (migration 0049)', () => {
  it("settles their queued mails as a stop does now, and leaves a running scenario's alone", async () => {
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
    const template = await s.call('POST', '/v1/templates', {
      token,
      body: {
        name: `旧停止 ${tag}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
      },
    });
    let guests = 0;
    // A running scenario of `count` guests of its own, mailing each of them at the next tick.
    const running = async (name: string, count: number) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const n = ++guests;
        const [guest] = await s.sql(
          `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '旧停止', 'テスト', $2, $3) returning id`,
          [
            brand.id,
            `0907${String((parseInt(tag, 16) * 10 + n) % 10_000_000).padStart(7, '0')}`,
            `old-stop.${n}.${tag}@guest.example.jp`,
          ],
        );
        ids.push(guest.id);
      }
      const segment = await staticSegment(s, token, `${name} ${tag}`, ids);
      const graph = {
        nodes: [
          { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: segment } },
          {
            id: 'mail',
            type: 'email',
            data: { templateId: template.body.data.id, subject: `${name} ${tag}`, senderEmail: settings.sender_email },
          },
        ],
        edges: [{ id: 'a', source: 'start', target: 'mail' }],
      };
      const created = await s.call('POST', '/v1/scenarios', { token, body: { name: `${name} ${tag}`, graph } });
      const id = created.body.data.id as string;
      const run = await s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } });
      expect(run.body.data.status, JSON.stringify(run.body)).toBe('running');
      return id;
    };
    const stoppedLongAgo = await running('旧停止', 3);
    const archivedAfterStop = await running('旧停止・アーカイブ', 1);
    const restartedSince = await running('旧停止・再開', 1);
    const stillRunning = await running('稼働中', 1);
    const moved = await s.call('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 1 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const deliveries = (scenarioId: string) =>
      s.sql(
        `select d.id, d.status, d.skip_reason, d.claimed_by, d.handed_at is not null as handed, c.status as campaign
          from deliveries d join campaigns c on c.id = d.campaign_id where c.scenario_id = $1 order by d.id`,
        [scenarioId],
      );
    for (const id of [stoppedLongAgo, archivedAfterStop, restartedSince, stillRunning])
      expect((await deliveries(id)).map((d) => d.status)).toEqual(Array((await deliveries(id)).length).fill('queued'));

    // The first scenario's mails: one queued, one deferred for a retry, one claimed and handed to the
    // relay (in flight: its answer settles it, not the stop).
    const [queued, deferred, inFlight] = (await deliveries(stoppedLongAgo)).map((d) => d.id as string);
    await s.sql(
      `update deliveries set status = 'deferred', attempts = 1, next_attempt_at = now() + interval '1 hour' where id = $1`,
      [deferred],
    );
    await s.sql(
      `update deliveries set status = 'sending', claimed_by = gen_random_uuid(), claim_token = gen_random_uuid(), handed_at = now() where id = $1`,
      [inFlight],
    );
    // The stop as it was before b5ac63d: the journeys leave, the hidden campaigns are cancelled, and
    // their deliveries are left as they were. The second is archived since; the third run again,
    // its journeys not yet at the email step (which would reopen the campaign and send the old mail).
    for (const id of [stoppedLongAgo, archivedAfterStop, restartedSince]) {
      await s.sql(`update scenarios set status = 'stopped', stopped_at = now(), next_entry_at = null where id = $1`, [
        id,
      ]);
      await s.sql(`update journeys set state = 'left', due_at = null where scenario_id = $1 and state = 'waiting'`, [
        id,
      ]);
      await s.sql(
        `update campaigns set status = 'cancelled', finished_at = now() - interval '2 days', updated_at = now() where scenario_id = $1 and status = 'pending'`,
        [id],
      );
    }
    await s.sql(`update scenarios set status = 'archived', archived_from = 'stopped' where id = $1`, [
      archivedAfterStop,
    ]);
    await s.sql(`update scenarios set status = 'running', stopped_at = null where id = $1`, [restartedSince]);
    const details = async (id: string) => {
      const res = await s.call('GET', `/v1/scenarios/${id}/emails`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.items[0];
    };
    expect(await details(stoppedLongAgo)).toMatchObject({ queued: 3, cancelled: 0 });

    // The upgrade, as the migrator runs it (one transaction, statement by statement); a second run
    // (it never is: a migration runs once) finds nothing left to settle.
    const statements = readFileSync(join(MIGRATIONS_FOLDER, '0049_stopped_scenarios_settle_mails.sql'), 'utf8').split(
      '--> statement-breakpoint',
    );
    const migrate = () =>
      s.rt.database.db.transaction(async (tx) => {
        for (const statement of statements) await tx.execute(sql.raw(statement));
      });
    await migrate();
    await migrate();

    expect(await details(stoppedLongAgo)).toMatchObject({
      nodeId: 'mail',
      queued: 1,
      cancelled: 2,
      skipped: 0,
      sent: 0,
    });
    const settled = await deliveries(stoppedLongAgo);
    expect(settled.map((d) => [d.id, d.status, d.skip_reason, d.claimed_by === null, d.handed])).toEqual(
      [
        [queued, 'skipped', 'cancelled', true, false],
        [deferred, 'skipped', 'cancelled', true, false],
        [inFlight, 'sending', null, false, true],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
    for (const id of [archivedAfterStop, restartedSince])
      expect((await deliveries(id)).map((d) => [d.status, d.skip_reason])).toEqual([['skipped', 'cancelled']]);
    // Counted as skipped once, as the stop counts them: the campaign, its hour and hotel, the day.
    const [stats] = await s.sql(
      `select cs.skipped, (select sum(h.skipped)::int from campaign_stats_hourly h where h.campaign_id = c.id) as hourly,
          (select sum(x.skipped)::int from campaign_host_stats x where x.campaign_id = c.id) as hosts
        from campaigns c join campaign_stats cs on cs.campaign_id = c.id where c.scenario_id = $1`,
      [stoppedLongAgo],
    );
    expect(stats).toEqual({ skipped: 2, hourly: 2, hosts: 2 });

    // The running scenario's mail still waits to be sent, its campaign still sending.
    expect((await deliveries(stillRunning)).map((d) => [d.status, d.skip_reason, d.campaign])).toEqual([
      ['queued', null, 'pending'],
    ]);
    expect(await details(stillRunning)).toMatchObject({ queued: 1, cancelled: 0 });
  }, 60_000);
});
