import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const fill = (path: string) => path.replace(/:(\w+)/g, '00000000-0000-0000-0000-000000000000');
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';

describe('a NUL or a broken character in any text', () => {
  it('is refused with 400 by every route, in the body and in the query, before the route runs', async () => {
    const tokens = [(await s.login(DEMO.brandAdmin)).token, (await s.login(DEMO.grand)).token];
    const refusedBy: string[] = [];
    const notReached: string[] = [];
    for (const r of s.app.registeredRoutes) {
      const cases: { query?: string; body?: unknown }[] =
        r.method === 'GET' || r.method === 'DELETE'
          ? [{ query: `?search=${encodeURIComponent(NUL)}` }]
          : [
              { body: { name: NUL, search: 'x' } },
              { body: { name: 'x', nested: [{ text: LONE }] } },
              { body: { [NUL]: 'x' } },
              { query: `?search=${encodeURIComponent(NUL)}`, body: {} },
            ];
      for (const c of cases) {
        let res = null;
        // The first caller the route lets through: its refusal must be this one, never a 500.
        for (const token of tokens) {
          res = await s.call(r.method, fill(r.path) + (c.query ?? ''), { token, body: c.body });
          if (![401, 403].includes(res.status)) break;
        }
        const label = `${r.method} ${r.path} ${JSON.stringify(c)}`;
        expect(res!.status, label).not.toBe(500);
        if (res!.status === 403 || res!.status === 401) {
          notReached.push(label);
          continue;
        }
        expect(res!.status, label).toBe(400);
        expect(res!.body.error.code, label).toBe('unstorable_text');
        refusedBy.push(label);
      }
    }
    // Every route one of the two callers may use was checked (the rest refuse both callers first).
    expect(notReached).toEqual([]);
    expect(refusedBy.length).toBeGreaterThan(100);
  });

  it('names the place and changes nothing: a template search, a segment and a template name', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const search = await s.call('GET', `/v1/templates?search=${encodeURIComponent(NUL)}`, { token });
    expect(search.status).toBe(400);
    expect(search.body.error).toMatchObject({
      code: 'unstorable_text',
      message: 'This text contains a character that cannot be saved. Please retype it.',
      fields: { search: { code: 'unstorable_text' } },
    });
    const before = (await s.sql(`select count(*)::int as n from templates`))[0].n;
    const template = await s.call('POST', '/v1/templates', { token, body: { name: LONE } });
    expect(template.status).toBe(400);
    expect(template.body.error.fields).toEqual({ name: expect.objectContaining({ code: 'unstorable_text' }) });
    expect((await s.sql(`select count(*)::int as n from templates`))[0].n).toBe(before);
    const segment = await s.call('POST', '/v1/segments', { token, body: { name: NUL, type: 'static' } });
    expect(segment.status).toBe(400);
    expect(segment.body.error.code).toBe('unstorable_text');
    // A whole character outside the Basic Multilingual Plane is a text like any other.
    const kept = await s.call('POST', '/v1/templates', { token, body: { name: '𠮷田様へのご案内' } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.name).toBe('𠮷田様へのご案内');
  });
});
