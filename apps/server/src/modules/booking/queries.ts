import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';
import { bookingConnections, bookingGuestLinks, bookingSyncRuns, hosts, users } from '../../db/schema.ts';

export type TConnectionRow = typeof bookingConnections.$inferSelect;
export type TSyncRunRow = typeof bookingSyncRuns.$inferSelect;

export async function findConnection(tx: TTx, brandId: string): Promise<TConnectionRow | null> {
  const [row] = await tx.select().from(bookingConnections).where(eq(bookingConnections.brandId, brandId));
  return row ?? null;
}

export async function connectedByName(tx: TTx, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await tx
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row ? `${row.lastName} ${row.firstName}`.trim() : null;
}

/** Creates the brand's connection or replaces its key (same account); the account's uniqueness is the database's. */
export async function saveConnection(
  tx: TTx,
  values: Pick<
    TConnectionRow,
    'brandId' | 'accountId' | 'accountName' | 'apiKeyEncrypted' | 'hotels' | 'connectedBy' | 'lastDailyOn'
  >,
): Promise<void> {
  const now = new Date();
  await tx
    .insert(bookingConnections)
    .values({ ...values, status: 'active', connectedAt: now, syncRequestedAt: now })
    .onConflictDoUpdate({
      target: bookingConnections.brandId,
      set: { ...values, status: 'active', connectedAt: now, syncRequestedAt: now, updatedAt: now },
    });
}

export async function deleteConnection(tx: TTx, brandId: string): Promise<boolean> {
  const rows = await tx
    .delete(bookingConnections)
    .where(eq(bookingConnections.brandId, brandId))
    .returning({ brandId: bookingConnections.brandId });
  return rows.length > 0;
}

export async function markSyncRequested(tx: TTx, brandId: string): Promise<void> {
  await tx
    .update(bookingConnections)
    .set({ syncRequestedAt: new Date() })
    .where(eq(bookingConnections.brandId, brandId));
}

/** Marks a local day's daily sync as taken; false when another dispatcher took it first. */
export async function claimDailySync(tx: TTx, brandId: string, localDay: string): Promise<boolean> {
  const rows = await tx
    .update(bookingConnections)
    .set({ lastDailyOn: localDay, syncRequestedAt: new Date() })
    .where(
      and(
        eq(bookingConnections.brandId, brandId),
        sql`${bookingConnections.lastDailyOn} is distinct from ${localDay}::date`,
      ),
    )
    .returning({ brandId: bookingConnections.brandId });
  return rows.length > 0;
}

/** Active connections of brands that still exist, with each brand's time zone. */
export function connectionsWithTimeZones(tx: TTx) {
  return tx
    .select({
      brandId: bookingConnections.brandId,
      timeZone: hosts.timezone,
      lastDailyOn: bookingConnections.lastDailyOn,
    })
    .from(bookingConnections)
    .innerJoin(hosts, eq(hosts.id, bookingConnections.brandId))
    .where(and(eq(bookingConnections.status, 'active'), isNull(hosts.deletedAt)));
}

/**
 * Moves the watermark from where the run found it to the run's `as_of`. A watermark rewound
 * meanwhile (a hotel's code changed during the run) stays rewound, so the next run reads it all;
 * the connection is synced up to the `as_of` all the same. One update of the row: the watermark
 * moves only if it is still `from`.
 */
export async function storeWatermark(
  tx: TTx,
  brandId: string,
  accountId: string,
  from: Date | null,
  asOf: Date,
): Promise<void> {
  const { watermark } = bookingConnections;
  await tx
    .update(bookingConnections)
    .set({
      syncedUpTo: asOf,
      watermark: sql`case when ${watermark} is not distinct from ${from?.toISOString() ?? null}::timestamptz
        then ${asOf.toISOString()}::timestamptz else ${watermark} end`,
      updatedAt: new Date(),
    })
    .where(and(eq(bookingConnections.brandId, brandId), eq(bookingConnections.accountId, accountId)));
}

/** Makes the brand's next sync read every guest and reservation again (what it has synced stays, and says so). */
export async function rewindWatermark(tx: TTx, brandId: string): Promise<boolean> {
  const rows = await tx
    .update(bookingConnections)
    .set({ watermark: null, updatedAt: new Date() })
    .where(eq(bookingConnections.brandId, brandId))
    .returning({ brandId: bookingConnections.brandId });
  return rows.length > 0;
}

