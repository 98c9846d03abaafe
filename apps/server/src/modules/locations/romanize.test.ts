import { describe, expect, it } from 'vitest';
import { romanize } from './romanize.ts';

describe('romanize', () => {
  it.each([
    ['とうきょう', 'Tokyo'],
    ['おおさか', 'Osaka'],
    ['きょうと', 'Kyoto'],
    ['ほっかいどう', 'Hokkaido'],
    ['しんじゅく', 'Shinjuku'],
    ['ちゅうおう', 'Chuo'],
    ['はっちょう', 'Hatcho'],
    ['ぐんま', 'Gunma'],
    ['おおいた', 'Oita'],
    ['よこはま', 'Yokohama'],
    ['はこね', 'Hakone'],
    ['しずおか', 'Shizuoka'],
    ['ふくしま', 'Fukushima'],
    ['じょうえつ', 'Joetsu'],
    ['りゅうがさき', 'Ryugasaki'],
    ['べっぷ', 'Beppu'],
    ['ぎふ', 'Gifu'],
  ])('%s → %s', (reading, expected) => {
    expect(romanize(reading)).toBe(expected);
  });

  it('refuses a reading it cannot spell rather than guessing', () => {
    expect(() => romanize('とうきょう都')).toThrow(/都/);
  });
});
