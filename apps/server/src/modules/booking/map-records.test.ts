import type { TGuest } from '@yado/booking-sim';
import { describe, expect, it } from 'vitest';
import { localClock } from './daily-sync.ts';
import { applyGuest, BOOKING_OPT_OUT_REASON, customerChanged, mapGuest, newCustomer } from './map-records.ts';

const guest: TGuest = {
  id: 'DBK-1-G1',
  family_name: '髙橋',
  given_name: '花子',
  family_name_kana: 'タカハシ',
  given_name_kana: 'ハナコ',
  gender: 'unspecified',
  birth_date: '1985-04-03',
  email: ' Hanako.Takahashi@example.com ',
  phone: '＋81 90-1234-5678',
  country: 'jp',
  postal_code: '160-0023',
  prefecture: '東京都',
  city: '新宿区',
  address: '西新宿1-1-1',
  language: 'ja',
  newsletter_opt_in: true,
  created_at: '2026-11-01T10:00:00.000+09:00',
  updated_at: '2026-11-02T10:00:00.000+09:00',
};

describe('mapping a guest', () => {
  it('normalises phone and email, and maps gender and country', () => {
    const g = mapGuest(guest);
    expect(g).toMatchObject({
      phone: '09012345678',
      email: 'hanako.takahashi@example.com',
      gender: 'prefer_not_to_say',
      country: 'JP',
      lastName: '髙橋',
      firstName: '花子',
    });
    expect(mapGuest({ ...guest, phone: '(090)1234-5678' }).phone).toBe('09012345678');
    expect(mapGuest({ ...guest, phone: null, email: 'not an address' })).toMatchObject({ phone: null, email: null });
  });

  it('takes only ISO 3166-1 country codes, and says when it left one out', () => {
    expect(mapGuest({ ...guest, country: ' gb ' })).toMatchObject({ country: 'GB', countryInvalid: false });
    for (const country of ['UK', 'ZZ', 'Japan', 'XK'])
      expect(mapGuest({ ...guest, country }), country).toMatchObject({ country: null, countryInvalid: true });
    expect(mapGuest({ ...guest, country: '' })).toMatchObject({ country: null, countryInvalid: false });
  });

  it('keeps guests at real top-level domains of any length (DESIGN section 6)', () => {
    expect(mapGuest({ ...guest, email: ' Hanako@Ryokan.TOKYO ' }).email).toBe('hanako@ryokan.tokyo');
    expect(mapGuest({ ...guest, email: 'stay@kyoto.travel' }).email).toBe('stay@kyoto.travel');
    expect(mapGuest({ ...guest, email: 'info@xn--wgv71a119e.jp' }).email).toBe('info@xn--wgv71a119e.jp');
    expect(mapGuest({ ...guest, email: 'hanako@ryokan.tokyo.' }).email).toBeNull();
  });

  it('makes a new customer with the consent the guest gave at booking', () => {
    const g = mapGuest(guest);
    expect(newCustomer('c1', { ...g, phone: '09012345678' })).toMatchObject({
      emailStatus: 'active',
      unsubscribeReason: null,
    });
    expect(
      newCustomer('c1', { ...mapGuest({ ...guest, newsletter_opt_in: false }), phone: '09012345678' }),
    ).toMatchObject({
      emailStatus: 'unsubscribed',
      unsubscribeReason: BOOKING_OPT_OUT_REASON,
    });
  });
});

describe('applying a guest to a customer', () => {
  const current = newCustomer('c1', { ...mapGuest(guest), phone: '09012345678' });

  it('changes nothing when the guest says nothing new', () => {
    expect(customerChanged(current, applyGuest(current, mapGuest(guest), true))).toBe(false);
  });

  it('never erases a known value with a missing one, nor a known gender with "unspecified"', () => {
    const known = { ...current, gender: 'female' as const };
    const after = applyGuest(known, mapGuest({ ...guest, email: null, address: null, birth_date: null }), true);
    expect(after).toMatchObject({
      email: current.email,
      address: current.address,
      dateOfBirth: current.dateOfBirth,
      gender: 'female',
    });
  });

  it('keeps the known country when the booking system sends one that is no country code', () => {
    expect(applyGuest(current, mapGuest({ ...guest, country: 'UK' }), true).country).toBe('JP');
    expect(applyGuest(current, mapGuest({ ...guest, country: 'us' }), true).country).toBe('US');
  });

  it('moves the phone only when allowed', () => {
    const moved = mapGuest({ ...guest, phone: '080-9999-0000' });
    expect(applyGuest(current, moved, true).phone).toBe('08099990000');
    expect(applyGuest(current, moved, false).phone).toBe('09012345678');
  });

  it("unsubscribes on the guest's no, and re-subscribes only what the booking system unsubscribed", () => {
    const no = applyGuest(current, mapGuest({ ...guest, newsletter_opt_in: false }), true);
    expect(no).toMatchObject({ emailStatus: 'unsubscribed', unsubscribeReason: BOOKING_OPT_OUT_REASON });
    expect(applyGuest(no, mapGuest(guest), true)).toMatchObject({ emailStatus: 'active', unsubscribeReason: null });
    const byLink = { ...current, emailStatus: 'unsubscribed' as const, unsubscribeReason: 'unsubscribe_link' };
    expect(applyGuest(byLink, mapGuest(guest), true)).toMatchObject({
      emailStatus: 'unsubscribed',
      unsubscribeReason: 'unsubscribe_link',
    });
  });
});

describe('the local clock of a brand', () => {
  it('reads the day and time in the time zone', () => {
    expect(localClock(new Date('2026-11-21T16:00:00Z'), 'Asia/Tokyo')).toEqual({ day: '2026-11-22', time: '01:00' });
    expect(localClock(new Date('2026-11-21T16:00:00Z'), 'Europe/London')).toEqual({ day: '2026-11-21', time: '16:00' });
    expect(localClock(new Date('2026-11-21T19:30:00Z'), 'Asia/Kolkata')).toEqual({ day: '2026-11-22', time: '01:00' });
  });
});
