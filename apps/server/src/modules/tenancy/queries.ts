import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TTx } from '../../db/client.ts';
import { hosts, roleAssignments, users } from '../../db/schema.ts';
import type { THostLevel, TRole } from '@yado/contracts';

/*
 * These queries run before any acting context exists (they establish it), so they use the
 * privileged connection, not withTenant. Each is keyed by the signed-in user's own id.
 */

export interface THostRow {
  id: string;
  level: THostLevel;
  name: string;
  slug: string;
  brandId: string | null;
  hotelGroupId: string | null;
  address: string | null;
  createdAt: Date;
}

export interface TAssignmentRow {
  role: TRole;
  isDefault: boolean;
  origin: 'original' | 'invited';
  createdAt: Date;
  host: THostRow;
  brandName: string | null;
}

const brands = alias(hosts, 'brand');

const hostColumns = {
  id: hosts.id,
  level: hosts.level,
  name: hosts.name,
  slug: hosts.slug,
  brandId: hosts.brandId,
  hotelGroupId: hosts.hotelGroupId,
  address: hosts.address,
  createdAt: hosts.createdAt,
};

export async function findUserForSession(db: TTx, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      nickName: users.nickName,
      phoneNumber: users.phoneNumber,
      imageUrl: users.imageUrl,
      language: users.language,
      status: users.status,
      originalHostId: users.originalHostId,
      tokensValidAfter: users.tokensValidAfter,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}
export type TSessionUser = NonNullable<Awaited<ReturnType<typeof findUserForSession>>>;

/** The user's own role assignments on hosts that still exist (a deleted host takes its roles along). */
export async function listAssignments(db: TTx, userId: string): Promise<TAssignmentRow[]> {
  const rows = await db
    .select({
      role: roleAssignments.role,
      isDefault: roleAssignments.isDefault,
      origin: roleAssignments.origin,
      createdAt: roleAssignments.createdAt,
      host: hostColumns,
      brandName: brands.name,
    })
    .from(roleAssignments)
    .innerJoin(hosts, eq(hosts.id, roleAssignments.hostId))
    .leftJoin(brands, eq(brands.id, hosts.brandId))
    .where(and(eq(roleAssignments.userId, userId), isNull(hosts.deletedAt), aliveAncestors()));
  return rows as TAssignmentRow[];
}

/** A host is alive only while its brand and hotel group are too. */
function aliveAncestors() {
  return sql`not exists (
    select 1 from hosts a
    where a.deleted_at is not null
      and (a.id = ${hosts.brandId} or a.id = ${hosts.hotelGroupId})
  )`;
}

export async function findHostBySlug(db: TTx, slug: string): Promise<THostRow | null> {
  const [row] = await db
    .select(hostColumns)
    .from(hosts)
    .where(and(eq(hosts.slug, slug), isNull(hosts.deletedAt), aliveAncestors()));
  return (row as THostRow | undefined) ?? null;
}

export async function findHostById(db: TTx, id: string): Promise<THostRow | null> {
  const [row] = await db.select(hostColumns).from(hosts).where(eq(hosts.id, id));
  return (row as THostRow | undefined) ?? null;
}

/**
 * Live hosts below the given one (for an admin or granduser assignment), with their brand's name.
 */
export async function listHostsBelow(db: TTx, host: THostRow) {
  const below =
    host.level === 'grand_user'
      ? sql`${hosts.level} <> 'grand_user'`
      : host.level === 'brand'
        ? sql`${hosts.brandId} = ${host.id} and ${hosts.id} <> ${host.id}`
        : host.level === 'hotel_group'
          ? sql`${hosts.hotelGroupId} = ${host.id}`
          : sql`false`;
  const rows = await db
    .select({ ...hostColumns, brandName: brands.name })
    .from(hosts)
    .leftJoin(brands, eq(brands.id, hosts.brandId))
    .where(and(below, isNull(hosts.deletedAt), aliveAncestors()));
  return rows as (THostRow & { brandName: string | null })[];
}

export async function hasHostsBelow(db: TTx, host: THostRow): Promise<boolean> {
  if (host.level === 'hotel') return false;
  const below =
    host.level === 'grand_user'
      ? sql`level <> 'grand_user'`
      : host.level === 'brand'
        ? sql`brand_id = ${host.id} and id <> ${host.id}`
        : sql`hotel_group_id = ${host.id}`;
  const result = await db.execute(sql`select exists (select 1 from hosts where ${below} and deleted_at is null) as found`);
  const rows = (result as unknown as { rows: { found: boolean }[] }).rows;
  return rows[0]?.found === true;
}
