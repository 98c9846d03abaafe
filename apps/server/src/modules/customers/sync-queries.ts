import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';

/**
 * The customers module's bulk reads and writes for the booking-system sync: a page of up to
 * 500 guests or reservations in a handful of set-based statements. Rows travel as one JSON
 * parameter (`jsonb_to_recordset`), which PostgreSQL and PGlite read alike.
 */

const json = (value: unknown) => JSON.stringify(value);

export interface TSyncedCustomer {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  gender: 'male' | 'female' | 'prefer_not_to_say' | null;
  dateOfBirth: string | null;
  country: string | null;
  prefecture: string | null;
  city: string | null;
  address: string | null;
  emailStatus: 'active' | 'unsubscribed';
  unsubscribeReason: string | null;
  externalGuestId: string | null;
}

const CUSTOMER_COLUMNS = sql`c.id, c.first_name as "firstName", c.last_name as "lastName", c.phone, c.email, c.gender,
  c.date_of_birth::text as "dateOfBirth", c.country, c.prefecture, c.city, c.address, c.email_status as "emailStatus",
  c.unsubscribe_reason as "unsubscribeReason", c.external_guest_id as "externalGuestId"`;

export function customersByIds(tx: TTx, brandId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return selectRows<TSyncedCustomer>(
    tx,
    sql`select ${CUSTOMER_COLUMNS} from customers c where c.brand_id = ${brandId} and c.id = any(${`{${ids.join(',')}}`}::uuid[])`,
  );
}

export function customersByPhones(tx: TTx, brandId: string, phones: string[]) {
  if (phones.length === 0) return Promise.resolve([]);
  return selectRows<TSyncedCustomer>(
    tx,
    sql`select ${CUSTOMER_COLUMNS} from customers c
    where c.brand_id = ${brandId} and c.phone in (select jsonb_array_elements_text(${json(phones)}::jsonb))`,
  );
}

/** Customers by email (lower-cased), oldest first, so that one address always picks the same customer. */
export function customersByEmails(tx: TTx, brandId: string, emails: string[]) {
  if (emails.length === 0) return Promise.resolve([]);
  return selectRows<TSyncedCustomer>(
    tx,
    sql`select ${CUSTOMER_COLUMNS} from customers c
    where c.brand_id = ${brandId} and c.email_key in (select jsonb_array_elements_text(${json(emails)}::jsonb))
    order by c.created_at, c.id`,
  );
}

/** Which customer phones are already taken in the brand, among `phones`. */
export async function phonesTaken(tx: TTx, brandId: string, phones: string[]): Promise<Map<string, string>> {
  const rows = await customersByPhones(tx, brandId, phones);
  return new Map(rows.map((r) => [r.phone, r.id]));
}

export async function insertSyncedCustomers(
  tx: TTx,
  brandId: string,
  rows: (TSyncedCustomer & { consentAt: string })[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into customers (id, brand_id, first_name, last_name, phone, email, gender, date_of_birth, country, prefecture,
      city, address, email_status, email_status_changed_at, unsubscribe_reason, consent_source, consent_at, external_guest_id)
    select v.id, ${brandId}, v."firstName", v."lastName", v.phone, v.email, v.gender, v."dateOfBirth"::date, v.country, v.prefecture,
      v.city, v.address, v."emailStatus", case when v."emailStatus" = 'unsubscribed' then now() end, v."unsubscribeReason",
      'booking_system', v."consentAt"::timestamptz, v."externalGuestId"
    from jsonb_to_recordset(${json(rows)}::jsonb) as v(id uuid, "firstName" text, "lastName" text, phone text, email text,
      gender text, "dateOfBirth" text, country text, prefecture text, city text, address text, "emailStatus" text,
      "unsubscribeReason" text, "consentAt" text, "externalGuestId" text)`);
}

/** Writes the synced fields of existing customers; only rows the caller found changed are passed. */
export async function updateSyncedCustomers(tx: TTx, brandId: string, rows: TSyncedCustomer[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    update customers c set first_name = v."firstName", last_name = v."lastName", phone = v.phone, email = v.email,
      gender = v.gender, date_of_birth = v."dateOfBirth"::date, country = v.country, prefecture = v.prefecture, city = v.city,
      address = v.address,
      email_status_changed_at = case when c.email_status <> v."emailStatus" then now() else c.email_status_changed_at end,
      email_status = v."emailStatus", unsubscribe_reason = v."unsubscribeReason", external_guest_id = v."externalGuestId",
      updated_at = now()
    from jsonb_to_recordset(${json(rows)}::jsonb) as v(id uuid, "firstName" text, "lastName" text, phone text, email text,
      gender text, "dateOfBirth" text, country text, prefecture text, city text, address text, "emailStatus" text,
      "unsubscribeReason" text, "externalGuestId" text)
    where c.id = v.id and c.brand_id = ${brandId}`);
}

