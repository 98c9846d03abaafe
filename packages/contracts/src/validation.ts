/**
 * Validation rules of the specification, section 5, shared by the console and the server.
 */

/**
 * Word characters with optional dot or hyphen separators and an optional plus tag, an @, a domain,
 * a suffix of 2 to 3 characters. Used where an address is entered as new data (users, customers).
 */
export const EMAIL_PATTERN = /^\w+(?:[.-]?\w+)*(?:\+[\w.-]+)?@\w+(?:[.-]?\w+)*(?:\.\w{2,3})+$/;

/**
 * The shape an address must have to identify an existing account (sign-in, password reset).
 * Looser than EMAIL_PATTERN on purpose: an account whose address has a longer suffix
 * (.test, .tokyo, .hotel) must never be locked out of signing in.
 */
export const ACCOUNT_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
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
