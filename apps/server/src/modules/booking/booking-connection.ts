import { DAILY_SYNC_TIME, type TBookingStatus } from '@yado/contracts';
import { sealSecret } from '../../crypto/secret-box.ts';
import type { TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { createDbkClient, DbkError, type TDbkVerification } from './booking-client.ts';
import { localClock } from './daily-sync.ts';
import { enqueueSync } from './enqueue-sync.ts';
import {
  brandHotels,
  brandTimeZone,
  connectedByName,
  deleteConnection,
  findConnection,
  latestRuns,
  markSyncRequested,
  saveConnection,
  setHotelCode,
  type TSyncRunRow,
} from './queries.ts';

const RUNS_SHOWN = 10;

/** Only a brand connects to the booking system (specification section 6); the server says so to any other context. */
function brandOf(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'booking_brand_only');
  return ctx.host.id;
}

function toRun(r: TSyncRunRow): TBookingStatus['runs'][number] {
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    guestsRead: r.guestsRead,
    reservationsRead: r.reservationsRead,
    customersCreated: r.customersCreated,
    customersUpdated: r.customersUpdated,
    bookingsCreated: r.bookingsCreated,
    bookingsUpdated: r.bookingsUpdated,
    bookingsCancelled: r.bookingsCancelled,
    skipped: r.skipped,
    errors: r.errors,
    resumed: r.resumed,
  };
}

async function statusOf(tx: TTx, brandId: string): Promise<TBookingStatus> {
  const [connection, runs, timeZone] = [
    await findConnection(tx, brandId),
    await latestRuns(tx, brandId, RUNS_SHOWN),
    await brandTimeZone(tx, brandId),
  ];
  const latest = runs[0];
  const requested = connection?.syncRequestedAt;
  const hotels = connection ? await brandHotels(tx, brandId) : [];
  return {
    connection: connection && {
      accountId: connection.accountId,
      accountName: connection.accountName,
      status: connection.status,
      connectedAt: connection.connectedAt.toISOString(),
      connectedByName: await connectedByName(tx, connection.connectedBy),
      syncedUpTo: connection.syncedUpTo?.toISOString() ?? null,
      hotels: connection.hotels.map((h) => ({
        code: h.code,
        hotelName: hotels.find((x) => x.code === h.code)?.name ?? null,
      })),
    },
    runs: runs.map(toRun),
    syncPending:
      !!connection && (latest?.status === 'running' || (!!requested && (!latest || latest.startedAt < requested))),
    schedule: { time: DAILY_SYNC_TIME, timeZone },
  };
}

export async function bookingStatus(rt: TRuntime, ctx: TActingContext): Promise<TBookingStatus> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, (tx) => statusOf(tx, brandId));
}

/** Asks the booking system whether the key opens the account; its refusals become the console's messages. */
async function verifyAccount(rt: TRuntime, accountId: string, apiKey: string): Promise<TDbkVerification> {
  if (!rt.config.booking.apiUrl) throw new AppError(502, 'booking_unreachable');
  const client = createDbkClient({
    baseUrl: rt.config.booking.apiUrl,
    apiKey,
    attempts: 2,
    retryBaseMs: rt.config.booking.retryBaseMs,
    timeoutMs: 15_000,
  });
  try {
    const verified = await client.verify();
    if (verified.account_id !== accountId) throw new AppError(422, 'booking_invalid_credentials');
    return verified;
  } catch (error) {
    if (!(error instanceof DbkError)) throw error;
    if (error.status === 401) throw new AppError(422, 'booking_invalid_credentials');
    if (error.status === 403 && error.code === 'account_suspended')
      throw new AppError(422, 'booking_account_suspended');
    throw new AppError(502, 'booking_unreachable');
  }
}

const isAccountTaken = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  /booking_connections_account_key/.test(
    String((error as { constraint?: string; message?: string }).constraint ?? (error as Error).message ?? ''),
  );

