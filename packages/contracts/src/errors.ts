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
  /** A NUL character or a broken (lone surrogate) character in a text: PostgreSQL cannot keep it. */
  unstorable_text: 'This text contains a character that cannot be saved. Please retype it.',
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
  country_invalid: 'Not a country code. Choose a country from the list.',
  invalid_date: 'Enter a valid date.',
  invalid_cursor: 'The page link is no longer valid. Start from the first page.',
  value_too_long: 'This value is too long.',
  /** A request that does not fit its schema: the kinds of fault, one code each (`http/issue-code.ts`). */
  value_too_short: 'This value is too short.',
  value_wrong_type: 'This value is not of the expected kind (for example, text where a number is expected).',
  value_not_integer: 'Enter a whole number.',
  value_out_of_range: 'This value is outside the allowed range.',
  value_not_allowed: 'Choose one of the allowed values.',
  value_invalid_format: 'This value is not in the expected format.',
  too_many_values: 'There are too many values. Remove some and try again.',
  value_invalid: 'This value is not valid.',
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
  import_invalid_country: 'Not a country code. Use an ISO 3166-1 two-letter code such as JP, US or GB.',
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
  suppressions_brand_only: 'The suppression list is kept by the brand. Switch to the brand to see it.',
  suppression_admin_only: 'Only a brand admin can change the suppression list.',
  suppression_not_found: 'This address is no longer on the suppression list.',
  suppression_exists: 'This address is already on the suppression list.',
  domain_deliverability_brand_only: 'Deliverability is kept per brand. Switch to the brand to see it.',
  domain_invalid: 'Please enter a valid domain',
  domain_exists: 'Oops! This domain already exists.',
  domain_brand_only: 'Domains are added and verified by the brand.',
  domain_not_found: 'This domain is not among your brand’s domains.',
  domain_verify_too_soon: 'Verify DNS setup is available after the countdown.',
  dns_setup_failed: "Oops! Check your settings and make sure everything's set up right.",
  dns_incorrect_format: 'Incorrect format in your DNS settings.',
  dns_record_missing: 'This record was not found in DNS.',
  dns_record_wrong: 'This record has a different value than expected.',
  dns_two_spf_records: 'The domain has two SPF records; merge them into one.',
  dns_spf_without_include: 'The SPF record does not include ours; add the include to your existing record.',
  dns_unavailable: 'DNS could not be checked right now. Please try again later; nothing was marked as failed.',
  domain_not_verified: 'domain not verified',
  sender_domain_not_verified:
    'This sender email is not on a verified domain of your brand. Authenticate the domain first.',
  sending_settings_missing: 'campaign email settings missing (sender email and verified domains)',
  sender_email_invalid: 'Please enter a valid email',
  footer_missing: "The footer's sender name and postal address are required (Act on Specified Electronic Mail).",
  sending_host_only: 'Campaign email settings belong to a brand, hotel group or hotel. Switch to one of them.',
  brand_host_required: "The platform holds no brand's data. To create this, switch to a brand with Switch role.",
  webhook_unknown: 'No such webhook. Copy the address again from the relay webhook settings.',
  webhook_unverified: 'The webhook signature could not be verified.',
  webhook_too_old: 'The webhook is too old or its time is wrong.',
  webhook_replayed: 'This webhook has already been received.',
  webhook_certificate_url: 'The certificate or subscription address is not on the Amazon SNS host.',
  webhook_topic: 'This SNS topic is not the one set for this webhook.',
  webhook_foreign_delivery: 'The event names a mail of another brand.',
  webhook_body_invalid: "The webhook body is not in the provider's format.",
  webhook_provider_invalid: 'Choose Amazon SES, SendGrid, Mailgun or Postmark.',
  webhook_secret_required: "Enter the provider's signing key or webhook password.",
  webhook_sendgrid_key_invalid:
    "This isn't a SendGrid verification key. Paste the public key from SendGrid's Event Webhook settings: it begins with MFkw.",
  webhook_mailgun_key_invalid:
    "This isn't a Mailgun webhook signing key. Paste the HTTP webhook signing key from Mailgun's webhook settings: letters, digits and hyphens, without spaces.",
  webhook_password_invalid: 'The webhook password cannot contain line breaks or other control characters.',
  webhook_topic_invalid: 'Enter an SNS topic ARN (arn:aws:sns:region:account:name).',
  webhook_brand_only: 'Relay webhooks belong to a brand. Switch to the brand.',
  protection_brand_only: "A campaign's protection thresholds are the brand's. Switch to the brand.",
  protection_out_of_range: 'Enter a value within the range shown.',
  frequency_cap_out_of_range: 'Enter a whole number within the range shown.',
  quiet_hours_time_invalid: 'Use the form HH:MM, for example 21:00.',
  import_interrupted:
    'The import was interrupted too many times and has stopped. Nothing was changed. Please try again.',
  import_review_interrupted: 'Reading the file was interrupted too many times. Please upload the file again.',
  image_fetch_failed: 'Error fetching image. The content may be unavailable, or the URL could be broken.',
  template_stale: 'This template was changed elsewhere. Reload it to see the latest version.',
  template_in_use:
    'This template is used by "{{campaign}}", a campaign that has not finished. Cancel that campaign, or wait until it has been sent, before deleting the template.',
  template_default_language_missing: 'The default language needs its version of the template.',
  template_read_only: "This template belongs to the brand and can't be changed here. Duplicate it to make your own.",
  test_send_failed: 'The test email could not be sent. Please try again.',
  test_address_refused: 'The mail server refused {{email}} as an address: {{reason}}',
  test_address_refused_others_sent:
    'The mail server refused {{email}} as an address: {{reason}}. The test was sent to {{sent}} of the {{total}} addresses.',
  filter_invalid: 'Oops! Please double-check the filter logic arrangement.',
  segment_name_taken: 'A segment with this name already exists.',
  segment_in_use:
    'This segment is used by a campaign that has not finished or by a running scenario and cannot be deleted.',
  segment_not_static: 'Only a static segment has a member list to change.',
  segment_not_owner: 'Only the organisation that owns this segment can change it.',
  segment_filter_required: 'A dynamic segment needs a filter.',
  dynamic_segmentation_off: 'Dynamic segments are turned off. Static segments can still be used.',
  member_file_required: 'Choose a file of phone numbers or email addresses.',
  member_file_too_big: "The file size is too big. Make sure it's less than 10MB.",
  member_file_too_many_rows: 'The file has more than 100,000 rows.',
  member_file_no_rows: 'The file has no phone numbers or email addresses.',
  campaign_not_editable: 'This campaign can no longer be changed: only a draft or scheduled campaign can.',
  campaign_stale: 'This campaign was changed elsewhere. Reload it to see the latest version.',
  campaign_not_draft: 'This campaign is scheduled: schedule it again to change when it goes out.',
  campaign_sending: 'This campaign is being sent and cannot be deleted now.',
  campaign_not_sending: 'Only a campaign that is being sent can be paused.',
  experiment_not_waiting: 'A winner can be picked only while the A/B test is running or waiting for its result.',
  experiment_variant_unknown: 'This campaign has no such variant.',
  experiment_locked: 'The A/B test and holdout cannot be changed once the campaign has started sending.',
  campaign_not_paused: 'This campaign is not paused.',
  campaign_not_cancellable: 'Only a draft, scheduled or paused campaign can be cancelled.',
  campaign_schedule_past: 'The send time has passed. Choose a time in the future.',
  campaign_audience_empty:
    'This campaign has no recipients: the chosen segments have no active customers with an email.',
  campaign_segments_required: 'Choose at least one segment.',
  campaign_segment_deleted: 'A chosen segment has been deleted. Choose the recipients again.',
  campaign_template_required: 'Choose a template.',
  campaign_template_deleted: 'The chosen template has been deleted. Choose another.',
  campaign_subject_required: 'Please fill out the subject.',
  campaign_sender_required: 'Choose a sender email.',
  campaign_sender_not_allowed: 'This sender email is not one of the campaign email settings.',
  campaign_not_sent_inactive: 'campaign not sent (recipient not active)',
  invalid_time_zone: 'Choose a valid time zone.',
  campaign_render_failed:
    'The template could not be rendered for sending. Open it in the template editor and save it again.',
  /** A delivery's own failure, kept by the send (not a relay's reply): shown beside the recipient. */
  delivery_not_built: 'The mail could not be built for this guest.',
  delivery_answer_lost_twice:
    "The relay's answer was lost twice, so the mail was not sent a third time. The guest may have received it.",
  unsubscribe_link_invalid: 'This unsubscribe link is not valid. Please use the link in the latest email.',
  tracking_brand_only: 'The conversion window is set by the brand.',
  scenario_not_editable: 'Once a scenario runs, changes cannot be made.',
  scenario_stale: 'This scenario was changed elsewhere. Reload it to see the latest version.',
  scenario_action_not_allowed: "This action is not possible in the scenario's current status.",
  scenario_stop_confirmation: 'Type the sentence exactly as shown to stop the scenario.',
  scenario_invalid: 'This scenario cannot run yet. Fix the marked steps.',
  scenario_running: 'A running scenario cannot be deleted. Stop it first.',
  preset_built_in: 'Built-in presets cannot be changed or deleted.',
  scenario_clock_not_manual: 'The scenario clock can only be moved when SCENARIO_CLOCK is manual.',
  workflow_not_configured: 'The workflow is not configured.',
  email_incomplete: 'The email response is incomplete: choose a template, a subject and a sender.',
  delay_passed: 'The delay time has passed.',
  no_trigger: 'Add an entrance point.',
  trigger_needs_segment: 'Choose a segment for this entrance point.',
  trigger_leads_nowhere: 'Connect this entrance point to a next step.',
  orphan_node: 'Nothing leads to this step. Connect it or delete it.',
  cycle: 'These steps form a loop. Every path must come to an end.',
  duplicate_node_id: 'Two steps have the same id.',
  edge_unknown_node: 'A connection points to a step that does not exist.',
  edge_wrong_handle: 'This kind of step cannot have that connection.',
  edge_duplicate_handle: 'This step has two connections from the same exit.',
  edge_into_trigger: 'An entrance point cannot be the target of a connection.',
  branch_incomplete: 'Connect both the yes and the no path of this branch.',
  delay_zero: 'A delay must be longer than zero.',
  delay_too_long: 'A delay can be at most 5 years.',
  delay_no_choice: 'Choose at least one day or month.',
  start_passed: 'The start time has passed. Choose a time in the future.',
  end_before_start: 'The end must be after the start.',
} as const;

