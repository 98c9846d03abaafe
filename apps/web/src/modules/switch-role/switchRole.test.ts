import type { TAssignableRole, TAssignableRoles } from '@yado/contracts/auth';
import { describe, expect, it } from 'vitest';
import { chooseTab, presentLevels, roleBadgeColor, sortRoles } from './switchRole';

const row = (username: string, over: Partial<TAssignableRole> = {}): TAssignableRole => ({
  username,
  role: 'admin',
  roleName: 'Hotel Admin',
  level: 'hotel',
  slug: username,
  brandName: 'Brand',
  createdDate: '2026-01-01T00:00:00Z',
  isDefault: false,
  isSelected: false,
  ...over,
});
const roles = (over: Partial<TAssignableRoles>): TAssignableRoles => ({
  isDefaultLoggedIn: true,
  grandUser: [],
  brand: [],
  hotelGroup: [],
  hotel: [],
  defaultTab: 'hotel',
  ...over,
});

describe('switch role', () => {
  it('offers a tab only for levels the user has roles at', () => {
    expect(presentLevels(roles({ brand: [row('b', { level: 'brand' })], hotel: [row('h')] }))).toEqual([
      'brand',
      'hotel',
    ]);
  });

  it('opens on the grand-user tab when there is one, else on the default tab', () => {
    const multi = roles({ brand: [row('b', { level: 'brand' })], hotel: [row('h')], defaultTab: 'hotel' });
    expect(chooseTab('grand_user', multi)).toBe('hotel');
    expect(chooseTab('brand', multi)).toBe('brand');
    const grand = roles({
      grandUser: [row('Yado', { level: 'grand_user', role: 'granduser' })],
      brand: [row('b')],
      defaultTab: 'grand_user',
    });
    expect(chooseTab('grand_user', grand)).toBe('grand_user');
    expect(chooseTab('hotel', roles({}))).toBeNull();
  });

  it('colours grand user and admin orange, staff blue, viewer grey', () => {
    expect([
      roleBadgeColor('granduser'),
      roleBadgeColor('admin'),
      roleBadgeColor('staff'),
      roleBadgeColor('viewer'),
    ]).toEqual(['orange', 'orange', 'blue', 'gray']);
  });

  it('sorts rows by username in Japanese collation', () => {
    expect(sortRoles([row('ホテル桜'), row('あおば館'), row('Aoba')]).map((r) => r.username)).toEqual([
      'Aoba',
      'あおば館',
      'ホテル桜',
    ]);
  });
});
