import { randomUUID } from 'node:crypto';
import { openSecret } from '../../crypto/secret-box.ts';
import { withTenant, type TTx } from '../../db/client.ts';
import type { TLapseOutcome } from '../../jobs/leases.ts';
import type { TRuntime } from '../../runtime.ts';
import {
  allocateByBookings,
  bookingsByExternalIds,
  customersByEmails,
  customersByIds,
  customersByPhones,
  insertSyncedCustomers,
  updateSyncedCustomers,
  upsertSyncedBookings,
  type TSyncedBooking,
  type TSyncedCustomer,
} from '../customers/sync-queries.ts';
import { attributeConversions } from '../tracking/attribute-conversions.ts';
import { createDbkClient, DbkError, type TDbkClient, type TDbkGuest, type TDbkReservation } from './booking-client.ts';
import {
  applyGuest,
  bookingChanged,
  customerChanged,
  mapGuest,
  mapReservation,
  newCustomer,
  type TCustomerState,
} from './map-records.ts';
import {
  closeInterruptedRuns,
  findConnection,
  finishRun,
  guestLinks,
  hotelsByCode,
  markRefused,
  saveGuestLinks,
  startRun,
  storeWatermark,
  type TSyncRunRow,
} from './queries.ts';

export interface TSyncJob {
  brandId: string;
  trigger: TSyncRunRow['trigger'];
}

/** At most this many external ids are kept as examples per error reason. */
const EXAMPLES = 5;
const ALLOCATION_CHUNK = 1000;

/** What one run has done so far; the sync log stores it whether the run completes or not. */
class RunTally {
  guestsRead = 0;
  reservationsRead = 0;
  readonly created = new Set<string>();
  readonly updated = new Set<string>();
  bookingsCreated = 0;
  bookingsUpdated = 0;
  bookingsCancelled = 0;
  skipped = 0;
  private readonly errors = new Map<string, { code: string; count: number; examples: string[] }>();

  error(code: string, example?: string): void {
    const e = this.errors.get(code) ?? { code, count: 0, examples: [] };
    e.count += 1;
    if (example && e.examples.length < EXAMPLES && !e.examples.includes(example)) e.examples.push(example);
    this.errors.set(code, e);
  }

  row(): Partial<TSyncRunRow> {
    return {
      guestsRead: this.guestsRead,
      reservationsRead: this.reservationsRead,
      customersCreated: this.created.size,
      // A customer made in this run and changed again by a later record is still one creation.
      customersUpdated: [...this.updated].filter((id) => !this.created.has(id)).length,
      bookingsCreated: this.bookingsCreated,
      bookingsUpdated: this.bookingsUpdated,
      bookingsCancelled: this.bookingsCancelled,
      skipped: this.skipped,
      errors: [...this.errors.values()],
    };
  }
}

/**
 * One sync of a brand with its booking system, following the simulator's contract
 * (apps/booking-sim/README.md): guests changed since the watermark until the last page, then
 * reservations at the guests' `as_of`, then the watermark moves to that `as_of`. Every write is an
 * upsert keyed by the booking system's ids, committed page by page: a run cut off midway leaves
 * the watermark where it was, and the next run redoes the same records without duplicating any.
 */
export async function syncBookings(rt: TRuntime, job: TSyncJob, resumed = false): Promise<string | null> {
  const rls = { scopeAll: false, brandId: job.brandId };
  const inBrand = <T>(fn: (tx: TTx) => Promise<T>) => withTenant(rt.database.db, rls, fn);
  const connection = await inBrand((tx) => findConnection(tx, job.brandId));
  if (!connection) return null;
  const runId = await inBrand((tx) => startRun(tx, job.brandId, job.trigger, resumed));
  const tally = new RunTally();
  const started = Date.now();
  try {
    if (!rt.config.booking.apiUrl) throw new DbkError(0, 'not_configured');
    const client = createDbkClient({
      baseUrl: rt.config.booking.apiUrl,
      apiKey: openSecret(connection.apiKeyEncrypted, rt.config.dataEncryptionKey),
      attempts: rt.config.booking.attempts,
      retryBaseMs: rt.config.booking.retryBaseMs,
    });
    const pass = new SyncPass(
      inBrand,
      client,
      job.brandId,
      tally,
      await inBrand((tx) => hotelsByCode(tx, job.brandId)),
    );
    const asOf = await pass.run(connection.watermark ? connection.watermark.toISOString() : null);
    await inBrand(async (tx) => {
      await storeWatermark(tx, job.brandId, connection.accountId, connection.watermark, new Date(asOf));
      await finishRun(tx, runId, { ...tally.row(), status: 'succeeded', asOf: new Date(asOf) });
    });
    rt.log.info({ brandId: job.brandId, runId, ms: Date.now() - started, ...counts(tally) }, 'booking sync finished');
  } catch (error) {
    const code = error instanceof DbkError ? failureCode(error) : 'internal_error';
    tally.error(code);
    await inBrand(async (tx) => {
      if (code === 'credentials_refused' || code === 'account_suspended')
        await markRefused(tx, job.brandId, connection.accountId);
      await finishRun(tx, runId, { ...tally.row(), status: 'failed' });
    });
    // The error's code and message only: neither carries the key nor a guest's data.
    rt.log.warn(
      { brandId: job.brandId, runId, code, err: error instanceof DbkError ? undefined : error },
      'booking sync failed',
    );
  }
  return runId;
}

