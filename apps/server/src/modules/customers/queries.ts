import type { TSuppressionReason } from '@yado/contracts';
import { and, asc, desc, eq, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { rowsOf, selectRows, type TDb, type TTx } from '../../db/client.ts';
import { bookings, customerAllocations, customers, hosts } from '../../db/schema.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { qualified } from '../../db/qualified.ts';
import { hardBouncedSinceSql, suppressionEntrySql } from '../deliverability/suppression.ts';

/** What the scope of a list depends on: the acting host (a start-up warm-up names a brand alone). */
export type TScopeContext = { host: Pick<TActingContext['host'], 'level' | 'id'> };

/**
 * The customers an acting context reaches: a brand all of its own, a hotel group those allocated
 * to its hotels, a hotel those allocated to it (DESIGN section 4). RLS adds the brand wall.
 */
export function customerScope(ctx: TScopeContext): SQL {
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return eq(customers.brandId, ctx.host.id);
    case 'hotel_group':
      return sql`exists (select 1 from customer_allocations a join hosts h on h.id = a.hotel_id
        where a.customer_id = ${qualified(customers.id)} and h.hotel_group_id = ${ctx.host.id} and h.deleted_at is null)`;
    default:
      return sql`exists (select 1 from customer_allocations a where a.customer_id = ${qualified(customers.id)} and a.hotel_id = ${ctx.host.id})`;
  }
}

/**
 * Bookings in reach: at the context's hotels, with `table` the name the bookings go by in the
 * query. The one definition of a booking's reach: the booking history lists these, and a
 * customer's totals count these, so the two always agree.
 */
export function bookingScopeOf(ctx: TScopeContext, table: string): SQL {
  const column = (name: string) => sql.raw(`"${table}"."${name}"`);
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return sql`${column('brand_id')} = ${ctx.host.id}`;
    case 'hotel_group':
      return sql`${column('hotel_id')} in (select id from hosts where hotel_group_id = ${ctx.host.id})`;
    default:
      return sql`${column('hotel_id')} = ${ctx.host.id}`;
  }
}

/** Bookings in reach, over the bookings table by its own name. */
export function bookingScope(ctx: TScopeContext): SQL {
  return bookingScopeOf(ctx, getTableName(bookings));
}

/**
 * A customer's allocations in reach: to the context's hotels, by the rule of its bookings (an
 * allocation, like a booking, has the hotel and its brand). The allocation summary lists these
 * only: a hotel sees no other hotel's figures, as its booking history lists none of its bookings.
 */
export function allocationScope(ctx: TScopeContext): SQL {
  return bookingScopeOf(ctx, getTableName(customerAllocations));
}

/**
 * The acting host's time zone (`hosts.timezone`), the one the console shows the customers' times
 * in, as a statement for the list's round trip (management's hostTimeZone, as SQL).
 */
export function hostTimeZoneQuery(hostId: string): SQL {
  return sql`select ${hosts.timezone} from ${hosts} where ${hosts.id} = ${hostId}`;
}

/**
 * The least text after every text that starts with `prefix`, in code point (UTF-8 byte) order:
 * the prefix with its last character, a whole code point, raised by one. A character outside the
 * Basic Multilingual Plane (𠮷 in 𠮷田) is two UTF-16 units; raising only its low surrogate would
 * make a lone surrogate, which reaches PostgreSQL as U+FFFD and sorts before 𠮷, so the range held
 * nobody. The surrogate block is skipped; after U+10FFFF nothing follows, so the character before
 * it is raised instead. Null: no text sorts after (the prefix is U+10FFFF only).
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}

/**
 * `column` starts with `prefix`, as the range [prefix, next) with the leakproof pattern operators,
 * which an index can serve under row-level security (LIKE cannot be used there). The one place
 * the customer search and the segment filters' "starts with" build it.
 */
export function startsWith(column: SQL | AnyPgColumn, prefix: string): SQL {
  const next = prefixUpperBound(prefix);
  if (next === null) return sql`(${column} ~>=~ ${prefix})`;
  return sql`(${column} ~>=~ ${prefix} and ${column} ~<~ ${next})`;
}

/**
 * Full-width ASCII letters, digits and symbols (ｓｅｔｓｕｋｏ, ０９０, ＠, what a Japanese IME types)
 * and the ideographic space as their ASCII forms. Kana and kanji stay as typed: names are kept as
 * written, and NFKC would also rewrite them (ﾔﾏﾀﾞ to ヤマダ, the compatibility 神 U+FA19 to 神), so
 * a name typed exactly as it is stored was not found. One pass over the text: nothing in SQL.
 */
