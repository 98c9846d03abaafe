import { randomUUID } from 'node:crypto';
import { type TExplanation, type TFilter, type TFilterCount, type TSegment } from '@yado/contracts';
import { SEGMENT_NAME_MAX } from '@yado/contracts/segments';
import { and, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { selectRows, sqlStateOf, withTenant, type TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { defaultCopyName } from '../../i18n/copy-name.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { toCustomer } from '../customers/customer-operations.ts';
import { FALLBACK_TIME_ZONE } from '../customers/local-time.ts';
import { hostTimeZone } from '../management/queries.ts';
import {
  countCustomersQuery,
  customerScope,
  filterCondition,
  findCustomer,
  selectCustomers,
  type TCustomerFilter,
} from '../customers/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { dateIn, type TFilterEnv, type TSegmentScope } from './filter-env.ts';
import { explainFilter, type TEvalBooking, type TEvalCustomer } from './filter-eval.ts';
import { customerScopeSql, filterSql, groupPlaces, type TCompileMode } from './filter-sql.ts';
import { countSql } from './filter-count.ts';
import {
  addMembersWhere,
  brandTimeZone,
  copyMembers,
  customerForExplain,
  deleteSegmentRow,
  findSegmentRow,
  hotelsOfScope,
  insertSegment,
  listedIn,
  listSegmentRows,
  listUses,
  memberOf,
  nameTaken,
  removeMembers,
  scopeOfHost,
  seenValues,
  segmentsInReach,
  uncountedSegmentRows,
  setAudience,
  updateSegmentRow,
  type TSegmentRow,
} from './queries.ts';

/**
 * Segments: one exported function per operation. Audiences are computed by PostgreSQL under the
 * acting context's row-level security from the compiled filter (filter-sql.ts); nothing here picks
 * customers out of rows.
 */

const TOTAL_CAP = 10_000;
/**
 * Work memory of a count. PostgreSQL hashes a booking subquery only when its estimate (rows × about
 * 40 bytes) fits in work_mem × hash_mem_multiplier (2 by default); otherwise it scans the subquery's
 * rows again for every customer. 128 MB covers a subquery of every booking at 3M bookings, with
 * room to spare; what a hash really holds is one entry per distinct customer (about 50 MB at 1M).
 */
const COUNT_WORK_MEM = '128MB';

function toSegment(row: TSegmentRow, ctx: TActingContext): TSegment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    filter: (row.filter as TFilter | null) ?? null,
    audience: row.audience,
    audienceCountedAt: row.audience_counted_at ? new Date(row.audience_counted_at).toISOString() : null,
    hostId: row.host_id,
    hostName: row.host_name,
    hostLevel: row.host_level,
    editable: row.host_id === ctx.host.id,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    createdBy: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    updatedBy: row.updated_by ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
  };
}

/** A segment belongs to a brand, hotel group or hotel: the platform itself has no customers. */
function owningHost(ctx: TActingContext) {
  if (ctx.host.level === 'grand_user') throw new AppError(403, 'brand_host_required');
  return ctx.host;
}

/**
 * The dynamic_segmentation flag (spec section 6): while it is off, no segment becomes or stays
 * dynamic by an edit and no filter is counted; static segments work as ever.
 */
function mustAllowDynamic(rt: TRuntime): void {
  if (!rt.config.features.dynamic_segmentation) throw new AppError(403, 'dynamic_segmentation_off');
}

