import type { THostLevel, TRole } from './tenancy.ts';

/**
 * Canonical entitlement keys (`group.action`), every one false unless the matrix below grants it.
 * The server enforces these keys on every route; the console hides what they deny.
 */
export const ENTITLEMENT_GROUPS = {
  shell: ['read_switch_role'],
  dashboard: ['read_level_info', 'read_quick_actions', 'read_customer_statistics', 'read_campaign_performance'],
  manage_brand: ['read_brand_at_brand_list', 'create_brand', 'update_brand', 'delete_brand', 'read_brand_users'],
  manage_hotel_group: [
    'read_hotel_group_at_hotel_group',
    'filter_brand',
    'read_group_list',
    'read_group_users',
    'create_hotel_group',
    'update_hotel_group',
    'delete_hotel_group',
  ],
  manage_hotel: [
    'read_hotel_at_hotel_list',
    'filter_brand',
    'filter_hotel_group',
    'add_hotel_to_group',
    'read_hotel_users',
    'create_hotel',
    'update_hotel',
    'delete_hotel',
  ],
  customer: ['read_customer_list', 'create', 'read', 'update', 'delete', 'export_csv', 'change_email_status', 'import'],
  segmentation: ['read_segment', 'filter_hotel', 'create', 'read', 'update', 'delete'],
  campaign: ['view_campaign_report', 'create', 'update', 'delete'],
  templates: ['view_templates_report', 'create', 'update', 'delete'],
  authorization: ['read_user', 'create', 'read', 'update', 'delete', 'invite'],
  settings: [
    'manage_campaign_email',
    'manage_domain_authentication',
    'change_password',
    'update_host_info',
    'manage_booking_system',
  ],
  scenarios: ['read_scenario', 'create', 'read', 'update', 'delete'],
  presets: ['read_preset', 'create', 'read', 'update', 'delete'],
  /** Ours, not the specification's: who changed what, readable by the granduser only. */
  audit: ['read_audit_log'],
} as const;

type TGroups = typeof ENTITLEMENT_GROUPS;
export type TEntitlement = {
  [G in keyof TGroups]: `${G & string}.${TGroups[G][number]}`;
}[keyof TGroups];

export const ENTITLEMENTS = Object.entries(ENTITLEMENT_GROUPS).flatMap(([group, actions]) =>
  actions.map((action) => `${group}.${action}` as TEntitlement),
);

export type TEntitlementMap = Record<TEntitlement, boolean>;

const keysOf = (group: keyof TGroups, actions: readonly string[]): TEntitlement[] =>
  actions.map((a) => `${group}.${a}` as TEntitlement);
const whole = (group: keyof TGroups): TEntitlement[] => keysOf(group, ENTITLEMENT_GROUPS[group]);
const allBut = (group: keyof TGroups, ...except: string[]): TEntitlement[] =>
  keysOf(
    group,
    ENTITLEMENT_GROUPS[group].filter((a: string) => !except.includes(a)),
  );

/** The marketing and CRM areas, which every level below the platform works in. */
function crmKeys(role: Exclude<TRole, 'granduser'>, level: THostLevel): TEntitlement[] {
  const multiHotel = level !== 'hotel';
  const hotelFilter: TEntitlement[] = multiHotel ? ['segmentation.filter_hotel'] : [];
  if (role === 'admin') {
    return [
      ...whole('customer'),
      ...allBut('segmentation', 'filter_hotel'),
      ...hotelFilter,
      ...whole('campaign'),
      ...whole('templates'),
      ...whole('authorization'),
      ...whole('settings'),
      ...whole('scenarios'),
      ...whole('presets'),
    ];
  }
  if (role === 'staff') {
    return [
      ...allBut('customer', 'delete'),
      ...allBut('segmentation', 'delete', 'filter_hotel'),
      ...hotelFilter,
      ...allBut('campaign', 'delete'),
      ...allBut('templates', 'delete'),
      ...keysOf('authorization', ['read_user', 'read']),
      'settings.change_password',
      ...allBut('scenarios', 'delete'),
      ...allBut('presets', 'delete'),
    ];
  }
  return [
    ...keysOf('customer', ['read_customer_list', 'read']),
    ...keysOf('segmentation', ['read_segment', 'read']),
    ...hotelFilter,
    'campaign.view_campaign_report',
    'templates.view_templates_report',
    ...keysOf('authorization', ['read_user', 'read']),
    'settings.change_password',
    ...keysOf('scenarios', ['read_scenario', 'read']),
    ...keysOf('presets', ['read_preset', 'read']),
  ];
}

function dashboardKeys(role: TRole): TEntitlement[] {
  const reads = keysOf('dashboard', ['read_level_info', 'read_customer_statistics', 'read_campaign_performance']);
  return role === 'viewer' ? reads : [...reads, 'dashboard.read_quick_actions'];
}

/**
 * Management of the host tree. The brand level runs its hotel groups and hotels; a hotel group's
 * admin may update the hotels in it; staff and viewers read. The hotel level has no management
 * area: a hotel edits its own information in settings.
 */
function managementKeys(role: Exclude<TRole, 'granduser'>, level: THostLevel): TEntitlement[] {
  const groupReads = keysOf('manage_hotel_group', [
    'read_hotel_group_at_hotel_group',
    'read_group_list',
    'read_group_users',
  ]);
  const hotelReads = keysOf('manage_hotel', ['read_hotel_at_hotel_list', 'filter_hotel_group', 'read_hotel_users']);
  if (level === 'brand') {
    if (role === 'admin') {
      return [...allBut('manage_hotel_group', 'filter_brand'), ...allBut('manage_hotel', 'filter_brand')];
    }
    return [...groupReads, ...hotelReads];
  }
  if (level === 'hotel_group') {
    const reads = keysOf('manage_hotel', ['read_hotel_at_hotel_list', 'read_hotel_users']);
    return role === 'admin' ? [...reads, 'manage_hotel.update_hotel'] : reads;
  }
  return [];
}

/**
 * The entitlements of a role at a level. `shell.read_switch_role` depends on the user, not the
 * role (true when more than one role is assignable), so the caller passes it in.
 */
export function entitlementsFor(level: THostLevel, role: TRole, canSwitchRole: boolean): TEntitlementMap {
  let granted: TEntitlement[];
  if (role === 'granduser') {
    granted = ENTITLEMENTS.filter((k) => !k.startsWith('dashboard.'));
  } else {
    granted = [...dashboardKeys(role), ...managementKeys(role, level), ...crmKeys(role, level)];
  }
  const set = new Set<TEntitlement>(granted.filter((k) => k !== 'shell.read_switch_role'));
  if (canSwitchRole) set.add('shell.read_switch_role');
  return Object.fromEntries(ENTITLEMENTS.map((k) => [k, set.has(k)])) as TEntitlementMap;
}
