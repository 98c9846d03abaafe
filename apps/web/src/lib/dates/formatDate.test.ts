import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from './formatDate';

const instant = '2026-05-03T06:04:00Z';

describe('formatDate', () => {
  it('uses the Japanese long format with a 12-hour clock in Japanese', () => {
    expect(formatDate(instant, 'ja', { withTime: true, timeZone: 'Asia/Tokyo' })).toBe('2026年5月3日 午後3:04');
    expect(formatDate(instant, 'ja', { timeZone: 'Asia/Tokyo' })).toBe('2026年5月3日');
  });

  it('uses day, short month, year and AM/PM time in English', () => {
    expect(formatDate(instant, 'en', { withTime: true, timeZone: 'Asia/Tokyo' })).toBe('03 May 2026, 3:04 PM');
    expect(formatDate(instant, 'en', { timeZone: 'Asia/Tokyo' })).toBe('03 May 2026');
  });

  it('writes every month in three letters (not en-GB\'s "Sept")', () => {
    expect(formatDate('2026-09-01T03:00:00Z', 'en', { timeZone: 'Asia/Tokyo' })).toBe('01 Sep 2026');
    expect(formatDate('2026-06-30T03:00:00Z', 'en', { timeZone: 'Asia/Tokyo' })).toBe('30 Jun 2026');
  });

  it('applies the time-zone offset unless told not to', () => {
    expect(formatDate(instant, 'en', { withTime: true, noOffset: true })).toBe('03 May 2026, 6:04 AM');
  });

  it('shows "-" for an unreadable date', () => {
    expect(formatDate('not a date', 'en')).toBe('-');
  });

  it('gives the time of day alone as it follows the date', () => {
    expect(formatTime(instant, 'ja', { timeZone: 'Asia/Tokyo' })).toBe('午後3:04');
    expect(formatTime(instant, 'en', { timeZone: 'Asia/Tokyo' })).toBe('3:04 PM');
    expect(formatTime(instant, 'en', { noOffset: true })).toBe('6:04 AM');
    expect(formatTime('not a date', 'ja')).toBe('-');
  });
});
