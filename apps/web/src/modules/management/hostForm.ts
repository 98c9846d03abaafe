import { isBookingHotelCode, isValidEmail, normalizeBookingHotelCode } from '@yado/contracts/validation';
import type { THost } from '@yado/contracts/management';

/** What the create, edit and settings forms of a brand, hotel group or hotel hold. */
export interface THostFormValues {
  name: string;
  address: string;
  email: string;
  phone: string;
  logoUrl: string | null;
  /** A hotel's booking-system code; the other levels leave it empty. */
  bookingHotelCode: string;
  /** The IANA time zone the host keeps its clock in (quiet hours, booking days, the dashboard's days). */
  timezone: string;
}

export type THostFormErrors = Partial<Record<keyof THostFormValues, string>>;

export const EMPTY_HOST_FORM: THostFormValues = {
  name: '',
  address: '',
  email: '',
  phone: '',
  logoUrl: null,
  bookingHotelCode: '',
  timezone: 'Asia/Tokyo',
};

export function hostFormValues(host: THost): THostFormValues {
  return {
    name: host.name,
    address: host.address ?? '',
    email: host.email ?? '',
    phone: host.phone ?? '',
    logoUrl: host.logoUrl,
    bookingHotelCode: host.bookingHotelCode ?? '',
    timezone: host.timezone,
  };
}

/** The rules of spec section 5 as catalogue keys: name, address (and a logo) required. */
export function hostFormProblems(values: THostFormValues, options: { logoRequired: boolean }): THostFormErrors {
  const problems: THostFormErrors = {};
  if (values.name.trim() === '') problems.name = 'errors.field_required_fill';
  if (values.address.trim() === '') problems.address = 'errors.field_required_fill';
  const email = values.email.trim();
  if (email !== '' && !isValidEmail(email)) problems.email = 'errors.email_invalid';
  const phone = values.phone.replace(/[\s-]/g, '');
  if (phone !== '' && !/^[0-9]+$/.test(phone)) problems.phone = 'errors.use_numbers_only';
  if (options.logoRequired && !values.logoUrl) problems.logoUrl = 'errors.logo_required';
  const code = normalizeBookingHotelCode(values.bookingHotelCode);
  if (code !== '' && !isBookingHotelCode(code)) problems.bookingHotelCode = 'errors.booking_hotel_code_invalid';
  return problems;
}

/** The body the server takes; empty optional fields go as null. */
export function hostInput(values: THostFormValues) {
  return {
    name: values.name.trim(),
    address: values.address.trim(),
    email: values.email.trim() || null,
    phone: values.phone.trim() || null,
    logoUrl: values.logoUrl,
    ...(values.timezone ? { timezone: values.timezone } : {}),
  };
}

/** A hotel's body in Management: the host fields and its booking-system code (empty clears it). */
export function hotelInput(values: THostFormValues) {
  return { ...hostInput(values), bookingHotelCode: normalizeBookingHotelCode(values.bookingHotelCode) || null };
}
