/**
 * Time as the booking system sees it: Japanese Standard Time, which has no daylight saving, so a
 * fixed +09:00 offset is exact. Days are counted as integers (days since 1970-01-01 in JST) so the
 * simulator can step through them and derive each day's random stream from its number.
 */

export const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;
const JST_OFFSET_MS = 9 * MS_PER_HOUR;

/** The JST calendar day an instant falls on. */
export function jstDay(ms: number): number {
  return Math.floor((ms + JST_OFFSET_MS) / MS_PER_DAY);
}

/** The instant a JST day begins (00:00 +09:00). */
export function jstDayStart(day: number): number {
  return day * MS_PER_DAY - JST_OFFSET_MS;
}

/** `YYYY-MM-DD` of a JST day. */
export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The JST day of a `YYYY-MM-DD` string, or null when it is not a real date. */
export function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) return null;
  return ms / MS_PER_DAY;
}

/** Day of the week of a JST day: 0 Sunday ... 6 Saturday. */
export function weekday(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCDay();
}

/** Month 1-12 and day of month of a JST day. */
export function monthAndDate(day: number): { month: number; date: number } {
  const d = new Date(day * MS_PER_DAY);
  return { month: d.getUTCMonth() + 1, date: d.getUTCDate() };
}

/** An instant written the way a Japanese system writes it: `2026-11-01T10:15:00.000+09:00`. */
export function formatJstTimestamp(ms: number): string {
  return `${new Date(ms + JST_OFFSET_MS).toISOString().slice(0, 23)}+09:00`;
}

/**
 * Parses an ISO 8601 instant that states its offset (`Z` or `±hh:mm`); a bare local time is
 * refused because the client and the booking system may disagree on its zone.
 */
export function parseInstant(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2026-02-30 over to March; refuse dates that do not exist.
  const datePart = text.slice(0, 10);
  if (parseDay(datePart) === null) return null;
  return ms;
}
