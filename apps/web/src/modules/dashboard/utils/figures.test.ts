import { describe, expect, it } from 'vitest';
import { formatYen as customersYen } from '../../customers/format';
import { changeOf, formatCount, formatRate, formatYen } from './figures';

describe('dashboard figures', () => {
  it('formats counts, rates and yen per language', () => {
    expect(formatCount(12345, 'en')).toBe('12,345');
    expect(formatCount(12345, 'ja')).toBe('12,345');
    expect(formatRate(0.2534, 'en')).toBe('25.3%');
    expect(formatYen(1234567, 'ja')).toMatch(/1,234,567/);
    expect(formatYen(1234567, 'en')).toMatch(/1,234,567/);
  });

  it('writes yen as the rest of the console does: ¥ in English, never JP¥', () => {
    expect(formatYen(64000, 'en')).toBe('¥64,000');
    for (const language of ['ja', 'en'] as const)
      expect(formatYen(1234567, language)).toBe(customersYen(1234567, language));
  });

  it('says how a count moved, and that it cannot tell without the earlier figure', () => {
    expect(changeOf({ current: 120, previous: 100 }, 'count', 'en')).toEqual({ kind: 'up', value: '20' });
    expect(changeOf({ current: 90, previous: 100 }, 'count', 'en')).toEqual({ kind: 'down', value: '-10' });
    expect(changeOf({ current: 100, previous: 100 }, 'count', 'en')).toEqual({ kind: 'same' });
    expect(changeOf({ current: 100, previous: null }, 'count', 'en')).toEqual({ kind: 'unknown' });
  });

  it('gives a rate change in percentage points, unknown when a week had no mail', () => {
    expect(changeOf({ current: 0.3, previous: 0.25 }, 'rate', 'en')).toEqual({ kind: 'points_up', value: '5' });
    expect(changeOf({ current: 0.2, previous: 0.253 }, 'rate', 'en')).toEqual({ kind: 'points_down', value: '-5.3' });
    expect(changeOf({ current: null, previous: 0.2 }, 'rate', 'en')).toEqual({ kind: 'unknown' });
  });
});