async function mustFind(tx: TTx, ctx: TActingContext, id: string): Promise<TSegmentRow> {
  const row = await findSegmentRow(tx, ctx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/** Only the owner host's context changes a segment; its ancestors may read it. */
async function mustOwn(tx: TTx, ctx: TActingContext, id: string): Promise<TSegmentRow> {
  const row = await mustFind(tx, ctx, id);
  if (row.host_id !== ctx.host.id) throw new AppError(403, 'segment_not_owner');
  return row;
}

async function mustOwnStatic(tx: TTx, ctx: TActingContext, id: string): Promise<TSegmentRow> {
  const row = await mustOwn(tx, ctx, id);
  if (row.type !== 'static') throw new AppError(409, 'segment_not_static');
  return row;
}

async function scopeOfRow(tx: TTx, row: TSegmentRow): Promise<TSegmentScope> {
  return scopeOfHost(tx, { id: row.host_id, level: row.host_level, brandId: row.brand_id });
}

/**
 * Today in the brand's time zone. `counting`: the statement to come hashes a set of customers, so
 * the transaction gets COUNT_WORK_MEM in the same round trip.
 */
async function envOf(tx: TTx, brandId: string, counting = false): Promise<TFilterEnv> {
  const timeZone = await brandTimeZone(tx, brandId, counting ? COUNT_WORK_MEM : null);
  return { timeZone, today: dateIn(new Date(), timeZone) };
}

const nameConflict = () => new AppError(409, 'segment_name_taken', { name: fieldError('segment_name_taken') });

/** JSON with keys sorted: a filter read back from jsonb has its keys in another order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

// ---------------------------------------------------------------------------------------------

export async function listSegments(rt: TRuntime, ctx: TActingContext, q: Parameters<typeof listSegmentRows>[2]) {
  if (q.hotelId && !ctx.entitlements['segmentation.filter_hotel']) throw new AppError(403, 'forbidden');
  return inTenant(rt, ctx, async (tx) => {
    const { rows, total } = await listSegmentRows(tx, ctx, q);
    return {
      items: rows.map((r) => toSegment(r, ctx)),
      total,
      page: q.page,
      pageSize: q.pageSize,
      timeZone: (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE,
    };
  });
}

export async function getSegment(rt: TRuntime, ctx: TActingContext, id: string): Promise<TSegment> {
  return inTenant(rt, ctx, async (tx) => toSegment(await mustFind(tx, ctx, id), ctx));
}

export interface TSegmentInput {
  name: string;
  description: string;
  type?: 'dynamic' | 'static';
  filter?: TFilter | null;
}

export async function createSegment(
  rt: TRuntime,
  ctx: TActingContext,
  input: TSegmentInput & { type: 'dynamic' | 'static' },
): Promise<TSegment> {
  const host = owningHost(ctx);
  if (input.type === 'dynamic') mustAllowDynamic(rt);
  if (input.type === 'dynamic' && !input.filter)
    throw new AppError(400, 'segment_filter_required', { filter: fieldError('segment_filter_required') });
  const id = randomUUID();
  try {
    return await inTenant(rt, ctx, async (tx) => {
      if (await nameTaken(tx, host.id, input.name)) throw nameConflict();
      const brandId = (host.level === 'brand' ? host.id : host.brandId) as string;
      await insertSegment(tx, {
        id,
        brandId,
        hostId: host.id,
        name: input.name,
        description: input.description,
        type: input.type,
        filter: input.filter ?? null,
        userId: ctx.user.id,
      });
      await recordAudit(tx, ctx, {
        action: 'create',
        targetType: 'segment',
        targetId: id,
        brandId,
        changes: { name: input.name },
      });
      await refreshAudience(tx, await mustFind(tx, ctx, id));
      return toSegment(await mustFind(tx, ctx, id), ctx);
    });
  } catch (error) {
    // Two saves of one name at once: the unique index decides.
    if (isUniqueViolation(error)) throw nameConflict();
    throw error;
  }
}

export async function updateSegment(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: TSegmentInput,
): Promise<TSegment> {
  try {
    return await inTenant(rt, ctx, async (tx) => {
      const row = await mustOwn(tx, ctx, id);
      if (row.type === 'dynamic' && !input.filter)
        throw new AppError(400, 'segment_filter_required', { filter: fieldError('segment_filter_required') });
      // With the flag off a dynamic segment may still be renamed, but its filter stays as it is.
      if (row.type === 'dynamic' && canonical(input.filter) !== canonical(row.filter)) mustAllowDynamic(rt);
      if (await nameTaken(tx, row.host_id, input.name, id)) throw nameConflict();
      const filter = row.type === 'dynamic' ? input.filter : (row.filter ?? null);
      await updateSegmentRow(tx, id, { name: input.name, description: input.description, filter, userId: ctx.user.id });
      await recordAudit(tx, ctx, {
        action: 'update',
        targetType: 'segment',
        targetId: id,
        brandId: row.brand_id,
        changes: { name: [row.name, input.name] },
      });
      const saved = await mustFind(tx, ctx, id);
      // Counted on every save, so the list and the page show the audience at once; a dynamic
      // segment kept as it is while the flag is off keeps its last count.
      if (saved.type === 'static' || rt.config.features.dynamic_segmentation) await refreshAudience(tx, saved);
      return toSegment(await mustFind(tx, ctx, id), ctx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameConflict();
    throw error;
  }
}

/**
 * A copy in the acting host (a hotel may copy a segment it can read into its own, scoped to it).
 * Its default name is the one every copy gets (defaultCopyName) in the console's language, else
 * the user's; numbered past the copies already made, as a host's segment names differ.
 */
export async function duplicateSegment(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  { name, language = ctx.user.language }: { name?: string; language?: 'ja' | 'en' } = {},
): Promise<TSegment> {
  const host = owningHost(ctx);
  const newId = randomUUID();
  try {
    return await inTenant(rt, ctx, async (tx) => {
      const row = await mustFind(tx, ctx, id);
      if (row.type === 'dynamic') mustAllowDynamic(rt);
      const copyOf = (n: number) => defaultCopyName(row.name, language, SEGMENT_NAME_MAX, n);
      let copyName = name ?? copyOf(1);
      if (!name) for (let n = 2; (await nameTaken(tx, host.id, copyName)) && n < 100; n++) copyName = copyOf(n);
      if (await nameTaken(tx, host.id, copyName)) throw nameConflict();
      const brandId = (host.level === 'brand' ? host.id : host.brandId) as string;
      await insertSegment(tx, {
        id: newId,
        brandId,
        hostId: host.id,
        name: copyName,
        description: row.description,
        type: row.type,
        filter: row.filter ?? null,
        userId: ctx.user.id,
      });
      if (row.type === 'static') await copyMembers(tx, row.id, newId);
      await recordAudit(tx, ctx, {
        action: 'duplicate',
        targetType: 'segment',
        targetId: newId,
        brandId,
        changes: { name: copyName, copyOf: row.name },
      });
      await refreshAudience(tx, await mustFind(tx, ctx, newId));
      return toSegment(await mustFind(tx, ctx, newId), ctx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameConflict();
    throw error;
  }
}

export async function segmentUses(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    await mustFind(tx, ctx, id);
    return (await listUses(tx, id)).map((u) => ({
      kind: u.kind,
      id: u.object_id,
      name: u.name,
      state: u.state,
      blocksDelete: u.blocks_delete,
    }));
  });
}

export async function deleteSegment(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustOwn(tx, ctx, id);
    const blocking = (await listUses(tx, id)).filter((u) => u.blocks_delete);
    if (blocking.length > 0) {
      // The message names what holds the segment; the console also reads them from /uses.
      const fields = Object.fromEntries(
        blocking.map((u, i) => [
          `uses.${i}`,
          { code: u.kind, message: `${u.kind === 'campaign' ? 'Campaign' : 'Scenario'} “${u.name}” (${u.state})` },
        ]),
      );
      throw new AppError(409, 'segment_in_use', fields);
    }
    await deleteSegmentRow(tx, id);
    await recordAudit(tx, ctx, {
      action: 'delete',
      targetType: 'segment',
      targetId: id,
      brandId: row.brand_id,
      changes: { name: row.name },
    });
    return { id };
  });
}

// ---------------------------------------------------------------------------------------------
// Counts

async function countFilter(tx: TTx, filter: TFilter, scope: TSegmentScope, env: TFilterEnv): Promise<TFilterCount> {
  const [row] = await selectRows<Record<string, number>>(tx, countSql(filter, scope, env));
  const total = Number(row?.total ?? 0);
  return {
    total,
    groups: groupPlaces(filter).map((place, k) => ({
      index: place.index,
      path: place.path,
      id: place.id,
      count: Number(row?.[`n${k}`] ?? 0),
    })),
    countedAt: new Date().toISOString(),
  };
}

/** The live count while editing: the acting host's scope, one statement for the filter and its groups. */
export async function countLive(rt: TRuntime, ctx: TActingContext, filter: TFilter): Promise<TFilterCount> {
  const host = owningHost(ctx);
  mustAllowDynamic(rt);
  return inTenant(rt, ctx, async (tx) => {
    const scope = await scopeOfHost(tx, host);
    return countFilter(tx, filter, scope, await envOf(tx, scope.brandId, true));
  });
}

/** Counts a segment now in its owner's scope and remembers the audience. */
async function refreshAudience(tx: TTx, row: TSegmentRow): Promise<TFilterCount> {
  const scope = await scopeOfRow(tx, row);
  let result: TFilterCount;
  if (row.type === 'dynamic' && row.filter) {
    result = await countFilter(tx, row.filter as TFilter, scope, await envOf(tx, scope.brandId, true));
  } else {
    const [n] = await selectRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from customers where ${customerScopeSql(scope)} and ${memberOf(row.id)}`,
    );
    result = { total: n?.n ?? 0, groups: [], countedAt: new Date().toISOString() };
  }
  await setAudience(tx, row.id, result.total);
  return result;
}

/** Counts a saved segment now (in its owner's scope) and remembers the audience. */
export async function recountSegment(rt: TRuntime, ctx: TActingContext, id: string): Promise<TFilterCount> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    if (row.type === 'dynamic') mustAllowDynamic(rt);
    return refreshAudience(tx, row);
  });
}

/**
 * Counts a brand's segments that were never counted (the demo's, written by its seed) and
 * remembers their audiences, so the list shows a figure rather than "Not counted" for segments
 * nobody has saved yet. Answers how many were counted.
 */
export async function countUncountedSegments(rt: TRuntime, brandId: string): Promise<number> {
  return withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) => {
    const rows = await uncountedSegmentRows(tx, brandId);
    for (const row of rows) await refreshAudience(tx, row);
    return rows.length;
  });
}

// ---------------------------------------------------------------------------------------------
// Members

/**
 * Who is in a segment now, as a predicate over `customers` (scope included). `row` for the export,
 * which reads a thousand members per transaction along the keyset: hashing every matching booking
 * again for each batch would cost more than testing each customer on its way.
 */
async function membership(tx: TTx, row: TSegmentRow, mode: TCompileMode = 'set'): Promise<SQL> {
  const scope = await scopeOfRow(tx, row);
  if (row.type === 'static' || !row.filter) return sql`${customerScopeSql(scope, mode)} and ${memberOf(row.id)}`;
  return sql`${customerScopeSql(scope, mode)} and ${filterSql(row.filter as TFilter, scope, await envOf(tx, scope.brandId, mode === 'set'), mode)}`;
}

// The page link is the last customer's id: its created_at is read back from the row, at the
// database's microsecond precision (a JavaScript Date keeps milliseconds, and rows made in one
// statement share a timestamp).
const ZCursor = z.tuple([z.uuid()]);
function decodeCursor(cursor: string): [string] {
  try {
    return ZCursor.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw badRequest({ cursor: fieldError('invalid_cursor') });
  }
}

/**
 * A page of a segment's members in the customer list's shape, with the acting host's time zone
 * (`hosts.timezone`), in which the console shows their dates, as on the customer list.
 */
export async function listMembers(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  q: { search?: string; cursor?: string; limit: number },
) {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    // The segment's members that the acting context may see (an ancestor sees them all).
    const base = and(
      await membership(tx, row),
      customerScope(ctx),
      q.search ? filterCondition(ctx, { search: q.search, sort: '-created_at' }) : undefined,
    ) as SQL;
    const position = after
      ? sql`(customers.created_at, customers.id) < (select k.created_at, k.id from customers k where k.id = ${after[0]}::uuid)`
      : undefined;
    // Totals count the bookings the acting context's booking history lists, as in the customer list.
    const rows = await selectCustomers(
      tx,
      position ? (and(base, position) as SQL) : base,
      '-created_at',
      q.limit + 1,
      ctx,
    );
    const [count] = await selectRows<{ n: number }>(tx, countCustomersQuery(base, TOTAL_CAP));
    const total = Number(count?.n ?? 0);
    const page = rows.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toCustomer),
      nextCursor: rows.length > q.limit && last ? Buffer.from(JSON.stringify([last.id])).toString('base64url') : null,
      total: Math.min(total, TOTAL_CAP),
      totalCapped: total > TOTAL_CAP,
      timeZone: (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE,
    };
  });
}

/** The members' predicate and the acting reach, for the CSV export (read batch by batch). */
export async function memberExportCondition(
  tx: TTx,
  ctx: TActingContext,
  id: string,
): Promise<{ where: SQL; name: string }> {
  const row = await mustFind(tx, ctx, id);
  return { where: and(await membership(tx, row, 'row'), customerScope(ctx)) as SQL, name: row.name };
}

export interface TMemberSelection {
  customerIds?: string[];
  selection?: Omit<TCustomerFilter, 'sort'>;
}

function selectionWhere(ctx: TActingContext, input: TMemberSelection): SQL {
  if (input.customerIds)
    return and(customerScope(ctx), sql`customers.id = any(${sql.param(input.customerIds)}::uuid[])`) as SQL;
  return filterCondition(ctx, { ...(input.selection ?? {}), sort: '-created_at' });
}

async function addTo(tx: TTx, ctx: TActingContext, row: TSegmentRow, candidates: SQL) {
  const scope = await scopeOfRow(tx, row);
  const { picked, added } = await addMembersWhere(
    tx,
    row.id,
    row.brand_id,
    and(customerScopeSql(scope), candidates) as SQL,
  );
  await recordAudit(tx, ctx, {
    action: 'update',
    targetType: 'segment',
    targetId: row.id,
    brandId: row.brand_id,
    changes: { membersAdded: added },
  });
  const { total } = await refreshAudience(tx, row);
  return { added, alreadyIn: picked - added, total };
}

export async function addMembers(rt: TRuntime, ctx: TActingContext, id: string, input: TMemberSelection) {
  return inTenant(rt, ctx, async (tx) => addTo(tx, ctx, await mustOwnStatic(tx, ctx, id), selectionWhere(ctx, input)));
}

/** "Add to segments" from the customer list: the same customers into several static segments, all or none. */
export async function addToSegments(
  rt: TRuntime,
  ctx: TActingContext,
  input: TMemberSelection & { segmentIds: string[] },
) {
  return inTenant(rt, ctx, async (tx) => {
    const segments = [];
    for (const id of [...new Set(input.segmentIds)]) {
      const result = await addTo(tx, ctx, await mustOwnStatic(tx, ctx, id), selectionWhere(ctx, input));
      segments.push({ id, ...result });
    }
    return { segments };
  });
}

/** Import step three's choice: a static segment the acting host owns, or a 400 at `segmentId`. */
export async function mustBeImportSegment(tx: TTx, ctx: TActingContext, segmentId: string): Promise<void> {
  const row = await findSegmentRow(tx, ctx, segmentId);
  if (!row || row.host_id !== ctx.host.id) throw badRequest({ segmentId: fieldError('not_found') });
  if (row.type !== 'static') throw badRequest({ segmentId: fieldError('segment_not_static') });
}

/** Adds customers chosen by a condition over `customers` (a member file). */
export async function addCustomersWhere(tx: TTx, ctx: TActingContext, segmentId: string, candidates: SQL) {
  return addTo(tx, ctx, await mustOwnStatic(tx, ctx, segmentId), candidates);
}

export async function removeSegmentMembers(rt: TRuntime, ctx: TActingContext, id: string, customerIds: string[]) {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustOwnStatic(tx, ctx, id);
    const removed = await removeMembers(tx, id, customerIds);
    await recordAudit(tx, ctx, {
      action: 'update',
      targetType: 'segment',
      targetId: id,
      brandId: row.brand_id,
      changes: { membersRemoved: removed },
    });
    const { total } = await refreshAudience(tx, row);
    return { removed, total };
  });
}

/** "From existing customers": the filter's result now, in the segment's scope, joins the list. */
export async function freezeFilter(rt: TRuntime, ctx: TActingContext, id: string, filter: TFilter) {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustOwnStatic(tx, ctx, id);
    const scope = await scopeOfRow(tx, row);
    const result = await addTo(tx, ctx, row, filterSql(filter, scope, await envOf(tx, scope.brandId, true), 'set'));
    await tx.execute(sql`update segments set filter = ${JSON.stringify(filter)}::jsonb where id = ${id}::uuid`);
    return result;
  });
}

// ---------------------------------------------------------------------------------------------
// Why is this guest in?

function evalCustomerOf(found: NonNullable<Awaited<ReturnType<typeof customerForExplain>>>): TEvalCustomer {
  const c = found.customer;
  return {
    id: c.id as string,
    brandId: c.brand_id as string,
    firstName: c.first_name as string,
    lastName: c.last_name as string,
    email: (c.email as string) ?? null,
    phone: c.phone as string,
    idNumber: (c.id_number as string) ?? null,
    address: (c.address as string) ?? null,
    city: (c.city as string) ?? null,
    dateOfBirth: (c.date_of_birth as string) ?? null,
    gender: (c.gender as string) ?? null,
    country: (c.country as string) ?? null,
    prefecture: (c.prefecture as string) ?? null,
    emailStatus: c.email_status as string,
    consentSource: c.consent_source as string,
    createdAt: new Date(c.created_at as string),
    hotelIds: (c.hotel_ids as string[]) ?? [],
    bookings: found.bookings.map((b): TEvalBooking => ({
      id: b.id as string,
      brandId: b.brand_id as string,
      hotelId: b.hotel_id as string,
      hotelName: b.hotel_name as string,
      bookingDate: b.booking_date as string,
      checkIn: b.check_in as string,
      checkOut: b.check_out as string,
      nights: Number(b.nights),
      guests: Number(b.guests),
      amount: Number(b.amount),
      roomType: (b.room_type as string) ?? null,
      source: (b.source as string) ?? null,
      status: b.status as string,
    })),
  };
}

/**
 * In or out, and why. Whether the customer is in is asked of PostgreSQL (as a send would); the
 * breakdown comes from the evaluator, which the property test holds to the same answers.
 */
export async function explainMembership(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  customerId: string,
): Promise<TExplanation> {
  return inTenant(rt, ctx, async (tx) => {
    const row = await mustFind(tx, ctx, id);
    if (!(await findCustomer(tx, ctx, customerId))) throw new AppError(404, 'not_found');
    const scope = await scopeOfRow(tx, row);
    const found = await customerForExplain(tx, customerId);
    if (!found) throw new AppError(404, 'not_found');
    const customer = evalCustomerOf(found);
    const [inScope] = await selectRows<{ v: boolean }>(
      tx,
      sql`select exists (select 1 from customers where customers.id = ${customerId}::uuid and ${customerScopeSql(scope, 'row')}) as v`,
    );
    if (row.type === 'static' || !row.filter) {
      const listed = (await listedIn(tx, customerId, [row.id])).has(row.id);
      return {
        segmentId: id,
        customerId,
        type: row.type,
        in: Boolean(inScope?.v) && listed,
        inScope: Boolean(inScope?.v),
        listed,
        join: null,
        groups: [],
      };
    }
    const filter = row.filter as TFilter;
    const env = await envOf(tx, scope.brandId);
    const [held] = await selectRows<{ v: boolean }>(
      tx,
      sql`select exists (select 1 from customers where customers.id = ${customerId}::uuid and ${customerScopeSql(scope, 'row')} and ${filterSql(filter, scope, env, 'row')}) as v`,
    );
    const explained = explainFilter(filter, customer, scope, env);
    return {
      segmentId: id,
      customerId,
      type: row.type,
      in: Boolean(held?.v),
      inScope: Boolean(inScope?.v),
      listed: null,
      join: filter.join,
      groups: explained.groups,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// A customer's segments, and value pickers

const MAX_DYNAMIC_CHECKED = 200;

/** The segments in reach that the customer is in now, in one statement for all dynamic ones. */
export async function segmentsOfCustomer(rt: TRuntime, ctx: TActingContext, customerId: string) {
  return inTenant(rt, ctx, async (tx) => {
    const customer = await findCustomer(tx, ctx, customerId);
    if (!customer) throw new AppError(404, 'not_found');
    if (!ctx.entitlements['segmentation.read']) return [];
    const rows = (await segmentsInReach(tx, ctx, 1000)).filter((r) => r.brand_id === customer.brandId);
    if (rows.length === 0) return [];
    const statics = rows.filter((r) => r.type === 'static' || !r.filter);
    const listed = await listedIn(
      tx,
      customerId,
      statics.map((r) => r.id),
    );
    const checks: SQL[] = [];
    const scopes = new Map<string, TSegmentScope>();
    const env = await envOf(tx, customer.brandId);
    for (const r of [
      ...statics.filter((s) => listed.has(s.id)),
      ...rows.filter((r) => r.type === 'dynamic' && r.filter).slice(0, MAX_DYNAMIC_CHECKED),
    ]) {
      const scope = scopes.get(r.host_id) ?? (await scopeOfRow(tx, r));
      scopes.set(r.host_id, scope);
      const held = r.type === 'dynamic' ? filterSql(r.filter as TFilter, scope, env, 'row') : sql`true`;
      checks.push(
        sql`select ${r.id}::uuid as id where exists (select 1 from customers where customers.id = ${customerId}::uuid and ${customerScopeSql(scope, 'row')} and ${held})`,
      );
    }
    if (checks.length === 0) return [];
    const inIds = new Set((await selectRows<{ id: string }>(tx, sql.join(checks, sql` union all `))).map((r) => r.id));
    return rows
      .filter((r) => inIds.has(r.id))
      .map((r) => ({ id: r.id, name: r.name, type: r.type, hostName: r.host_name }));
  });
}

/**
 * A choice field's values in the acting host's scope, for everyone who reads segments: the
 * platform's scope is every brand (it reads every brand's segments, though it owns none).
 */
export async function fieldValues(
  rt: TRuntime,
  ctx: TActingContext,
  source: 'hotels' | 'room_types' | 'booking_sources',
) {
  return inTenant(rt, ctx, async (tx) => {
    const scope = ctx.host.level === 'grand_user' ? null : await scopeOfHost(tx, ctx.host);
    if (source === 'hotels') return (await hotelsOfScope(tx, scope)).map((h) => ({ value: h.id, label: h.name }));
    const values = await seenValues(tx, scope, source === 'room_types' ? 'room_type' : 'source');
    return values.map((v) => ({ value: v, label: v }));
  });
}