export type TErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * The English text of an error when its list of names (a param that is an array) holds more than
 * one: template_in_use names every unfinished campaign that uses the template. The console has it
 * as the code's plural form (`errors.<code>_other`), counted by the list.
 */
export const ERROR_MESSAGES_MANY: Partial<Record<TErrorCode, string>> = {
  template_in_use:
    'This template is used by campaigns that have not finished: {{campaigns}}. Cancel those campaigns, or wait until they have been sent, before deleting the template.',
};

/** How many names of a list a message shows; the rest are counted ("and 2 more"). */
export const NAMES_SHOWN = 3;

/** A language's words for a list of names (the console's `common.name_list`). */
export interface TNameListWords {
  quoted: (name: string) => string;
  /** Between the names but the last two. */
  separator: string;
  /** Between the last two names. */
  last: string;
  /** The names shown and the count of the rest. */
  more: (names: string, count: number) => string;
}

export const ENGLISH_NAME_LIST: TNameListWords = {
  quoted: (name) => `"${name}"`,
  separator: ', ',
  last: ' and ',
  more: (names, count) => `${names} and ${count} more`,
};

/**
 * A list of names as a message shows it, the same on the server (English) and in the console:
 * '"A" and "B"', '"A", "B" and "C"', '"A", "B", "C" and 2 more'.
 */
export function nameList(names: readonly string[], words: TNameListWords): string {
  const quoted = names.map(words.quoted);
  if (quoted.length > NAMES_SHOWN) {
    return words.more(quoted.slice(0, NAMES_SHOWN).join(words.separator), quoted.length - NAMES_SHOWN);
  }
  return quoted.length < 2
    ? quoted.join('')
    : `${quoted.slice(0, -1).join(words.separator)}${words.last}${quoted.at(-1)}`;
}

/** Field-level codes share the catalogue; a field message is one of these texts. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.object({ code: z.string(), message: z.string() })).optional(),
    /**
     * Values the message names, for the console's own text: a string, or a list of names
     * (template_in_use: `campaign`, the first by name, and `campaigns`, every one by name).
     */
    // Read as any value: z.union's code alone put the sign-in page over its 200 kB budget. Our own
    // server writes them (http/errors.ts: a string or a list of strings); the console's type says so.
    params: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** The error code the console uses for a request that threw before any answer (spec section 8). */
export const CLIENT_EXCEPTION_CODE = '000000';
