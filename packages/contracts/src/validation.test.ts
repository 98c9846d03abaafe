import { describe, expect, it } from 'vitest';
import {
  isAccountEmail,
  isBookingHotelCode,
  isValidEmail,
  normalizeBookingHotelCode,
  passwordProblem,
} from './validation.ts';
import { fullName, roleDisplayName } from './tenancy.ts';
import { featureFlagsFor } from './features.ts';

describe('email addresses (DESIGN section 6: real top-level domains)', () => {
  it.each([
    'taro@example.com',
    'taro.yamada@hotel.co.jp',
    'front-desk@a-b.jp',
    'a_b@x.io',
    // The specification's 2-to-3-character suffix refused these real domains.
    'hanako@ryokan.tokyo',
    'reservations@grand.hotel',
    'info@kyoto.travel',
    'grand@demo.test',
    'stay@onsen.okinawa',
    // Plus tags and other atom characters.
    'guest+promo@example.com',
    'guest+promo.2026@example.jp',
    "o'brien@example.ie",
    'x_y-z=1@example.com',
    // Subdomains, digits and inner hyphens in labels.
    'front@mail.tokyo.hotel-sakura.co.jp',
    'a@123.example.com',
    // An internationalised domain in punycode, at any level.
    'info@xn--wgv71a119e.jp',
    'info@example.xn--p1ai',
    'info@xn--eckwd4c7c.xn--zckzah',
    // Upper case.
    'Hanako.Sato@Ryokan.TOKYO',
    'INFO@XN--WGV71A119E.JP',
  ])('accepts %s', (e) => {
    expect(isValidEmail(e)).toBe(true);
  });
  it.each([
    '',
    'taro',
    'taro@',
    '@example.com',
    'taro@example',
    'taro@localhost',
    'taro@example.c',
    'taro@example.123',
    'taro@example.t0kyo',
    'taro@@example.com',
    'ta ro@example.com',
    ' taro@example.com',
    // A trailing dot (a fully qualified name) and consecutive dots, on either side.
    'taro@example.com.',
    'taro..y@example.com',
    'taro@example..com',
    '.taro@example.com',
    'taro.@example.com',
    'taro@.example.com',
    // Hyphens at a label's edge, underscores in a host name.
    'taro@-example.com',
    'taro@example-.com',
    'taro@ex_ample.com',
    // Quoted local parts and unencoded international names.
    '"taro yamada"@example.com',
    '太郎@example.jp',
    'info@例え.jp',
    'info@example.みんな',
  ])('refuses %s', (e) => {
    expect(isValidEmail(e)).toBe(false);
  });
  it('keeps to 254 characters in all and 64 before the @', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.jp`; // 195 characters
    const at254 = `${'x'.repeat(254 - domain.length - 1)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(`y${at254}`)).toBe(false);
    expect(isValidEmail(`${'l'.repeat(64)}@example.com`)).toBe(true);
    expect(isValidEmail(`${'l'.repeat(65)}@example.com`)).toBe(false);
    expect(isValidEmail(`taro@${'a'.repeat(64)}.com`)).toBe(false);
  });
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
