import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { THost, THostLevel } from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import { hosts, roleAssignments, users } from '../../db/schema.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { qualified } from '../../db/qualified.ts';

const brand = alias(hosts, 'brand');
const group = alias(hosts, 'hotel_group');

/** The hosts an acting context reaches: its own and every one below it (DESIGN section 4). */
export function hostScope(ctx: TActingContext): SQL {
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return eq(hosts.brandId, ctx.host.id);
    case 'hotel_group':
      return or(eq(hosts.id, ctx.host.id), eq(hosts.hotelGroupId, ctx.host.id)) as SQL;
    default:
      return eq(hosts.id, ctx.host.id);
  }
}

const alive = sql`${hosts.deletedAt} is null`;

const columns = {
  id: hosts.id,
  level: hosts.level,
  name: hosts.name,
  slug: hosts.slug,
  brandId: hosts.brandId,
  brandName: brand.name,
  hotelGroupId: hosts.hotelGroupId,
  hotelGroupName: group.name,
  address: hosts.address,
  email: hosts.email,
  phone: hosts.phone,
  logoUrl: hosts.logoUrl,
  timezone: hosts.timezone,
  bookingHotelCode: hosts.bookingHotelCode,
  createdAt: hosts.createdAt,
  hotelGroupCount: sql<number>`(select count(*)::int from hosts c where c.brand_id = ${qualified(hosts.id)} and c.level = 'hotel_group' and c.deleted_at is null and ${qualified(hosts.level)} = 'brand')`,
  hotelCount: sql<number>`(select count(*)::int from hosts c where c.level = 'hotel' and c.deleted_at is null
    and ((${qualified(hosts.level)} = 'brand' and c.brand_id = ${qualified(hosts.id)}) or (${qualified(hosts.level)} = 'hotel_group' and c.hotel_group_id = ${qualified(hosts.id)})))`,
  userCount: sql<number>`(select count(*)::int from role_assignments ra where ra.host_id = ${qualified(hosts.id)})`,
};

type TRow = Omit<THost, 'createdAt'> & { createdAt: Date };
const toHost = (r: TRow): THost => ({ ...r, createdAt: r.createdAt.toISOString() });

export interface THostFilter {
  level: THostLevel;
  search?: string;
  brandId?: string;
  hotelGroupId?: string;
  sort: 'name' | '-name' | 'created_at' | '-created_at';
  page: number;
  pageSize: number;
}