export function foldWidth(text: string): string {
  return text.replace(/[\uff01-\uff5e\u3000]/g, (c) =>
    c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 0xfee0),
  );
}

/** A search box text as a phone prefix, an email prefix, or a name prefix. */
export function searchCondition(raw: string): SQL {
  const term = foldWidth(raw).trim().toLowerCase();
  if (!term) return sql`true`;
  // A Japanese IME types the hyphen of 090ー1234 as the long vowel mark: a phone's separator too.
  const digits = /^[0-9+\-‐‑‒–—―ー\s().]+$/.test(term) ? term.replace(/\D/g, '').replace(/^81(?=[1-9])/, '0') : null;
  if (digits) return startsWith(customers.phone, digits);
  if (term.includes('@')) return startsWith(customers.emailKey, term);
  // "山田 太郎" and "Taro Yamada" alike: each word order against the family-then-given key.
  const words = term.split(/\s+/).filter(Boolean);
  const compact = words.join('');
  const reversed = words.length === 2 ? `${words[1]}${words[0]}` : compact;
  return sql`(${startsWith(customers.lastNameKey, term)} or ${startsWith(customers.firstNameKey, term)}
    or ${startsWith(customers.fullNameKey, compact)} or ${startsWith(customers.fullNameKey, reversed)})`;
}

// Stays that count: a cancelled booking is neither a booking nor a payment; a payment is a stay
// that has begun. Both from one pass over the customer's bookings in the context's reach (a hotel
// counts its own bookings, as its booking history lists them): [bookings, payments]. A select-list
// subquery, so it runs for the rows a page returns only, on bookings_customer_idx.
function totalsIn(scope: TScopeContext) {
  return sql<[number, number]>`(select array[count(*) filter (where b.status <> 'cancelled'),
  coalesce(sum(b.amount) filter (where b.status in ('checked_in', 'checked_out')), 0)]::int[]
  from bookings b where b.customer_id = ${qualified(customers.id)} and ${bookingScopeOf(scope, 'b')})`;
}

