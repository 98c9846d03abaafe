import type { TAssignableRole, TAssignableRoles } from '@yado/contracts/auth';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';

export const ROLE_TABS: readonly { level: THostLevel; key: 'grandUser' | 'brand' | 'hotelGroup' | 'hotel' }[] = [
  { level: 'grand_user', key: 'grandUser' },
  { level: 'brand', key: 'brand' },
  { level: 'hotel_group', key: 'hotelGroup' },
  { level: 'hotel', key: 'hotel' },
];

export function rolesAt(data: TAssignableRoles | undefined, level: THostLevel): TAssignableRole[] {
  const tab = ROLE_TABS.find((t) => t.level === level);
  return data && tab ? data[tab.key] : [];
}

/** A tab appears only when the user has a role at that level. */
export function presentLevels(data: TAssignableRoles | undefined): THostLevel[] {
  return ROLE_TABS.filter((t) => rolesAt(data, t.level).length > 0).map((t) => t.level);
}

/** The requested tab when it exists, else the server's default tab, else the first one there is. */
export function chooseTab(requested: THostLevel, data: TAssignableRoles | undefined): THostLevel | null {
  const present = presentLevels(data);
  if (present.includes(requested)) return requested;
  if (data && present.includes(data.defaultTab)) return data.defaultTab;
  return present[0] ?? null;
}

/** Grand user and admin orange, staff blue, viewer grey (spec section 2). */
export function roleBadgeColor(role: TRole): 'orange' | 'blue' | 'gray' {
  if (role === 'staff') return 'blue';
  if (role === 'viewer') return 'gray';
  return 'orange';
}

const collator = new Intl.Collator('ja');

/** Rows by username in Japanese collation; the server sorts too, this keeps the order after filtering. */
export function sortRoles(roles: readonly TAssignableRole[]): TAssignableRole[] {
  return [...roles].sort((a, b) => collator.compare(a.username, b.username));
}
