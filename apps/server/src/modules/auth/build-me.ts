import { entitlementsFor, fullName, roleDisplayName, type TMe } from '@yado/contracts';
import type { TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { canSwitchRole } from '../tenancy/list-assignable-roles.ts';
import { findHostById } from '../tenancy/queries.ts';

/** The specification's logged-in user (section 3), in the acting context. */
export async function buildMe(rt: TRuntime, ctx: TActingContext): Promise<TMe> {
  const db = rt.database.db;
  const { user, host, role } = ctx;
  const switchable = await canSwitchRole(db, ctx);
  const original = user.originalHostId ? await findHostById(db, user.originalHostId) : null;
  const originalRole = original ? ctx.assignments.find((a) => a.host.id === original.id) : undefined;
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: fullName(user.firstName, user.lastName),
    nickName: user.nickName,
    phoneNumber: user.phoneNumber,
    email: user.email,
    imageUrl: user.imageUrl,
    language: user.language,
    role: roleDisplayName(host.level, role),
    hostName: host.name,
    hostAddress: original?.address ?? null,
    hostRole:
      original && originalRole
        ? {
            level: original.level,
            role: originalRole.role,
            slug: original.slug,
            hostName: original.name,
            roleName: roleDisplayName(original.level, originalRole.role),
          }
        : null,
    entitlements: entitlementsFor(host.level, role, switchable),
    meta: { slug: host.slug, level: host.level, hostName: host.name, role },
    isDefaultRole: ctx.isDefault,
    features: rt.config.features,
  };
}
