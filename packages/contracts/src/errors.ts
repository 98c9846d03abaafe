import { z } from 'zod';

/**
 * Stable error codes and their English texts. The texts are the specification's catalogue
 * (section 8) verbatim where it has one; the console shows its own translation by code.
 */
export const ERROR_MESSAGES = {
  general: 'An error has occured.',
  not_found: 'Page not found.',
  no_data: 'No Data Found',
  validation_failed: 'Please check the highlighted fields.',
  field_required: 'Please fill out this field.',
  invalid_email: 'Oops! Invalid email address.',
  unauthenticated: 'Please sign in again.',
  session_expired: 'Your session has ended. Please sign in again.',
  no_access: "Oops! It looks like you don't have permission to access our system.",
  forbidden: "Oops! It looks like you don't have permission to access our system.",
  context_forbidden: 'This role is not available to you.',
  invalid_credentials: 'Oops! You’ve entered an incorrect email or password. Please try again.',
  too_many_attempts: 'Too many attempts. Please wait a few minutes and try again.',
  unregistered_email: 'You’ve entered an unregistered email.',
  reset_link_expired:
    'This link has expired. Your password may have already been changed, or please use the latest reset email.',
  wrong_current_password: 'The current password is incorrect.',
  password_mismatch: 'Please enter the matched password.',
  password_too_short: 'Use at least 8 characters.',
  password_too_long: 'Use at most 128 characters.',
  password_no_letter: 'Include at least one letter.',
  password_no_digit: 'Include at least one number.',
  body_too_large: 'The request is too large.',
  malformed_json: 'The request body is not valid JSON.',
  unsupported_media_type: 'The request body must be JSON.',
  embedded_only: 'This is available only in the embedded mode.',
  field_required_fill: 'This field is required to fill.',
  email_required: 'Email Address is required',
  email_invalid: 'Please enter a valid email',
  role_required: 'Role is required',
  use_numbers_only: 'Use only numerical characters.',
  email_registered: 'This email address is already registered. Invite the user instead.',
  duplicate_input: 'Duplicate input is detected. Please check data and try again.',
  unregistered_emails: 'Unregistered email(s) detected. Please only input email that is already registered.',
  existing_users: 'Existed data detected. Please only invite new users.',
  logo_required: 'Please upload a logo',
  logo_wrong_type: 'Please upload image file only in .jpg/.png.',
  logo_too_big: "The file size is too big. Make sure it's less than 5MB.",
  upload_failed: 'Failed to upload the file. Please try again.',
  confirmation_mismatch: 'The text you typed does not match.',
  not_original_host: 'Only the user’s original organisation can change their status.',
  cannot_change_self: 'You cannot change your own role or status.',
  hotel_group_other_brand: 'The hotel group must belong to the same brand as the hotel.',
  brand_required: 'Choose a brand.',
  phone_exists: 'Phone number already exists.',
  hotel_required: 'Choose the hotel this customer belongs to.',
  invalid_date: 'Enter a valid date.',
  invalid_cursor: 'The page link is no longer valid. Start from the first page.',
  booking_brand_only: 'only brand can connect to DBK',
  booking_already_connected: 'brand is already connected to another account',
  booking_invalid_credentials: 'The booking system did not accept this account ID and API key.',
  booking_account_suspended: 'This booking system account is suspended.',
  booking_unreachable: 'The booking system could not be reached. Please try again later.',
  booking_not_connected: 'This brand is not connected to the booking system.',
} as const;

export type TErrorCode = keyof typeof ERROR_MESSAGES;

/** Field-level codes share the catalogue; a field message is one of these texts. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.object({ code: z.string(), message: z.string() })).optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** The error code the console uses for a request that threw before any answer (spec section 8). */
export const CLIENT_EXCEPTION_CODE = '000000';
