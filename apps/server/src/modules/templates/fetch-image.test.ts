import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPublicImage, isPublicAddress } from './fetch-image.ts';
import { imageSize } from './image-size.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 64, 0, 0, 0, 32]),
  Buffer.alloc(50),
]);

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/a.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/big') {
      res.writeHead(200);
      // No content-length: the limit is found while reading.
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(1024));
      return res.end();
    }
    if (req.url === '/declared-big') return res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
    if (req.url === '/slow') return setTimeout(() => res.end(PNG), 2_000);
    if (req.url === '/hop') return res.writeHead(302, { location: '/a.png' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/inward') return res.writeHead(302, { location: 'http://10.1.2.3/a.png' }).end();
    return res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The server above is on loopback, which the product refuses: tests allow it and 10.x stays refused. */
const loopbackOnly = { allowAddress: (a: string) => a === '127.0.0.1', timeoutMs: 1_000, maxBytes: 10 * 1024 };

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a00:1',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );
});

describe('fetching an image by URL', () => {
  it('reads an image, following a redirect', async () => {
    expect((await fetchPublicImage(`${base}/a.png`, loopbackOnly)).bytes.equals(PNG)).toBe(true);
    expect((await fetchPublicImage(`${base}/hop`, loopbackOnly)).bytes.equals(PNG)).toBe(true);
  });

  it('refuses loopback and names that resolve to it, by default', async () => {
    await expect(fetchPublicImage(`${base}/a.png`)).rejects.toMatchObject({ code: 'image_fetch_failed' });
    await expect(fetchPublicImage(`http://localhost:${new URL(base).port}/a.png`)).rejects.toMatchObject({
      code: 'image_fetch_failed',
    });
  });

  it('refuses a redirect to a private address, redirect loops, other schemes and failures', async () => {
    for (const url of [
      `${base}/inward`,
      `${base}/loop`,
      `${base}/missing`,
      'ftp://example.jp/a.png',
      'file:///etc/passwd',
      `http://user:pw@127.0.0.1/a.png`,
    ]) {
      await expect(fetchPublicImage(url, loopbackOnly), url).rejects.toMatchObject({ code: 'image_fetch_failed' });
    }
  });

  it('stops at the size limit and the time limit', async () => {
    expect((await fetchPublicImage(`${base}/big`, loopbackOnly)).truncated).toBe(true);
    expect((await fetchPublicImage(`${base}/declared-big`, loopbackOnly)).truncated).toBe(true);
    await expect(fetchPublicImage(`${base}/slow`, { ...loopbackOnly, timeoutMs: 200 })).rejects.toMatchObject({
      code: 'image_fetch_failed',
    });
  });
});

describe('image size', () => {
  it('reads a PNG header and a JPEG frame', () => {
    expect(imageSize(PNG)).toEqual({ width: 64, height: 32 });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 120, 0, 160, 3, 0, 0, 0, 0]);
    expect(imageSize(jpeg)).toEqual({ width: 160, height: 120 });
    expect(imageSize(Buffer.from('GIF89a'))).toBeNull();
  });
});