export interface TSyncedBooking {
  externalId: string;
  customerId: string;
  hotelId: string;
  bookingDate: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  guests: number;
  roomName: string | null;
  roomType: string | null;
  source: string | null;
  amount: number;
  status: 'confirmed' | 'cancelled' | 'checked_in' | 'checked_out' | 'no_show';
}

export function bookingsByExternalIds(tx: TTx, brandId: string, externalIds: string[]) {
  if (externalIds.length === 0) return Promise.resolve([]);
  return selectRows<TSyncedBooking>(
    tx,
    sql`select b.external_id as "externalId", b.customer_id as "customerId", b.hotel_id as "hotelId",
      b.booking_date::text as "bookingDate", b.check_in::text as "checkIn", b.check_out::text as "checkOut", b.nights, b.guests,
      b.room_name as "roomName", b.room_type as "roomType", b.source, b.amount, b.status
    from bookings b where b.brand_id = ${brandId} and b.external_id in (select jsonb_array_elements_text(${json(externalIds)}::jsonb))`,
  );
}

/** Inserts new bookings and rewrites changed ones, keyed by the booking system's id. */
export async function upsertSyncedBookings(tx: TTx, brandId: string, rows: TSyncedBooking[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests,
      room_name, room_type, source, amount, status)
    select ${brandId}, v."customerId", v."hotelId", v."externalId", v."bookingDate"::date, v."checkIn"::date, v."checkOut"::date,
      v.nights, v.guests, v."roomName", v."roomType", v.source, v.amount, v.status
    from jsonb_to_recordset(${json(rows)}::jsonb) as v("customerId" uuid, "hotelId" uuid, "externalId" text, "bookingDate" text,
      "checkIn" text, "checkOut" text, nights int, guests int, "roomName" text, "roomType" text, source text, amount int, status text)
    on conflict (brand_id, external_id) do update set customer_id = excluded.customer_id, hotel_id = excluded.hotel_id,
      booking_date = excluded.booking_date, check_in = excluded.check_in, check_out = excluded.check_out, nights = excluded.nights,
      guests = excluded.guests, room_name = excluded.room_name, room_type = excluded.room_type, source = excluded.source,
      amount = excluded.amount, status = excluded.status, updated_at = now()`);
}

/**
 * Allocates customers to the hotels they booked, with the count of their bookings there that
 * were not cancelled. Existing allocations (from an import, say) keep their source.
 */
export async function allocateByBookings(tx: TTx, brandId: string, customerIds: string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.execute(sql`
    insert into customer_allocations (customer_id, hotel_id, brand_id, source, booking_count)
    select b.customer_id, b.hotel_id, b.brand_id, 'booking', (count(*) filter (where b.status <> 'cancelled'))::int
    from bookings b
    where b.brand_id = ${brandId} and b.customer_id = any(${`{${customerIds.join(',')}}`}::uuid[])
    group by b.customer_id, b.hotel_id, b.brand_id
    on conflict (customer_id, hotel_id) do update set booking_count = excluded.booking_count
    where customer_allocations.booking_count is distinct from excluded.booking_count`);
}
