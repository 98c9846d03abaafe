import type { TFilter, TFilterCondition } from '@yado/contracts';
import { describe, expect, it } from 'vitest';
import { conditionHolds, evaluateFilter, explainFilter, type TEvalBooking, type TEvalCustomer } from './filter-eval.ts';
import type { TFilterEnv, TSegmentScope } from './filter-env.ts';

const ENV: TFilterEnv = { today: '2026-07-01', timeZone: 'Asia/Tokyo' };
const BRAND = 'b0000000-0000-4000-8000-000000000000';
const SHINJUKU = 'a0000000-0000-4000-8000-000000000001';
const KYOTO = 'a0000000-0000-4000-8000-000000000002';
const scope: TSegmentScope = { brandId: BRAND, hotelIds: null };

const booking = (over: Partial<TEvalBooking>): TEvalBooking => ({
  id: 'k1',
  brandId: BRAND,
  hotelId: SHINJUKU,
  bookingDate: '2025-06-01',
  checkIn: '2025-07-20',
  checkOut: '2025-07-22',
  nights: 2,
  guests: 2,
  amount: 60000,
  roomType: 'twin',
  source: 'web',
  status: 'checked_out',
  ...over,
});
const guest: TEvalCustomer = {
  id: 'c1',
  brandId: BRAND,
  firstName: 'Taro',
  lastName: '山田',
  email: 'Taro@Example.jp',
  phone: '09012345678',
  idNumber: null,
  address: '東京都新宿区',
  city: '新宿区',
  dateOfBirth: '1990-07-02',
  gender: 'male',
  country: 'JP',
  prefecture: '東京都',
  emailStatus: 'active',
  consentSource: 'booking_system',
  // 2026-06-30 16:00 UTC is 2026-07-01 in Tokyo.
  createdAt: new Date('2026-06-30T16:00:00Z'),
  hotelIds: [SHINJUKU],
  bookings: [
    booking({}),
    booking({
      id: 'k2',
      hotelId: KYOTO,
      checkIn: '2026-06-21',
      checkOut: '2026-06-22',
      nights: 1,
      amount: 20000,
      status: 'confirmed',
      roomType: null,
    }),
  ],
};

const holds = (field: string, operator: string, value: unknown, b: TEvalBooking | null = null) =>
  conditionHolds({ kind: 'condition', field, operator, value } as TFilterCondition, guest, b, ENV);

describe('one condition', () => {
  it.each([
    ['firstName', 'is', 'taro', true],
    ['firstName', 'is_not', 'TARO', false],
    ['email', 'starts_with', 'taro@', true],
    ['address', 'contains', '新宿', true],
    ['idNumber', 'is', 'x', false],
    ['idNumber', 'is_not', 'x', true],
    ['idNumber', 'contains', 'x', false],
    ['age', 'is', 35, true],
    ['age', 'greater_than', 35, false],
    ['age', 'between', [30, 35], true],
    ['gender', 'is', ['female', 'male'], true],
    ['gender', 'is_not', ['male'], false],
    ['prefecture', 'all', null, true],
    ['createdDate', 'is', '2026-07-01', true],
    ['createdDate', 'in_last_days', 0, true],
    ['createdDate', 'day_is', 30, false],
    ['source', 'is', ['booking_system'], true],
  ])('%s %s %j is %s', (field, operator, value, expected) => expect(holds(field, operator, value)).toBe(expected));

  it.each([
    ['hotel', 'is', [SHINJUKU.toUpperCase()], true],
    ['hotel', 'is_not', [SHINJUKU], false],
    ['checkInDate', 'month_is', 7, true],
    ['checkInDate', 'year_is', 2025, true],
    ['checkInDate', 'between', ['2025-07-01', '2025-08-31'], true],
    ['checkInDate', 'in_last_days', 365, true],
    ['checkInDate', 'in_next_days', 30, false],
    ['checkInStatus', 'is', ['checked_in'], true],
    ['checkOutStatus', 'is', ['not_checked_out'], false],
    ['amount', 'greater_than', 50000, true],
    ['nights', 'less_than', 2, false],
    ['roomType', 'is', ['twin'], true],
    ['roomType', 'all', null, true],
    ['bookingSource', 'is_not', ['ota'], true],
    ['bookingStatus', 'is', ['cancelled'], false],
  ])('booking %s %s %j is %s', (field, operator, value, expected) =>
    expect(holds(field, operator, value, guest.bookings[0]!)).toBe(expected),
  );

  it('counts a guest or booking without a value out of "all" (any value given), as every operator but is_not', () => {
    const unknown = { ...guest, gender: null, prefecture: null };
    const of = (field: string, operator: string, value: unknown, b: TEvalBooking | null = null) =>
      conditionHolds({ kind: 'condition', field, operator, value } as TFilterCondition, unknown, b, ENV);
    expect(of('gender', 'all', null)).toBe(false);
    expect(of('prefecture', 'all', null)).toBe(false);
    expect(of('gender', 'is', ['male'])).toBe(false);
    expect(of('gender', 'is_not', ['male'])).toBe(true);
    expect(of('roomType', 'all', null, guest.bookings[1]!)).toBe(false);
    expect(of('hotel', 'all', null, guest.bookings[1]!)).toBe(true);
  });
});

