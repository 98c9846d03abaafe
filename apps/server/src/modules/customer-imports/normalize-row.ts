import { isCountryCode, isValidEmail, normalizePhone, type TErrorCode, type TImportField } from '@yado/contracts';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import type { TColumn } from './columns.ts';
import { headerKey } from './columns.ts';

export type TRowValues = Record<TImportField, string | null>;
export interface TProblem {
  field: TImportField | 'fullName';
  code: TErrorCode;
}
export interface TReadRow {
  values: TRowValues;
  problems: TProblem[];
}

const MAX_LENGTH: [TImportField, number][] = [
  ['lastName', 100],
  ['firstName', 100],
  ['email', 254],
  ['idNumber', 50],
  ['prefecture', 100],
  ['city', 100],
  ['address', 500],
];

const word = (s: string) => headerKey(s);
/**
 * The values an enumerated column accepts: its codes, the labels the export writes in either
 * language, and words that can only mean the same. Anything else (その他, other, unknown) is a row
 * error, never a guess: an import applies whole rows or reports them. A blank cell says nothing.
 */
const GENDERS = new Map<string, string>([
  ...(['male', 'm', 'man', '男', '男性', 'おとこ', ja.gender.male, en.gender.male] as const).map(
    (w) => [word(w), 'male'] as [string, string],
  ),
  ...(['female', 'f', 'woman', '女', '女性', 'おんな', ja.gender.female, en.gender.female] as const).map(
    (w) => [word(w), 'female'] as [string, string],
  ),
  ...(
    ['prefer_not_to_say', 'prefer not to say', ja.gender.prefer_not_to_say, en.gender.prefer_not_to_say] as const
  ).map((w) => [word(w), 'prefer_not_to_say'] as [string, string]),
]);
const EMAIL_STATUSES = new Map<string, string>([
  ...(
    [
      'active',
      'subscribed',
      'yes',
      '有効',
      // The export's label before it took the console's name (有効).
      '配信中',
      '配信する',
      '配信可',
      '希望する',
      ja.email_status.active,
      en.email_status.active,
    ] as const
  ).map((w) => [word(w), 'active'] as [string, string]),
  ...(
    [
      'unsubscribed',
      'unsubscribe',
      'no',
      '無効',
      '配信しない',
      '配信不可',
      '希望しない',
      '停止',
      ja.email_status.unsubscribed,
      en.email_status.unsubscribed,
    ] as const
  ).map((w) => [word(w), 'unsubscribed'] as [string, string]),
]);

/**
 * A label read through `table`, remembered: a file repeats a handful of labels a million times,
 * and folding each (NFKC, case) is what a row's reading would otherwise spend most time on.
 */
function labelReader(table: Map<string, string>): (text: string) => string | undefined {
  const seen = new Map<string, string | undefined>();
  return (text) => {
    if (seen.has(text)) return seen.get(text);
    const value = table.get(word(text));
    if (seen.size < 10_000) seen.set(text, value);
    return value;
  };
}
const readGender = labelReader(GENDERS);
const readEmailStatus = labelReader(EMAIL_STATUSES);

/** Digits only already (the usual case): as it is; otherwise the shared normalisation. */
function readPhone(text: string): string | null {
  return /^0[0-9]{5,14}$/.test(text) ? text : normalizePhone(text);
}

/**
 * A cell as the customer meant it. Spreadsheet artefacts go: surrounding blanks, the apostrophe
 * that marks text (our export puts one before a value that would run as a formula), and the
 * ="0312345678" form that keeps a phone's leading zero in Excel.
 */
export function cellText(raw: string | undefined): string {
  if (raw === undefined) return '';
  const s = raw.trim();
  // After the apostrophe the rest is text as it stands, ="..." included.
  if (s.startsWith("'")) return s.slice(1);
  const formulaText = /^="(.*)"$/s.exec(s);
  return formulaText ? (formulaText[1] as string).replace(/""/g, '"') : s;
}

