import { randomUUID } from 'node:crypto';
import {
  ageOn,
  isCountryCode,
  isValidEmail,
  fullName,
  normalizePhone,
  type TCustomer,
  type TCustomerSuppression,
} from '@yado/contracts';
import { and, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { inTenant, readAs, type TRuntime } from '../../runtime.ts';
import { statementOf } from '../../db/client.ts';
import { planTotal } from './totals-cache.ts';
import { FALLBACK_TIME_ZONE } from './local-time.ts';
import { diff, recordAudit } from '../audit/record-audit.ts';
import { findHost, hostTimeZone } from '../management/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  activeSuppressionOf,
  afterCursor,
  allocate,
  countCustomersQuery,
  customerRowOf,
  cursorOf,
  deleteCustomerRow,
  filterCondition,
  findCustomer,
  hostTimeZoneQuery,
  idsInScope,
  insertCustomer,
  listAllocations,
  listBookings,
  phoneTaken,
  selectCustomersQuery,
  setEmailStatusOf,
  updateCustomerRow,
  type TCursor,
  type TCustomerFilter,
  type TCustomerRow,
} from './queries.ts';

export const TOTAL_CAP = 10_000;
const today = () => new Date().toISOString().slice(0, 10);

export function toCustomer(row: TCustomerRow): TCustomer {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    fullName: fullName(row.firstName, row.lastName),
    phone: row.phone,
    email: row.email,
    idNumber: row.idNumber,
    gender: row.gender,
    dateOfBirth: row.dateOfBirth,
    age: row.dateOfBirth ? ageOn(row.dateOfBirth, today()) : null,
    country: row.country,
    prefecture: row.prefecture,
    city: row.city,
    address: row.address,
    emailStatus: row.emailStatus,
    emailStatusChangedAt: row.emailStatusChangedAt?.toISOString() ?? null,
    emailBouncedAt: row.emailBouncedAt?.toISOString() ?? null,
    unsubscribeReason: row.unsubscribeReason,
    consentSource: row.consentSource,
    consentAt: row.consentAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    totalBookings: row.totals[0],
    totalPayments: row.totals[1],
  };
}

/**
 * The page link: where the last page ended. The total is not carried in it: a later page shows the
 * remembered total (totals-cache.ts), or counts again, so a total never outlives a change made here.
 */
const ZCursor = z.object({
  k: z.tuple([z.string(), z.string()]).or(z.tuple([z.string(), z.string(), z.string()])),
});
type TPageCursor = { k: TCursor };

function decodeCursor(cursor: string): TPageCursor {
  try {
    return ZCursor.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))) as TPageCursor;
  } catch {
    // A cursor is ours and opaque; anything else is a stale or edited link.
    throw badRequest({ cursor: fieldError('invalid_cursor') });
  }
}

const encodeCursor = (cursor: TPageCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

/**
 * A page of customers. Keyset pagination: page N costs what page 1 costs, at any size. One round
 * trip (readAs): the page, the acting host's time zone (the console shows the page's dates in it),
 * and the capped count when no recent total is remembered.
 */
export async function listCustomers(
  rt: TRuntime,
  ctx: TActingContext,
  query: TCustomerFilter & { cursor?: string; limit: number },
) {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const filter = filterCondition(ctx, query);
  const position = after ? afterCursor(query.sort, after.k) : undefined;
  const db = rt.database.db;
  const totalKey = JSON.stringify([ctx.host.id, query.search ?? '', query.emailStatus ?? '', query.hotelId ?? '']);
  const plan = planTotal(db, ctx.rls.brandId, totalKey);
  const statements = [
    statementOf(
      db,
      selectCustomersQuery(db, ctx, position ? (and(filter, position) as SQL) : filter, query.sort, query.limit + 1),
    ),
    statementOf(db, hostTimeZoneQuery(ctx.host.id)),
  ];
  // Counted up to one past the cap, so "more than the cap" is known without counting them all.
  if (plan.count) statements.push(statementOf(db, countCustomersQuery(filter, TOTAL_CAP)));
  // How many rows a search, a filter or a hotel's reach matches varies by its value: plan for the
  // value given. A brand's whole list is planned once.
  const plans =
    Boolean(query.search || query.emailStatus || query.hotelId) ||
    (ctx.host.level !== 'brand' && ctx.host.level !== 'grand_user')
      ? 'custom'
      : 'auto';
  let pageRows: unknown[][];
  let timeZone: string;
  let total: number;
  try {
    const [page = [], zoneRows, countRows] = await readAs(rt, ctx, statements, { plans });
    pageRows = page;
    timeZone = (zoneRows?.[0]?.[0] as string | undefined) ?? FALLBACK_TIME_ZONE;
    // If the count waited for fails, this request counts for itself.
    const countAlone = async () =>
      Number(
        (await readAs(rt, ctx, [statementOf(db, countCustomersQuery(filter, TOTAL_CAP))], { plans }))[0]?.[0]?.[0] ?? 0,
      );
    total = plan.count ? Number(countRows?.[0]?.[0] ?? 0) : (plan.total ?? (await plan.wait.catch(countAlone)));
  } catch (error) {
    plan.settle?.(null);
    throw error;
  }
  plan.settle?.(total);
  const rows = pageRows.map(customerRowOf);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toCustomer),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ k: cursorOf(query.sort, last) }) : null,
    total: Math.min(total, TOTAL_CAP),
    totalCapped: total > TOTAL_CAP,
    timeZone,
  };
}

