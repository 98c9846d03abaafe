import { describe, expect, it } from 'vitest';
import { holdOf, type TWaitingGroup } from './campaign-hold.ts';

// 23:30 in Tokyo (14:30 UTC): inside the default quiet hours (21:00-08:00).
const NIGHT = new Date('2026-07-01T14:30:00Z');

const group = (over: Partial<TWaitingGroup>): TWaitingGroup => ({
  campaign_id: 'c1',
  host_id: 'h1',
  host_name: 'さくら旅館 箱根',
  host_level: 'hotel',
  timezone: 'Asia/Tokyo',
  start: null,
  end: null,
  waiting: 10,
  ...over,
});

describe('the hold of a sending campaign', () => {
  it('names the hotel, its wall-clock end of quiet hours and how many wait (defaults when unset)', () => {
    expect(holdOf([group({})], 0, NIGHT)).toEqual({
      reason: 'quiet_hours',
      until: '2026-07-01T23:00:00.000Z',
      localTime: '08:00',
      timeZone: 'Asia/Tokyo',
      hostName: 'さくら旅館 箱根',
      otherHosts: 0,
      waiting: 10,
      whole: true,
    });
  });

  it('is null when no waiting hotel is inside its quiet hours', () => {
    expect(holdOf([group({ start: '00:00', end: '00:00' })], 0, NIGHT)).toBeNull();
    expect(holdOf([], 0, NIGHT)).toBeNull();
  });

  it('names the hotel whose quiet hours end first, counts the others, and is partial while others still go', () => {
    const hold = holdOf(
      [
        group({ host_id: 'h1', host_name: 'Late', end: '09:00', waiting: 3 }),
        group({ host_id: 'h2', host_name: 'Early', end: '07:30', waiting: 4 }),
        // Mid-afternoon in New York: not quiet, so these still go.
        group({ host_id: 'h3', host_name: 'Abroad', timezone: 'America/New_York', waiting: 5 }),
      ],
      0,
      NIGHT,
    );
    expect(hold).toMatchObject({ hostName: 'Early', localTime: '07:30', otherHosts: 1, waiting: 7, whole: false });
    // Deliveries in flight: something is still on its way.
    expect(holdOf([group({})], 2, NIGHT)?.whole).toBe(false);
  });

  it('counts as "more" the other hotels only, not the brand holding its guests allocated to no hotel', () => {
    const brand = group({ host_id: 'b1', host_name: 'さくらホテルズ', host_level: 'brand', end: '09:00', waiting: 5 });
    const hotels = [
      group({ host_id: 'h1', host_name: 'Early', end: '07:30', waiting: 4 }),
      group({ host_id: 'h2', host_name: 'Late', end: '09:30', waiting: 3 }),
    ];
    // Early is named; one other hotel (Late) is "more"; the brand's 5 guests wait too.
    expect(holdOf([brand, ...hotels], 0, NIGHT)).toMatchObject({ hostName: 'Early', otherHosts: 1, waiting: 12 });
    // The brand's quiet hours end first: it is named, and both hotels are the "more".
    expect(holdOf([{ ...brand, end: '07:00' }, ...hotels], 0, NIGHT)).toMatchObject({
      hostName: 'さくらホテルズ',
      otherHosts: 2,
      waiting: 12,
    });
    // The brand alone: nothing more.
    expect(holdOf([brand], 0, NIGHT)).toMatchObject({ hostName: 'さくらホテルズ', otherHosts: 0 });
  });
});