let todayCache = { at: 0, value: '' };
/** Today as YYYY-MM-DD, looked up once a minute rather than once a row. */
function today(): string {
  const now = Date.now();
  if (now - todayCache.at > 60_000) todayCache = { at: now, value: new Date(now).toISOString().slice(0, 10) };
  return todayCache.value;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The date as YYYY-MM-DD when the day exists and lies between 1900 and today, or null. */
function checkedDate(y: number, mo: number, d: number, value: string): string | null {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && leap ? 29 : (DAYS_IN_MONTH[mo - 1] as number))) return null;
  return value >= '1900-01-01' && value <= today() ? value : null;
}

/** YYYY-MM-DD from the forms Japanese and English spreadsheets write, or null. */
export function parseDate(text: string): string | null {
  // The usual form, once per row of a large file: checked as it stands.
  if (ISO_DATE.test(text))
    return checkedDate(Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10)), text);
  const s = text.normalize('NFKC').trim();
  const m = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return checkedDate(y, mo, d, `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
}

/** Splits "山田 太郎" (family name first, as Japanese lists write it) at the first blank. */
function splitFullName(text: string): [string, string] | null {
  const m = /^(\S+)\s+(.+)$/u.exec(text);
  return m ? [m[1] as string, (m[2] as string).trim()] : null;
}

/**
 * One record of the file as customer values, checked with the rules of specification section 5.
 * A value that fails stays as written; the failures download gives back the whole record as the
 * file had it (row-stager.ts keeps a failed row's cells).
 */
export function normalizeRow(fields: string[], columns: TColumn[]): TReadRow {
  const values: TRowValues = {
    lastName: null,
    firstName: null,
    phone: null,
    email: null,
    idNumber: null,
    gender: null,
    dateOfBirth: null,
    country: null,
    prefecture: null,
    city: null,
    address: null,
    emailStatus: null,
  };
  const problems: TProblem[] = [];
  let fullName: string | null = null;
  for (const c of columns) {
    if (!c.field) continue;
    const text = cellText(fields[c.column - 1]);
    if (c.field === 'fullName') fullName = text;
    else values[c.field] = text === '' ? null : text;
  }
  if (fullName !== null) {
    if (fullName === '') {
      problems.push({ field: 'fullName', code: 'field_required_fill' });
    } else {
      const parts = splitFullName(fullName);
      if (parts) [values.lastName, values.firstName] = parts;
      else {
        values.lastName = fullName;
        problems.push({ field: 'fullName', code: 'import_full_name_unsplit' });
      }
    }
  } else {
    if (!values.lastName) problems.push({ field: 'lastName', code: 'field_required_fill' });
    if (!values.firstName) problems.push({ field: 'firstName', code: 'field_required_fill' });
  }
  if (!values.phone) problems.push({ field: 'phone', code: 'field_required_fill' });
  else {
    const phone = readPhone(values.phone);
    if (phone) values.phone = phone;
    else problems.push({ field: 'phone', code: 'use_numbers_only' });
  }
  if (!values.address) problems.push({ field: 'address', code: 'field_required_fill' });
  if (values.email && !isValidEmail(values.email)) problems.push({ field: 'email', code: 'email_invalid' });
  if (values.gender) {
    const gender = readGender(values.gender);
    if (gender) values.gender = gender;
    else problems.push({ field: 'gender', code: 'import_invalid_gender' });
  }
  if (values.dateOfBirth) {
    const date = parseDate(values.dateOfBirth);
    if (date) values.dateOfBirth = date;
    else problems.push({ field: 'dateOfBirth', code: 'invalid_date' });
  }
  if (values.country) {
    // An ISO 3166-1 code in either width or case; any other two letters (ZZ, UK) are not a country.
    const code = values.country.normalize('NFKC').toUpperCase();
    if (isCountryCode(code)) values.country = code;
    else problems.push({ field: 'country', code: 'import_invalid_country' });
  }
  if (values.emailStatus) {
    const status = readEmailStatus(values.emailStatus);
    if (status) values.emailStatus = status;
    else problems.push({ field: 'emailStatus', code: 'import_invalid_email_status' });
  }
  for (const [field, max] of MAX_LENGTH) {
    const v = values[field];
    if (v && v.length > max && !problems.some((p) => p.field === field))
      problems.push({ field, code: 'value_too_long' });
  }
  return { values, problems };
}

/** True when a record has nothing in it (a blank line, or only delimiters). */
export function isBlankRecord(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
}
