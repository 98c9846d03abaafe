import { describe, expect, it } from 'vitest';
import { addDays, dashboardWindow, daysOf, localDay } from './dashboard-window.ts';

describe('dashboard window', () => {
  it('is today and the six days before in the host time zone, and the seven days before that', () => {
    // 2026-11-23 16:30 UTC is already Tuesday the 24th in Tokyo, still Monday the 23rd in London.
    const now = new Date('2026-11-23T16:30:00Z');
    expect(dashboardWindow(now, 'Asia/Tokyo')).toEqual({
      timezone: 'Asia/Tokyo',
      from: '2026-11-18',
      to: '2026-11-24',
      previousFrom: '2026-11-11',
      previousTo: '2026-11-17',
    });
    expect(dashboardWindow(now, 'Europe/London').to).toBe('2026-11-23');
  });

  it('crosses month and year ends by the calendar', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(dashboardWindow(new Date('2027-01-03T03:00:00Z'), 'Asia/Tokyo').previousFrom).toBe('2026-12-21');
    expect(localDay(new Date('2026-12-31T15:00:00Z'), 'Asia/Tokyo')).toBe('2027-01-01');
  });

  it('lists seven days for the chart, oldest first', () => {
    const w = dashboardWindow(new Date('2026-11-24T03:00:00Z'), 'Asia/Tokyo');
    expect(daysOf(w.from, w.to)).toEqual([
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ]);
  });
});
