import { describe, expect, it } from 'vitest';
import { isBelow, parseSelector, resolveActingContext } from './acting-context.ts';
import { nameMatches } from './list-assignable-roles.ts';
import type { TAssignmentRow, THostRow } from './queries.ts';

const host = (
  slug: string,
  level: THostRow['level'],
  brandId: string | null,
  hotelGroupId: string | null = null,
): THostRow => ({
  id: slug,
  slug,
  level,
  name: slug,
  brandId: level === 'brand' ? slug : brandId,
  hotelGroupId,
  address: null,
  createdAt: new Date(0),
});
const platform = host('platform', 'grand_user', null);
const brandA = host('a', 'brand', null);
const groupA = host('a-g', 'hotel_group', 'a');
const hotelA1 = host('a-1', 'hotel', 'a', 'a-g');
const hotelA2 = host('a-2', 'hotel', 'a');
const brandB = host('b', 'brand', null);
const hotelB1 = host('b-1', 'hotel', 'b');
const hosts = [platform, brandA, groupA, hotelA1, hotelA2, brandB, hotelB1];

const assignment = (h: THostRow, role: TAssignmentRow['role'], isDefault = false): TAssignmentRow => ({
  role,
  isDefault,
  origin: 'original',
  createdAt: new Date(0),
  host: h,
  brandName: null,
});
const user = { id: 'u', status: 'active' } as never;
// Own assignments resolve without the database; delegated hosts are covered by the integration suite.
const noDatabase = {} as never;
const resolve = (assignments: TAssignmentRow[], headers: Record<string, string>) =>
  resolveActingContext(noDatabase, user, assignments, parseSelector(headers));

describe('isBelow', () => {
  it('places every host of a brand below it, a group only its hotels, and nothing below a hotel', () => {
    expect(isBelow(hotelA1, platform)).toBe(true);
    expect(isBelow(platform, platform)).toBe(false);
    expect(isBelow(hotelA1, brandA)).toBe(true);
    expect(isBelow(groupA, brandA)).toBe(true);
    expect(isBelow(brandA, brandA)).toBe(false);
    expect(isBelow(hotelB1, brandA)).toBe(false);
    expect(isBelow(hotelA1, groupA)).toBe(true);
    expect(isBelow(hotelA2, groupA)).toBe(false);
    expect(isBelow(hotelA2, hotelA1)).toBe(false);
    expect(hosts).toHaveLength(7);
  });
});

describe('parseSelector', () => {
  it('treats blank and single-space headers as the default role', () => {
    expect(parseSelector({})).toBeNull();
    expect(parseSelector({ 'x-user-role': ' ', 'x-host-slug': ' ', 'x-host-level': ' ' })).toBeNull();
  });
  it('rejects unknown values field by field', () => {
    expect(() => parseSelector({ 'x-user-role': 'king', 'x-host-slug': 'a', 'x-host-level': 'brand' })).toThrow();
    expect(() => parseSelector({ 'x-user-role': 'admin', 'x-host-slug': 'A B', 'x-host-level': 'brand' })).toThrow();
    expect(parseSelector({ 'x-user-role': 'admin', 'x-host-slug': 'a-1', 'x-host-level': 'hotel' })).toEqual({
      role: 'admin',
      slug: 'a-1',
      level: 'hotel',
    });
  });
});

describe('resolveActingContext with own assignments', () => {
  const mine = [assignment(hotelA1, 'staff', true), assignment(brandB, 'viewer')];
  it('takes the default assignment without headers', async () => {
    const ctx = await resolve(mine, {});
    expect(ctx.host.slug).toBe('a-1');
    expect(ctx.isDefault).toBe(true);
    expect(ctx.rls).toEqual({ scopeAll: false, brandId: 'a' });
  });
  it('takes another own assignment with its own role only', async () => {
    const ctx = await resolve(mine, { 'x-user-role': 'viewer', 'x-host-slug': 'b', 'x-host-level': 'brand' });
    expect(ctx.isDefault).toBe(false);
    expect(ctx.rls.brandId).toBe('b');
    await expect(
      resolve(mine, { 'x-user-role': 'admin', 'x-host-slug': 'b', 'x-host-level': 'brand' }),
    ).rejects.toMatchObject({ status: 403 });
  });
  it('refuses a user without assignments', async () => {
    await expect(resolve([], {})).rejects.toMatchObject({ status: 403, code: 'no_access' });
  });
});

describe('host names in the switch-role search', () => {
  it('match regardless of case and character width', () => {
    expect(nameMatches('Harbor View Kobe', 'harbor')).toBe(true);
    expect(nameMatches('Harbor View Kobe', 'ＫＯＢＥ')).toBe(true);
    expect(nameMatches('さくらホテル 京都', '京都')).toBe(true);
    expect(nameMatches('さくらホテル 京都', '大阪')).toBe(false);
  });
});
