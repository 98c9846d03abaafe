import { CONTEXT_HEADERS } from '@yado/contracts/http';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';
import { readUser, storeUser, type TStoredUser } from './storage';

/** The acting role sent with every call (spec section 3); null means the user's default role. */
export interface TRoleSelector {
  role: TRole;
  slug: string;
  level: THostLevel;
}

/** A single space stands for "missing", as the specification says. */
const BLANK = ' ';

export function roleSelectorHeaders(selector: TRoleSelector | null): Record<string, string> {
  return {
    [CONTEXT_HEADERS.role]: selector?.role ?? BLANK,
    [CONTEXT_HEADERS.slug]: selector?.slug || BLANK,
    [CONTEXT_HEADERS.level]: selector?.level ?? BLANK,
  };
}

export function storedRoleSelector(user: TStoredUser | null = readUser()): TRoleSelector | null {
  if (!user || user.isDefaultRole) return null;
  return { role: user.meta.role, slug: user.meta.slug, level: user.meta.level };
}

/**
 * Remembers the role to act as from now on. The rest of the stored user is refreshed by the next
 * profile fetch; until then it keeps describing the previous role.
 */
export function storeRoleSelector(selector: TRoleSelector | null, user: TStoredUser): void {
  if (selector === null) {
    storeUser({ ...user, isDefaultRole: true });
    return;
  }
  storeUser({
    ...user,
    isDefaultRole: false,
    meta: { ...user.meta, role: selector.role, slug: selector.slug, level: selector.level },
  });
}
