import { IMPORT_FIELDS, type TImportField } from '@yado/contracts';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };

export type TColumnField = TImportField | 'fullName';
export interface TColumn {
  /** 1-based position in the file. */
  column: number;
  header: string;
  field: TColumnField | null;
}

/** A header as compared: full-width folded, lower case, without spaces, marks and "(required)". */
export function headerKey(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[(（[［]?(必須|任意|required|optional)[)）\]］]?/g, '')
    .replace(/[\s_\-‐・.:/*※()[\]]/g, '');
}

/** The usual column names of Japanese and English spreadsheets, and our own export's headers. */
const SYNONYMS: Record<TColumnField, string[]> = {
  lastName: ['lastname', 'familyname', 'surname', '姓', '苗字', '名字', '氏', 'せい', 'セイ', '姓漢字'],
  firstName: ['firstname', 'givenname', 'forename', '名', 'めい', 'メイ', '名漢字'],
  fullName: ['name', 'fullname', 'customername', 'guestname', '氏名', '名前', 'お名前', '顧客名', '宿泊者名', '会員名'],
  phone: [
    'phone',
    'phonenumber',
    'tel',
    'telephone',
    'telno',
    'mobile',
    'mobilephone',
    'cellphone',
    '電話',
    '電話番号',
    'tel番号',
    '携帯',
    '携帯電話',
    '携帯番号',
    '携帯電話番号',
    '連絡先',
    '連絡先電話番号',
  ],
  email: [
    'email',
    'emailaddress',
    'mail',
    'mailaddress',
    'eメール',
    'eメールアドレス',
    'メール',
    'メールアドレス',
    'pcメールアドレス',
  ],
  idNumber: [
    'idnumber',
    'nationalid',
    'passport',
    'passportnumber',
    'passportno',
    '身分証番号',
    '身分証明書番号',
    'パスポート番号',
    '旅券番号',
  ],
  gender: ['gender', 'sex', '性別'],
  dateOfBirth: ['dateofbirth', 'birthdate', 'birthday', 'dob', '生年月日', '誕生日'],
  country: ['country', 'countrycode', 'nationality', '国', '国籍', '国名', '国コード'],
  prefecture: ['prefecture', 'state', 'province', '都道府県', '県'],
  city: ['city', 'cityward', 'ward', 'town', '市区町村', '市区郡', '市町村', '区市町村'],
  address: ['address', 'streetaddress', 'street', '住所', '所在地', '番地', '住所1'],
  emailStatus: [
    'emailstatus',
    'subscription',
    'subscriptionstatus',
    'メール配信',
    'メール配信状態',
    '配信状態',
    '配信',
    'メルマガ',
    'メルマガ配信',
  ],
};

/** Columns our export writes that an import does not read (derived or kept by the system). */
export const IGNORED_EXPORT_KEYS = ['age', 'total_bookings', 'total_payments', 'created_at'] as const;

const EXPORT_KEY_TO_FIELD: Record<string, TImportField> = {
  last_name: 'lastName',
  first_name: 'firstName',
  phone: 'phone',
  email: 'email',
  id_number: 'idNumber',
  gender: 'gender',
  date_of_birth: 'dateOfBirth',
  country: 'country',
  prefecture: 'prefecture',
  city: 'city',
  address: 'address',
  email_status: 'emailStatus',
};

const LOOKUP = new Map<string, TColumnField>();
for (const [field, names] of Object.entries(SYNONYMS) as [TColumnField, string[]][])
  for (const n of names) LOOKUP.set(headerKey(n), field);
for (const labels of [ja.customer_csv, en.customer_csv]) {
  for (const [key, label] of Object.entries(labels)) {
    const field = EXPORT_KEY_TO_FIELD[key];
    if (field) LOOKUP.set(headerKey(label), field);
  }
}
const IGNORED = new Set(
  IGNORED_EXPORT_KEYS.flatMap((k) => [headerKey(ja.customer_csv[k]), headerKey(en.customer_csv[k])]),
);

export interface THeaderProblems {
  missing: TColumnField[];
  duplicated: TColumnField[];
}

/** Which field each column fills; what is missing or filled twice. Unknown columns are ignored. */
export function mapHeaders(headers: string[]): { columns: TColumn[]; problems: THeaderProblems } {
  const columns: TColumn[] = headers.map((raw, i) => {
    const header = raw.trim();
    const key = headerKey(header);
    const field = IGNORED.has(key) ? null : (LOOKUP.get(key) ?? null);
    return { column: i + 1, header, field };
  });
  const seen = new Map<TColumnField, number>();
  for (const c of columns) if (c.field) seen.set(c.field, (seen.get(c.field) ?? 0) + 1);
  const duplicated = [...seen].filter(([, n]) => n > 1).map(([f]) => f);
  const hasNames = (seen.has('lastName') && seen.has('firstName')) || seen.has('fullName');
  const missing: TColumnField[] = [];
  if (!hasNames) {
    if (!seen.has('lastName')) missing.push('lastName');
    if (!seen.has('firstName')) missing.push('firstName');
  }
  if (!seen.has('phone')) missing.push('phone');
  if (!seen.has('address')) missing.push('address');
  // With both a full name and the two name columns, the two columns are read.
  if (seen.has('fullName') && seen.has('lastName') && seen.has('firstName')) {
    for (const c of columns) if (c.field === 'fullName') c.field = null;
  }
  return { columns, problems: { missing, duplicated } };
}

/** The customer fields a mapping fills (a full-name column fills both names). */
export function mappedFields(columns: TColumn[]): TImportField[] {
  const fields = new Set<TImportField>();
  for (const c of columns) {
    if (c.field === 'fullName') {
      fields.add('lastName');
      fields.add('firstName');
    } else if (c.field) fields.add(c.field);
  }
  return IMPORT_FIELDS.filter((f) => fields.has(f));
}
