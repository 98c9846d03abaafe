import { describe, expect, it } from 'vitest';
import { ENTITLEMENTS, entitlementsFor } from './entitlements.ts';

const granted = (map: Record<string, boolean>) => Object.keys(map).filter((k) => map[k]);

describe('entitlement matrix', () => {
  it('answers every key for every role, false unless granted', () => {
    const map = entitlementsFor('hotel', 'viewer', false);
    expect(Object.keys(map).sort()).toEqual([...ENTITLEMENTS].sort());
    expect(Object.values(map).filter((v) => v === false).length).toBeGreaterThan(30);
  });

  it('gives the granduser everything but the dashboard', () => {
    const map = entitlementsFor('grand_user', 'granduser', true);
    for (const key of ENTITLEMENTS) expect(map[key], key).toBe(!key.startsWith('dashboard.'));
  });

  it('keeps the audit log for the granduser', () => {
    expect(entitlementsFor('grand_user', 'granduser', false)['audit.read_audit_log']).toBe(true);
    for (const level of ['brand', 'hotel_group', 'hotel'] as const) {
      for (const role of ['admin', 'staff', 'viewer'] as const)
        expect(entitlementsFor(level, role, true)['audit.read_audit_log'], `${level} ${role}`).toBe(false);
    }
  });

  it('grants switch role only when more than one role is assignable', () => {
    expect(entitlementsFor('brand', 'admin', false)['shell.read_switch_role']).toBe(false);
    expect(entitlementsFor('brand', 'admin', true)['shell.read_switch_role']).toBe(true);
    expect(entitlementsFor('hotel', 'viewer', true)['shell.read_switch_role']).toBe(true);
  });

  it('lets staff do all but delete, and viewers only read', () => {
    const staff = entitlementsFor('hotel', 'staff', false);
    const viewer = entitlementsFor('hotel', 'viewer', false);
    for (const group of ['customer', 'segmentation', 'campaign', 'templates', 'scenarios', 'presets']) {
      expect(staff[`${group}.delete` as keyof typeof staff], group).toBe(false);
      expect(viewer[`${group}.delete` as keyof typeof viewer], group).toBe(false);
    }
    expect(staff['customer.update']).toBe(true);
    expect(viewer['customer.update']).toBe(false);
    expect(viewer['customer.read']).toBe(true);
    expect(staff['customer.import']).toBe(true);
    expect(viewer['customer.import']).toBe(false);
    expect(viewer['campaign.view_campaign_report']).toBe(true);
    expect(viewer['campaign.create']).toBe(false);
    expect(viewer['dashboard.read_quick_actions']).toBe(false);
    expect(staff['dashboard.read_quick_actions']).toBe(true);
    expect(
      granted(viewer).every((k) => !/\.(create|update|delete|invite|export_csv|change_email_status|import)/.test(k)),
    ).toBe(true);
  });

  it('keeps settings for admins, except the own password', () => {
    expect(entitlementsFor('brand', 'admin', false)['settings.manage_campaign_email']).toBe(true);
    expect(entitlementsFor('brand', 'staff', false)['settings.manage_campaign_email']).toBe(false);
    expect(entitlementsFor('hotel', 'viewer', false)['settings.change_password']).toBe(true);
  });

  it('gives management of the host tree to the brand level, a little to hotel groups, none to hotels', () => {
    const brandAdmin = entitlementsFor('brand', 'admin', false);
    expect(brandAdmin['manage_brand.create_brand']).toBe(false);
    expect(brandAdmin['manage_hotel.create_hotel']).toBe(true);
    expect(brandAdmin['manage_hotel_group.delete_hotel_group']).toBe(true);
    expect(entitlementsFor('brand', 'staff', false)['manage_hotel.read_hotel_at_hotel_list']).toBe(true);
    expect(entitlementsFor('brand', 'staff', false)['manage_hotel.create_hotel']).toBe(false);
    expect(entitlementsFor('hotel_group', 'admin', false)['manage_hotel.update_hotel']).toBe(true);
    expect(entitlementsFor('hotel_group', 'admin', false)['manage_hotel.create_hotel']).toBe(false);
    expect(granted(entitlementsFor('hotel', 'admin', false)).some((k) => k.startsWith('manage_'))).toBe(false);
  });

  it('offers the hotel filter only where there is more than one hotel', () => {
    expect(entitlementsFor('brand', 'viewer', false)['segmentation.filter_hotel']).toBe(true);
    expect(entitlementsFor('hotel', 'admin', false)['segmentation.filter_hotel']).toBe(false);
  });
});
