import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { DEMO_DOMAINS, seedDemoSending } from '../../seed/demo-sending.ts';

/**
 * Running a scenario checks its email steps' senders as scheduling a campaign does: refused with
 * 422 and the reason (settings missing, the domain not verified, a sender off the brand's verified
 * domains), and the scenario stays a draft, instead of starting and failing each guest at send time.
 * The editor's autosave names the version it last saw, and a stale one is refused.
 */

let s: TTestServer;
let brandToken: string;
let hotelToken: string;
let brand: { id: string };

beforeAll(async () => {
  s = await startTestServer({ env: { SCENARIO_CLOCK: 'manual' } });
  [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  brandToken = (await s.login(DEMO.brandAdmin)).token;
  hotelToken = (await s.login(DEMO.hotelAdmin)).token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function template(token: string): Promise<string> {
  const made = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: '送信元の確認',
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data.id;
}

/** A draft whose one email step mails from `senderEmail`. */
async function draft(token: string, senderEmail: string): Promise<string> {
  const graph = {
    nodes: [
      { id: 't', type: 'trigger', data: { kind: 'birthday' } },
      { id: 'mail', type: 'email', data: { templateId: await template(token), subject: 'お誕生日', senderEmail } },
    ],
    edges: [{ id: 'e', source: 't', target: 'mail' }],
  };
  const made = await s.call('POST', '/v1/scenarios', { token, body: { name: '誕生日の便り', graph } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data.id;
}
const run = (token: string, id: string) =>
  s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } });
const statusOf = async (token: string, id: string) =>
  (await s.call('GET', `/v1/scenarios/${id}`, { token })).body.data.status;

describe('running a scenario checks its email steps’ senders', () => {
  it('refuses with 422 while the campaign email settings are missing, and the scenario stays a draft', async () => {
    const id = await draft(brandToken, `info@${DEMO_DOMAINS.verified}`);
    const refused = await run(brandToken, id);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.code).toBe('sending_settings_missing');
    expect(await statusOf(brandToken, id)).toBe('draft');
  });

  it('does not ask for sending settings (still missing) of a scenario without email steps', async () => {
    const made = await s.call('POST', '/v1/scenarios', {
      token: brandToken,
      body: {
        name: '待つだけ',
        graph: {
          nodes: [
            { id: 't', type: 'trigger', data: { kind: 'birthday' } },
            { id: 'd', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
          ],
          edges: [{ id: 'e', source: 't', target: 'd' }],
        },
      },
    });
    expect((await run(brandToken, made.body.data.id)).status).toBe(200);
  });
  it('refuses a sender off the brand’s verified domains on its step, and a settings sender on a domain not yet verified', async () => {
    await seedDemoSending(s.rt);
    const foreign = await draft(brandToken, 'info@not-ours.example.com');
    const refused = await run(brandToken, foreign);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.code).toBe('sender_domain_not_verified');
    expect(refused.body.error.fields['nodes.mail'].code).toBe('sender_domain_not_verified');
    expect(await statusOf(brandToken, foreign)).toBe('draft');

    // The brand's own sender runs; a hotel below it runs with the settings it inherits.
    const own = await draft(brandToken, `info@${DEMO_DOMAINS.verified}`);
    const ran = await run(brandToken, own);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.data.status).toBe('running');
    const byHotel = await draft(hotelToken, `info@${DEMO_DOMAINS.verified}`);
    expect((await run(hotelToken, byHotel)).status).toBe(200);

    // The settings' sender moves to a domain of the brand still being verified: the next run says so.
    const pending = 'mail.sakura-hotels.example.jp';
    await s.sql(
      `insert into sending_domains (brand_id, domain, dkim_selector, dkim_public_key, dkim_private_key_encrypted, ownership_token, state, verify_available_at)
       select brand_id, $2, dkim_selector, dkim_public_key, dkim_private_key_encrypted, ownership_token, 'unverified', now()
       from sending_domains where brand_id = $1 and domain = $3`,
      [brand.id, pending, DEMO_DOMAINS.verified],
    );
    await s.sql(`update campaign_email_settings set sender_email = $2 where host_id = $1`, [
      brand.id,
      `info@${pending}`,
    ]);
    const later = await draft(brandToken, `info@${pending}`);
    const unverified = await run(brandToken, later);
    expect(unverified.status, JSON.stringify(unverified.body)).toBe(422);
    expect(unverified.body.error.code).toBe('domain_not_verified');
    expect(await statusOf(brandToken, later)).toBe('draft');
  });
});

describe('saving a scenario with the version last seen', () => {
  it('refuses a save naming an older version (changed in another tab) with 409 scenario_stale, and takes the current one', async () => {
    const made = await s.call('POST', '/v1/scenarios', { token: brandToken, body: { name: '版の確認' } });
    const first = made.body.data.updatedAt as string;
    const saved = await s.call('PUT', `/v1/scenarios/${made.body.data.id}`, {
      token: brandToken,
      body: { name: '版の確認 2', updatedAt: first },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stale = await s.call('PUT', `/v1/scenarios/${made.body.data.id}`, {
      token: brandToken,
      body: { name: '古い版から', updatedAt: first },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('scenario_stale');
    const next = await s.call('PUT', `/v1/scenarios/${made.body.data.id}`, {
      token: brandToken,
      body: { description: '最新の版から', updatedAt: saved.body.data.updatedAt },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data).toMatchObject({ name: '版の確認 2', description: '最新の版から' });
  });
});
