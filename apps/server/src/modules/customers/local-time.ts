/**
 * Instants as the host's clock shows them, for the CSV export: the console shows every time in the
 * host's time zone (`hosts.timezone`), so its file does too, with the offset written so the file
 * names the instant unambiguously. Pure (local-time.test.ts).
 */

import { wallClockOf as wallClock } from '../campaigns/schedule-time.ts';

/** Where the host's zone is unknown (no host row in reach): the product's home zone. */
export const FALLBACK_TIME_ZONE = 'Asia/Tokyo';

const two = (n: number) => String(n).padStart(2, '0');

/** The calendar day of `instant` in `timeZone`: `2026-12-03`. */
export function localDate(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)}`;
}

/** `instant` in `timeZone` with the zone's offset at that instant: `2026-12-03 09:15:00 +09:00`. */
export function localDateTime(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  const wholeSeconds = Math.floor(instant.getTime() / 1000) * 1000;
  const offset = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - wholeSeconds) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${localDate(instant, timeZone)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)} ${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