async function mustFind(tx: TTx, ctx: TActingContext, id: string): Promise<TCustomerRow> {
  const row = await findCustomer(tx, ctx, id);
  if (!row) throw new AppError(404, 'not_found');
  return row;
}

/**
 * One customer, with the acting host's time zone (the console shows its times in it) and the
 * active suppression of their address: an active guest on the list is mailed nothing all the same.
 */
export async function getCustomer(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
): Promise<TCustomer & { timeZone: string; suppression: TCustomerSuppression | null }> {
  return inTenant(rt, ctx, async (tx) => {
    const customer = toCustomer(await mustFind(tx, ctx, id));
    const entry = await activeSuppressionOf(tx, id);
    return {
      ...customer,
      timeZone: (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE,
      suppression: entry && {
        reason: entry.reason,
        createdAt: new Date(entry.created_at).toISOString(),
        until: entry.until === null ? null : new Date(entry.until).toISOString(),
      },
    };
  });
}

export interface TCustomerInput {
  firstName: string;
  lastName: string;
  phone: string;
  email?: string | null;
  idNumber?: string | null;
  gender?: TCustomer['gender'];
  dateOfBirth?: string | null;
  country?: string | null;
  prefecture?: string | null;
  city?: string | null;
  address: string;
}

/**
 * The rules of specification section 5 for a customer; returns the values to store. A country is
 * an ISO 3166-1 code; the one a customer already has is kept as it is, so an edit of other fields
 * never fails on a code stored before this check.
 */
export function validateCustomer(input: TCustomerInput, storedCountry: string | null = null) {
  const fields: TFieldErrors = {};
  if (!input.firstName) fields.firstName = fieldError('field_required_fill');
  if (!input.lastName) fields.lastName = fieldError('field_required_fill');
  if (!input.address) fields.address = fieldError('field_required_fill');
  const phone = input.phone ? normalizePhone(input.phone) : null;
  if (!input.phone) fields.phone = fieldError('field_required_fill');
  else if (!phone) fields.phone = fieldError('use_numbers_only');
  const email = input.email?.trim() || null;
  if (email && !isValidEmail(email)) fields.email = fieldError('email_invalid');
  const dob = input.dateOfBirth || null;
  if (dob && !isPastDate(dob)) fields.dateOfBirth = fieldError('invalid_date');
  const country = input.country?.trim().toUpperCase() || null;
  if (country && country !== storedCountry && !isCountryCode(country)) fields.country = fieldError('country_invalid');
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return {
    firstName: input.firstName,
    lastName: input.lastName,
    phone: phone as string,
    email,
    idNumber: input.idNumber?.trim() || null,
    gender: input.gender ?? null,
    dateOfBirth: dob,
    country,
    prefecture: input.prefecture || null,
    city: input.city || null,
    address: input.address,
  };
}

function isPastDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return (
    !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value && value <= today() && value >= '1900-01-01'
  );
}

