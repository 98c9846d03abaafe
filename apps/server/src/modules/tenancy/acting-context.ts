import {
  DELEGATED_ROLE,
  HOST_LEVELS,
  ROLES,
  entitlementsFor,
  isRoleAtLevel,
  type TEntitlementMap,
  type THostLevel,
  type TRole,
} from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import type { TRlsContext } from '../../db/client.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { findHostBySlug, type TAssignmentRow, type THostRow, type TSessionUser } from './queries.ts';

/** Who is acting, as whom, where: re-derived by the server on every request (DESIGN section 4). */
export interface TActingContext {
  user: TSessionUser;
  host: THostRow;
  role: TRole;
  /** True when acting in the user's default assignment. */
  isDefault: boolean;
  assignments: TAssignmentRow[];
  entitlements: TEntitlementMap;
  rls: TRlsContext;
  /** The refresh-token family of the session the access token belongs to. */
  familyId?: string;
  /**
   * Set when the context was built from a remembered session (see session-cache.ts): the user it
   * must still be confirmed for, the session as acted on, and whether readAs has confirmed it.
   */
  unconfirmed?: { userId: string; fingerprint: string; confirmed: boolean };
}

export interface TRoleSelector {
  role: string;
  slug: string;
  level: string;
}

/** Blank or a single space (the console's "missing") both mean: not given. */
const given = (value: string | undefined): string => (value ?? '').trim();

export function parseSelector(headers: Record<string, string | string[] | undefined>): TRoleSelector | null {
  const pick = (name: string) => {
    const v = headers[name];
    return given(Array.isArray(v) ? v[0] : v);
  };
  const selector = { role: pick('x-user-role'), slug: pick('x-host-slug'), level: pick('x-host-level') };
  if (!selector.role && !selector.slug && !selector.level) return null;
  const fields: TFieldErrors = {};
  if (!ROLES.includes(selector.role as TRole)) fields['x-user-role'] = fieldError('value_not_allowed');
  if (!HOST_LEVELS.includes(selector.level as THostLevel)) fields['x-host-level'] = fieldError('value_not_allowed');
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(selector.slug)) fields['x-host-slug'] = fieldError('value_invalid_format');
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return selector;
}

/** Whether `host` lies below the host of an admin or granduser assignment. */
export function isBelow(host: THostRow, ancestor: THostRow): boolean {
  if (host.id === ancestor.id) return false;
  switch (ancestor.level) {
    case 'grand_user':
      return host.level !== 'grand_user';
    case 'brand':
      return host.brandId === ancestor.id;
    case 'hotel_group':
      return host.level === 'hotel' && host.hotelGroupId === ancestor.id;
    default:
      return false;
  }
}

export const delegates = (a: TAssignmentRow): boolean => a.role === 'granduser' || a.role === 'admin';

export function rlsFor(host: THostRow): TRlsContext {
  return host.level === 'grand_user' ? { scopeAll: true, brandId: null } : { scopeAll: false, brandId: host.brandId };
}

export function defaultAssignment(assignments: TAssignmentRow[]): TAssignmentRow | null {
  return assignments.find((a) => a.isDefault) ?? assignments[0] ?? null;
}

/**
 * The context the user asked for with the role headers, or their default one. A context the
 * user may not take is refused with 403, whether or not the host exists.
 */
export async function resolveActingContext(
  db: TTx,
  user: TSessionUser,
  assignments: TAssignmentRow[],
  selector: TRoleSelector | null,
): Promise<TActingContext> {
  const fallback = defaultAssignment(assignments);
  if (!fallback) throw new AppError(403, 'no_access');
  const build = (host: THostRow, role: TRole): TActingContext => ({
    user,
    host,
    role,
    isDefault: host.id === fallback.host.id && role === fallback.role,
    assignments,
    entitlements: entitlementsFor(host.level, role, false),
    rls: rlsFor(host),
  });
  if (!selector) return build(fallback.host, fallback.role);

  const role = selector.role as TRole;
  const level = selector.level as THostLevel;
  const refuse = () => new AppError(403, 'context_forbidden');
  if (!isRoleAtLevel(role, level)) throw refuse();

  const own = assignments.find((a) => a.host.slug === selector.slug);
  if (own) {
    if (own.role !== role || own.host.level !== level) throw refuse();
    return build(own.host, role);
  }
  if (role !== DELEGATED_ROLE) throw refuse();
  const host = await findHostBySlug(db, selector.slug);
  if (!host || host.level !== level) throw refuse();
  if (!assignments.some((a) => delegates(a) && isBelow(host, a.host))) throw refuse();
  return build(host, role);
}
