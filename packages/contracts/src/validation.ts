/**
 * Validation rules of the specification, section 5, shared by the console and the server.
 */

/**
 * An address entered or received as new data (users, invitations, hosts, customers, imports,
 * synced guests). Decided against the specification's 2-to-3-character suffix (DESIGN section 6),
 * which refused guests at .tokyo, .hotel or .travel: a local part of RFC 5322 atoms joined by
 * single dots (plus tags included; no quoted forms), an @, then a host name of two or more labels
 * (letters, digits, inner hyphens, up to 63 each) whose last label is 2 or more letters or an IDN
 * label in punycode (xn--). ASCII only: an internationalised domain is accepted in its xn-- form.
 */
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const EMAIL_TOP_LABEL = /^(?:[A-Za-z]{2,63}|[Xx][Nn]--[A-Za-z0-9-]{1,59})$/;
export const EMAIL_LOCAL_MAX_LENGTH = 64;

/**
 * The shape an address must have to identify an existing account (sign-in, password reset).
 * Looser than isValidEmail on purpose: an account whose address has a longer suffix
 * (.test, .tokyo, .hotel) must never be locked out of signing in.
 */
export const ACCOUNT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  return (
    at > 0 &&
    local.length <= EMAIL_LOCAL_MAX_LENGTH &&
    EMAIL_LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((label) => EMAIL_LABEL.test(label)) &&
    EMAIL_TOP_LABEL.test(labels[labels.length - 1] as string)
  );
}

export function isAccountEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && ACCOUNT_EMAIL_PATTERN.test(value);
}

export const hasLetter = (value: string): boolean => /\p{L}/u.test(value);
export const hasDigit = (value: string): boolean => /\p{Nd}/u.test(value);

export type TPasswordProblem = 'required' | 'too_short' | 'too_long' | 'no_letter' | 'no_digit';

/** The first rule a password breaks, or null when it is acceptable. */
export function passwordProblem(value: string): TPasswordProblem | null {
  if (value.length === 0) return 'required';
  if (value.length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (value.length > PASSWORD_MAX_LENGTH) return 'too_long';
  if (!hasLetter(value)) return 'no_letter';
  if (!hasDigit(value)) return 'no_digit';
  return null;
}

/**
 * A hotel's code in the booking system (DBK), such as SKR-SHINJUKU: 1 to 32 ASCII letters,
 * digits, hyphens, underscores or dots, starting with a letter or digit. Case is kept: the booking
 * system's codes are matched exactly.
 */
export const BOOKING_HOTEL_CODE_MAX_LENGTH = 32;
export const BOOKING_HOTEL_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

/**
 * A code as typed, made comparable: full-width letters, digits and hyphens (ＳＫＲ－１, typed with a
 * Japanese input method) become ASCII, spaces around it go. Empty means "no code".
 */
export function normalizeBookingHotelCode(value: string): string {
  return value
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212\u30FC]/g, '-')
    .trim();
}

export function isBookingHotelCode(value: string): boolean {
  return BOOKING_HOTEL_CODE_PATTERN.test(value);
}
