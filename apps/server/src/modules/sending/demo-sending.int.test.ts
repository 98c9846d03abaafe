import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { DEMO_DOMAINS, seedDemoSending } from '../../seed/demo-sending.ts';
import { resolveSendingIdentity } from './email-settings.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('the demo sending identity of a first start', () => {
  it('gives さくらホテルズ a domain verified through the embedded DNS server, and Harbor View Hotels one to verify', async () => {
    // What startRuntime runs on the first start of the embedded product (the test template was seeded without it).
    await seedDemoSending(s.rt);
    const sakura = await s.call('GET', '/v1/sending/domains', { token: (await s.login(DEMO.brandAdmin)).token });
    expect(sakura.body.data.domains.map((d: { domain: string; state: string }) => [d.domain, d.state])).toEqual([
      [DEMO_DOMAINS.verified, 'verified'],
    ]);
    const harbor = await s.call('GET', '/v1/sending/domains', { token: (await s.login(DEMO.harborAdmin)).token });
    expect(harbor.body.data.domains.map((d: { domain: string; state: string }) => [d.domain, d.state])).toEqual([
      [DEMO_DOMAINS.unverified, 'unverified'],
    ]);

    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-kyoto'`);
    const resolved = await resolveSendingIdentity(s.rt, hotel.id);
    expect(resolved.ok && resolved.identity.from).toEqual({
      name: 'さくらホテルズ',
      address: `info@${DEMO_DOMAINS.verified}`,
    });
    const [harborBrand] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    expect(await resolveSendingIdentity(s.rt, harborBrand.id)).toEqual({
      ok: false,
      problems: ['sending_settings_missing'],
    });
  });
});
