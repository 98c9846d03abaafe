import { describe, expect, it } from 'vitest';
import { RateWindow } from './rate-window.ts';

describe('RateWindow', () => {
  it('allows each address its allowance per minute, then again the next minute', () => {
    let now = 0;
    const window = new RateWindow(3, () => now);
    expect([1, 2, 3, 4].map(() => window.take('198.51.100.1'))).toEqual([true, true, true, false]);
    expect(window.take('198.51.100.2')).toBe(true);
    now = 60_000;
    expect(window.take('198.51.100.1')).toBe(true);
  });

  it('tells a spent allowance without counting', () => {
    const window = new RateWindow(2, () => 0);
    expect(window.spent('198.51.100.1')).toBe(false);
    window.take('198.51.100.1');
    expect(window.spent('198.51.100.1')).toBe(false);
    window.take('198.51.100.1');
    expect(window.spent('198.51.100.1')).toBe(true);
  });
});
