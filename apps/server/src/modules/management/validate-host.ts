import { isBookingHotelCode, isValidEmail, normalizeBookingHotelCode } from '@yado/contracts';
import { badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { isOurLogoUrl } from '../uploads/store-logo.ts';

export interface THostFields {
  name: string;
  address: string;
  email?: string | null;
  phone?: string | null;
  logoUrl?: string | null;
  timezone?: string;
  /** Hotels only. Absent: left as it is; null or empty: cleared. */
  bookingHotelCode?: string | null;
}

const DIGITS = /^[0-9]+$/;

/** The rules of specification section 5 for a brand, hotel group or hotel. */
export function assertValidHost(input: THostFields, options: { logoRequired: boolean }): THostFields {
  const fields: TFieldErrors = {};
  if (!input.name) fields.name = fieldError('field_required_fill');
  if (!input.address) fields.address = fieldError('field_required_fill');
  if (input.email && !isValidEmail(input.email)) fields.email = fieldError('email_invalid');
  const phone = input.phone?.replace(/[\s-]/g, '') || null;
  if (phone && !DIGITS.test(phone)) fields.phone = fieldError('use_numbers_only');
  if (input.logoUrl && !isOurLogoUrl(input.logoUrl)) fields.logoUrl = fieldError('logo_required');
  if (options.logoRequired && !input.logoUrl) fields.logoUrl = fieldError('logo_required');
  if (input.timezone && !isTimeZone(input.timezone)) fields.timezone = fieldError('invalid_time_zone');
  const bookingHotelCode =
    input.bookingHotelCode === undefined ? undefined : normalizeBookingHotelCode(input.bookingHotelCode ?? '') || null;
  if (bookingHotelCode && !isBookingHotelCode(bookingHotelCode))
    fields.bookingHotelCode = fieldError('booking_hotel_code_invalid');
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return { ...input, email: input.email || null, phone, bookingHotelCode };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    // Intl throws RangeError for an unknown zone: that is the answer, not a failure.
    return false;
  }
}
