import { randomBytes, randomUUID } from 'node:crypto';
import type { THost, THostDetail, THostLevel } from '@yado/contracts';
import { fullName, roleDisplayName } from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { diff, recordAudit } from '../audit/record-audit.ts';
import { hotelCodeChanged } from '../booking/hotel-code-changed.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  bookingHotelCodeTaken,
  findHost,
  insertHost,
  listChildren,
  listHostUsers,
  listHosts,
  slugTaken,
  softDeleteHostTree,
  ungroupHotels,
  updateHostRow,
  type THostFilter,
} from './queries.ts';
import { assertValidHost, type THostFields } from './validate-host.ts';

export async function listHostsOfLevel(rt: TRuntime, ctx: TActingContext, filter: THostFilter) {
  return inTenant(rt, ctx, (tx) => listHosts(tx, ctx, filter));
}

async function mustFind(tx: TTx, ctx: TActingContext, level: THostLevel, id: string): Promise<THost> {
  const host = await findHost(tx, ctx, level, id);
  if (!host) throw new AppError(404, 'not_found');
  return host;
}

export async function getHostDetail(
  rt: TRuntime,
  ctx: TActingContext,
  level: THostLevel,
  id: string,
): Promise<THostDetail> {
  return inTenant(rt, ctx, async (tx) => {
    const host = await mustFind(tx, ctx, level, id);
    const children = await listChildren(tx, host);
    const members = await listHostUsers(tx, host.id);
    return {
      ...host,
      ...children,
      users: members.map((u) => ({
        id: u.id,
        fullName: fullName(u.firstName, u.lastName),
        email: u.email,
        role: u.role,
        roleName: roleDisplayName(host.level, u.role),
        status: u.status,
        origin: u.origin,
      })),
    };
  });
}

/** A readable, unique slug: ASCII words of the name where it has them, else the level. */
async function newSlug(tx: TTx, name: string, level: THostLevel): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || level.replace('_', '-');
  for (let i = 0; i < 5; i++) {
    const slug = `${base}-${randomBytes(3).toString('hex')}`;
    if (!(await slugTaken(tx, slug))) return slug;
  }
  return `${base}-${randomUUID()}`;
}

const codeTaken = () =>
  new AppError(409, 'booking_hotel_code_taken', { bookingHotelCode: fieldError('booking_hotel_code_taken') });

/**
 * Sets a hotel's booking-system code, unique among the brand's live hotels. A new code makes the
 * brand's next sync read the booking system again, so reservations skipped at that code arrive.
 */
async function applyBookingHotelCode(
  tx: TTx,
  hotelId: string,
  brandId: string,
  before: string | null,
  code: string | null,
): Promise<void> {
  if (code === before) return;
  if (code && (await bookingHotelCodeTaken(tx, brandId, code, hotelId))) throw codeTaken();
  if (code) await hotelCodeChanged(tx, brandId);
}

/** Two saves racing for one code: the unique index refuses the second, said as the same message. */
function explainCodeRace(error: unknown): never {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause ?? e;
  if (pg.code === '23505' && pg.constraint === 'hosts_booking_hotel_code_key') throw codeTaken();
  throw error;
}

export interface TCreateHost extends THostFields {
  brandId?: string;
  hotelGroupId?: string | null;
}

/** Creates a brand (granduser), a hotel group or a hotel (in the acting brand, or a chosen one). */
export async function createHost(
  rt: TRuntime,
  ctx: TActingContext,
  level: Exclude<THostLevel, 'grand_user'>,
  input: TCreateHost,
): Promise<THost> {
  const valid = assertValidHost(input, { logoRequired: true });
  return inTenant(rt, ctx, async (tx) => {
    const id = randomUUID();
    const bookingHotelCode = level === 'hotel' ? (valid.bookingHotelCode ?? null) : null;
    let brandId: string | null = id;
    let hotelGroupId: string | null = null;
    if (level !== 'brand') {
      brandId = ctx.host.level === 'grand_user' ? (input.brandId ?? null) : ctx.host.brandId;
      if (!brandId) throw badRequest({ brandId: fieldError('brand_required') });
      const brand = await findHost(tx, ctx, 'brand', brandId);
      if (!brand) throw badRequest({ brandId: fieldError('brand_required') });
      if (level === 'hotel' && input.hotelGroupId) {
        const group = await findHost(tx, ctx, 'hotel_group', input.hotelGroupId);
        if (!group || group.brandId !== brandId)
          throw badRequest({ hotelGroupId: fieldError('hotel_group_other_brand') });
        hotelGroupId = group.id;
      }
    }
    await insertHost(tx, {
      id,
      level,
      name: valid.name,
      slug: await newSlug(tx, valid.name, level),
      brandId,
      hotelGroupId,
      address: valid.address,
      email: valid.email ?? null,
      phone: valid.phone ?? null,
      logoUrl: valid.logoUrl ?? null,
      timezone: valid.timezone ?? 'Asia/Tokyo',
      bookingHotelCode,
    });
    if (brandId && bookingHotelCode) await applyBookingHotelCode(tx, id, brandId, null, bookingHotelCode);
    await recordAudit(tx, ctx, {
      action: 'create',
      targetType: level,
      targetId: id,
      brandId,
      changes: { name: valid.name, hotelGroupId, ...(bookingHotelCode ? { bookingHotelCode } : {}) },
    });
    return mustFind(tx, ctx, level, id);
  }).catch(explainCodeRace);
}

