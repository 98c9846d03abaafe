import { describe, expect, it } from 'vitest';
import { unstorableTextPath } from './unstorable-text.ts';

describe('unstorableTextPath', () => {
  it('finds nothing in plain values, however nested', () => {
    expect(unstorableTextPath(null)).toBeNull();
    expect(unstorableTextPath(42)).toBeNull();
    expect(unstorableTextPath('ふつうの文字 😀')).toBeNull();
    expect(unstorableTextPath({ a: [{ b: 'x', c: [1, true, null, '😀'] }], d: { e: 'y' } })).toBeNull();
  });

  it('names the first text PostgreSQL cannot keep: NUL and lone surrogates, in values and keys', () => {
    expect(unstorableTextPath('a\u0000b')).toBe('body');
    expect(unstorableTextPath('a\u0000b', 'search')).toBe('search');
    expect(unstorableTextPath({ contents: { ja: { subject: 'ok', body: 'x\ud800' } } })).toBe('contents.ja.body');
    expect(unstorableTextPath({ list: ['ok', { name: '\udc00' }] })).toBe('list.1.name');
    expect(unstorableTextPath({ ['bad\u0000key']: 'value' })).toBe('bad\u0000key');
    // The first in the document's order, when there are several.
    expect(unstorableTextPath({ first: '\u0000', second: { third: '\ud800' } })).toBe('first');
    expect(unstorableTextPath([['ok'], ['ok', '\u0000'], '\ud800'])).toBe('1.1');
  });

  it('keeps a surrogate pair whole and walks a deep body without overflowing', () => {
    expect(unstorableTextPath({ emoji: '\ud83d\ude00' })).toBeNull();
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(unstorableTextPath(deep)).toMatch(/^0(\.0)+$/);
  });
});
