import { describe, expect, it } from 'vitest';
import { instantOf, isRealLocalTime, quietHold, quietHoursRelease } from './schedule-time.ts';

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
    expect(quietHoursRelease(instantOf('2026-07-01T23:30', 'Asia/Tokyo'), TOKYO)?.toISOString()).toBe(
      instantOf('2026-07-02T08:00', 'Asia/Tokyo').toISOString(),
    );
    expect(quietHoursRelease(instantOf('2026-07-02T06:00', 'Asia/Tokyo'), TOKYO)?.toISOString()).toBe(
      instantOf('2026-07-02T08:00', 'Asia/Tokyo').toISOString(),
    );
    expect(quietHoursRelease(instantOf('2026-07-01T21:00', 'Asia/Tokyo'), TOKYO)).not.toBeNull();
    expect(quietHoursRelease(instantOf('2026-07-01T20:59', 'Asia/Tokyo'), TOKYO)).toBeNull();
    expect(quietHoursRelease(instantOf('2026-07-01T08:00', 'Asia/Tokyo'), TOKYO)).toBeNull();
    // A window within one day, and none at all.
    expect(
      quietHoursRelease(instantOf('2026-07-01T13:00', 'UTC'), {
        start: '12:00',
        end: '14:00',
        timeZone: 'UTC',
      })?.toISOString(),
    ).toBe('2026-07-01T14:00:00.000Z');
    expect(
      quietHoursRelease(instantOf('2026-07-01T23:00', 'UTC'), { start: '00:00', end: '00:00', timeZone: 'UTC' }),
    ).toBeNull();
  });
});

describe('quiet hours per hotel', () => {
  it('holds the hotels inside their own quiet hours, each in its own time zone, at a fixed clock', () => {
    const hotels = new Map([
      ['tokyo', TOKYO],
      ['london', { start: '21:00', end: '08:00', timeZone: 'Europe/London' }],
      ['own-none', { start: '00:00', end: '00:00', timeZone: 'Asia/Tokyo' }],
      ['own-early', { start: '20:00', end: '07:00', timeZone: 'Asia/Tokyo' }],
    ]);
    // 2026-07-01 23:30 in Tokyo is 15:30 in London (summer time).
    const night = instantOf('2026-07-01T23:30', 'Asia/Tokyo');
    expect(quietHold(hotels, TOKYO, night)).toEqual({ hotelIds: ['tokyo', 'own-early'], unplaced: true });
    // 07:30 in Tokyo: the hotel whose quiet hours end at 07:00 sends, the default ones still wait; London (23:30) waits.
    const early = instantOf('2026-07-02T07:30', 'Asia/Tokyo');
    expect(quietHold(hotels, { start: '00:00', end: '00:00', timeZone: 'Asia/Tokyo' }, early)).toEqual({
      hotelIds: ['tokyo', 'london'],
      unplaced: false,
    });
    // 18:00 in Tokyo, 10:00 in London: nobody waits.
    expect(quietHold(hotels, TOKYO, instantOf('2026-07-02T18:00', 'Asia/Tokyo'))).toEqual({
      hotelIds: [],
      unplaced: false,
    });
  });
});
