import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import type { TSegmentScope } from './filter-env.ts';

/** The only place that touches segments, segment_members and segment_uses. */

export interface TSegmentRow {
  id: string;
  brand_id: string;
  host_id: string;
  name: string;
  description: string;
  type: 'dynamic' | 'static';
  filter: unknown;
  audience: number | null;
  audience_counted_at: Date | null;
  created_at: Date;
  updated_at: Date;
  created_by: string | null;
  updated_by: string | null;
  host_name: string;
  host_level: 'brand' | 'hotel_group' | 'hotel';
  host_group_id: string | null;
  created_by_name: string | null;
  updated_by_name: string | null;
}

/** Segments an acting context may read: its own host's and those of the hosts below it. */
export function segmentReach(ctx: TActingContext): SQL {
  switch (ctx.host.level) {
    case 'grand_user':
      return sql`true`;
    case 'brand':
      return sql`s.brand_id = ${ctx.host.id}`;
    case 'hotel_group':
      return sql`(s.host_id = ${ctx.host.id} or h.hotel_group_id = ${ctx.host.id})`;
    default:
      return sql`s.host_id = ${ctx.host.id}`;
  }
}

const SELECT = sql`select s.id, s.brand_id, s.host_id, s.name, s.description, s.type, s.filter, s.audience, s.audience_counted_at,
  s.created_at, s.updated_at, s.created_by, s.updated_by, h.name as host_name, h.level as host_level, h.hotel_group_id as host_group_id,
  nullif(trim(cu.last_name || ' ' || cu.first_name), '') as created_by_name, nullif(trim(uu.last_name || ' ' || uu.first_name), '') as updated_by_name
  from segments s join hosts h on h.id = s.host_id
  left join users cu on cu.id = s.created_by left join users uu on uu.id = s.updated_by`;

const ORDER: Record<string, SQL> = {
  name: sql`lower(s.name) asc, s.id asc`,
  '-name': sql`lower(s.name) desc, s.id desc`,
  created_at: sql`s.created_at asc, s.id asc`,
  '-created_at': sql`s.created_at desc, s.id desc`,
  audience: sql`s.audience asc nulls first, s.id asc`,
  '-audience': sql`s.audience desc nulls last, s.id desc`,
};

/** A brand's segments never counted: made by a seed, not through the API (which counts at every save). */
export async function uncountedSegmentRows(tx: TTx, brandId: string): Promise<TSegmentRow[]> {
  return selectRows<TSegmentRow>(
    tx,
    sql`${SELECT} where s.brand_id = ${brandId}::uuid and s.audience_counted_at is null order by s.created_at, s.id`,
  );
}

export async function listSegmentRows(
  tx: TTx,
  ctx: TActingContext,
  q: { search?: string; type?: string; hotelId?: string; sort: string; page: number; pageSize: number },
): Promise<{ rows: TSegmentRow[]; total: number }> {
  const where = sql.join(
    [
      segmentReach(ctx),
      q.search ? sql`strpos(lower(s.name), lower(${q.search})) > 0` : undefined,
      q.type ? sql`s.type = ${q.type}` : undefined,
      q.hotelId ? sql`s.host_id = ${q.hotelId}::uuid` : undefined,
    ].filter((x): x is SQL => Boolean(x)),
    sql` and `,
  );
  const rows = await selectRows<TSegmentRow>(
    tx,
    sql`${SELECT} where ${where} order by ${ORDER[q.sort] ?? ORDER['-created_at']!} limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
  );
  const [count] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from segments s join hosts h on h.id = s.host_id where ${where}`,
  );
  return { rows, total: count?.n ?? 0 };
}

export async function findSegmentRow(tx: TTx, ctx: TActingContext, id: string): Promise<TSegmentRow | null> {
  const [row] = await selectRows<TSegmentRow>(tx, sql`${SELECT} where s.id = ${id}::uuid and ${segmentReach(ctx)}`);
  return row ?? null;
}

export async function segmentsInReach(tx: TTx, ctx: TActingContext, limit: number): Promise<TSegmentRow[]> {
  return selectRows<TSegmentRow>(
    tx,
    sql`${SELECT} where ${segmentReach(ctx)} order by s.created_at desc limit ${limit}`,
  );
}

export async function nameTaken(tx: TTx, hostId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await selectRows(
    tx,
    sql`select 1 from segments where host_id = ${hostId}::uuid and lower(name) = lower(${name}) ${exceptId ? sql`and id <> ${exceptId}::uuid` : sql``}`,
  );
  return rows.length > 0;
}