/** Adds a customer by hand, allocated to the acting hotel or to the chosen one. */
export async function createCustomer(
  rt: TRuntime,
  ctx: TActingContext,
  input: TCustomerInput & { hotelId?: string },
): Promise<TCustomer> {
  const values = validateCustomer(input);
  return inTenant(rt, ctx, async (tx) => {
    const hotelId = ctx.host.level === 'hotel' ? ctx.host.id : input.hotelId;
    if (!hotelId && ctx.host.level !== 'brand') throw badRequest({ hotelId: fieldError('hotel_required') });
    const hotel = hotelId ? await findHost(tx, ctx, 'hotel', hotelId) : null;
    if (hotelId && !hotel) throw badRequest({ hotelId: fieldError('hotel_required') });
    const brandId = (hotel?.brandId ?? ctx.host.brandId) as string;
    if (await phoneTaken(tx, brandId, values.phone))
      throw new AppError(409, 'phone_exists', { phone: fieldError('phone_exists') });
    const id = randomUUID();
    await insertCustomer(tx, { id, brandId, ...values, consentSource: 'manual' });
    if (hotel) await allocate(tx, { customerId: id, hotelId: hotel.id, brandId, source: 'manual' });
    await recordAudit(tx, ctx, { action: 'create', targetType: 'customer', targetId: id, brandId });
    return toCustomer(await mustFind(tx, ctx, id));
  });
}

export async function updateCustomer(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  input: TCustomerInput,
): Promise<TCustomer> {
  return inTenant(rt, ctx, async (tx) => {
    const before = await mustFind(tx, ctx, id);
    const values = validateCustomer(input, before.country);
    if (await phoneTaken(tx, before.brandId, values.phone, id))
      throw new AppError(409, 'phone_exists', { phone: fieldError('phone_exists') });
    await updateCustomerRow(tx, id, values);
    // Which fields changed, not their values: the audit log holds no personal data.
    await recordAudit(tx, ctx, {
      action: 'update',
      targetType: 'customer',
      targetId: id,
      brandId: before.brandId,
      changes: { fields: Object.keys(diff(before, values)) },
    });
    return toCustomer(await mustFind(tx, ctx, id));
  });
}

export async function deleteCustomer(rt: TRuntime, ctx: TActingContext, id: string): Promise<{ id: string }> {
  return inTenant(rt, ctx, async (tx) => {
    const before = await mustFind(tx, ctx, id);
    await deleteCustomerRow(tx, id);
    await recordAudit(tx, ctx, { action: 'delete', targetType: 'customer', targetId: id, brandId: before.brandId });
    return { id };
  });
}

/** Active or unsubscribed, for one customer or a selection; consent is brand-wide. */
export async function setCustomersEmailStatus(
  rt: TRuntime,
  ctx: TActingContext,
  input: { ids: string[]; emailStatus: 'active' | 'unsubscribed'; reason?: string },
) {
  return inTenant(rt, ctx, async (tx) => {
    const ids = [...new Set(input.ids)];
    const reachable = await idsInScope(tx, ctx, ids);
    if (reachable.length !== ids.length) throw new AppError(404, 'not_found');
    const updated = await setEmailStatusOf(tx, ids, input.emailStatus, input.reason ?? 'manual');
    await recordAudit(tx, ctx, {
      action: 'email_status_change',
      targetType: 'customer',
      targetId: ids.length === 1 ? (ids[0] as string) : `${ids.length} customers`,
      brandId: ctx.host.brandId,
      changes: { emailStatus: input.emailStatus, ids },
    });
    return { updated };
  });
}

export async function customerBookings(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    await mustFind(tx, ctx, id);
    return listBookings(tx, ctx, id);
  });
}

/**
 * The allocation summary popup: the brand, hotel groups and hotels, with booking counts, as far as
 * the acting context reaches (DESIGN section 4): a hotel sees its own allocation, a hotel group its
 * hotels', a brand all. Every count is of the bookings in reach, as the booking history lists them;
 * the brand's is the customer's total bookings in reach, as the customer's page shows it.
 */
export async function allocationSummary(rt: TRuntime, ctx: TActingContext, id: string) {
  return inTenant(rt, ctx, async (tx) => {
    const customer = await mustFind(tx, ctx, id);
    const rows = await listAllocations(tx, ctx, id);
    const groups = new Map<string, { id: string; name: string; bookingCount: number }>();
    for (const r of rows) {
      if (!r.hotelGroupId || !r.hotelGroupName) continue;
      const g = groups.get(r.hotelGroupId) ?? { id: r.hotelGroupId, name: r.hotelGroupName, bookingCount: 0 };
      g.bookingCount += r.bookingCount;
      groups.set(r.hotelGroupId, g);
    }
    return {
      brand: { name: rows[0]?.brandName ?? '', bookingCount: customer.totals[0] },
      hotelGroups: [...groups.values()],
      hotels: rows.map((r) => ({
        id: r.hotelId,
        name: r.hotelName,
        hotelGroupName: r.hotelGroupName,
        bookingCount: r.bookingCount,
        source: r.source,
      })),
    };
  });
}