/**
 * The worker running the brand's sync stopped (jobs/leases.ts). Put back, the sync starts again by
 * itself within seconds (marked resumed), and that run closes the stopped one as interrupted; with
 * its retries used up, the stopped run is closed now. Pages it committed stay; the watermark did not
 * move, so the next run redoes them without duplicating any.
 */
export async function syncLapsed(rt: TRuntime, job: TSyncJob, outcome: TLapseOutcome): Promise<void> {
  if (outcome === 'requeued') return;
  await withTenant(rt.database.db, { scopeAll: false, brandId: job.brandId }, (tx) =>
    closeInterruptedRuns(tx, job.brandId),
  );
}

function failureCode(error: DbkError): string {
  if (error.status === 401) return 'credentials_refused';
  if (error.status === 403 && error.code === 'account_suspended') return 'account_suspended';
  if (error.code === 'not_configured') return 'not_configured';
  return error.status === 0 ? 'unreachable' : `booking_system_${error.status}`;
}

const counts = (t: RunTally) => {
  const { errors, ...rest } = t.row();
  return { ...rest, errors: errors?.length ?? 0 };
};

class SyncPass {
  /** Every guest this run has placed, by the booking system's guest id. */
  private readonly customerOfGuest = new Map<string, string>();
  /** Guests that could not become customers in this run (no phone, say). */
  private readonly skippedGuests = new Set<string>();
  private readonly touched = new Set<string>();
  private asOf = '';

  constructor(
    private readonly inBrand: <T>(fn: (tx: TTx) => Promise<T>) => Promise<T>,
    private readonly client: TDbkClient,
    private readonly brandId: string,
    private readonly tally: RunTally,
    private readonly hotels: Map<string, string>,
  ) {}

  /** Both passes; answers the `as_of` to store as the next watermark. */
  async run(since: string | null): Promise<string> {
    let cursor: string | null = null;
    do {
      const page = await this.client.guests({ updatedSince: since, cursor });
      this.asOf ||= page.as_of;
      this.tally.guestsRead += page.data.length;
      await this.inBrand((tx) => this.applyGuests(tx, page.data));
      cursor = page.next_cursor;
    } while (cursor);
    // An empty first page still fixes as_of; without any page there would be nothing to store.
    cursor = null;
    do {
      const page = await this.client.reservations({ updatedSince: since, asOf: this.asOf, cursor });
      this.tally.reservationsRead += page.data.length;
      await this.applyReservations(page.data);
      cursor = page.next_cursor;
    } while (cursor);
    const customers = [...this.touched];
    for (let i = 0; i < customers.length; i += ALLOCATION_CHUNK) {
      await this.inBrand((tx) => allocateByBookings(tx, this.brandId, customers.slice(i, i + ALLOCATION_CHUNK)));
    }
    return this.asOf;
  }

