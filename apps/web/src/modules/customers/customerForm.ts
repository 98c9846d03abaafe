import { isValidEmail } from '@yado/contracts/validation';
import { normalizePhone, type GENDERS, type TCustomer } from '@yado/contracts/customers';

export type TGender = (typeof GENDERS)[number];

/** What the add and edit forms of a customer hold; text inputs hold '' for nothing. */
export interface TCustomerFormValues {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  idNumber: string;
  gender: TGender | '';
  /** YYYY-MM-DD or ''. */
  dateOfBirth: string;
  /** ISO 3166-1 alpha-2 or ''. */
  country: string;
  /** As stored: the Japanese name for Japan. */
  prefecture: string;
  city: string;
  address: string;
  /** The hotel a new customer belongs to (asked for above the hotel level). */
  hotelId: string;
}

export type TCustomerFormErrors = Partial<Record<keyof TCustomerFormValues, string>>;

/** The body of an add or edit; empty optional fields go as null. */
export interface TCustomerInput {
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  idNumber: string | null;
  gender: TGender | null;
  dateOfBirth: string | null;
  country: string | null;
  prefecture: string | null;
  city: string | null;
  address: string;
}

export const JAPAN = 'JP';

export const EMPTY_CUSTOMER_FORM: TCustomerFormValues = {
  firstName: '',
  lastName: '',
  phone: '',
  email: '',
  idNumber: '',
  gender: '',
  dateOfBirth: '',
  country: JAPAN,
  prefecture: '',
  city: '',
  address: '',
  hotelId: '',
};

export function customerFormValues(customer: TCustomer): TCustomerFormValues {
  return {
    firstName: customer.firstName,
    lastName: customer.lastName,
    phone: customer.phone,
    email: customer.email ?? '',
    idNumber: customer.idNumber ?? '',
    gender: customer.gender ?? '',
    dateOfBirth: customer.dateOfBirth ?? '',
    country: customer.country ?? '',
    prefecture: customer.prefecture ?? '',
    city: customer.city ?? '',
    address: customer.address ?? '',
    hotelId: '',
  };
}

/** Prefecture and city come from Japan's lists when the country is Japan or not known. */
export function usesJapaneseLists(country: string): boolean {
  return country === '' || country === JAPAN;
}

/**
 * A location field changed: a new country drops a prefecture and city that belonged to another
 * country's lists, and a new prefecture drops the city.
 */
export function withLocation(
  values: TCustomerFormValues,
  field: 'country' | 'prefecture' | 'city',
  value: string,
): TCustomerFormValues {
  if (field === 'country') {
    if (value === values.country) return values;
    const keep = usesJapaneseLists(value) && usesJapaneseLists(values.country);
    return { ...values, country: value, prefecture: keep ? values.prefecture : '', city: keep ? values.city : '' };
  }
  if (field === 'prefecture') {
    return value === values.prefecture ? values : { ...values, prefecture: value, city: '' };
  }
  return { ...values, city: value };
}

/**
 * The rules of spec section 5 as catalogue keys: first name, last name, phone and address
 * required; the phone in numerals (hyphens, spaces and full-width digits are fine, as the
 * server normalises them); a valid email when one is given; a birth date in the past.
 */
export function customerFormProblems(
  values: TCustomerFormValues,
  options: { hotelRequired: boolean; today: string },
): TCustomerFormErrors {
  const problems: TCustomerFormErrors = {};
  if (values.firstName.trim() === '') problems.firstName = 'errors.field_required_fill';
  if (values.lastName.trim() === '') problems.lastName = 'errors.field_required_fill';
  const phone = values.phone.trim();
  if (phone === '') problems.phone = 'errors.field_required_fill';
  else if (normalizePhone(phone) === null) problems.phone = 'errors.use_numbers_only';
  if (values.address.trim() === '') problems.address = 'errors.field_required_fill';
  const email = values.email.trim();
  if (email !== '' && !isValidEmail(email)) problems.email = 'errors.email_invalid';
  const dob = values.dateOfBirth;
  if (dob !== '' && (!/^\d{4}-\d{2}-\d{2}$/.test(dob) || dob > options.today || dob < '1900-01-01')) {
    problems.dateOfBirth = 'errors.invalid_date';
  }
  if (options.hotelRequired && values.hotelId === '') problems.hotelId = 'errors.hotel_required';
  return problems;
}

export function customerInput(values: TCustomerFormValues): TCustomerInput {
  const optional = (value: string) => value.trim() || null;
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    phone: values.phone.trim(),
    email: optional(values.email),
    idNumber: optional(values.idNumber),
    gender: values.gender || null,
    dateOfBirth: values.dateOfBirth || null,
    country: values.country || null,
    prefecture: optional(values.prefecture),
    city: optional(values.city),
    address: values.address.trim(),
  };
}
