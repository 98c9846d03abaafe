import { crc32, deflateSync } from 'node:zlib';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDb } from '../db/client.ts';
import { hosts } from '../db/schema.ts';
import type { TConfig } from '../config.ts';
import { createLogoStore } from '../modules/uploads/logo-store.ts';
import { storeLogo } from '../modules/uploads/store-logo.ts';

/**
 * Logos for the demo organisation. The specification makes a logo part of every brand's, group's
 * and hotel's information (saving it without one is refused), so a demo host without one made a
 * newcomer upload an image before they could change so much as a phone number. Each demo host gets
 * a small PNG drawn here (a house on a rounded square in its brand's colour: darkest for the brand,
 * lighter for its groups and hotels), stored as an upload is (named by its content, in the
 * configured store).
 */

const SIZE = 128;
/** Samples per pixel side: the edges are smoothed by the share of each pixel the shapes cover. */
const SAMPLES = 4;

type TRgb = [number, number, number];
type TShadedLevel = 'brand' | 'hotel_group' | 'hotel';

/** The demo brands' colours (RGB): the brand's own, its groups', its hotels'. */
const PALETTES: Record<string, Record<TShadedLevel, TRgb>> = {
  'sakura-hotels': { brand: [166, 30, 77], hotel_group: [194, 37, 92], hotel: [214, 51, 108] },
  'harbor-view': { brand: [24, 100, 171], hotel_group: [25, 113, 194], hotel: [28, 126, 214] },
};

/** Which part of the picture a point (in pixels) falls in. */
function paintAt(x: number, y: number): 'outside' | 'ground' | 'house' {
  // The rounded square, corners of radius 24.
  const r = 24;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return 'outside';
  // The door, in the ground's colour.
  if (x >= 56 && x <= 72 && y >= 80 && y <= 104) return 'ground';
  // The roof: a triangle from (20, 66) up to (64, 24) and down to (108, 66).
  if (y <= 66 && y >= 24 && Math.abs(x - 64) <= ((y - 24) * 44) / 42) return 'house';
  // The walls.
  if (x >= 34 && x <= 94 && y >= 62 && y <= 104) return 'house';
  return 'ground';
}

/** A PNG (RGBA, 8 bits) of the demo mark in `colour`. */
export function demoLogoPng(colour: TRgb): Buffer {
  const row = SIZE * 4 + 1;
  const pixels = Buffer.alloc(row * SIZE);
  for (let y = 0; y < SIZE; y++) {
    pixels[y * row] = 0; // no filter
    for (let x = 0; x < SIZE; x++) {
      let ground = 0;
      let house = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const at = paintAt(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (at === 'ground') ground++;
          else if (at === 'house') house++;
        }
      }
      const covered = ground + house;
      const offset = y * row + 1 + x * 4;
      if (covered === 0) continue; // transparent
      for (let c = 0; c < 3; c++)
        pixels[offset + c] = Math.round(((colour[c] as number) * ground + 255 * house) / covered);
      pixels[offset + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * Puts the demo logos in the logo store (the same image is the same object, so storing again
 * writes nothing new) and, when `assign` (the start that seeded the organisation), gives each demo
 * host without a logo its own.
 */
export async function seedDemoLogos(
  db: TDb,
  config: Pick<TConfig, 'dataDir' | 'logoStore'>,
  { assign }: { assign: boolean },
): Promise<void> {
  const store = createLogoStore(config);
  const urls = new Map<string, string>();
  for (const [brand, palette] of Object.entries(PALETTES)) {
    for (const [level, colour] of Object.entries(palette)) {
      urls.set(`${brand} ${level}`, (await storeLogo(store, demoLogoPng(colour), false)).logoUrl);
    }
  }
  if (!assign) return;
  const brands = alias(hosts, 'brand');
  const demo = await db
    .select({ id: hosts.id, level: hosts.level, brand: brands.slug })
    .from(hosts)
    .innerJoin(brands, eq(brands.id, hosts.brandId))
    .where(and(inArray(brands.slug, Object.keys(PALETTES)), isNull(hosts.logoUrl)));
  for (const h of demo) {
    const url = urls.get(`${h.brand} ${h.level}`);
    if (url) await db.update(hosts).set({ logoUrl: url }).where(eq(hosts.id, h.id));
  }
}
