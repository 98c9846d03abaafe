import { entitlementsFor } from '@yado/contracts/entitlements';
import { featureFlagsFor } from '@yado/contracts/features';
import { describe, expect, it } from 'vitest';
import { buildNavigation, hiddenAtLevel, isEntryActive, startAddressFor, type TNavEntry } from './navigation';

const flags = featureFlagsFor('production');
const ids = (entries: TNavEntry[]) =>
  entries.map((e) => (e.kind === 'group' ? `${e.id}(${e.children.map((c) => c.id).join(',')})` : e.id));

describe('sidebar', () => {
  it('shows a brand admin every area, with Campaign, Templates and Setup grouped beside Automations', () => {
    expect(ids(buildNavigation(entitlementsFor('brand', 'admin', true), flags))).toEqual([
      'dashboard',
      'management(hotel_group_list,hotel_list)',
      'customer(customer_list,segmentation,suppression_list)',
      'email_marketing(campaign,templates,setup)',
      'automations(scenario,preset)',
      'authorization(user_list)',
      'settings',
    ]);
  });

  it('offers the suppression list at the brand level only', () => {
    const at = (level: 'brand' | 'hotel_group' | 'hotel') =>
      ids(buildNavigation(entitlementsFor(level, 'admin', false), flags, hiddenAtLevel(level)));
    expect(at('brand')).toContain('customer(customer_list,segmentation,suppression_list)');
    expect(at('hotel_group')).toContain('customer(customer_list,segmentation)');
    expect(at('hotel')).toContain('customer(customer_list,segmentation)');
    expect(hiddenAtLevel('grand_user')).toEqual(['suppression_list']);
  });

  it('shows Campaign and Templates as single items when the automation flag is off', () => {
    const nav = ids(buildNavigation(entitlementsFor('hotel', 'admin', false), { ...flags, automation: false }));
    expect(nav).toContain('campaign');
    expect(nav).toContain('templates');
    expect(nav.some((n) => n.startsWith('automations'))).toBe(false);
  });

  it('gives the granduser no dashboard and the brand list first', () => {
    const grants = entitlementsFor('grand_user', 'granduser', false);
    expect(ids(buildNavigation(grants, flags))[0]).toBe('management(brand_list,hotel_group_list,hotel_list,audit_log)');
    expect(startAddressFor(grants, flags)).toBe('/management/brand-list');
  });

  it('starts everyone else on the dashboard', () => {
    expect(startAddressFor(entitlementsFor('hotel', 'viewer', false), flags)).toBe('/');
  });

  it('leaves out a group whose children are all hidden, and hidden items', () => {
    const hotel = ids(buildNavigation(entitlementsFor('hotel', 'admin', false), flags));
    expect(hotel.some((n) => n.startsWith('management'))).toBe(false);
    expect(ids(buildNavigation(entitlementsFor('hotel', 'admin', false), flags, ['settings']))).not.toContain(
      'settings',
    );
  });

  it('marks the dashboard active only on an exact match, and a group when the path starts with a child', () => {
    const nav = buildNavigation(entitlementsFor('brand', 'admin', true), flags);
    const dashboard = nav.find((e) => e.id === 'dashboard')!;
    const management = nav.find((e) => e.id === 'management')!;
    expect(isEntryActive(dashboard, '/')).toBe(true);
    expect(isEntryActive(dashboard, '/customer-list')).toBe(false);
    expect(isEntryActive(management, '/management/hotel-list/42')).toBe(true);
    expect(isEntryActive(management, '/management')).toBe(false);
  });
});
