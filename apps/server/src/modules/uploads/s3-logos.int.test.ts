import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { startS3StandIn, type TS3StandIn } from '../../test/s3-stand-in.ts';
import { logoDirectory } from './logo-store.ts';

// The logo store "when configured": the real Yado server with S3_* set, talking to an
// S3-compatible stand-in that checks every SigV4 signature with the secret.
const SECRET = `s3-secret-${randomBytes(12).toString('hex')}`;
const S3 = { bucket: 'yado-logos', accessKeyId: 'YADOTESTKEY', secret: SECRET, region: 'ap-northeast-1' };
const env = (standIn: TS3StandIn, extra: Record<string, string> = {}) => ({
  S3_BUCKET: S3.bucket,
  S3_ENDPOINT: standIn.endpoint,
  S3_REGION: S3.region,
  S3_ACCESS_KEY_ID: S3.accessKeyId,
  S3_SECRET_ACCESS_KEY: SECRET,
  ...extra,
});

/** A PNG nobody else uploads: the signature, then random bytes (the server sniffs the signature). */
const uniquePng = () =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)]);

let standIn: TS3StandIn;
let s: TTestServer;
beforeAll(async () => {
  standIn = await startS3StandIn(S3);
  s = await startTestServer({ env: env(standIn) });
});
afterAll(async () => {
  await s?.close();
  await standIn?.close();
});

async function upload(server: TTestServer, token: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'logo.png');
  return server.call('POST', '/v1/uploads/logo', { token, form });
}

describe('logos in an S3-compatible store', () => {
  it('are put in the bucket, signed, with their type and an immutable cache, and served back through the product', async () => {
    const { token } = await s.login(DEMO.grand);
    const png = uniquePng();
    const res = await upload(s, token, png);
    expect(res.status).toBe(200);
    const url: string = res.body.data.logoUrl;
    expect(url).toMatch(/^\/files\/logos\/[a-f0-9]{64}\.png$/);
    const name = url.split('/').at(-1) as string;

    const stored = standIn.objects.get(`logos/${name}`);
    expect(stored?.body.equals(png)).toBe(true);
    expect(stored?.contentType).toBe('image/png');
    expect(stored?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(existsSync(join(logoDirectory(s.rt.config.dataDir), name))).toBe(false);

    const served = await fetch(s.url + url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(
      standIn.requests.filter((r) => r.path === `/${S3.bucket}/logos/${name}`).map((r) => `${r.method} ${r.status}`),
    ).toEqual(['PUT 200', 'GET 200']);

    // A host can be created with it.
    const brand = await s.call('POST', '/v1/brands', {
      token,
      body: { name: 'S3テストブランド', address: '東京都中央区1-1', logoUrl: url },
    });
    expect(brand.status).toBe(200);
    expect(brand.body.data.logoUrl).toBe(url);
  });

  it('answers 404 for a logo the bucket does not hold', async () => {
    const missing = `${'0'.repeat(64)}.png`;
    const res = await fetch(`${s.url}/files/logos/${missing}`);
    expect(res.status).toBe(404);
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', status: 404, code: 'NoSuchKey' });
  });

  it('tells the user to try again when the store refuses the signature, and never logs the secret', async () => {
    const { token } = await s.login(DEMO.grand);
    standIn.secret = 'not-the-secret-yado-has';
    try {
      const res = await upload(s, token, uniquePng());
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('upload_failed');
      expect(standIn.requests.at(-1)).toMatchObject({ method: 'PUT', status: 403, code: 'SignatureDoesNotMatch' });
    } finally {
      standIn.secret = SECRET;
    }
    const log = s.logs.join('\n');
    expect(log).toContain('logo store refused a logo');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('Signature=');
  });
});

describe('logos in a store with a public address', () => {
  it('redirect the browser to S3_PUBLIC_URL instead of passing the bytes through', async () => {
    const server = await startTestServer({ env: env(standIn, { S3_PUBLIC_URL: 'https://cdn.example.jp/yado/' }) });
    try {
      const { token } = await server.login(DEMO.grand);
      const res = await upload(server, token, uniquePng());
      const url: string = res.body.data.logoUrl;
      const name = url.split('/').at(-1);
      const redirect = await fetch(server.url + url, { redirect: 'manual' });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.get('location')).toBe(`https://cdn.example.jp/yado/logos/${name}`);
      expect(standIn.objects.has(`logos/${name}`)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
