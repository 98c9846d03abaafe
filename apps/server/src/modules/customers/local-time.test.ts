import { describe, expect, it } from 'vitest';
import { exportFileName } from './export-customers.ts';
import { localDate, localDateTime } from './local-time.ts';

describe('export times in the host time zone', () => {
  // Five past midnight on 3 December in Tokyo is still 2 December in UTC.
  const justAfterMidnightInTokyo = new Date('2026-12-02T15:05:07.123Z');

  it("dates a file with the host's day, not UTC's", () => {
    expect(exportFileName('customers', justAfterMidnightInTokyo, 'Asia/Tokyo')).toBe('customers-2026-12-03.csv');
    expect(exportFileName('customers', justAfterMidnightInTokyo, 'UTC')).toBe('customers-2026-12-02.csv');
    expect(localDate(justAfterMidnightInTokyo, 'Pacific/Honolulu')).toBe('2026-12-02');
  });

  it('writes an instant on the host clock with its offset', () => {
    expect(localDateTime(justAfterMidnightInTokyo, 'Asia/Tokyo')).toBe('2026-12-03 00:05:07 +09:00');
    expect(localDateTime(justAfterMidnightInTokyo, 'UTC')).toBe('2026-12-02 15:05:07 +00:00');
    expect(localDateTime(justAfterMidnightInTokyo, 'Pacific/Honolulu')).toBe('2026-12-02 05:05:07 -10:00');
    expect(localDateTime(justAfterMidnightInTokyo, 'Asia/Kolkata')).toBe('2026-12-02 20:35:07 +05:30');
    // Daylight saving: New York is at -05:00 in winter and -04:00 in summer.
    expect(localDateTime(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01 08:00:00 -04:00');
    expect(localDateTime(justAfterMidnightInTokyo, 'America/New_York')).toBe('2026-12-02 10:05:07 -05:00');
  });

  it('names the same instant it was given', () => {
    for (const zone of ['Asia/Tokyo', 'UTC', 'Pacific/Honolulu', 'Asia/Kolkata', 'America/New_York']) {
      const written = localDateTime(justAfterMidnightInTokyo, zone);
      const iso = written.replace(' ', 'T').replace(' ', '');
      expect(new Date(iso).getTime()).toBe(Math.floor(justAfterMidnightInTokyo.getTime() / 1000) * 1000);
    }
  });
});
