import { z } from 'zod';

/** The four levels of the host tree (DESIGN section 4). */
export const HOST_LEVELS = ['grand_user', 'brand', 'hotel_group', 'hotel'] as const;
export const ZHostLevel = z.enum(HOST_LEVELS);
export type THostLevel = z.infer<typeof ZHostLevel>;

export const ROLES = ['granduser', 'admin', 'staff', 'viewer'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

/** Which roles exist at which level: the granduser only at the platform, the others below it. */
export const ROLES_BY_LEVEL: Record<THostLevel, readonly TRole[]> = {
  grand_user: ['granduser'],
  brand: ['admin', 'staff', 'viewer'],
  hotel_group: ['admin', 'staff', 'viewer'],
  hotel: ['admin', 'staff', 'viewer'],
};

export function isRoleAtLevel(role: TRole, level: THostLevel): boolean {
  return ROLES_BY_LEVEL[level].includes(role);
}

/** The role an admin or granduser assignment confers on every host below it. */
export const DELEGATED_ROLE: TRole = 'admin';

const LEVEL_NAMES: Record<THostLevel, string> = {
  grand_user: '',
  brand: 'Brand',
  hotel_group: 'Hotel Group',
  hotel: 'Hotel',
};
const ROLE_NAMES: Record<TRole, string> = {
  granduser: 'Granduser',
  admin: 'Admin',
  staff: 'Staff',
  viewer: 'Viewer',
};

/** The specification's role names: "Granduser", "Brand Admin", "Hotel Group Staff", ... */
export function roleDisplayName(level: THostLevel, role: TRole): string {
  if (role === 'granduser') return ROLE_NAMES.granduser;
  return `${LEVEL_NAMES[level]} ${ROLE_NAMES[role]}`;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** "山田 太郎" for a Japanese name (family name first), "Taro Yamada" otherwise. */
export function fullName(firstName: string, lastName: string): string {
  const japanese = CJK.test(firstName) || CJK.test(lastName);
  return (japanese ? [lastName, firstName] : [firstName, lastName]).filter(Boolean).join(' ');
}

/** The inverse of fullName: "山田 太郎" → 山田 / 太郎; "Emily Carter" → Emily / Carter. */
export function splitFullName(name: string): { firstName: string; lastName: string } {
  const parts = name
    .trim()
    .split(/[\s\u3000]+/)
    .filter(Boolean);
  if (parts.length <= 1) return { firstName: parts[0] ?? '', lastName: '' };
  const japanese = CJK.test(name);
  if (japanese) return { lastName: parts[0] as string, firstName: parts.slice(1).join(' ') };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1] as string };
}