const cond = (field: string, operator: string, value: unknown = null) =>
  ({ kind: 'condition' as const, field, operator, value }) as TFilterCondition;

describe('groups and bookings', () => {
  it('asks one booking to meet all booking conditions of an "and" group', () => {
    const f: TFilter = {
      version: 1,
      join: 'and',
      groups: [
        { kind: 'group', join: 'and', items: [cond('hotel', 'is', [KYOTO]), cond('amount', 'greater_than', 50000)] },
      ],
    };
    // Kyoto has a booking, and some booking is over 50,000, but no one booking is both.
    expect(evaluateFilter(f, guest, scope, ENV)).toBe(false);
  });

  it('counts bookings for "at least N" and "none"', () => {
    const atLeast = (count: number): TFilter => ({
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          bookings: { quantifier: 'at_least', count },
          items: [cond('nights', 'greater_than', 0)],
        },
      ],
    });
    expect(evaluateFilter(atLeast(2), guest, scope, ENV)).toBe(true);
    expect(evaluateFilter(atLeast(3), guest, scope, ENV)).toBe(false);
    const none: TFilter = {
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          bookings: { quantifier: 'none', count: 1 },
          items: [cond('checkInDate', 'in_last_days', 200)],
        },
      ],
    };
    expect(evaluateFilter(none, guest, scope, ENV)).toBe(false);
    // A hotel's segment sees only its own bookings: the Kyoto stay is not there.
    expect(evaluateFilter(none, guest, { brandId: BRAND, hotelIds: [SHINJUKU] }, ENV)).toBe(true);
  });

  it('explains each condition, and shows the booking that matched or came closest', () => {
    const f: TFilter = {
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          items: [
            cond('firstName', 'is', 'taro'),
            cond('hotel', 'is', [SHINJUKU]),
            cond('amount', 'greater_than', 100000),
          ],
        },
      ],
    };
    const out = explainFilter(f, guest, scope, ENV);
    expect(out.in).toBe(false);
    const g = out.groups[0]!;
    expect(g.bookings).toMatchObject({ matched: 0, held: false });
    expect(g.bookings?.booking?.id).toBe('k1');
    expect(g.items.map((i) => ('held' in i ? i.held : null))).toEqual([true, true, false]);
    expect(g.items[2]).toMatchObject({ actual: 60000 });
  });

  it('leaves a customer of another brand or hotel out', () => {
    const f: TFilter = {
      version: 1,
      join: 'and',
      groups: [{ kind: 'group', join: 'and', items: [cond('firstName', 'is', 'taro')] }],
    };
    expect(evaluateFilter(f, guest, { brandId: 'other', hotelIds: null }, ENV)).toBe(false);
    expect(evaluateFilter(f, guest, { brandId: BRAND, hotelIds: [KYOTO] }, ENV)).toBe(false);
  });
});