export async function updateHost(
  rt: TRuntime,
  ctx: TActingContext,
  level: THostLevel,
  id: string,
  input: THostFields,
): Promise<THost> {
  return inTenant(rt, ctx, async (tx) => {
    const before = await mustFind(tx, ctx, level, id);
    const valid = assertValidHost(input, { logoRequired: before.level !== 'grand_user' && Boolean(before.logoUrl) });
    const values = {
      name: valid.name,
      address: valid.address,
      email: valid.email ?? null,
      phone: valid.phone ?? null,
      logoUrl: valid.logoUrl ?? before.logoUrl,
      ...(valid.timezone ? { timezone: valid.timezone } : {}),
      // Only a hotel has a code, and only the hotel edit of Management sends one.
      ...(level === 'hotel' && valid.bookingHotelCode !== undefined
        ? { bookingHotelCode: valid.bookingHotelCode }
        : {}),
    };
    if (values.bookingHotelCode !== undefined && before.brandId)
      await applyBookingHotelCode(tx, id, before.brandId, before.bookingHotelCode, values.bookingHotelCode);
    await updateHostRow(tx, id, values);
    await recordAudit(tx, ctx, {
      action: 'update',
      targetType: auditType(level),
      targetId: id,
      brandId: before.brandId,
      changes: diff(before, values),
    });
    return mustFind(tx, ctx, level, id);
  }).catch(explainCodeRace);
}

const auditType = (level: THostLevel) => (level === 'grand_user' ? 'brand' : level);

/** Puts a hotel in a hotel group of its own brand, or takes it out. */
export async function setHotelGroup(
  rt: TRuntime,
  ctx: TActingContext,
  hotelId: string,
  hotelGroupId: string | null,
): Promise<THost> {
  return inTenant(rt, ctx, async (tx) => {
    const hotel = await mustFind(tx, ctx, 'hotel', hotelId);
    if (hotelGroupId) {
      const group = await findHost(tx, ctx, 'hotel_group', hotelGroupId);
      if (!group || group.brandId !== hotel.brandId)
        throw badRequest({ hotelGroupId: fieldError('hotel_group_other_brand') });
    }
    await updateHostRow(tx, hotelId, { hotelGroupId });
    await recordAudit(tx, ctx, {
      action: hotelGroupId ? 'add_to_group' : 'remove_from_group',
      targetType: 'hotel',
      targetId: hotelId,
      brandId: hotel.brandId,
      changes: { hotelGroupId: [hotel.hotelGroupId, hotelGroupId] },
    });
    return mustFind(tx, ctx, 'hotel', hotelId);
  });
}

/**
 * Deletes a host after the user typed its name. Soft delete: rows stay for a restore and the
 * audit log names every host it took. A brand takes its groups and hotels along; a hotel group
 * releases its hotels, which stay in the brand.
 */
export async function deleteHost(
  rt: TRuntime,
  ctx: TActingContext,
  level: Exclude<THostLevel, 'grand_user'>,
  id: string,
  confirmation: string,
): Promise<{ id: string }> {
  return inTenant(rt, ctx, async (tx) => {
    const host = await mustFind(tx, ctx, level, id);
    if (confirmation.trim() !== host.name.trim())
      throw badRequest({ confirmation: fieldError('confirmation_mismatch') });
    if (ctx.host.id === host.id) throw new AppError(403, 'forbidden');
    const released = level === 'hotel_group' ? await ungroupHotels(tx, id) : [];
    const deleted = await softDeleteHostTree(tx, host, new Date());
    await recordAudit(tx, ctx, {
      action: 'delete',
      targetType: level,
      targetId: id,
      brandId: host.brandId,
      changes: { name: host.name, deletedHostIds: deleted, releasedHotelIds: released },
    });
    return { id };
  });
}
