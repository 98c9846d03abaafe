import type { TEntitlement, TEntitlementMap } from '@yado/contracts/entitlements';
import type { TFeatureFlags } from '@yado/contracts/features';

/**
 * The areas of spec section 2 and the sidebar built from them. One list serves the sidebar, the
 * route guards and the start address, so an area hidden from the sidebar is also refused.
 */
export type TAreaId =
  | 'dashboard'
  | 'brand_list'
  | 'hotel_group_list'
  | 'hotel_list'
  | 'audit_log'
  | 'customer_list'
  | 'segmentation'
  | 'suppression_list'
  | 'campaign'
  | 'templates'
  | 'setup'
  | 'scenario'
  | 'preset'
  | 'scenario_editor'
  | 'user_list'
  | 'settings';

export interface TArea {
  id: TAreaId;
  path: string;
  /** Shown when any of these is granted; no list means every signed-in user. */
  anyOf: readonly TEntitlement[];
}

export const AREAS: Record<TAreaId, TArea> = {
  dashboard: { id: 'dashboard', path: '/', anyOf: ['dashboard.read_level_info'] },
  brand_list: { id: 'brand_list', path: '/management/brand-list', anyOf: ['manage_brand.read_brand_at_brand_list'] },
  hotel_group_list: {
    id: 'hotel_group_list',
    path: '/management/hotel-group-list',
    anyOf: ['manage_hotel_group.read_hotel_group_at_hotel_group'],
  },
  hotel_list: { id: 'hotel_list', path: '/management/hotel-list', anyOf: ['manage_hotel.read_hotel_at_hotel_list'] },
  audit_log: { id: 'audit_log', path: '/management/audit-log', anyOf: ['audit.read_audit_log'] },
  customer_list: { id: 'customer_list', path: '/customer-list', anyOf: ['customer.read_customer_list'] },
  segmentation: { id: 'segmentation', path: '/segmentation', anyOf: ['segmentation.read_segment'] },
  // The brand's suppression list (issue 25): kept per brand, so the sidebar offers it at the brand level only.
  suppression_list: { id: 'suppression_list', path: '/suppression-list', anyOf: ['customer.read_customer_list'] },
  campaign: { id: 'campaign', path: '/campaign', anyOf: ['campaign.view_campaign_report'] },
  templates: { id: 'templates', path: '/templates', anyOf: ['templates.view_templates_report'] },
  setup: {
    id: 'setup',
    path: '/setup',
    anyOf: ['settings.manage_campaign_email', 'settings.manage_domain_authentication', 'campaign.view_campaign_report'],
  },
  scenario: { id: 'scenario', path: '/automations/scenario', anyOf: ['scenarios.read_scenario'] },
  preset: { id: 'preset', path: '/automations/preset', anyOf: ['presets.read_preset'] },
  scenario_editor: { id: 'scenario_editor', path: '/automations/editor', anyOf: ['scenarios.read_scenario'] },
  user_list: { id: 'user_list', path: '/user-list', anyOf: ['authorization.read_user'] },
  settings: {
    id: 'settings',
    path: '/settings',
    anyOf: ['settings.change_password', 'settings.manage_campaign_email', 'settings.manage_domain_authentication'],
  },
};

export type TNavIcon =
  | 'dashboard'
  | 'management'
  | 'customer'
  | 'campaign'
  | 'templates'
  | 'setup'
  | 'email_marketing'
  | 'automations'
  | 'authorization'
  | 'settings';

export interface TNavLink {
  kind: 'link';
  id: TAreaId;
  path: string;
  icon: TNavIcon;
}

export interface TNavGroup {
  kind: 'group';
  id: 'management' | 'customer' | 'email_marketing' | 'automations' | 'authorization';
  icon: TNavIcon;
  children: TNavLink[];
}

export type TNavEntry = TNavLink | TNavGroup;

type TGrants = Partial<Record<TEntitlement, boolean>> | TEntitlementMap;

export function canSeeArea(area: TArea, entitlements: TGrants): boolean {
  return area.anyOf.length === 0 || area.anyOf.some((key) => entitlements[key] === true);
}

/** Areas a level is not offered whatever its entitlements: the suppression list is the brand's. */
export function hiddenAtLevel(level: string): TAreaId[] {
  return level === 'brand' ? [] : ['suppression_list'];
}

const link = (id: TAreaId, icon: TNavIcon): TNavLink => ({ kind: 'link', id, path: AREAS[id].path, icon });

/**
 * The sidebar for a user: entries without their entitlement are left out, groups with no child
 * left are left out, and `hiddenIds` hides entries on purpose. With the automation flag on,
 * Campaign, Templates and Setup sit in one group next to the Automations group.
 */
export function buildNavigation(
  entitlements: TGrants,
  features: Partial<TFeatureFlags>,
  hiddenIds: readonly string[] = [],
): TNavEntry[] {
  const marketing: TNavEntry[] = features.automation
    ? [
        {
          kind: 'group',
          id: 'email_marketing',
          icon: 'email_marketing',
          children: [link('campaign', 'campaign'), link('templates', 'templates'), link('setup', 'setup')],
        },
        {
          kind: 'group',
          id: 'automations',
          icon: 'automations',
          children: [link('scenario', 'automations'), link('preset', 'automations')],
        },
      ]
    : [link('campaign', 'campaign'), link('templates', 'templates'), link('setup', 'setup')];

  const all: TNavEntry[] = [
    link('dashboard', 'dashboard'),
    {
      kind: 'group',
      id: 'management',
      icon: 'management',
      children: [
        link('brand_list', 'management'),
        link('hotel_group_list', 'management'),
        link('hotel_list', 'management'),
        link('audit_log', 'management'),
      ],
    },
    {
      kind: 'group',
      id: 'customer',
      icon: 'customer',
      children: [
        link('customer_list', 'customer'),
        link('segmentation', 'customer'),
        link('suppression_list', 'customer'),
      ],
    },
    ...marketing,
    { kind: 'group', id: 'authorization', icon: 'authorization', children: [link('user_list', 'authorization')] },
    link('settings', 'settings'),
  ];

  const visible = (entry: TNavLink) => !hiddenIds.includes(entry.id) && canSeeArea(AREAS[entry.id], entitlements);
  return all.flatMap((entry): TNavEntry[] => {
    if (entry.kind === 'link') return visible(entry) ? [entry] : [];
    if (hiddenIds.includes(entry.id)) return [];
    const children = entry.children.filter(visible);
    return children.length > 0 ? [{ ...entry, children }] : [];
  });
}

function pathMatches(path: string, pathname: string): boolean {
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The dashboard only on an exact match; a group when the path starts with one of its children. */
export function isEntryActive(entry: TNavEntry, pathname: string): boolean {
  if (entry.kind === 'group') return entry.children.some((child) => pathMatches(child.path, pathname));
  if (entry.path === '/') return pathname === '/';
  return pathMatches(entry.path, pathname);
}

/** Where a user starts: the dashboard, or the first area the sidebar offers (the granduser). */
export function startAddressFor(entitlements: TGrants, features: Partial<TFeatureFlags>): string {
  const first = buildNavigation(entitlements, features)[0];
  if (!first) return AREAS.settings.path;
  return first.kind === 'link' ? first.path : (first.children[0]?.path ?? AREAS.settings.path);
}
