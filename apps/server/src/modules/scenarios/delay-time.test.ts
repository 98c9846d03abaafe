import { describe, expect, it } from 'vitest';
import { delayUntil } from './delay-time.ts';

const TZ = 'Asia/Tokyo';
// Tuesday 2026-11-24 10:30 in Tokyo.
const at = new Date('2026-11-24T01:30:00Z');
const iso = (d: Date) => d.toISOString();

describe('delayUntil', () => {
  it('adds a duration', () => {
    expect(iso(delayUntil({ kind: 'duration', amount: 90, unit: 'minutes' }, at, TZ))).toBe('2026-11-24T03:00:00.000Z');
    expect(iso(delayUntil({ kind: 'duration', amount: 2, unit: 'days' }, at, TZ))).toBe('2026-11-26T01:30:00.000Z');
  });

  it('waits for the next chosen weekday at its time, in the time zone', () => {
    // Today is Tuesday (2) but 09:00 has passed: next Tuesday; Friday (5) is this week.
    expect(iso(delayUntil({ kind: 'weekday', weekdays: [2], time: '09:00' }, at, TZ))).toBe('2026-12-01T00:00:00.000Z');
    expect(iso(delayUntil({ kind: 'weekday', weekdays: [5, 2] }, at, TZ))).toBe('2026-11-27T00:00:00.000Z');
    expect(iso(delayUntil({ kind: 'weekday', weekdays: [2], time: '18:00' }, at, TZ))).toBe('2026-11-24T09:00:00.000Z');
  });

  it('passes over months without the chosen day, and waits for a chosen month', () => {
    expect(iso(delayUntil({ kind: 'day_of_month', day: 31 }, at, TZ))).toBe('2026-12-31T00:00:00.000Z');
    expect(iso(delayUntil({ kind: 'month', months: [3], day: 1 }, at, TZ))).toBe('2027-03-01T00:00:00.000Z');
  });

  it('goes on at a time of day, today or tomorrow, and at once after a date already past', () => {
    expect(iso(delayUntil({ kind: 'time_of_day', time: '08:00' }, at, TZ))).toBe('2026-11-24T23:00:00.000Z');
    expect(iso(delayUntil({ kind: 'time_of_day', time: '11:00' }, at, TZ))).toBe('2026-11-24T02:00:00.000Z');
    expect(iso(delayUntil({ kind: 'date', date: '2026-01-01' }, at, TZ))).toBe(iso(at));
  });
});
