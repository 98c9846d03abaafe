import type { TMe } from '@yado/contracts/auth';
import { entitlementsFor } from '@yado/contracts/entitlements';
import { featureFlagsFor } from '@yado/contracts/features';
import { roleDisplayName } from '@yado/contracts/tenancy';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';

/** A profile as GET /v1/auth/me answers it, for a role at a level. */
export function profileFixture(level: THostLevel, role: TRole, overrides: Partial<TMe> = {}): TMe {
  return {
    id: 'u1',
    firstName: 'Hanako',
    lastName: 'Sato',
    fullName: 'Hanako Sato',
    nickName: null,
    phoneNumber: null,
    email: 'hanako@demo.test',
    imageUrl: null,
    language: 'en',
    role: roleDisplayName(level, role),
    hostName: 'Sakura Hotel Kyoto',
    hostAddress: null,
    hostRole: null,
    entitlements: entitlementsFor(level, role, true),
    meta: { slug: 'sakura-kyoto', level, hostName: 'Sakura Hotel Kyoto', role },
    isDefaultRole: true,
    features: featureFlagsFor('production'),
    ...overrides,
  };
}