const customerFields = {
  id: customers.id,
  brandId: customers.brandId,
  firstName: customers.firstName,
  lastName: customers.lastName,
  phone: customers.phone,
  email: customers.email,
  idNumber: customers.idNumber,
  gender: customers.gender,
  dateOfBirth: customers.dateOfBirth,
  country: customers.country,
  prefecture: customers.prefecture,
  city: customers.city,
  address: customers.address,
  emailStatus: customers.emailStatus,
  emailStatusChangedAt: customers.emailStatusChangedAt,
  // Since when the address hard-bounced: its active suppression for that reason (issue 25), which
  // stops every campaign and journey mail to it; lifted, the guest shows none.
  emailBouncedAt: sql<Date | null>`${hardBouncedSinceSql('customers')}`.mapWith(customers.createdAt),
  unsubscribeReason: customers.unsubscribeReason,
  consentSource: customers.consentSource,
  consentAt: customers.consentAt,
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

/**
 * A customer's columns as `scope` sees them: the totals count the bookings in its reach. Null:
 * every booking of the customer (all of them are the brand's).
 */
export function customerColumns(scope: TScopeContext | null) {
  return { ...customerFields, totals: totalsIn(scope ?? { host: { level: 'grand_user', id: '' } }) };
}
export type TCustomerRow = {
  [K in keyof ReturnType<typeof customerColumns>]: K extends 'totals'
    ? [number, number]
    : K extends 'emailBouncedAt'
      ? Date | null
      : (typeof customers.$inferSelect)[K & keyof typeof customers.$inferSelect];
};

export interface TCustomerFilter {
  search?: string;
  emailStatus?: 'active' | 'unsubscribed';
  hotelId?: string;
  sort: 'name' | '-created_at' | 'created_at';
}

export function filterCondition(ctx: TScopeContext, f: TCustomerFilter): SQL {
  return and(
    customerScope(ctx),
    f.search ? searchCondition(f.search) : undefined,
    f.emailStatus ? eq(customers.emailStatus, f.emailStatus) : undefined,
    f.hotelId
      ? sql`exists (select 1 from customer_allocations a where a.customer_id = ${qualified(customers.id)} and a.hotel_id = ${f.hotelId})`
      : undefined,
  ) as SQL;
}

export type TCursor = [string, string, string?];

/** Keyset: the position after the last row of a page, in the order of the sort. */
export function afterCursor(sort: TCustomerFilter['sort'], cursor: TCursor): SQL {
  if (sort === 'name')
    return sql`(${customers.lastName}, ${customers.firstName}, ${qualified(customers.id)}) > (${cursor[0]}, ${cursor[1]}, ${cursor[2] ?? ''}::uuid)`;
  const op = sort === 'created_at' ? sql`>` : sql`<`;
  // The cursor's time has milliseconds, the column microseconds: the last row's own created_at is
  // read back by its id, or customers made in one statement (an import, a sync) would end the list
  // after the first page. The cursor's time stands in if that customer is gone. The fallback stays
  // inside the subquery: under row-level security only a leakproof condition can be an index
  // condition, and PostgreSQL counts COALESCE as leaky, so a COALESCE in the row comparison made the
  // key range a filter over every earlier row (a later page at 1M customers: 384 ms instead of 15 ms).
  return sql`(${customers.createdAt}, ${qualified(customers.id)}) ${op} ((select coalesce(max(k.created_at), ${cursor[0]}::timestamptz) from customers k where k.id = ${cursor[1]}::uuid), ${cursor[1]}::uuid)`;
}

export function cursorOf(sort: TCustomerFilter['sort'], row: TCustomerRow): TCursor {
  return sort === 'name' ? [row.lastName, row.firstName, row.id] : [row.createdAt.toISOString(), row.id];
}

export function orderOf(sort: TCustomerFilter['sort']) {
  if (sort === 'name') return [asc(customers.lastName), asc(customers.firstName), asc(customers.id)];
  if (sort === 'created_at') return [asc(customers.createdAt), asc(customers.id)];
  return [desc(customers.createdAt), desc(customers.id)];
}

/**
 * A page of customers. `scope`: whose reach the totals count (the acting context); left out, every
 * booking of each customer.
 */
export async function selectCustomers(
  tx: TTx,
  where: SQL,
  sort: TCustomerFilter['sort'],
  limit: number,
  scope: TScopeContext | null = null,
): Promise<TCustomerRow[]> {
  const rows = await tx
    .select(customerColumns(scope))
    .from(customers)
    .where(where)
    .orderBy(...orderOf(sort))
    .limit(limit);
  return rows as TCustomerRow[];
}

/** The select of selectCustomers, to run elsewhere (a pipeline); rows come as arrays (customerRowOf). */
export function selectCustomersQuery(
  db: TDb,
  scope: TScopeContext,
  where: SQL,
  sort: TCustomerFilter['sort'],
  limit: number,
) {
  return db
    .select(customerColumns(scope))
    .from(customers)
    .where(where)
    .orderBy(...orderOf(sort))
    .limit(limit);
}

const CUSTOMER_KEYS = Object.keys(customerColumns(null)) as (keyof TCustomerRow)[];
/** A row of selectCustomersQuery given as an array in select-list order. */
export function customerRowOf(values: unknown[]): TCustomerRow {
  const row: Record<string, unknown> = {};
  CUSTOMER_KEYS.forEach((key, i) => (row[key] = values[i]));
  return row as TCustomerRow;
}

/** Brands that have customers (twenty at most: a warm-up must stay cheap), for the start-up warm-up. */
export async function brandsWithCustomers(db: TDb): Promise<string[]> {
  const result = await db.execute(
    sql`select h.id from ${hosts} h where h.level = 'brand' and h.deleted_at is null and exists (select 1 from ${customers} c where c.brand_id = h.id) limit 20`,
  );
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** How many customers match, counted up to one past `cap`. */
export function countCustomersQuery(where: SQL, cap: number): SQL {
  return sql`select count(*)::int as n from (select 1 from ${customers} where ${where} limit ${cap + 1}) capped`;
}

export async function findCustomer(tx: TTx, ctx: TActingContext, id: string): Promise<TCustomerRow | null> {
  const [row] = await tx
    .select(customerColumns(ctx))
    .from(customers)
    .where(and(customerScope(ctx), eq(customers.id, id)));
  return (row as TCustomerRow | undefined) ?? null;
}

/**
 * The active entry of the brand's suppression list for the customer's address, by the rule the
 * send paths read (suppressionEntrySql: not lifted, `until` not passed), else null. The caller
 * finds the customer in its reach first; RLS keeps the brand wall.
 */
export async function activeSuppressionOf(
  tx: TTx,
  customerId: string,
): Promise<{ reason: TSuppressionReason; created_at: Date | string; until: Date | string | null } | null> {
  const [row] = await selectRows<{
    reason: TSuppressionReason;
    created_at: Date | string;
    until: Date | string | null;
  }>(
    tx,
    sql`select s.reason, s.created_at, s.until from customers c join suppressions s on ${suppressionEntrySql('s', 'c')}
      where c.id = ${customerId}::uuid`,
  );
  return row ?? null;
}

export async function idsInScope(tx: TTx, ctx: TActingContext, ids: string[]): Promise<string[]> {
  const rows = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(customerScope(ctx), inArray(customers.id, ids)));
  return rows.map((r) => r.id);
}

export async function phoneTaken(tx: TTx, brandId: string, phone: string, exceptId?: string): Promise<boolean> {
  const rows = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(customers.brandId, brandId),
        eq(customers.phone, phone),
        exceptId ? sql`${qualified(customers.id)} <> ${exceptId}` : undefined,
      ),
    );
  return rows.length > 0;
}

