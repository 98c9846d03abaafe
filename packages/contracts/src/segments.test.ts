import { describe, expect, it } from 'vitest';
import { checkFilter, FILTER_FIELDS, OPERATORS_BY_TYPE, ZFilter } from './segments.ts';

const cond = (field: string, operator: string, value: unknown = null) => ({
  kind: 'condition',
  field,
  operator,
  value,
});
const doc = (items: unknown[]) => ({ version: 1, join: 'and', groups: [{ kind: 'group', join: 'or', items }] });

describe('the filter document', () => {
  it('gives every field a type whose operators are known', () => {
    for (const def of Object.values(FILTER_FIELDS)) expect(OPERATORS_BY_TYPE[def.type].length).toBeGreaterThan(0);
  });

  it("accepts the marketer's example", () => {
    const f = {
      version: 1,
      join: 'and',
      groups: [
        {
          kind: 'group',
          join: 'and',
          items: [
            cond('hotel', 'is', ['00000000-0000-4000-8000-000000000001']),
            cond('checkInDate', 'between', ['2025-07-01', '2025-08-31']),
            cond('amount', 'greater_than', 50000),
          ],
        },
        {
          kind: 'group',
          join: 'and',
          bookings: { quantifier: 'none' },
          items: [cond('checkInDate', 'in_last_days', 365)],
        },
      ],
    };
    expect(checkFilter(f)).toEqual([]);
    expect(ZFilter.safeParse(f).success).toBe(true);
  });

  it('names the place of each fault', () => {
    expect(
      checkFilter(
        doc([
          cond('age', 'between', [5, 1]),
          cond('email', 'is', ''),
          cond('gender', 'is', ['x']),
          cond('checkInDate', 'day_is', 32),
        ]),
      ),
    ).toEqual([
      { path: 'groups.0.items.0.value', code: 'between_order' },
      { path: 'groups.0.items.1.value', code: 'value_wrong_type' },
      { path: 'groups.0.items.2.value', code: 'unknown_choice' },
      { path: 'groups.0.items.3.value', code: 'value_out_of_range' },
    ]);
    expect(checkFilter(doc([cond('toString', 'is', 'x')]))).toEqual([
      { path: 'groups.0.items.0.field', code: 'unknown_field' },
    ]);
    expect(checkFilter({ version: 1, join: 'and', groups: [] })).toEqual([{ path: 'groups', code: 'no_groups' }]);
  });

  it('refuses more than 50 conditions and more than 3 levels', () => {
    expect(checkFilter(doc(Array.from({ length: 51 }, () => cond('age', 'is', 1))))).toEqual([
      { path: 'groups.0.items.50', code: 'too_many_conditions' },
    ]);
    const nest = (n: number): unknown =>
      n === 0 ? cond('age', 'is', 1) : { kind: 'group', join: 'and', items: [nest(n - 1)] };
    expect(checkFilter({ version: 1, join: 'and', groups: [nest(3)] })).toEqual([]);
    expect(checkFilter({ version: 1, join: 'and', groups: [nest(4)] })).toEqual([
      { path: 'groups.0.items.0.items.0.items.0', code: 'too_deep' },
    ]);
  });

  it('refuses unknown keys instead of ignoring them', () => {
    const r = ZFilter.safeParse({ ...doc([cond('age', 'is', 1)]), where: '1=1' });
    expect(r.success).toBe(false);
  });
});