/**
 * Connects the acting brand to a booking-system account: verified with the booking system first,
 * refused when the brand is connected to another account or the account to another brand.
 * The brand's hotels named like the account's hotels take their codes; the first sync is queued.
 */
export async function connectBookingSystem(
  rt: TRuntime,
  ctx: TActingContext,
  input: { accountId: string; apiKey: string },
): Promise<TBookingStatus> {
  const brandId = brandOf(ctx);
  const existing = await inTenant(rt, ctx, (tx) => findConnection(tx, brandId));
  if (existing && existing.accountId !== input.accountId) throw new AppError(409, 'booking_already_connected');
  const verified = await verifyAccount(rt, input.accountId, input.apiKey);
  try {
    await inTenant(rt, ctx, async (tx) => {
      const timeZone = await brandTimeZone(tx, brandId);
      await saveConnection(tx, {
        brandId,
        accountId: verified.account_id,
        accountName: verified.account_name,
        apiKeyEncrypted: sealSecret(input.apiKey, rt.config.dataEncryptionKey),
        hotels: verified.hotels.map((h) => ({ code: h.code, name: h.name })),
        connectedBy: ctx.user.id,
        // The connect sync is today's: the daily one starts tomorrow at 01:00.
        lastDailyOn: localClock(new Date(), timeZone).day,
      });
      await mapHotelsByName(tx, ctx, brandId, verified.hotels);
      await recordAudit(tx, ctx, {
        action: 'connect',
        targetType: 'booking_connection',
        targetId: verified.account_id,
        brandId,
      });
    });
  } catch (error) {
    // Another brand holds the account: the unique index says so even where row-level security hides that brand's row.
    if (isAccountTaken(error) || isAccountTaken((error as { cause?: unknown }).cause))
      throw new AppError(409, 'booking_already_connected');
    throw error;
  }
  await enqueueSync(rt, { brandId, trigger: 'connect' });
  return bookingStatus(rt, ctx);
}

/** A hotel without a booking-system code takes the code of the account's hotel with the same name. */
/** Each code given by name is audited like a code set by hand in the hotel's edit. */
async function mapHotelsByName(
  tx: TTx,
  ctx: TActingContext,
  brandId: string,
  dbkHotels: { code: string; name: string }[],
): Promise<void> {
  const hotels = await brandHotels(tx, brandId);
  const taken = new Set(hotels.flatMap((h) => (h.code ? [h.code] : [])));
  const fold = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
  for (const dbk of dbkHotels) {
    if (taken.has(dbk.code)) continue;
    const match = hotels.find((h) => !h.code && fold(h.name) === fold(dbk.name));
    if (match) {
      await setHotelCode(tx, match.id, dbk.code);
      await recordAudit(tx, ctx, {
        action: 'update',
        targetType: 'hotel',
        targetId: match.id,
        brandId,
        changes: { bookingHotelCode: [null, dbk.code] },
      });
      match.code = dbk.code;
    }
  }
}

/** Disconnects the brand; the customers and bookings synced so far stay. */
export async function disconnectBookingSystem(rt: TRuntime, ctx: TActingContext): Promise<TBookingStatus> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const connection = await findConnection(tx, brandId);
    if (!connection || !(await deleteConnection(tx, brandId))) throw new AppError(404, 'booking_not_connected');
    await recordAudit(tx, ctx, {
      action: 'disconnect',
      targetType: 'booking_connection',
      targetId: connection.accountId,
      brandId,
    });
    return statusOf(tx, brandId);
  });
}

export async function requestSync(rt: TRuntime, ctx: TActingContext): Promise<TBookingStatus> {
  const brandId = brandOf(ctx);
  await inTenant(rt, ctx, async (tx) => {
    if (!(await findConnection(tx, brandId))) throw new AppError(404, 'booking_not_connected');
    await markSyncRequested(tx, brandId);
  });
  await enqueueSync(rt, { brandId, trigger: 'manual' });
  return bookingStatus(rt, ctx);
}
