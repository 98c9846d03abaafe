import { describe, expect, it } from 'vitest';
import { findCountry, placeChoices, placeName } from './locationNames';

const prefectures = [
  { code: '13', name: { ja: '東京都', en: 'Tokyo' } },
  { code: '27', name: { ja: '大阪府', en: 'Osaka' } },
];
const cities = [
  { code: '01403', name: { ja: '泊村', en: 'Tomari Village' } },
  { code: '01696', name: { ja: '泊村', en: 'Tomari Village' } },
];

describe('location names', () => {
  it('shows a stored Japanese place name in English when the list knows it, else as stored', () => {
    expect(placeName(prefectures, '東京都', 'en')).toBe('Tokyo');
    expect(placeName(prefectures, '東京都', 'ja')).toBe('東京都');
    expect(placeName(prefectures, 'Tokio', 'en')).toBe('Tokio');
    expect(placeName(undefined, '東京都', 'en')).toBe('東京都');
    expect(placeName(prefectures, null, 'en')).toBeNull();
  });

  it('offers choices by stored name, keeps an unknown stored value, and lists a shared name once', () => {
    expect(placeChoices(prefectures, '', 'en')).toEqual([
      { value: '東京都', label: 'Tokyo' },
      { value: '大阪府', label: 'Osaka' },
    ]);
    expect(placeChoices(prefectures, '東京', 'ja')[0]).toEqual({ value: '東京', label: '東京' });
    expect(placeChoices(cities, '泊村', 'ja')).toEqual([{ value: '泊村', label: '泊村' }]);
  });

  it('finds a country by its code in either case', () => {
    const countries = [{ code: 'JP', callingCode: '81', name: { ja: '日本', en: 'Japan' }, flagUrl: '/f/JP.svg' }];
    expect(findCountry(countries, 'jp')?.name.en).toBe('Japan');
    expect(findCountry(countries, null)).toBeUndefined();
  });
});
