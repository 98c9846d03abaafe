import { isCountryCode, isValidEmail, normalizePhone } from '@yado/contracts';
import type { TSyncedBooking, TSyncedCustomer } from '../customers/sync-queries.ts';
import type { TDbkGuest, TDbkReservation } from './booking-client.ts';

/** A guest of the booking system as Yado stores a customer. */
export interface TGuestValues {
  externalGuestId: string;
  firstName: string;
  lastName: string;
  /** Digits only (the customer module's normaliser), or null when missing or unusable. */
  phone: string | null;
  /** Trimmed and lower-cased, or null when missing or not an address. */
  email: string | null;
  gender: 'male' | 'female' | 'prefer_not_to_say';
  dateOfBirth: string | null;
  /** An ISO 3166-1 code (COUNTRY_CODES, as the import and the API take them), or null. */
  country: string | null;
  /** The booking system sent a country that is no ISO 3166-1 code (`UK`, `Japan`): left out, and logged. */
  countryInvalid: boolean;
  prefecture: string | null;
  city: string | null;
  address: string | null;
  newsletterOptIn: boolean;
  updatedAt: string;
}

export function mapGuest(guest: TDbkGuest): TGuestValues {
  const email = guest.email?.trim().toLowerCase() || null;
  const country = guest.country?.trim().toUpperCase() || null;
  return {
    externalGuestId: guest.id,
    firstName: guest.given_name.trim(),
    lastName: guest.family_name.trim(),
    phone: guest.phone ? normalizePhone(guest.phone) : null,
    email: email && isValidEmail(email) ? email : null,
    gender: guest.gender === 'unspecified' ? 'prefer_not_to_say' : guest.gender,
    dateOfBirth: guest.birth_date,
    country: country && isCountryCode(country) ? country : null,
    countryInvalid: !!country && !isCountryCode(country),
    prefecture: guest.prefecture,
    city: guest.city,
    address: guest.address,
    newsletterOptIn: guest.newsletter_opt_in,
    updatedAt: guest.updated_at,
  };
}

/** A reservation as Yado stores a booking (the hotel and customer are resolved by the sync). */
export type TReservationValues = Omit<TSyncedBooking, 'customerId' | 'hotelId'> & {
  externalGuestId: string;
  hotelCode: string;
};

export function mapReservation(r: TDbkReservation): TReservationValues {
  return {
    externalId: r.id,
    externalGuestId: r.guest_id,
    hotelCode: r.hotel_code,
    // booked_at carries the hotel's offset (JST), so its first ten characters are the local day.
    bookingDate: r.booked_at.slice(0, 10),
    checkIn: r.check_in,
    checkOut: r.check_out,
    nights: r.nights,
    guests: r.guests,
    roomName: r.room_name,
    roomType: r.room_type,
    source: r.source,
    amount: Math.round(r.amount),
    status: r.status,
  };
}

/** What a customer row holds of the synced fields, as the sync compares it. */
export type TCustomerState = TSyncedCustomer;

/** Why the booking system, not the guest in Yado, set a customer to unsubscribed. */
export const BOOKING_OPT_OUT_REASON = 'booking_system';

/**
 * The customer after applying a guest's record. The booking system's newer values win, but a
 * missing value never erases a known one (a guest's second record often lacks the email), and
 * consent moves only as far as the booking system can speak for it: a guest's "no newsletter"
 * unsubscribes, and a later "yes" undoes only an unsubscribe that the booking system caused,
 * never one the customer made through Yado. `phone` is applied only when `mayChangePhone`.
 */
export function applyGuest(current: TCustomerState, guest: TGuestValues, mayChangePhone: boolean): TCustomerState {
  let emailStatus = current.emailStatus;
  let unsubscribeReason = current.unsubscribeReason;
  if (!guest.newsletterOptIn && emailStatus === 'active') {
    emailStatus = 'unsubscribed';
    unsubscribeReason = BOOKING_OPT_OUT_REASON;
  } else if (guest.newsletterOptIn && emailStatus === 'unsubscribed' && unsubscribeReason === BOOKING_OPT_OUT_REASON) {
    emailStatus = 'active';
    unsubscribeReason = null;
  }
  return {
    ...current,
    firstName: guest.firstName || current.firstName,
    lastName: guest.lastName || current.lastName,
    phone: mayChangePhone && guest.phone ? guest.phone : current.phone,
    email: guest.email ?? current.email,
    // "unspecified" at the booking system says nothing new about a customer whose gender is known.
    gender: guest.gender === 'prefer_not_to_say' ? (current.gender ?? 'prefer_not_to_say') : guest.gender,
    dateOfBirth: guest.dateOfBirth ?? current.dateOfBirth,
    country: guest.country ?? current.country,
    prefecture: guest.prefecture ?? current.prefecture,
    city: guest.city ?? current.city,
    address: guest.address ?? current.address,
    emailStatus,
    unsubscribeReason,
    externalGuestId: current.externalGuestId ?? guest.externalGuestId,
  };
}

/** A new customer from a guest: consent as the guest gave it at booking. */
export function newCustomer(id: string, guest: TGuestValues & { phone: string }): TCustomerState {
  return {
    id,
    firstName: guest.firstName,
    lastName: guest.lastName,
    phone: guest.phone,
    email: guest.email,
    gender: guest.gender,
    dateOfBirth: guest.dateOfBirth,
    country: guest.country,
    prefecture: guest.prefecture,
    city: guest.city,
    address: guest.address,
    emailStatus: guest.newsletterOptIn ? 'active' : 'unsubscribed',
    unsubscribeReason: guest.newsletterOptIn ? null : BOOKING_OPT_OUT_REASON,
    externalGuestId: guest.externalGuestId,
  };
}

const COMPARED: (keyof TCustomerState)[] = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'gender',
  'dateOfBirth',
  'country',
  'prefecture',
  'city',
  'address',
  'emailStatus',
  'unsubscribeReason',
  'externalGuestId',
];

export const customerChanged = (a: TCustomerState, b: TCustomerState) => COMPARED.some((k) => a[k] !== b[k]);

type TBookingFields =
  | 'bookingDate'
  | 'checkIn'
  | 'checkOut'
  | 'nights'
  | 'guests'
  | 'roomName'
  | 'roomType'
  | 'source'
  | 'amount'
  | 'status';
const BOOKING_COMPARED: TBookingFields[] = [
  'bookingDate',
  'checkIn',
  'checkOut',
  'nights',
  'guests',
  'roomName',
  'roomType',
  'source',
  'amount',
  'status',
];

export const bookingChanged = (
  a: Pick<TReservationValues, TBookingFields>,
  b: Pick<TReservationValues, TBookingFields>,
) => BOOKING_COMPARED.some((k) => a[k] !== b[k]);
