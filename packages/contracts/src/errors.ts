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
  value_too_long: 'This value is too long.',
  import_file_required: 'Choose a CSV file to upload.',
  import_file_too_big: "The file size is too big. Make sure it's less than 150MB.",
  import_file_empty: 'The file is empty.',
  import_no_rows: 'The file has a header row but no customers.',
  import_missing_columns: 'The file lacks columns that are required.',
  import_missing_column: 'This column is missing from the file.',
  import_duplicate_column: 'Two columns of the file fill this field.',
  import_unsupported_encoding: 'Save the file as CSV in UTF-8 or Shift_JIS and try again.',
  import_malformed_csv: 'The file is not valid CSV: a quoted value is never closed.',
  import_hotel_required: 'Choose the hotel the imported customers belong to.',
  import_not_ready: 'This import cannot do that in its current state.',
  import_failed: 'The import stopped and nothing was changed. Please try again.',
  import_expired: 'This import is no longer available. Please upload the file again.',
  import_invalid_gender: 'Use male, female or prefer not to say.',
  import_invalid_country: 'Use a two-letter country code such as JP.',
  import_invalid_email_status: 'Use active or unsubscribed.',
  import_duplicate_conflict: 'The same phone number is on an earlier row with different details.',
  import_full_name_unsplit: 'Separate the family name and the given name with a space.',
  booking_brand_only: 'only brand can connect to DBK',
  booking_already_connected: 'brand is already connected to another account',
  booking_invalid_credentials: 'The booking system did not accept this account ID and API key.',
  booking_account_suspended: 'This booking system account is suspended.',
  booking_unreachable: 'The booking system could not be reached. Please try again later.',
  booking_not_connected: 'This brand is not connected to the booking system.',
  booking_hotel_code_invalid:
    'Use up to 32 letters, numbers, hyphens (-), underscores (_) or dots (.), starting with a letter or number.',
  download_link_invalid: 'This download link has expired or is not yours. Start the export again.',
  booking_hotel_code_taken: 'Another hotel of this brand already has this booking system code.',
  image_fetch_failed: 'Error fetching image. The content may be unavailable, or the URL could be broken.',
  template_stale: 'This template was changed elsewhere. Reload it to see the latest version.',
  template_in_use: 'This template is used by the scheduled campaign "{{campaign}}". Cancel or change the campaign first.',
  template_default_language_missing: 'The default language needs its version of the template.',
  template_read_only: "This template belongs to the brand and can't be changed here. Duplicate it to make your own.",
  test_send_failed: 'The test email could not be sent. Please try again.',
} as const;

export type TErrorCode = keyof typeof ERROR_MESSAGES;

/** Field-level codes share the catalogue; a field message is one of these texts. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.object({ code: z.string(), message: z.string() })).optional(),
    /** Values the message names (template_in_use: the campaign), for the console's own text. */
    params: z.record(z.string(), z.string()).optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** The error code the console uses for a request that threw before any answer (spec section 8). */
export const CLIENT_EXCEPTION_CODE = '000000';
