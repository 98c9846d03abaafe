import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

/** The campaign editor's autosave names the version it last saw; a campaign changed since is refused, never overwritten. */

let s: TTestServer;
let token: string;

beforeAll(async () => {
  s = await startTestServer();
  token = (await s.login(DEMO.brandAdmin)).token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('saving a campaign with the version last seen', () => {
  it('refuses a save naming an older version with 409 campaign_stale, and takes the current one', async () => {
    const made = await s.call('POST', '/v1/campaigns', { token, body: { name: '秋の便り', subject: '秋' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { id, updatedAt: first } = made.body.data as { id: string; updatedAt: string };
    const saved = await s.call('PUT', `/v1/campaigns/${id}`, {
      token,
      body: { subject: '秋の京都', updatedAt: first },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // Another tab still holds the first version: its save is refused and changes nothing.
    const stale = await s.call('PUT', `/v1/campaigns/${id}`, { token, body: { subject: '古い版', updatedAt: first } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('campaign_stale');
    expect((await s.call('GET', `/v1/campaigns/${id}`, { token })).body.data.subject).toBe('秋の京都');

    const next = await s.call('PUT', `/v1/campaigns/${id}`, {
      token,
      body: { preHeader: 'ようこそ', updatedAt: saved.body.data.updatedAt },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data).toMatchObject({ subject: '秋の京都', preHeader: 'ようこそ' });
  });
});
