import { roleDisplayName, type TAssignableRole, type TAssignableRoles, type THostLevel } from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import { defaultAssignment, delegates, type TActingContext } from './acting-context.ts';
import { hasHostsBelow, listHostsBelow, type THostRow } from './queries.ts';

const TAB_OF_LEVEL: Record<THostLevel, keyof Omit<TAssignableRoles, 'isDefaultLoggedIn' | 'defaultTab'>> = {
  grand_user: 'grandUser',
  brand: 'brand',
  hotel_group: 'hotelGroup',
  hotel: 'hotel',
};

const collator = new Intl.Collator('ja', { sensitivity: 'base', numeric: true });

/** Case- and width-insensitive match of a search text in a host name (Japanese too). */
export function nameMatches(name: string, search: string): boolean {
  const fold = (s: string) => s.normalize('NFKC').toLocaleLowerCase('ja');
  return fold(name).includes(fold(search));
}

/**
 * Every role the user may switch to: their own assignments, plus each host below an admin or
 * granduser assignment at the admin role of that level (DESIGN section 4).
 */
export async function listAssignableRoles(
  db: TTx,
  context: TActingContext,
  search: string | null,
): Promise<TAssignableRoles> {
  const term = search?.trim() || null;
  const byHost = new Map<string, TAssignableRole>();
  const fallback = defaultAssignment(context.assignments);
  const entry = (
    host: THostRow,
    role: TAssignableRole['role'],
    brandName: string | null,
    isDefault: boolean,
    createdAt: Date,
  ): TAssignableRole => ({
    username: host.name,
    role,
    roleName: roleDisplayName(host.level, role),
    level: host.level,
    slug: host.slug,
    brandName: host.level === 'hotel' || host.level === 'hotel_group' ? brandName : null,
    createdDate: createdAt.toISOString(),
    isDefault,
    isSelected: host.id === context.host.id && role === context.role,
  });

  for (const a of context.assignments) {
    if (term && !nameMatches(a.host.name, term)) continue;
    byHost.set(a.host.id, entry(a.host, a.role, a.brandName, a === fallback, a.host.createdAt));
  }
  for (const a of context.assignments.filter(delegates)) {
    const below = await listHostsBelow(db, a.host);
    for (const host of below) {
      if (byHost.has(host.id)) continue;
      if (term && !nameMatches(host.name, term)) continue;
      byHost.set(host.id, entry(host, 'admin', host.brandName, false, host.createdAt));
    }
  }

  const result: TAssignableRoles = {
    isDefaultLoggedIn: context.isDefault,
    grandUser: [],
    brand: [],
    hotelGroup: [],
    hotel: [],
    defaultTab: fallback?.host.level ?? 'hotel',
  };
  for (const role of byHost.values()) result[TAB_OF_LEVEL[role.level]].push(role);
  for (const tab of ['grandUser', 'brand', 'hotelGroup', 'hotel'] as const) {
    result[tab].sort((x, y) => collator.compare(x.username, y.username));
  }
  return result;
}

/** True when the user can take more than one role (the switch-role entitlement). */
export async function canSwitchRole(db: TTx, context: TActingContext): Promise<boolean> {
  if (context.assignments.length > 1) return true;
  for (const a of context.assignments.filter(delegates)) {
    if (await hasHostsBelow(db, a.host)) return true;
  }
  return false;
}
