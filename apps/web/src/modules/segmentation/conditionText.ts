import { FILTER_FIELDS, type TFilterField, type TFilterValue } from '@yado/contracts/segments';
import type { TFunction } from 'i18next';
import { formatDate } from '../../lib/dates/formatDate';
import { fieldKey } from '../../lib/i18n/fieldKey';
import type { TLanguage } from '../../lib/session/storage';
import { formatYen } from '../customers/format';
import type { TChoice } from './hooks/useChoiceOptions';
import { roomTypeText } from '../ui/text/roomTypeText';
import { bookingSourceText } from '../ui/text/bookingSourceText';

type TChoicesOf = (field: TFilterField) => TChoice[];

const isField = (field: string): field is TFilterField => Object.hasOwn(FILTER_FIELDS, field);

/** A date of a filter (YYYY-MM-DD, a calendar day in the brand's zone) as the console writes dates. */
const day = (value: string, language: TLanguage) => formatDate(`${value}T00:00:00Z`, language, { noOffset: true });

/** One value of a field as the reader should see it: a choice's label, a date, yen. */
export function valueText(
  field: string,
  value: string | number,
  t: TFunction,
  language: TLanguage,
  choicesOf: TChoicesOf,
): string {
  if (!isField(field)) return String(value);
  const def = FILTER_FIELDS[field];
  if (def.type === 'choice') {
    const label = choicesOf(field).find((c) => c.value === value)?.label;
    // A reader has no list of room types or booking sources to look in; the code is translated all the same.
    if (label !== undefined) return label;
    if (def.source === 'room_types') return roomTypeText(String(value), t);
    return def.source === 'booking_sources' ? bookingSourceText(String(value), t) : String(value);
  }
  if (def.type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return day(value, language);
  if (field === 'amount' && typeof value === 'number') return formatYen(value, language);
  return typeof value === 'number' ? value.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US') : value;
}

/** "Booking amount greater than ¥50,000", "Hotel is さくらホテル 新宿, …", "Check-in date in the last 30 days". */
export function conditionText(
  condition: { field: string; operator: string; value: TFilterValue },
  t: TFunction,
  language: TLanguage,
  choicesOf: TChoicesOf,
): string {
  const { field, operator, value } = condition;
  const fieldLabel = isField(field) ? t(`segmentation.fields.${fieldKey(field)}`) : field;
  const show = (v: string | number) => valueText(field, v, t, language, choicesOf);
  if (operator === 'in_last_days' || operator === 'in_next_days') {
    return t('segmentation.summary.condition_any', {
      field: fieldLabel,
      operator: t(`segmentation.summary.${operator}`, { count: Number(value) }),
    });
  }
  // Any value given: a guest without one is not counted (packages/contracts/src/segments.ts).
  if (operator === 'all') return t('segmentation.summary.condition_all', { field: fieldLabel });
  const operatorLabel = t(`segmentation.operators.${operator}`);
  let shown: string;
  if (operator === 'between' && Array.isArray(value)) {
    shown = t('segmentation.summary.between', { from: show(value[0] ?? ''), to: show(value[1] ?? '') });
  } else if (Array.isArray(value)) {
    shown = value.map(show).join(', ');
  } else {
    shown = value === null ? '' : show(value);
  }
  return t('segmentation.summary.condition', { field: fieldLabel, operator: operatorLabel, value: shown });
}
