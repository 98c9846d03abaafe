import { LOGO_MAX_BYTES } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffImage } from '../modules/uploads/store-logo.ts';
import { DEMO, startTestServer, type TTestServer } from '../test/harness.ts';
import { demoLogoPng, seedDemoLogos } from './demo-logos.ts';

/**
 * The demo organisation's logos: the first start gives every brand, group and hotel of the demo
 * its own (a logo is part of a host's information, required when it is saved), stored as an upload
 * is and served by the server, so a newcomer edits a host without uploading anything first.
 */

let s: TTestServer;

beforeAll(async () => {
  s = await startTestServer();
  // The test database is a copy of one seeded by another start, whose store holds the images: this
  // server's store gets them as the seeding start's did.
  await seedDemoLogos(s.rt.database.db, s.rt.config, { assign: false });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the demo logos', () => {
  it('are PNGs the upload would take: sniffed by content, within the size limit, 128 px square', () => {
    const png = demoLogoPng([166, 30, 77]);
    expect(sniffImage(png)).toBe('png');
    expect(png.length).toBeLessThan(LOGO_MAX_BYTES);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
    // Each colour its own image (named by its content, so one object per colour).
    expect(demoLogoPng([24, 100, 171]).equals(png)).toBe(false);
  });

  it('give every demo brand, group and hotel a logo the server serves; the platform has none', async () => {
    const rows = await s.sql(
      `select h.slug, h.level, h.logo_url from hosts h left join hosts b on b.id = h.brand_id
       where b.slug in ('sakura-hotels', 'harbor-view') or h.slug = 'platform' order by h.slug`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(12);
    for (const row of rows) {
      if (row.level === 'grand_user') {
        expect(row.logo_url, row.slug).toBeNull();
        continue;
      }
      expect(row.logo_url, row.slug).toMatch(/^\/files\/logos\/[0-9a-f]{64}\.png$/);
      const res = await fetch(`${s.url}${row.logo_url}`);
      expect(res.status, row.slug).toBe(200);
      expect(res.headers.get('content-type')).toContain('image/png');
      expect(sniffImage(Buffer.from(await res.arrayBuffer()))).toBe('png');
    }
    // The brand darkest, its groups and hotels lighter: three images a brand.
    const sakura = rows.filter((r) => r.slug.startsWith('sakura-'));
    expect(new Set(sakura.map((r) => r.logo_url)).size).toBe(3);
  });

  it('leave alone a logo the host has since chosen', async () => {
    const admin = await s.login(DEMO.brandAdmin);
    const info = (await s.call('GET', '/v1/settings/host', { token: admin.token })).body.data;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(demoLogoPng([10, 20, 30]))], { type: 'image/png' }), 'own.png');
    const upload = await s.call('POST', '/v1/uploads/logo', { token: admin.token, form });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const own = upload.body.data.logoUrl as string;
    const saved = await s.call('PUT', '/v1/settings/host', {
      token: admin.token,
      body: { name: info.name, address: info.address, email: info.email, phone: info.phone, logoUrl: own },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // As the seeding start does it: the brand keeps its own logo.
    await seedDemoLogos(s.rt.database.db, s.rt.config, { assign: true });
    expect((await s.call('GET', '/v1/settings/host', { token: admin.token })).body.data.logoUrl).toBe(own);
  });
});