export async function insertSegment(
  tx: TTx,
  v: {
    id: string;
    brandId: string;
    hostId: string;
    name: string;
    description: string;
    type: string;
    filter: unknown;
    userId: string;
  },
): Promise<void> {
  await tx.execute(sql`insert into segments (id, brand_id, host_id, name, description, type, filter, created_by, updated_by)
    values (${v.id}::uuid, ${v.brandId}::uuid, ${v.hostId}::uuid, ${v.name}, ${v.description}, ${v.type}, ${v.filter === null ? null : JSON.stringify(v.filter)}::jsonb, ${v.userId}::uuid, ${v.userId}::uuid)`);
}

export async function updateSegmentRow(
  tx: TTx,
  id: string,
  v: { name: string; description: string; filter: unknown; userId: string },
): Promise<void> {
  await tx.execute(sql`update segments set name = ${v.name}, description = ${v.description},
    filter = ${v.filter === null ? null : JSON.stringify(v.filter)}::jsonb, updated_by = ${v.userId}::uuid, updated_at = now() where id = ${id}::uuid`);
}

export async function deleteSegmentRow(tx: TTx, id: string): Promise<void> {
  await tx.execute(sql`delete from segments where id = ${id}::uuid`);
}

export async function setAudience(tx: TTx, id: string, audience: number): Promise<void> {
  await tx.execute(sql`update segments set audience = ${audience}, audience_counted_at = now() where id = ${id}::uuid`);
}

export async function copyMembers(tx: TTx, fromId: string, toId: string): Promise<void> {
  await tx.execute(
    sql`insert into segment_members (segment_id, customer_id, brand_id) select ${toId}::uuid, customer_id, brand_id from segment_members where segment_id = ${fromId}::uuid`,
  );
}

/**
 * Adds the customers `candidates` selects (a statement over `customers`) to a static segment.
 * Answers how many were picked and how many of them were new to the list.
 */
export async function addMembersWhere(
  tx: TTx,
  segmentId: string,
  brandId: string,
  candidates: SQL,
): Promise<{ picked: number; added: number }> {
  const [row] = await selectRows<{ picked: number; added: number }>(
    tx,
    sql`with cand as (select customers.id from customers where ${candidates}),
      ins as (insert into segment_members (segment_id, customer_id, brand_id) select ${segmentId}::uuid, id, ${brandId}::uuid from cand
        on conflict do nothing returning 1)
      select (select count(*) from cand)::int as picked, (select count(*) from ins)::int as added`,
  );
  return row ?? { picked: 0, added: 0 };
}

export async function removeMembers(tx: TTx, segmentId: string, customerIds: string[]): Promise<number> {
  const rows = await selectRows(
    tx,
    sql`delete from segment_members where segment_id = ${segmentId}::uuid and customer_id = any(${sql.param(customerIds)}::uuid[]) returning 1`,
  );
  return rows.length;
}

/** A static segment's members, as a predicate over `customers`. */
export const memberOf = (segmentId: string): SQL =>
  sql`customers.id in (select m.customer_id from segment_members m where m.segment_id = ${segmentId}::uuid)`;

export async function listUses(tx: TTx, segmentId: string) {
  return selectRows<{
    kind: 'campaign' | 'scenario';
    object_id: string;
    name: string;
    state: string;
    blocks_delete: boolean;
  }>(
    tx,
    sql`select kind, object_id, name, state, blocks_delete from segment_uses where segment_id = ${segmentId}::uuid order by kind, name`,
  );
}

/** The hotels of a host's scope: null for a brand (all of it). */
export async function scopeOfHost(
  tx: TTx,
  host: { id: string; level: string; brandId: string | null },
): Promise<TSegmentScope> {
  const brandId = host.level === 'brand' ? host.id : (host.brandId as string);
  if (host.level === 'brand') return { brandId, hotelIds: null };
  if (host.level === 'hotel') return { brandId, hotelIds: [host.id] };
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`select id from hosts where hotel_group_id = ${host.id}::uuid and level = 'hotel' and deleted_at is null`,
  );
  return { brandId, hotelIds: rows.map((r) => r.id) };
}

/**
 * The brand's time zone; with `workMem`, also sets the transaction's work memory and turns JIT
 * compilation off (one round trip): a count is interactive, and at a million customers its cost
 * passes the thresholds where compiling alone took a second (docs/benchmarks.md, segment-count).
 */
