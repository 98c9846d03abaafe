import { customerImportsApi, managementApi, segmentsApi, templatesApi } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer({ worker: false });
});
afterAll(async () => {
  await s?.close();
});

const fill = (path: string) => path.replace(/:(\w+)/g, '00000000-0000-0000-0000-000000000000');
const FILE_ROUTES = [
  managementApi.uploadLogo,
  templatesApi.uploadImage,
  customerImportsApi.upload,
  segmentsApi.importMembers,
]
  .map((e) => `${e.method} ${e.path}`)
  .sort();
/** Routes that read any body by design: a relay's webhook (its own parsers) and a guest's unsubscribe (RFC 8058). */
const ANY_BODY = [
  'POST /v1/public/relay-webhooks/:provider/:id',
  'POST /v1/public/unsubscribe',
  'POST /v1/public/unsubscribe/undo',
];

const form = () => {
  const data = new FormData();
  data.append('file', new Blob([new Uint8Array(Buffer.from('email\nguest@example.jp\n'))]), 'guests.csv');
  return data;
};

describe('a file (multipart/form-data)', () => {
  it('is read by the four routes that take one; every other route refuses it with 415 before it runs', async () => {
    const tokens = [(await s.login(DEMO.brandAdmin)).token, (await s.login(DEMO.grand)).token];
    const segments = (await s.sql(`select count(*)::int as n from segments`))[0].n as number;
    const taking: string[] = [];
    const notReached: string[] = [];
    for (const r of s.app.registeredRoutes) {
      if (r.method === 'GET' || r.method === 'DELETE') continue;
      const label = `${r.method} ${r.path}`;
      let res = null;
      // The first caller the route lets through.
      for (const token of tokens) {
        res = await s.call(r.method, fill(r.path), { token, form: form() });
        if (![401, 403].includes(res.status)) break;
      }
      expect(res!.status, label).not.toBe(500);
      if ([401, 403].includes(res!.status)) notReached.push(label);
      else if (res!.status !== 415) taking.push(label);
      else
        expect(res!.body.error, label).toEqual({
          code: 'unsupported_media_type',
          message: 'The request body must be JSON.',
        });
    }
    expect(taking.sort()).toEqual([...FILE_ROUTES, ...ANY_BODY].sort());
    expect(notReached).toEqual([]);
    // POST /v1/segments among them: refused, nothing created.
    expect((await s.sql(`select count(*)::int as n from segments`))[0].n).toBe(segments);
  });

  it('still reaches a file route whole: a logo is stored', async () => {
    const { token } = await s.login(DEMO.grand);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const data = new FormData();
    data.append('file', new Blob([new Uint8Array(png)]), 'logo.png');
    const res = await s.call('POST', '/v1/uploads/logo', { token, form: data });
    expect(res.status).toBe(200);
    expect(res.body.data.logoUrl).toMatch(/^\/files\/logos\/[a-f0-9]{64}\.png$/);
  });
});
