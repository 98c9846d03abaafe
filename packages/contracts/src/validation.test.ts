import { describe, expect, it } from 'vitest';
import { isAccountEmail, isBookingHotelCode, isValidEmail, normalizeBookingHotelCode, passwordProblem } from './validation.ts';
import { fullName, roleDisplayName } from './tenancy.ts';
import { featureFlagsFor } from './features.ts';

describe('email pattern (specification section 5)', () => {
  it.each(['taro@example.com', 'taro.yamada@hotel.co.jp', 'front-desk@a-b.jp', 'guest+promo@example.com', 'a_b@x.io'])('accepts %s', (e) => {
    expect(isValidEmail(e)).toBe(true);
  });
  it.each(['', 'taro', 'taro@', '@example.com', 'taro@example', 'taro@example.c', 'taro@@example.com', 'ta ro@example.com', 'taro@example.tokyo', 'taro..y@example.com'])(
    'rejects %s',
    (e) => {
      expect(isValidEmail(e)).toBe(false);
    },
  );
  it('identifies accounts with longer suffixes at sign-in', () => {
    expect(isAccountEmail('grand@demo.test')).toBe(true);
    expect(isAccountEmail('sales@hotel.tokyo')).toBe(true);
    expect(isAccountEmail('no-at-sign')).toBe(false);
  });
});

describe('password rules', () => {
  it('needs 8 to 128 characters with a letter and a digit', () => {
    expect(passwordProblem('')).toBe('required');
    expect(passwordProblem('abc1234')).toBe('too_short');
    expect(passwordProblem('abcdefgh')).toBe('no_digit');
    expect(passwordProblem('12345678')).toBe('no_letter');
    expect(passwordProblem('a1'.repeat(65))).toBe('too_long');
    expect(passwordProblem('demo-pass-1')).toBeNull();
    expect(passwordProblem('ぱすわーど123')).toBeNull();
  });
});

describe('names', () => {
  it('puts the family name first for Japanese names', () => {
    expect(fullName('太郎', '山田')).toBe('山田 太郎');
    expect(fullName('Emily', 'Carter')).toBe('Emily Carter');
    expect(fullName('Taro', '')).toBe('Taro');
  });
  it('spells role names as the specification does', () => {
    expect(roleDisplayName('grand_user', 'granduser')).toBe('Granduser');
    expect(roleDisplayName('brand', 'admin')).toBe('Brand Admin');
    expect(roleDisplayName('hotel_group', 'staff')).toBe('Hotel Group Staff');
    expect(roleDisplayName('hotel', 'viewer')).toBe('Hotel Viewer');
  });
});

describe('feature flags', () => {
  it('turns flex_builder on only in dev', () => {
    expect(featureFlagsFor('dev').flex_builder).toBe(true);
    expect(featureFlagsFor('production').flex_builder).toBe(false);
    expect(featureFlagsFor('production').automation).toBe(true);
  });
});

describe('booking-system hotel code', () => {
  it('takes a code typed in full width or with spaces around it as the ASCII code', () => {
    expect(normalizeBookingHotelCode('  ＳＫＲ－ＳＨＩＮＪＵＫＵ ')).toBe('SKR-SHINJUKU');
    expect(normalizeBookingHotelCode('skrーnagoya')).toBe('skr-nagoya');
    expect(normalizeBookingHotelCode('   ')).toBe('');
  });
  it.each(['SKR-SHINJUKU', 'HBV_KOBE.2', 'a', 'A'.repeat(32)])('accepts %s', (code) => {
    expect(isBookingHotelCode(code)).toBe(true);
  });
  it.each(['', '-SKR', 'SKR SHINJUKU', 'さくら', 'SKR/1', 'A'.repeat(33)])('refuses %s', (code) => {
    expect(isBookingHotelCode(code)).toBe(false);
  });
});
