import { describe, expect, it } from 'vitest';
import { isSenderEmail, normalizeDomain } from './sending.ts';

describe('normalizeDomain', () => {
  it('lower-cases, drops one final dot and stores an internationalised name in punycode', () => {
    expect(normalizeDomain(' Hotel.Example.JP. ')).toBe('hotel.example.jp');
    expect(normalizeDomain('さくら.jp')).toMatch(/^xn--[a-z0-9]+\.jp$/);
    expect(normalizeDomain('ＨＯＴＥＬ．ＪＰ')).toBe('hotel.jp');
  });

  it('refuses addresses, bare TLDs, URLs, over-long names and labels', () => {
    for (const bad of [
      '',
      '.',
      'jp',
      '10.0.0.1',
      '[::1]',
      'http://hotel.jp',
      'hotel.jp/x',
      'a@hotel.jp',
      'hotel..jp',
      '-a.jp',
      `${'a'.repeat(64)}.jp`,
      `${'abcdefghi.'.repeat(26)}jp`,
      'hotel.j1',
      'ho tel.jp',
      'hotel.jp..',
    ])
      expect(normalizeDomain(bad), bad).toBeNull();
  });
});

describe('isSenderEmail', () => {
  it('takes a plain address on a valid domain', () => {
    expect(isSenderEmail('news@hotel.example.jp')).toBe(true);
    expect(isSenderEmail('news@さくら.jp')).toBe(true);
    expect(isSenderEmail('news@localhost')).toBe(false);
    expect(isSenderEmail('news letter@hotel.jp')).toBe(false);
  });
});
