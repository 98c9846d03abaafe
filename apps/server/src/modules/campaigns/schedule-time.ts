/**
 * Wall-clock times in a time zone, for schedules and quiet hours. Pure, so the rules are unit-tested
 * (schedule-time.test.ts) without a database.
 */

interface TWallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `instant` in `timeZone`. */
export function wallClockOf(instant: Date, timeZone: string): TWallClock & { second: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function offsetAt(instant: Date, timeZone: string): number {
  const w = wallClockOf(instant, timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:mm`) names in `timeZone`. A time skipped by a
 * daylight-saving change is taken at the offset before it (so it lands just after the change).
 */
export function instantOf(localTime: string, timeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(localTime);
  if (!m) throw new Error('not a local time');
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const first = asUtc - offsetAt(new Date(asUtc), timeZone);
  const second = asUtc - offsetAt(new Date(first), timeZone);
  return new Date(second);
}

/** True when `localTime` is a real calendar date and time (not 2026-02-30T25:00). */
export function isRealLocalTime(localTime: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(localTime);
  if (!m) return false;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60;
}

export interface TQuietHours {
  /** HH:MM */
  start: string;
  end: string;
  timeZone: string;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

/**
 * When mail due at `instant` may go out: `instant` itself outside the quiet hours, else the end of
 * the quiet hours that morning (21:00-08:00: a send due at 23:30 waits for 08:00 the next day).
 * Equal start and end mean no quiet hours.
 */
export function quietHoursRelease(instant: Date, quiet: TQuietHours): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const w = wallClockOf(instant, quiet.timeZone);
  const now = w.hour * 60 + w.minute;
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return null;
  // The end falls today if it is still ahead on the wall clock, else tomorrow.
  const day = new Date(Date.UTC(w.year, w.month - 1, w.day + (now < end ? 0 : 1)));
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}T${pad(Math.floor(end / 60))}:${pad(end % 60)}`;
  return instantOf(local, quiet.timeZone);
}

/** Deliveries quiet hours hold: those of the hotels listed, and those without a hotel when `unplaced`. */
export interface TQuietHold {
  hotelIds: string[];
  unplaced: boolean;
}

/**
 * What quiet hours hold at `now`: the hotels inside their own quiet hours (each in its own time
 * zone), and the deliveries without a hotel when the campaign host is inside its.
 */
export function quietHold(hotelQuiet: Map<string, TQuietHours>, ownerQuiet: TQuietHours, now: Date): TQuietHold {
  const hotelIds = [...hotelQuiet].filter(([, quiet]) => quietHoursRelease(now, quiet) !== null).map(([id]) => id);
  return { hotelIds, unplaced: quietHoursRelease(now, ownerQuiet) !== null };
}
