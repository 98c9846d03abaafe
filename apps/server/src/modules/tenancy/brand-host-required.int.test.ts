import { randomBytes } from 'node:crypto';
import { ERROR_MESSAGES } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

/**
 * Segments, campaigns, scenarios and presets are a brand's data (or a hotel group's or hotel's):
 * the platform holds none. The granduser, who holds every entitlement, is refused creating them at
 * the platform with a code that says what to do (switch to a brand), not the generic `forbidden`;
 * acting as a brand's admin, the same calls create them for that brand.
 */

let s: TTestServer;
let grand: string;
let brandAdmin: string;
const tag = randomBytes(3).toString('hex');
const AS_BRAND = { 'x-user-role': 'admin', 'x-host-slug': 'sakura-hotels', 'x-host-level': 'brand' };

beforeAll(async () => {
  s = await startTestServer();
  grand = (await s.login(DEMO.grand)).token;
  brandAdmin = (await s.login(DEMO.brandAdmin)).token;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** A brand's segment, campaign and scenario, which the platform sees and might try to copy. */
async function brandObjects(suffix: string) {
  const segment = await s.call('POST', '/v1/segments', {
    token: brandAdmin,
    body: { name: `ブランドの区分 ${suffix}`, type: 'static' },
  });
  const campaign = await s.call('POST', '/v1/campaigns', {
    token: brandAdmin,
    body: { name: `ブランドの便り ${suffix}` },
  });
  const scenario = await s.call('POST', '/v1/scenarios', {
    token: brandAdmin,
    body: { name: `ブランドの流れ ${suffix}` },
  });
  for (const made of [segment, campaign, scenario]) expect(made.status, JSON.stringify(made.body)).toBe(200);
  return {
    segment: segment.body.data.id as string,
    campaign: campaign.body.data.id as string,
    scenario: scenario.body.data.id as string,
  };
}

/** Every call that makes a brand's object, named for the failure message. */
function creates(ids: { segment: string; campaign: string; scenario: string }, name: string) {
  return [
    ['segment', '/v1/segments', { name: `区分 ${name}`, type: 'static' }],
    ['segment duplicate', `/v1/segments/${ids.segment}/duplicate`, { name: `区分の写し ${name}` }],
    ['campaign', '/v1/campaigns', { name: `便り ${name}` }],
    ['campaign duplicate', `/v1/campaigns/${ids.campaign}/duplicate`, { name: `便りの写し ${name}` }],
    ['scenario', '/v1/scenarios', { name: `流れ ${name}` }],
    ['scenario copy', `/v1/scenarios/${ids.scenario}/copy`, { name: `流れの写し ${name}` }],
    ['scenario from a preset', '/v1/presets/builtin:birthday/scenarios', { name: `プリセットから ${name}` }],
    ['preset', '/v1/presets', { name: `プリセット ${name}` }],
  ] as const;
}

describe('creating brand data as the granduser', () => {
  it('is refused at the platform with brand_host_required, and nothing is made', async () => {
    const name = `platform ${tag}`;
    const ids = await brandObjects(`source ${tag}`);
    for (const [what, path, body] of creates(ids, name)) {
      const res = await s.call('POST', path, { token: grand, body });
      expect(res.status, what).toBe(403);
      expect(res.body.error, what).toEqual({
        code: 'brand_host_required',
        message: ERROR_MESSAGES.brand_host_required,
      });
      expect(res.body.data, what).toBeUndefined();
    }
    const made = await s.sql(
      `select name from segments where name like $1
       union all select name from campaigns where name like $1
       union all select name from scenarios where name like $1
       union all select name from scenario_presets where name like $1`,
      [`%${name}`],
    );
    expect(made).toEqual([]);
  });

  it("works once the granduser switches to a brand's admin, for that brand", async () => {
    const ids = await brandObjects(`original ${tag}`);
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    for (const [what, path, body] of creates(ids, `brand ${tag}`)) {
      const res = await s.call('POST', path, { token: grand, body, headers: AS_BRAND });
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const owners = await s.sql(
      `select brand_id from segments where name like $1
       union all select brand_id from campaigns where name like $1
       union all select brand_id from scenarios where name like $1
       union all select brand_id from scenario_presets where name like $1`,
      [`%brand ${tag}`],
    );
    expect(owners).toHaveLength(8);
    expect(new Set(owners.map((r) => r.brand_id))).toEqual(new Set([brand.id]));
  });
});
