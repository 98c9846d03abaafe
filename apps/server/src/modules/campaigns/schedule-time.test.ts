import { describe, expect, it } from 'vitest';
import { instantOf, isRealLocalTime, quietHoursRelease } from './schedule-time.ts';

const TOKYO = { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' };

describe('schedule times', () => {
  it('reads a wall-clock time in the chosen time zone', () => {
    expect(instantOf('2026-07-01T09:30', 'Asia/Tokyo').toISOString()).toBe('2026-07-01T00:30:00.000Z');
    expect(instantOf('2026-07-01T09:30', 'UTC').toISOString()).toBe('2026-07-01T09:30:00.000Z');
    // New York in summer (UTC-4) and in winter (UTC-5).
    expect(instantOf('2026-07-01T09:30', 'America/New_York').toISOString()).toBe('2026-07-01T13:30:00.000Z');
    expect(instantOf('2026-01-15T09:30', 'America/New_York').toISOString()).toBe('2026-01-15T14:30:00.000Z');
  });

  it('refuses dates that do not exist', () => {
    expect(isRealLocalTime('2026-02-30T10:00')).toBe(false);
    expect(isRealLocalTime('2026-02-28T24:00')).toBe(false);
    expect(isRealLocalTime('2026-02-28T23:59')).toBe(true);
  });

  it('holds a send due in the quiet hours until their end that morning', () => {
    // 23:30 in Tokyo waits for 08:00 the next day; 06:00 for 08:00 the same day.
    expect(quietHoursRelease(instantOf('2026-07-01T23:30', 'Asia/Tokyo'), TOKYO)?.toISOString()).toBe(instantOf('2026-07-02T08:00', 'Asia/Tokyo').toISOString());
    expect(quietHoursRelease(instantOf('2026-07-02T06:00', 'Asia/Tokyo'), TOKYO)?.toISOString()).toBe(instantOf('2026-07-02T08:00', 'Asia/Tokyo').toISOString());
    expect(quietHoursRelease(instantOf('2026-07-01T21:00', 'Asia/Tokyo'), TOKYO)).not.toBeNull();
    expect(quietHoursRelease(instantOf('2026-07-01T20:59', 'Asia/Tokyo'), TOKYO)).toBeNull();
    expect(quietHoursRelease(instantOf('2026-07-01T08:00', 'Asia/Tokyo'), TOKYO)).toBeNull();
    // A window within one day, and none at all.
    expect(quietHoursRelease(instantOf('2026-07-01T13:00', 'UTC'), { start: '12:00', end: '14:00', timeZone: 'UTC' })?.toISOString()).toBe('2026-07-01T14:00:00.000Z');
    expect(quietHoursRelease(instantOf('2026-07-01T23:00', 'UTC'), { start: '00:00', end: '00:00', timeZone: 'UTC' })).toBeNull();
  });
});