export async function brandTimeZone(tx: TTx, brandId: string, workMem: string | null = null): Promise<string> {
  const [row] = await selectRows<{ timezone: string }>(
    tx,
    workMem
      ? sql`select timezone from hosts, set_config('work_mem', ${workMem}, true) w, set_config('jit', 'off', true) j,
          set_config('max_parallel_workers_per_gather', '0', true) g where id = ${brandId}::uuid`
      : sql`select timezone from hosts where id = ${brandId}::uuid`,
  );
  return row?.timezone ?? 'Asia/Tokyo';
}

/** The live hotels of a scope; `null` is the platform's: every brand's. */
export async function hotelsOfScope(tx: TTx, scope: TSegmentScope | null) {
  const within = !scope
    ? sql``
    : sql`and brand_id = ${scope.brandId}::uuid ${scope.hotelIds ? sql`and id = any(${sql.param(scope.hotelIds)}::uuid[])` : sql``}`;
  return selectRows<{ id: string; name: string }>(
    tx,
    sql`select id, name from hosts where level = 'hotel' and deleted_at is null ${within} order by name, id`,
  );
}

/**
 * Distinct values of a booking column seen in the scope's bookings (room type or source); `null`
 * is the platform's scope: every brand's bookings.
 */
export async function seenValues(tx: TTx, scope: TSegmentScope | null, column: 'room_type' | 'source') {
  const col = sql.raw(column === 'room_type' ? 'b.room_type' : 'b.source');
  const within = !scope
    ? sql`true`
    : sql`b.brand_id = ${scope.brandId}::uuid ${scope.hotelIds ? sql`and b.hotel_id = any(${sql.param(scope.hotelIds)}::uuid[])` : sql``}`;
  const rows = await selectRows<{ v: string }>(
    tx,
    sql`select distinct ${col} as v from bookings b where ${within} and ${col} is not null order by 1 limit 500`,
  );
  return rows.map((r) => r.v);
}

export async function customerForExplain(tx: TTx, customerId: string) {
  const [c] = await selectRows<Record<string, unknown>>(
    tx,
    sql`select id, brand_id, first_name, last_name, email, phone, id_number, address, city, date_of_birth::text as date_of_birth, gender, country,
      prefecture, email_status, consent_source, created_at, array(select hotel_id::text from customer_allocations a where a.customer_id = customers.id) as hotel_ids
      from customers where id = ${customerId}::uuid`,
  );
  if (!c) return null;
  const bookings = await selectRows<Record<string, unknown>>(
    tx,
    sql`select b.id, b.brand_id, b.hotel_id, h.name as hotel_name, b.booking_date::text as booking_date, b.check_in::text as check_in, b.check_out::text as check_out,
      b.nights, b.guests, b.amount, b.room_type, b.source, b.status from bookings b join hosts h on h.id = b.hotel_id where b.customer_id = ${customerId}::uuid`,
  );
  return { customer: c, bookings };
}

/** Static segments (of `segmentIds`) that list the customer. */
export async function listedIn(tx: TTx, customerId: string, segmentIds: string[]): Promise<Set<string>> {
  if (segmentIds.length === 0) return new Set();
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`select segment_id as id from segment_members where customer_id = ${customerId}::uuid and segment_id = any(${sql.param(segmentIds)}::uuid[])`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Import step three: the customers of an import's written rows join its chosen static segment.
 * A segment deleted or made dynamic since the choice takes no one. Answers how many were new to it.
 */
export async function joinImportSegment(
  tx: TTx,
  importId: string,
  brandId: string,
  segmentId: string,
): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    tx,
    sql`with added as (
      insert into segment_members (segment_id, customer_id, brand_id)
      select g.id, c.id, c.brand_id
      from customer_import_rows s join customers c on c.brand_id = s.brand_id and c.phone = s.phone
        join segments g on g.id = ${segmentId}::uuid and g.type = 'static' and g.brand_id = s.brand_id
      where s.import_id = ${importId}::uuid and s.brand_id = ${brandId}::uuid and s.status = 'ok'
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from added`,
  );
  await tx.execute(sql`update segments set audience = (select count(*) from segment_members where segment_id = ${segmentId}::uuid), audience_counted_at = now()
    where id = ${segmentId}::uuid and type = 'static'`);
  return row?.n ?? 0;
}