export async function insertCustomer(tx: TTx, row: typeof customers.$inferInsert): Promise<void> {
  await tx.insert(customers).values(row);
}

export async function updateCustomerRow(
  tx: TTx,
  id: string,
  values: Partial<typeof customers.$inferInsert>,
): Promise<void> {
  await tx
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(customers.id, id));
}

export async function deleteCustomerRow(tx: TTx, id: string): Promise<void> {
  await tx.delete(customers).where(eq(customers.id, id));
}

export async function setEmailStatusOf(
  tx: TTx,
  ids: string[],
  status: 'active' | 'unsubscribed',
  reason: string | null,
): Promise<number> {
  const rows = await tx
    .update(customers)
    .set({
      emailStatus: status,
      emailStatusChangedAt: new Date(),
      unsubscribeReason: status === 'unsubscribed' ? reason : null,
      updatedAt: new Date(),
    })
    .where(and(inArray(customers.id, ids), sql`${customers.emailStatus} <> ${status}`))
    .returning({ id: customers.id });
  return rows.length;
}

export async function allocate(
  tx: TTx,
  row: { customerId: string; hotelId: string; brandId: string; source: 'booking' | 'import' | 'manual' },
): Promise<void> {
  await tx.insert(customerAllocations).values(row).onConflictDoNothing();
}

const hotel = alias(hosts, 'hotel');
const group = alias(hosts, 'hotel_group');
const brand = alias(hosts, 'brand');

export async function listBookings(tx: TTx, ctx: TActingContext, customerId: string) {
  return tx
    .select({
      id: bookings.id,
      hotelName: hotel.name,
      hotelGroupName: group.name,
      brandName: brand.name,
      bookingDate: bookings.bookingDate,
      checkIn: bookings.checkIn,
      checkOut: bookings.checkOut,
      nights: bookings.nights,
      guests: bookings.guests,
      roomName: bookings.roomName,
      roomType: bookings.roomType,
      source: bookings.source,
      amount: bookings.amount,
      status: bookings.status,
    })
    .from(bookings)
    .innerJoin(hotel, eq(hotel.id, bookings.hotelId))
    .leftJoin(group, eq(group.id, hotel.hotelGroupId))
    .innerJoin(brand, eq(brand.id, bookings.brandId))
    .where(and(eq(bookings.customerId, customerId), bookingScope(ctx)))
    .orderBy(desc(bookings.checkIn), desc(bookings.id));
}

/**
 * The hotels a customer is allocated to in the context's reach (allocationScope), each with its
 * bookings that count (the booking history's, bookingScopeOf).
 */
export async function listAllocations(tx: TTx, ctx: TScopeContext, customerId: string) {
  return tx
    .select({
      hotelId: customerAllocations.hotelId,
      hotelName: hotel.name,
      hotelGroupId: group.id,
      hotelGroupName: group.name,
      brandName: brand.name,
      source: customerAllocations.source,
      bookingCount: sql<number>`(select count(*)::int from bookings b where b.customer_id = ${qualified(customerAllocations.customerId)} and b.hotel_id = ${qualified(customerAllocations.hotelId)} and b.status <> 'cancelled' and ${bookingScopeOf(ctx, 'b')})`,
    })
    .from(customerAllocations)
    .innerJoin(hotel, eq(hotel.id, customerAllocations.hotelId))
    .leftJoin(group, eq(group.id, hotel.hotelGroupId))
    .innerJoin(brand, eq(brand.id, customerAllocations.brandId))
    .where(and(eq(customerAllocations.customerId, customerId), allocationScope(ctx), sql`${hotel.deletedAt} is null`))
    .orderBy(asc(hotel.name));
}