export async function markRefused(tx: TTx, brandId: string, accountId: string): Promise<void> {
  await tx
    .update(bookingConnections)
    .set({ status: 'refused', updatedAt: new Date() })
    .where(and(eq(bookingConnections.brandId, brandId), eq(bookingConnections.accountId, accountId)));
}

/** The brand's hotels by booking-system code. */
export async function hotelsByCode(tx: TTx, brandId: string): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: hosts.id, code: hosts.bookingHotelCode })
    .from(hosts)
    .where(
      and(
        eq(hosts.brandId, brandId),
        eq(hosts.level, 'hotel'),
        isNull(hosts.deletedAt),
        sql`${hosts.bookingHotelCode} is not null`,
      ),
    );
  return new Map(rows.map((r) => [r.code as string, r.id]));
}

export function brandHotels(tx: TTx, brandId: string) {
  return tx
    .select({ id: hosts.id, name: hosts.name, code: hosts.bookingHotelCode })
    .from(hosts)
    .where(and(eq(hosts.brandId, brandId), eq(hosts.level, 'hotel'), isNull(hosts.deletedAt)));
}

export async function setHotelCode(tx: TTx, hotelId: string, code: string): Promise<void> {
  await tx.update(hosts).set({ bookingHotelCode: code }).where(eq(hosts.id, hotelId));
}

export async function brandTimeZone(tx: TTx, brandId: string): Promise<string> {
  const [row] = await tx.select({ timezone: hosts.timezone }).from(hosts).where(eq(hosts.id, brandId));
  return row?.timezone ?? 'Asia/Tokyo';
}

export async function guestLinks(tx: TTx, brandId: string, externalIds: string[]): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await tx
    .select({ externalGuestId: bookingGuestLinks.externalGuestId, customerId: bookingGuestLinks.customerId })
    .from(bookingGuestLinks)
    .where(and(eq(bookingGuestLinks.brandId, brandId), inArray(bookingGuestLinks.externalGuestId, externalIds)));
  return new Map(rows.map((r) => [r.externalGuestId, r.customerId]));
}

export async function saveGuestLinks(
  tx: TTx,
  brandId: string,
  links: { externalGuestId: string; customerId: string }[],
): Promise<void> {
  if (links.length === 0) return;
  await tx
    .insert(bookingGuestLinks)
    .values(links.map((l) => ({ brandId, ...l })))
    .onConflictDoUpdate({
      target: [bookingGuestLinks.brandId, bookingGuestLinks.externalGuestId],
      set: { customerId: sql`excluded.customer_id` },
    });
}

/** Opens a run; a run of the brand still marked running was cut off (a worker stopped) and says so. */
/** Closes the brand's run left "running" by a worker that stopped. */
export async function closeInterruptedRuns(tx: TTx, brandId: string): Promise<void> {
  await tx
    .update(bookingSyncRuns)
    .set({ status: 'failed', finishedAt: new Date(), errors: [{ code: 'interrupted', count: 1, examples: [] }] })
    .where(and(eq(bookingSyncRuns.brandId, brandId), eq(bookingSyncRuns.status, 'running')));
}

export async function startRun(
  tx: TTx,
  brandId: string,
  trigger: TSyncRunRow['trigger'],
  resumed = false,
): Promise<string> {
  await closeInterruptedRuns(tx, brandId);
  const [row] = await tx
    .insert(bookingSyncRuns)
    .values({ brandId, trigger, resumed })
    .returning({ id: bookingSyncRuns.id });
  return (row as { id: string }).id;
}

export async function finishRun(tx: TTx, id: string, values: Partial<TSyncRunRow>): Promise<void> {
  await tx
    .update(bookingSyncRuns)
    .set({ ...values, finishedAt: new Date() })
    .where(eq(bookingSyncRuns.id, id));
}

export function latestRuns(tx: TTx, brandId: string, limit: number) {
  return tx
    .select()
    .from(bookingSyncRuns)
    .where(eq(bookingSyncRuns.brandId, brandId))
    .orderBy(desc(bookingSyncRuns.startedAt))
    .limit(limit);
}
