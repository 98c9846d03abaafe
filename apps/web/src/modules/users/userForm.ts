import { isValidEmail } from '@yado/contracts/validation';

export interface TUserFormValues {
  fullName: string;
  nickName: string;
  email: string;
  phoneNumber: string;
  role: string;
}

export type TUserFormErrors = Partial<Record<keyof TUserFormValues, string>>;

export const EMPTY_USER_FORM: TUserFormValues = { fullName: '', nickName: '', email: '', phoneNumber: '', role: '' };

/** The catalogue key of what is wrong with a new user's email, or null (spec section 5). */
export function userEmailProblem(email: string): string | null {
  const value = email.trim();
  if (value === '') return 'errors.email_required';
  return isValidEmail(value) ? null : 'errors.email_invalid';
}

/** Full name, nickname, email, phone and role required; the phone in numerals (spec section 5). */
export function userFormProblems(values: TUserFormValues, options: { withEmail: boolean }): TUserFormErrors {
  const problems: TUserFormErrors = {};
  if (values.fullName.trim() === '') problems.fullName = 'errors.field_required_fill';
  if (values.nickName.trim() === '') problems.nickName = 'errors.field_required_fill';
  if (options.withEmail) {
    const email = userEmailProblem(values.email);
    if (email) problems.email = email;
  }
  const phone = values.phoneNumber.replace(/[\s-]/g, '');
  if (phone === '') problems.phoneNumber = 'errors.field_required_fill';
  else if (!/^[0-9]+$/.test(phone)) problems.phoneNumber = 'errors.use_numbers_only';
  if (values.role === '') problems.role = 'errors.role_required';
  return problems;
}

/** The emails of an invitation, one per line or separated by commas or spaces. */
export function parseEmailList(text: string): string[] {
  return text
    .split(/[\s,、;]+/)
    .map((e) => e.trim())
    .filter(Boolean);
}

/** What the console can tell before sending an invitation: none, a bad address, or a repeat. */
export function invitationProblem(emails: string[]): string | null {
  if (emails.length === 0) return 'errors.email_required';
  if (emails.some((e) => !isValidEmail(e))) return 'errors.email_invalid';
  const lower = emails.map((e) => e.toLowerCase());
  return new Set(lower).size === lower.length ? null : 'errors.duplicate_input';
}

/** The addresses given more than once (case aside), each named once. */
export function repeatedEmails(emails: string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Map<string, string>();
  for (const email of emails) {
    const key = email.toLowerCase();
    if (seen.has(key) && !repeated.has(key)) repeated.set(key, email);
    seen.add(key);
  }
  return [...repeated.values()];
}
