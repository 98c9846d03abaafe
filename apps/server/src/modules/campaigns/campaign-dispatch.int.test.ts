import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { startTestServer, type TTestServer } from '../../test/harness.ts';
import { campaignsToDispatch } from './send-queries.ts';

/**
 * What the dispatcher takes up, over real PostgreSQL: a campaign being sent always (its finish is
 * checked by its send job) unless paused, a scenario's hidden campaign only with a mail to send now
 * or in flight. The campaigns are arranged with SQL, and no worker runs here, so nothing sends them
 * meanwhile.
 */

let s: TTestServer;
let brandId: string;
const made: Record<string, string> = {};
let guests = 0;

/**
 * A campaign being sent (a scenario's hidden one when `scenario`; paused when `paused`) with one
 * delivery of each status given.
 */
async function campaign(
  name: string,
  scenario: boolean,
  statuses: string[],
  options: { deferredDue?: boolean; paused?: boolean } = {},
): Promise<void> {
  const [{ id }] = await s.sql(
    `insert into campaigns (brand_id, host_id, name, subject, status, started_at, paused_at, scenario_id, scenario_node_id, scenario_round)
     values ($1, $1, $2, $2, 'pending', now(), case when $4 then now() end,
       case when $3 then gen_random_uuid() end, case when $3 then 'n1' end, case when $3 then 0 end)
     returning id`,
    [brandId, name, scenario, options.paused ?? false],
  );
  made[name] = id;
  for (const [i, status] of statuses.entries()) {
    const [{ id: customer }] = await s.sql(
      `insert into customers (brand_id, first_name, last_name, phone, email)
       values ($1, 'Dispatch', $2, $3, $4) returning id`,
      [brandId, `${name}-${i}`, `0709${String(++guests).padStart(7, '0')}`, `dispatch-${name}-${i}@example.com`],
    );
    await s.sql(
      `insert into deliveries (campaign_id, brand_id, customer_id, email, status, next_attempt_at)
       values ($1, $2, $3, $4, $5, case when $5 = 'deferred' then now() + case when $6 then interval '-1 minute' else interval '1 hour' end end)`,
      [id, brandId, customer, `dispatch-${name}-${i}@example.com`, status, options.deferredDue ?? false],
    );
  }
}

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  [{ id: brandId }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  await campaign('campaign-done', false, ['sent', 'skipped']);
  await campaign('campaign-sending', false, ['sent', 'queued']);
  await campaign('campaign-paused', false, ['sent', 'queued'], { paused: true });
  await campaign('scenario-paused', true, ['queued'], { paused: true });
  await campaign('scenario-idle', true, ['sent', 'skipped', 'failed']);
  await campaign('scenario-empty', true, []);
  await campaign('scenario-queued', true, ['sent', 'queued']);
  await campaign('scenario-in-flight', true, ['sending']);
  await campaign('scenario-deferred-later', true, ['deferred'], { deferredDue: false });
  await campaign('scenario-deferred-due', true, ['deferred'], { deferredDue: true });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the campaign dispatcher', () => {
  it("takes up a sending campaign unless paused, and a scenario's hidden campaign only with a mail to send or in flight", async () => {
    const rows = await withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, (tx) => campaignsToDispatch(tx));
    const taken = new Set(rows.map((r) => r.id));
    const names = Object.keys(made).filter((name) => taken.has(made[name]!));
    expect(names.sort()).toEqual([
      'campaign-done',
      'campaign-sending',
      'scenario-deferred-due',
      'scenario-in-flight',
      'scenario-queued',
    ]);
  });
});
