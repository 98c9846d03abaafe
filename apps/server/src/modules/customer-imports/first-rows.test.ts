import { describe, expect, it } from 'vitest';
import { FirstRows } from './row-stager.ts';

describe('first rows by phone', () => {
  it('tells a repeat with the same values from a conflict, across growth of the table', () => {
    const seen = new FirstRows();
    for (let row = 2; row < 200_002; row++)
      expect(seen.check(`090${String(row).padStart(8, '0')}`, row, `v${row}`)).toBeNull();
    expect(seen.check('09000000002', 300_000, 'v2')).toEqual({ duplicateOf: 2, same: true });
    expect(seen.check('09000150000', 300_001, 'other')).toEqual({ duplicateOf: 150_000, same: false });
    // A leading zero makes another number; fifteen digits take the other path.
    expect(seen.check('9000000002', 300_002, 'v')).toBeNull();
    expect(seen.check('123456789012345', 300_003, 'x')).toBeNull();
    expect(seen.check('123456789012345', 300_004, 'x')).toEqual({ duplicateOf: 300_003, same: true });
  });
});