export async function listHosts(
  tx: TTx,
  ctx: TActingContext,
  f: THostFilter,
): Promise<{ items: THost[]; total: number }> {
  const where = and(
    hostScope(ctx),
    alive,
    eq(hosts.level, f.level),
    f.search ? ilike(hosts.name, `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    f.brandId ? eq(hosts.brandId, f.brandId) : undefined,
    f.hotelGroupId ? eq(hosts.hotelGroupId, f.hotelGroupId) : undefined,
  );
  const order = {
    name: [asc(hosts.name), asc(hosts.id)],
    '-name': [desc(hosts.name), asc(hosts.id)],
    created_at: [asc(hosts.createdAt), asc(hosts.id)],
    '-created_at': [desc(hosts.createdAt), asc(hosts.id)],
  }[f.sort];
  const rows = await tx
    .select(columns)
    .from(hosts)
    .leftJoin(brand, eq(brand.id, hosts.brandId))
    .leftJoin(group, eq(group.id, hosts.hotelGroupId))
    .where(where)
    .orderBy(...order)
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(hosts)
    .where(where);
  return { items: (rows as TRow[]).map(toHost), total: count?.n ?? 0 };
}

/** The time zone a host keeps its clock in (`hosts.timezone`), or null when there is no such host. */
export async function hostTimeZone(tx: TTx, hostId: string): Promise<string | null> {
  const [row] = await tx.select({ timezone: hosts.timezone }).from(hosts).where(eq(hosts.id, hostId));
  return row?.timezone ?? null;
}

/** One live host of the given level within the context's reach, or null. */
export async function findHost(tx: TTx, ctx: TActingContext, level: THostLevel, id: string): Promise<THost | null> {
  const [row] = await tx
    .select(columns)
    .from(hosts)
    .leftJoin(brand, eq(brand.id, hosts.brandId))
    .leftJoin(group, eq(group.id, hosts.hotelGroupId))
    .where(and(hostScope(ctx), alive, eq(hosts.level, level), eq(hosts.id, id)));
  return row ? toHost(row as TRow) : null;
}

export async function listChildren(tx: TTx, host: THost) {
  const below =
    host.level === 'brand'
      ? eq(hosts.brandId, host.id)
      : host.level === 'hotel_group'
        ? eq(hosts.hotelGroupId, host.id)
        : sql`false`;
  const rows = await tx
    .select({
      id: hosts.id,
      name: hosts.name,
      level: hosts.level,
      hotelGroupName: group.name,
      hotelCount: columns.hotelCount,
    })
    .from(hosts)
    .leftJoin(group, eq(group.id, hosts.hotelGroupId))
    .leftJoin(brand, eq(brand.id, hosts.brandId))
    .where(and(below, alive, sql`${qualified(hosts.id)} <> ${host.id}`))
    .orderBy(asc(hosts.name));
  return {
    hotelGroups: rows
      .filter((r) => r.level === 'hotel_group')
      .map((r) => ({ id: r.id, name: r.name, hotelCount: r.hotelCount })),
    hotels: rows
      .filter((r) => r.level === 'hotel')
      .map((r) => ({ id: r.id, name: r.name, hotelGroupName: r.hotelGroupName })),
  };
}

export async function listHostUsers(tx: TTx, hostId: string) {
  return tx
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: roleAssignments.role,
      status: users.status,
      origin: roleAssignments.origin,
    })
    .from(roleAssignments)
    .innerJoin(users, eq(users.id, roleAssignments.userId))
    .where(eq(roleAssignments.hostId, hostId))
    .orderBy(asc(users.email));
}

export async function insertHost(
  tx: TTx,
  row: {
    id: string;
    level: THostLevel;
    name: string;
    slug: string;
    brandId: string | null;
    hotelGroupId: string | null;
    address: string;
    email: string | null;
    phone: string | null;
    logoUrl: string | null;
    timezone: string;
    bookingHotelCode: string | null;
  },
): Promise<void> {
  await tx.insert(hosts).values(row);
}

export async function updateHostRow(tx: TTx, id: string, values: Partial<typeof hosts.$inferInsert>): Promise<void> {
  await tx
    .update(hosts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(hosts.id, id));
}

/** Whether another live hotel of the brand has this booking-system code. */
export async function bookingHotelCodeTaken(
  tx: TTx,
  brandId: string,
  code: string,
  exceptHotelId: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: hosts.id })
    .from(hosts)
    .where(
      and(eq(hosts.brandId, brandId), eq(hosts.bookingHotelCode, code), alive, sql`${hosts.id} <> ${exceptHotelId}`),
    )
    .limit(1);
  return rows.length > 0;
}

export async function slugTaken(tx: TTx, slug: string): Promise<boolean> {
  const rows = await tx.execute(sql`select 1 from hosts where slug = ${slug}`);
  return (rows as unknown as { rows: unknown[] }).rows.length > 0;
}

/** Soft-deletes a host and, for a brand, everything in it. Returns the ids it deleted. */
export async function softDeleteHostTree(tx: TTx, host: THost, at: Date): Promise<string[]> {
  const tree = host.level === 'brand' ? eq(hosts.brandId, host.id) : eq(hosts.id, host.id);
  const rows = await tx
    .update(hosts)
    .set({ deletedAt: at })
    .where(and(tree, isNull(hosts.deletedAt)))
    .returning({ id: hosts.id });
  return rows.map((r) => r.id);
}

export async function ungroupHotels(tx: TTx, groupId: string): Promise<string[]> {
  const rows = await tx
    .update(hosts)
    .set({ hotelGroupId: null, updatedAt: new Date() })
    .where(eq(hosts.hotelGroupId, groupId))
    .returning({ id: hosts.id });
  return rows.map((r) => r.id);
}
