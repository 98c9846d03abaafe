import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from './locations.ts';

describe('country codes', () => {
  it('are the 249 officially assigned codes of ISO 3166-1 alpha-2', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    for (const code of ['JP', 'US', 'KR', 'TW', 'CN', 'GB', 'AQ', 'BQ', 'SS', 'SX'])
      expect(isCountryCode(code), code).toBe(true);
  });

  it('leave out two letters that name no country: unknown, reserved, user-assigned and lower case', () => {
    for (const code of ['ZZ', 'XX', 'AA', 'UK', 'EU', 'AC', 'TA', 'XK', 'AN', 'jp', 'J', 'JPN'])
      expect(isCountryCode(code), code).toBe(false);
  });
});
