import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type TTx } from '../../db/client.ts';
import { hosts, users } from '../../db/schema.ts';
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
  return (await findSession(db, userId))?.assignments ?? [];
}

/**
 * The user and their live assignments in one round trip, for the check every request makes (the
 * same rows as findUserForSession and listAssignments, the assignments as JSON beside the user).
 */
export async function findSession(db: TTx, userId: string): Promise<TSession | null> {
  const [row] = rowsOf<TSessionRow>(await db.execute(sessionQuery(userId)));
  return row ? sessionFromRow(row) : null;
}

export interface TSession {
  user: TSessionUser;
  assignments: TAssignmentRow[];
}

export function sessionQuery(userId: string): SQL {
  return sql`
    select u.id, u.email, u.first_name, u.last_name, u.nick_name, u.phone_number, u.image_url, u.language, u.status,
           u.original_host_id, u.tokens_valid_after,
           coalesce((
             select json_agg(json_build_object(
               'role', ra.role, 'isDefault', ra.is_default, 'origin', ra.origin, 'createdAt', ra.created_at, 'brandName', b.name,
               'host', json_build_object('id', h.id, 'level', h.level, 'name', h.name, 'slug', h.slug, 'brandId', h.brand_id,
                                         'hotelGroupId', h.hotel_group_id, 'address', h.address, 'createdAt', h.created_at))
               order by ra.created_at, h.id, ra.role)
             from role_assignments ra
             join hosts h on h.id = ra.host_id
             left join hosts b on b.id = h.brand_id
             where ra.user_id = u.id and h.deleted_at is null
               and not exists (select 1 from hosts d where d.deleted_at is not null and (d.id = h.brand_id or d.id = h.hotel_group_id))
           ), '[]') as assignments
    from users u
    where u.id = ${userId}`;
}

/** The columns of sessionQuery in order, for a row that arrives as an array. */
const SESSION_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'nick_name',
  'phone_number',
  'image_url',
  'language',
  'status',
  'original_host_id',
  'tokens_valid_after',
  'assignments',
] as const;

export function sessionFromArray(values: unknown[]): TSession {
  return sessionFromRow(Object.fromEntries(SESSION_COLUMNS.map((c, i) => [c, values[i]])) as unknown as TSessionRow);
}

function sessionFromRow(row: TSessionRow): TSession {
  return {
    user: {
      id: row.id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      nickName: row.nick_name,
      phoneNumber: row.phone_number,
      imageUrl: row.image_url,
      language: row.language,
      status: row.status,
      originalHostId: row.original_host_id,
      tokensValidAfter: new Date(row.tokens_valid_after),
    },
    assignments: (typeof row.assignments === 'string'
      ? (JSON.parse(row.assignments) as TAssignmentJson[])
      : row.assignments
    ).map((a) => ({
      ...a,
      createdAt: new Date(a.createdAt),
      host: { ...a.host, createdAt: new Date(a.host.createdAt) },
    })),
  };
}

type TAssignmentJson = Omit<TAssignmentRow, 'createdAt' | 'host'> & {
  createdAt: string;
  host: Omit<THostRow, 'createdAt'> & { createdAt: string };
};
interface TSessionRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  nick_name: string | null;
  phone_number: string | null;
  image_url: string | null;
  language: 'ja' | 'en';
  status: 'active' | 'inactive';
  original_host_id: string | null;
  tokens_valid_after: Date | string;
  assignments: TAssignmentJson[] | string;
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
  const result = await db.execute(
    sql`select exists (select 1 from hosts where ${below} and deleted_at is null) as found`,
  );
  const rows = (result as unknown as { rows: { found: boolean }[] }).rows;
  return rows[0]?.found === true;
}
