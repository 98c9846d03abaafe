/**
 * Wall-clock time in a named time zone, for the schedule step: the user picks a date and a time
 * as the hotel reads them, the server stores the instant. No library: Intl knows every zone.
 */

export interface TWallClock {
  /** YYYY-MM-DD */
  date: string;
  /** HH:mm */
  time: string;
}

function offsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/**
 * The instant (ISO, UTC) of a wall-clock time in `timeZone`, or null when the date or time is not
 * one. A time skipped by a daylight-saving jump resolves to the same clock reading after the jump.
 */
export function wallClockToInstant({ date, time }: TWallClock, timeZone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!d || !t || !isTimeZone(timeZone)) return null;
  const [y, mo, da] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const naive = Date.UTC(y, mo - 1, da, Number(t[1]), Number(t[2]));
  const check = new Date(naive);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== da) return null;
  // Two passes settle the offset on either side of a daylight-saving change.
  let instant = naive - offsetMinutes(naive, timeZone) * 60_000;
  instant = naive - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant).toISOString();
}

/** The wall-clock reading of an instant in `timeZone`. */
export function instantToWallClock(instant: string | number | Date, timeZone: string): TWallClock {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return Boolean(timeZone);
  } catch {
    return false;
  }
}

/** The zones offered: the host's and the browser's first, then every zone Intl knows. */
export function timeZoneChoices(...first: (string | null | undefined)[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const leading = first.filter((z): z is string => Boolean(z) && isTimeZone(z as string));
  return [...new Set([...leading, 'Asia/Tokyo', 'UTC', ...known])];
}