  /**
   * A page of guests: matched to customers by guest id (a link from an earlier run), then by
   * phone, then (only for a guest without a phone) by email; the rest become new customers.
   */
  private async applyGuests(tx: TTx, records: TDbkGuest[]): Promise<void> {
    const guests = records.map(mapGuest);
    const links = await guestLinks(
      tx,
      this.brandId,
      guests.map((g) => g.externalGuestId),
    );
    const phones = [...new Set(guests.flatMap((g) => (g.phone ? [g.phone] : [])))];
    const emails = [...new Set(guests.flatMap((g) => (!g.phone && g.email ? [g.email] : [])))];
    const [byPhone, byEmail] = await Promise.all([
      customersByPhones(tx, this.brandId, phones),
      customersByEmails(tx, this.brandId, emails),
    ]);
    const known = new Map<string, TSyncedCustomer>();
    for (const c of [...byPhone, ...byEmail]) known.set(c.id, c);
    const linkedIds = [...new Set(links.values())].filter((id) => !known.has(id));
    for (const c of await customersByIds(tx, this.brandId, linkedIds)) known.set(c.id, c);

    const phoneOwner = new Map<string, string>();
    for (const c of known.values()) phoneOwner.set(c.phone, c.id);
    const emailOwner = new Map<string, string>();
    for (const c of byEmail)
      if (c.email && !emailOwner.has(c.email.toLowerCase())) emailOwner.set(c.email.toLowerCase(), c.id);

    const states = new Map<string, { before: TCustomerState | null; after: TCustomerState; consentAt: string }>();
    const newLinks: { externalGuestId: string; customerId: string }[] = [];
    for (const guest of guests) {
      const linked = links.get(guest.externalGuestId);
      let id =
        linked ?? (guest.phone ? phoneOwner.get(guest.phone) : guest.email ? emailOwner.get(guest.email) : undefined);
      if (!id) {
        if (!guest.phone) {
          this.tally.skipped += 1;
          this.tally.error('guest_without_phone', guest.externalGuestId);
          this.skippedGuests.add(guest.externalGuestId);
          continue;
        }
        id = randomUUID();
        states.set(id, {
          before: null,
          after: newCustomer(id, { ...guest, phone: guest.phone }),
          consentAt: guest.updatedAt,
        });
        phoneOwner.set(guest.phone, id);
        this.tally.created.add(id);
      } else {
        const current = states.get(id) ?? {
          before: known.get(id) ?? null,
          after: known.get(id) as TCustomerState,
          consentAt: guest.updatedAt,
        };
        if (!current.after) continue; // a link to a customer deleted meanwhile: the cascade removed it too
        // Only the guest a customer came from may move its phone, and never onto another customer's.
        const owner = guest.phone ? phoneOwner.get(guest.phone) : undefined;
        const mayChangePhone = linked === id && !!guest.phone && (owner === undefined || owner === id);
        if (linked === id && guest.phone && owner !== undefined && owner !== id)
          this.tally.error('phone_in_use', guest.externalGuestId);
        const after = applyGuest(current.after, guest, mayChangePhone);
        if (after.phone !== current.after.phone) phoneOwner.set(after.phone, id);
        states.set(id, { ...current, after });
      }
      this.customerOfGuest.set(guest.externalGuestId, id);
      // Synced all the same, without the country: the customer keeps the one it had, if any.
      if (guest.countryInvalid) this.tally.error('country_invalid', guest.externalGuestId);
      if (linked !== id) newLinks.push({ externalGuestId: guest.externalGuestId, customerId: id });
    }

    const inserts = [...states.values()]
      .filter((s) => s.before === null)
      .map((s) => ({ ...s.after, consentAt: s.consentAt }));
    const updates = [...states.values()]
      .filter((s) => s.before !== null && customerChanged(s.before, s.after))
      .map((s) => s.after);
    for (const u of updates) this.tally.updated.add(u.id);
    await insertSyncedCustomers(tx, this.brandId, inserts);
    await updateSyncedCustomers(tx, this.brandId, updates);
    await saveGuestLinks(tx, this.brandId, newLinks);
  }

  private async applyReservations(records: TDbkReservation[]): Promise<void> {
    const reservations = records.map(mapReservation);
    // Guests this run has not read: placed by an earlier run, or fetched one by one at as_of.
    const unknown = [...new Set(reservations.map((r) => r.externalGuestId))].filter(
      (g) => !this.customerOfGuest.has(g) && !this.skippedGuests.has(g),
    );
    if (unknown.length > 0) {
      const links = await this.inBrand((tx) => guestLinks(tx, this.brandId, unknown));
      for (const [guestId, customerId] of links) this.customerOfGuest.set(guestId, customerId);
      const missing: TDbkGuest[] = [];
      for (const guestId of unknown.filter((g) => !links.has(g))) {
        const guest = await this.client.guest(guestId, this.asOf);
        if (guest) missing.push(guest);
        else this.skippedGuests.add(guestId);
      }
      if (missing.length > 0) await this.inBrand((tx) => this.applyGuests(tx, missing));
    }

    await this.inBrand(async (tx) => {
      const existing = new Map(
        (
          await bookingsByExternalIds(
            tx,
            this.brandId,
            reservations.map((r) => r.externalId),
          )
        ).map((b) => [b.externalId, b]),
      );
      const writes: TSyncedBooking[] = [];
      /** External ids of the bookings this page brings for the first time: the ones to attribute. */
      const created: string[] = [];
      for (const r of reservations) {
        const customerId = this.customerOfGuest.get(r.externalGuestId);
        const hotelId = this.hotels.get(r.hotelCode);
        if (!customerId) {
          this.tally.skipped += 1;
          this.tally.error('guest_not_synced', r.externalId);
          continue;
        }
        if (!hotelId) {
          this.tally.skipped += 1;
          this.tally.error('unknown_hotel_code', r.hotelCode);
          continue;
        }
        const row: TSyncedBooking = { ...r, customerId, hotelId };
        const before = existing.get(r.externalId);
        if (!before) {
          this.tally.bookingsCreated += 1;
          created.push(r.externalId);
        } else if (bookingChanged(before, row) || before.customerId !== customerId || before.hotelId !== hotelId) {
          if (r.status === 'cancelled' && before.status !== 'cancelled') this.tally.bookingsCancelled += 1;
          else this.tally.bookingsUpdated += 1;
          this.touched.add(before.customerId);
        } else {
          continue;
        }
        this.touched.add(customerId);
        writes.push(row);
      }
      await upsertSyncedBookings(tx, this.brandId, writes);
      // Campaign conversions of this page's new bookings, in its transaction (modules/tracking). A
      // changed booking (a check-in, new dates) arrived in an earlier sync, maybe before the click:
      // it keeps the conversion it got then, or has none.
      await attributeConversions(tx, this.brandId, created);
    });
  }
}
