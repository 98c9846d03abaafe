import { describe, expect, it } from 'vitest';
import { nextSendTime } from './stay-limits.ts';

const tokyo = (date: string, time: string) => new Date(`${date}T${time}:00+09:00`);

describe("a late booking's send time", () => {
  it("is today's send time while it is still ahead (or now), else tomorrow's, in the scenario's time zone", () => {
    expect(nextSendTime(tokyo('2026-12-03', '01:00'), '09:00', 'Asia/Tokyo')).toEqual(tokyo('2026-12-03', '09:00'));
    expect(nextSendTime(tokyo('2026-12-03', '09:00'), '09:00', 'Asia/Tokyo')).toEqual(tokyo('2026-12-03', '09:00'));
    expect(nextSendTime(tokyo('2026-12-03', '16:00'), '09:00', 'Asia/Tokyo')).toEqual(tokyo('2026-12-04', '09:00'));
    // 18:30 on New Year's Eve in New York: 09:00 there the next morning, in the next year.
    expect(nextSendTime(new Date('2026-12-31T23:30:00Z'), '09:00', 'America/New_York')).toEqual(
      new Date('2027-01-01T14:00:00Z'),
    );
  });
});
