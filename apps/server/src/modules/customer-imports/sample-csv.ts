import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import { UTF8_BOM, csvRow } from '../customers/csv.ts';
import { EXPORT_COLUMNS } from '../customers/export-customers.ts';
import { IGNORED_EXPORT_KEYS } from './columns.ts';

/** The columns an import reads, in the export's order (the export's own extra columns left out). */
type TSampleColumn = Exclude<(typeof EXPORT_COLUMNS)[number], (typeof IGNORED_EXPORT_KEYS)[number]>;
const COLUMNS = EXPORT_COLUMNS.filter(
  (c): c is TSampleColumn => !(IGNORED_EXPORT_KEYS as readonly string[]).includes(c),
);

/** One made-up guest per language, each value in a form the import reads (normalize-row.ts). */
const EXAMPLE: Record<'ja' | 'en', Record<TSampleColumn, string>> = {
  ja: {
    last_name: '山田',
    first_name: '花子',
    phone: '09012345678',
    email: 'hanako.yamada@example.com',
    id_number: '',
    gender: ja.gender.female,
    date_of_birth: '1985-04-12',
    country: 'JP',
    prefecture: '東京都',
    city: '新宿区',
    address: '西新宿2-8-1',
    email_status: ja.email_status.active,
  },
  en: {
    last_name: 'Smith',
    first_name: 'Emily',
    phone: '+14155550123',
    email: 'emily.smith@example.com',
    id_number: '',
    gender: en.gender.female,
    date_of_birth: '1990-07-21',
    country: 'US',
    prefecture: 'CA',
    city: 'San Francisco',
    address: '1 Market Street',
    email_status: en.email_status.active,
  },
};

/**
 * A file to start an import from: the headers the export writes (which the import reads back in
 * either language, columns.ts) and one example customer to overwrite, as Excel opens it (BOM).
 */
export function sampleCsv(language: 'ja' | 'en'): string {
  const labels = language === 'ja' ? ja : en;
  return (
    UTF8_BOM + csvRow(COLUMNS.map((c) => labels.customer_csv[c])) + csvRow(COLUMNS.map((c) => EXAMPLE[language][c]))
  );
}
