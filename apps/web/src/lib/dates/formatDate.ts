import type { TLanguage } from '../session/storage';

export interface TFormatDateOptions {
  /** Show the time of day too (12-hour clock). */
  withTime?: boolean;
  /** Show the instant as stored (UTC) instead of converting to the viewer's time zone. */
  noOffset?: boolean;
  /** For tests and reports rendered for someone else. */
  timeZone?: string;
}

/**
 * Dates as section 9 says: Japanese long format with a 12-hour clock in Japanese
 * ("2026年5月3日 午後3:04"); otherwise day, short month, year, 12-hour time ("03 May 2026, 3:04 PM").
 */
export function formatDate(
  value: string | number | Date,
  language: TLanguage,
  options: TFormatDateOptions = {},
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '-';
  const timeZone = options.noOffset ? 'UTC' : options.timeZone;
  if (language === 'ja') {
    return new Intl.DateTimeFormat('ja-JP', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      ...(options.withTime ? { hour: 'numeric', minute: '2-digit', hour12: true } : {}),
      timeZone,
    }).format(date);
  }
  // The parts in en-US ("Sep"; en-GB's is "Sept"), put in the day-first order here.
  const parts = new Intl.DateTimeFormat('en-US', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone,
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${part('day')} ${part('month').replace('.', '')} ${part('year')}`;
  if (!options.withTime) return day;
  return `${day}, ${timeOfDay(date, language, timeZone)}`;
}

/** The time of day alone, as formatDate writes it after the date ("午後3:04", "3:04 PM"). */
export function formatTime(
  value: string | number | Date,
  language: TLanguage,
  options: Omit<TFormatDateOptions, 'withTime'> = {},
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '-';
  return timeOfDay(date, language, options.noOffset ? 'UTC' : options.timeZone);
}

function timeOfDay(date: Date, language: TLanguage, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(language === 'ja' ? 'ja-JP' : 'en-US', {
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone,
  })
    .format(date)
    .replace(/\u202f/g, ' ');
}

/**
 * A date and time in `timeZone` on a page whose times are in `pageTimeZone` (named once under a
 * list): a row of another zone names its zone after its time ("… 3:04 PM (Pacific/Honolulu)").
 */
export function formatInPageZone(
  value: string | number | Date,
  language: TLanguage,
  timeZone: string,
  pageTimeZone: string | undefined,
): string {
  const text = formatDate(value, language, { withTime: true, timeZone });
  return timeZone === pageTimeZone ? text : `${text} (${timeZone})`;
}
