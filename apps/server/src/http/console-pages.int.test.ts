import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../test/harness.ts';

/**
 * The console's pages as the server answers them when the built console is there (WEB_DIST): every
 * page path gets index.html, GET or HEAD alike (a load balancer's or an uptime check's probe is a
 * HEAD), while the API's paths stay the API's and an asset that is not there is a 404.
 */

let s: TTestServer;
const dist = mkdtempSync(join(tmpdir(), 'yado-console-'));

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Yado</title><div id="root"></div>');
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'console.log("yado")');
  s = await startTestServer({ worker: false, env: { WEB_DIST: dist } });
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dist, { recursive: true, force: true });
});

const request = (method: 'GET' | 'HEAD', url: string) => s.app.inject({ method, url });

describe('console pages', () => {
  it('answers a page path with index.html to GET and with its headers alone to HEAD', async () => {
    for (const path of ['/', '/customers', '/campaigns/new']) {
      const get = await request('GET', path);
      expect(get.statusCode, path).toBe(200);
      expect(get.headers['content-type'], path).toMatch(/^text\/html/);
      expect(get.headers['cache-control'], path).toBe('no-cache');
      expect(get.body).toContain('<div id="root"></div>');

      const head = await request('HEAD', path);
      expect(head.statusCode, path).toBe(200);
      expect(head.headers['content-type'], path).toMatch(/^text\/html/);
      expect(head.headers['cache-control'], path).toBe('no-cache');
      expect(head.body, path).toBe('');
    }
  });

  it("serves the hashed assets to both, and keeps the API's unknown paths a 404", async () => {
    const asset = await request('HEAD', '/assets/app-1a2b3c.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const method of ['GET', 'HEAD'] as const) {
      const api = await request(method, '/v1/no-such-thing');
      expect(api.statusCode, method).toBe(404);
      expect(api.headers['content-type'], method).toMatch(/^application\/json/);
    }
  });

  it('answers an asset that is not there with a 404, not the page (a chunk of an earlier build)', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const gone = await request(method, '/assets/app-0d0d0d.js');
      expect(gone.statusCode, method).toBe(404);
      expect(gone.headers['content-type'], method).not.toMatch(/^text\/html/);
    }
  });
});
