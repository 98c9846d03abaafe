import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows, withTenant, type TTx } from '../../db/client.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { startTestServer, type TTestServer } from '../../test/harness.ts';
import { recordDeliveryOutcomes } from '../tracking/rollups.ts';
import { applyFeedback, type TFeedback } from './apply-feedback.ts';

/**
 * "Delivered" is what the relay accepted less what bounced afterwards (issue 25): a hard or soft
 * bounce reported after the send takes its mail out of every rollup's `delivered` once, where the
 * send counted it. The send's outcomes and the reports go through the modules' own functions
 * (recordDeliveryOutcomes as the send calls it, applyFeedback as the receiver and the webhook
 * applier call it) on the real PostgreSQL; the rollups are read back raw.
 */

let s: TTestServer;
let brandId: string;
let hotelId: string;
const tag = randomBytes(3).toString('hex');
const DOMAIN = 'sakura-hotels.example.jp';
let phoneSeq = 0;

beforeAll(async () => {
  s = await startTestServer();
  [{ id: brandId }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [{ id: hotelId }] = await s.sql(`select id from hosts where slug = 'sakura-yokohama'`);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const asBrand = <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
  withTenant(s.rt.database.db, { scopeAll: false, brandId }, fn);

/**
 * A campaign whose `count` mails the relay accepted at `sentAt`, counted by the send at `countedAt`
 * (with `inFlight`, handed to the relay and not yet answered: neither recorded nor counted).
 */
async function sentCampaign(
  count: number,
  sentAt: Date,
  countedAt: Date,
  { inFlight = false }: { inFlight?: boolean } = {},
): Promise<{ id: string; deliveries: string[] }> {
  const [campaign] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, status, started_at) values ($1, $2, $3, 'sent', $4) returning id`,
    [brandId, hotelId, `届いた数 ${tag} ${randomBytes(3).toString('hex')}`, sentAt],
  );
  const deliveries: string[] = [];
  for (let i = 0; i < count; i++) {
    phoneSeq += 1;
    const email = `undelivered.${tag}.${phoneSeq}@guest.example.jp`;
    const [customer] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, 'テスト', '到達', $2, $3) returning id`,
      [brandId, `090${String(parseInt(tag, 16) % 10000).padStart(4, '0')}${String(phoneSeq).padStart(4, '0')}`, email],
    );
    const [d] = await s.sql(
      `insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, attempts, sent_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [
        campaign.id,
        brandId,
        customer.id,
        hotelId,
        email,
        inFlight ? 'sending' : 'sent',
        inFlight ? 0 : 1,
        inFlight ? null : sentAt,
      ],
    );
    deliveries.push(d.id);
  }
  if (!inFlight) await countSent(campaign.id, deliveries, countedAt);
  return { id: campaign.id, deliveries };
}

/** The send's count of mails the relay accepted (recordDeliveryOutcomes, as the send calls it). */
async function countSent(campaignId: string, deliveries: string[], countedAt: Date): Promise<void> {
  await asBrand((tx) =>
    recordDeliveryOutcomes(
      tx,
      deliveries.map((deliveryId) => sentOutcome(campaignId, deliveryId, countedAt)),
    ),
  );
}

const bounce = (deliveryId: string, kind: 'hard_bounce' | 'soft_bounce'): TFeedback => ({
  deliveryId,
  kind,
  source: 'dsn',
  status: kind === 'hard_bounce' ? '5.1.1' : '5.2.2',
  diagnostic: kind === 'hard_bounce' ? '550 5.1.1 No such user' : '552 5.2.2 Mailbox full',
  sendingDomain: DOMAIN,
});

/** Delivered in each rollup of the campaign: total, per hour (ISO), per hotel, the domain's hours. */
async function deliveredOf(campaignId: string) {
  const [total] = await s.sql(
    `select delivered, hard_bounces, soft_bounces from campaign_stats where campaign_id = $1`,
    [campaignId],
  );
  const hours = await s.sql(`select hour, delivered from campaign_stats_hourly where campaign_id = $1 order by hour`, [
    campaignId,
  ]);
  const [host] = await s.sql(`select delivered from campaign_host_stats where campaign_id = $1 and host_id = $2`, [
    campaignId,
    hotelId,
  ]);
  return {
    total: total.delivered as number,
    hardBounces: total.hard_bounces as number,
    softBounces: total.soft_bounces as number,
    hours: Object.fromEntries(hours.map((h) => [(h.hour as Date).toISOString(), h.delivered as number])),
    host: host.delivered as number,
  };
}

const domainHours = async (hours: Date[]) =>
  Object.fromEntries(
    (
      await s.sql(
        `select hour, delivered from sending_domain_stats_hourly where brand_id = $1 and domain = $2 and hour = any($3::timestamptz[])`,
        [brandId, DOMAIN, hours.map((h) => h.toISOString())],
      )
    ).map((r) => [(r.hour as Date).toISOString(), r.delivered as number]),
  );

/** An hour far enough back, and apart from other tests', that no other send shares its rollups. */
const hourFarBack = (hours: number) =>
  new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - (hours + (parseInt(tag, 16) % 50)) * 3_600_000);

const sentOutcome = (campaignId: string, deliveryId: string, at: Date) => ({
  deliveryId,
  campaignId,
  brandId,
  hotelId,
  outcome: 'sent' as const,
  at,
  sendingDomain: DOMAIN,
});

const backendPid = async (tx: TTx): Promise<number> =>
  Number((await selectRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]?.pid);

/** Resolves once another session waits on a lock that the session `pid` holds, or once `or` has. */
async function blockedBy(pid: number, or: Promise<unknown>): Promise<void> {
  let done = false;
  void or.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const [row] = await s.sql(
      `select exists (select 1 from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))) as b`,
      [pid],
    );
    if (row.b) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('delivered, less what bounced after the relay accepted it', () => {
  it('takes a bounced mail out once, in the hour the send counted it, and never below zero', async () => {
    // Far enough back that no other test's send shares the hours.
    const base = hourFarBack(400).getTime();
    const hour = new Date(base);
    const next = new Date(base + 3_600_000);
    // Accepted on the stroke of the hour by the database's clock (10:59:59.9), counted by the
    // send's process a moment later (11:00:00.05): the mail sits in the next hour's row.
    const { id, deliveries } = await sentCampaign(3, new Date(next.getTime() - 100), new Date(next.getTime() + 50));
    const [a, b, c] = deliveries as [string, string, string];
    expect(await deliveredOf(id)).toMatchObject({ total: 3, hours: { [next.toISOString()]: 3 }, host: 3 });
    const domainBefore = (await domainHours([next]))[next.toISOString()] as number;

    // A hard bounce of one mail, and in the same batch a soft bounce of another (reported twice: a
    // DSN and a relay's event) and a later "mailbox full" of the first: two mails left delivered,
    // once each, each kind of a mail counted once, with its first report's diagnostic.
    const applied = await asBrand((tx) =>
      applyFeedback(tx, [
        bounce(a, 'hard_bounce'),
        bounce(b, 'soft_bounce'),
        { ...bounce(b, 'soft_bounce'), diagnostic: '452 4.2.2 Over quota (second report)' },
        bounce(a, 'soft_bounce'),
      ]),
    );
    expect(applied).toHaveLength(3);
    const [recordedSoft] = await s.sql(
      `select diagnostic from feedback_events where delivery_id = $1 and kind = 'soft_bounce'`,
      [b],
    );
    expect(recordedSoft.diagnostic).toBe('552 5.2.2 Mailbox full');
    expect(await deliveredOf(id)).toMatchObject({
      total: 1,
      hardBounces: 1,
      softBounces: 2,
      hours: { [next.toISOString()]: 1 },
      host: 1,
    });
    expect(await domainHours([hour, next])).toEqual({ [next.toISOString()]: domainBefore - 2 });
    // The same reports again: nothing changes.
    await asBrand((tx) => applyFeedback(tx, [bounce(a, 'hard_bounce'), bounce(b, 'soft_bounce')]));
    expect((await deliveredOf(id)).total).toBe(1);

    // Two reports of the last mail at once (a DSN and a relay's event, in two transactions): the
    // key of `delivery_bounces` lets one take it out; the other waits on it, then finds it taken.
    await Promise.all([
      asBrand((tx) => applyFeedback(tx, [bounce(c, 'hard_bounce')])),
      asBrand((tx) => applyFeedback(tx, [bounce(c, 'soft_bounce')])),
    ]);
    expect(await deliveredOf(id)).toMatchObject({ total: 0, hours: { [next.toISOString()]: 0 }, host: 0 });
    expect(await domainHours([next])).toEqual({ [next.toISOString()]: domainBefore - 3 });
    const marked = await s.sql(
      `select count(*)::int as n from delivery_bounces b join deliveries d on d.id = b.delivery_id where d.campaign_id = $1`,
      [id],
    );
    expect(marked[0].n).toBe(3);
  });

  it('takes out, when the send counts it, a mail whose bounce was applied while its answer was still to be committed (a fast relay), once', async () => {
    const hour = hourFarBack(900);
    const sentAt = new Date(hour.getTime() + 60_000);
    const { id, deliveries } = await sentCampaign(3, sentAt, sentAt, { inFlight: true });
    const [early, twice, late] = deliveries as [string, string, string];
    // The relay accepted all three; its reports of two came before the send recorded its answers (the
    // embedded sink's DSN follows by 200 ms, a webhook may be quicker): nothing counted them yet.
    await asBrand((tx) => applyFeedback(tx, [bounce(early, 'hard_bounce'), bounce(twice, 'soft_bounce')]));
    await asBrand((tx) => applyFeedback(tx, [bounce(twice, 'hard_bounce')]));
    // The send records its answers and counts the three as it does (recordOutcomes sets `sent_at`).
    await s.sql(`update deliveries set status = 'sent', attempts = 1, sent_at = $2 where campaign_id = $1`, [
      id,
      sentAt,
    ]);
    await countSent(id, deliveries, sentAt);
    expect(await deliveredOf(id)).toMatchObject({
      total: 1,
      hardBounces: 2,
      softBounces: 1,
      hours: { [hour.toISOString()]: 1 },
      host: 1,
    });
    expect(await domainHours([hour])).toEqual({ [hour.toISOString()]: 1 });
    // Once each: their reports again, or another kind, change nothing; a bounce after the count
    // takes the third out as before.
    await asBrand((tx) =>
      applyFeedback(tx, [bounce(early, 'hard_bounce'), bounce(early, 'soft_bounce'), bounce(late, 'hard_bounce')]),
    );
    expect(await deliveredOf(id)).toMatchObject({ total: 0, hours: { [hour.toISOString()]: 0 }, host: 0 });
    expect(await domainHours([hour])).toEqual({ [hour.toISOString()]: 0 });
    const marked = await s.sql(
      `select count(*)::int as n from delivery_bounces b join deliveries d on d.id = b.delivery_id where d.campaign_id = $1`,
      [id],
    );
    expect(marked[0].n).toBe(3);
  });

  it('takes out a mail whose report was read while the send was committing its answer, once the send has committed', async () => {
    const hour = hourFarBack(1100);
    const { id, deliveries } = await sentCampaign(1, hour, hour, { inFlight: true });
    const [mail] = deliveries as [string];
    let reported!: Promise<unknown>;
    // The send records the relay's answer and counts its mail, seeing no bounce; before it commits,
    // a report of the mail is read (still `sending` to it) and waits on the send's locks. The test
    // holds the send's transaction open until the report waits, so the overlap happens every time:
    // the report then found nothing counted, the send no bounce, and the mail stayed delivered.
    await asBrand(async (send) => {
      const pid = await backendPid(send);
      await send.execute(sql`update deliveries set status = 'sent', attempts = 1, sent_at = ${hour.toISOString()}::timestamptz
        where id = ${mail}`);
      await recordDeliveryOutcomes(send, [sentOutcome(id, mail, hour)]);
      reported = asBrand((tx) => applyFeedback(tx, [bounce(mail, 'hard_bounce')]));
      await blockedBy(pid, reported);
    });
    await reported;
    expect(await deliveredOf(id)).toMatchObject({ total: 0, hardBounces: 1, hours: { [hour.toISOString()]: 0 } });
    expect(await domainHours([hour])).toEqual({ [hour.toISOString()]: 0 });
    const marked = await s.sql(`select count(*)::int as n from delivery_bounces where delivery_id = $1`, [mail]);
    expect(marked[0].n).toBe(1);
  });

  it('leaves delivered alone for a bounce the relay answered during the send, and for a mail never counted', async () => {
    const at = new Date(Date.now() - 600 * 3_600_000);
    const { id, deliveries } = await sentCampaign(2, at, at);
    const [failed, uncounted] = deliveries as [string, string];
    // Refused during the send: failed, never counted as delivered (arranged as the send leaves it).
    await s.sql(`update deliveries set status = 'failed' where id = $1`, [failed]);
    await asBrand((tx) => applyFeedback(tx, [{ ...bounce(failed, 'hard_bounce'), source: 'smtp' }]));
    expect(await deliveredOf(id)).toMatchObject({ total: 2, hardBounces: 1 });
    // A mail whose rollups were lost (here: taken out by hand): marked, but no row goes below zero.
    await s.sql(`update campaign_stats set delivered = 0 where campaign_id = $1`, [id]);
    await s.sql(`update campaign_stats_hourly set delivered = 0 where campaign_id = $1`, [id]);
    await asBrand((tx) => applyFeedback(tx, [bounce(uncounted, 'hard_bounce')]));
    const after = await deliveredOf(id);
    expect(after.total).toBe(0);
    // The hour it was sent and the hour its bounces came in.
    expect(Object.values(after.hours)).toEqual([0, 0]);
    expect(after.host).toBe(1);
  });

  it('takes out, on upgrade, the mails whose bounces were reported before "delivered" left them (migration 0043), as the rules do now, and keeps the marks when they move to their own table (0044)', async () => {
    const base = hourFarBack(800).getTime();
    const next = new Date(base + 3_600_000);
    const { id, deliveries } = await sentCampaign(3, new Date(next.getTime() - 100), new Date(next.getTime() + 50));
    const [a, b] = deliveries as [string, string, string];
    // The hotel's day the send counted them in (its own time zone).
    const [{ day }] = await s.sql(
      `select ($1::timestamptz at time zone coalesce(timezone, 'Asia/Tokyo'))::date::text as day from hosts where id = $2`,
      [new Date(next.getTime() + 50), hotelId],
    );
    const dayOf = async () =>
      (await s.sql(`select delivered from host_daily_stats where host_id = $1 and day = $2::date`, [hotelId, day]))[0]
        ?.delivered as number;
    const before = { campaign: await deliveredOf(id), domain: await domainHours([next]), days: await dayOf() };

    // What the rules do now: a hard bounce of one mail, a soft bounce of another.
    await asBrand((tx) => applyFeedback(tx, [bounce(a, 'hard_bounce'), bounce(b, 'soft_bounce')]));
    const now = { campaign: await deliveredOf(id), domain: await domainHours([next]), days: await dayOf() };
    expect(now.campaign).toMatchObject({ total: 1, host: 1 });
    expect(now.days).toBe(before.days - 2);

    // The same reports as an installation before 0041 kept them: recorded, the mails still delivered,
    // and the marks' column of 0041 to 0043 on `deliveries` (0044 moved them to their own table).
    await s.sql(`drop table delivery_bounces`);
    await s.sql(`alter table deliveries add column bounced_at timestamptz`);
    await s.sql(`update campaign_stats set delivered = 3 where campaign_id = $1`, [id]);
    await s.sql(`update campaign_stats_hourly set delivered = 3 where campaign_id = $1 and hour = $2`, [id, next]);
    await s.sql(`update campaign_host_stats set delivered = 3 where campaign_id = $1`, [id]);
    await s.sql(`update host_daily_stats set delivered = delivered + 2 where host_id = $1 and day = $2::date`, [
      hotelId,
      day,
    ]);
    await s.sql(
      `update sending_domain_stats_hourly set delivered = delivered + 2 where brand_id = $1 and domain = $2 and hour = $3`,
      [brandId, DOMAIN, next],
    );
    expect({ campaign: await deliveredOf(id), domain: await domainHours([next]), days: await dayOf() }).toMatchObject({
      campaign: { total: 3, host: 3, hours: { [next.toISOString()]: 3 } },
      domain: before.domain,
      days: before.days,
    });

    // The upgrade's migrations, as the migrator runs them (one transaction, statement by statement).
    const migration = (file: string) => {
      const statements = readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8').split('--> statement-breakpoint');
      return () =>
        s.rt.database.db.transaction(async (tx) => {
          for (const statement of statements) await tx.execute(sql.raw(statement));
        });
    };
    const backfill = migration('0043_delivered_backfill.sql');
    await backfill();
    expect({ campaign: await deliveredOf(id), domain: await domainHours([next]), days: await dayOf() }).toEqual(now);
    // Run again (it never is: a migration runs once), it would find nothing left to take out.
    await backfill();
    expect((await deliveredOf(id)).total).toBe(1);
    // 0044: each mark moves to `delivery_bounces` with its time (its first bounce's), the column goes.
    await migration('0044_delivery_bounces.sql')();
    const marked = await s.sql(
      `select b.delivery_id from delivery_bounces b join feedback_events f on f.delivery_id = b.delivery_id
       join deliveries d on d.id = b.delivery_id where d.campaign_id = $1 and b.bounced_at = f.received_at order by 1`,
      [id],
    );
    expect(marked.map((r) => r.delivery_id)).toEqual([a, b].sort());
    const [column] = await s.sql(
      `select count(*)::int as n from information_schema.columns where table_name = 'deliveries' and column_name = 'bounced_at'`,
    );
    expect(column.n).toBe(0);
    // And the rules go on from the moved marks: a second report of a marked mail takes nothing out.
    await asBrand((tx) => applyFeedback(tx, [bounce(a, 'soft_bounce')]));
    expect((await deliveredOf(id)).total).toBe(1);
  });
});
