import type { TFilter, TFilterCondition, TFilterGroup } from '@yado/contracts';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { countSql, setCountSql } from './filter-count.ts';
import type { TFilterEnv, TSegmentScope } from './filter-env.ts';

const dialect = new PgDialect();
const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => dialect.sqlToQuery(q);
const ENV: TFilterEnv = { today: '2026-07-01', timeZone: 'Asia/Tokyo' };
const BRAND: TSegmentScope = { brandId: '00000000-0000-4000-8000-000000000001', hotelIds: null };
const HOTEL: TSegmentScope = { brandId: BRAND.brandId, hotelIds: ['00000000-0000-4000-8000-000000000002'] };
const SHINJUKU = '00000000-0000-4000-8000-0000000000aa';
const MARK = "x'); drop table customers; --";

const cond = (field: string, operator: string, value: unknown = null) =>
  ({ kind: 'condition', field, operator, value }) as TFilterCondition;
const group = (items: TFilterGroup['items'], join: 'and' | 'or' = 'and', bookings?: TFilterGroup['bookings']) =>
  ({ kind: 'group', join, items, ...(bookings ? { bookings } : {}) }) as TFilterGroup;
const filter = (groups: TFilterGroup[], join: 'and' | 'or' = 'and') => ({ version: 1, join, groups }) as TFilter;

const summer = group([
  cond('hotel', 'is', [SHINJUKU]),
  cond('checkInDate', 'between', ['2025-07-01', '2025-08-31']),
  cond('amount', 'greater_than', 50000),
]);
const notBack = group([cond('checkInDate', 'in_last_days', 365)], 'and', { quantifier: 'none', count: 1 });
const yamada = group([cond('lastName', 'starts_with', '山'), cond('gender', 'is', ['female'])]);

describe('a count made of sets', () => {
  it("counts the marketer's segment from the summer's bookings and the customers last here since, not from every customer", () => {
    const { sql, params } = render(countSql(filter([summer, notBack]), BRAND, ENV));
    expect(sql).toMatch(/^with s0 as materialized \(select distinct b\.customer_id as id from bookings b where/);
    // "Not back for a year": those last here before the year began (but not before the summer,
    // or they could not be in the summer's set), and those back after today without a stay in it.
    expect(sql).toContain('customers.last_check_in >= $');
    expect(sql).toContain('customers.last_check_in > $');
    expect(sql).toContain('not (customers.first_check_in <= ');
    expect(sql).toContain('m.id in (select id from s0)');
    expect(params).toEqual(expect.arrayContaining(['2025-07-01', '2025-08-31', '2025-07-01', '2026-07-01']));
    // Never a pass over the customers: every read of them is bounded by the last check-in.
    for (const read of sql.split('from customers where').slice(1))
      expect(read).toMatch(/^ customers\.brand_id = \$\d+::uuid and customers\.last_check_in /);
  });

  it('counts groups joined by "or" as the union of their customers, a family-name group from its index range', () => {
    const { sql, params } = render(countSql(filter([yamada, summer], 'or'), BRAND, ENV));
    expect(sql).toContain(
      's0 as materialized (select customers.id from customers where customers.brand_id = $1::uuid and ((customers.last_name_key ~>=~ $2',
    );
    expect(sql).toContain('(select count(*) from (select id from s0 union select id from s1) u)');
    expect(params).toContain('山');
  });

  it('counts recent days from the kept days alone, each count once', () => {
    const { sql } = render(countSql(filter([group([cond('checkInDate', 'in_last_days', 90)])]), BRAND, ENV));
    expect(sql).not.toContain('bookings');
    expect(sql).toMatch(/^select x\.n0 as total, x\.n0 from \(select .* offset 0\) x$/);
  });

  it('reads the bookings for days further back, and for "at least N" stays', () => {
    for (const g of [
      group([cond('checkInDate', 'year_is', 2025)]),
      group([cond('checkInDate', 'in_last_days', 90)], 'and', { quantifier: 'at_least', count: 2 }),
    ]) {
      const { sql } = render(countSql(filter([g]), BRAND, ENV));
      expect(sql).toContain('from bookings b');
      expect(sql).not.toContain('check_ins');
    }
  });

  it('carries values only as parameters', () => {
    const { sql, params } = render(countSql(filter([group([cond('lastName', 'is', MARK)]), summer], 'or'), BRAND, ENV));
    expect(sql).not.toContain('drop table');
    expect(params).toContain(MARK.toLowerCase());
  });

  it('leaves to the pass over the customers what is not made of such sets', () => {
    const cases: [string, TFilter, TSegmentScope][] = [
      ['a hotel scope', filter([summer, notBack]), HOTEL],
      ['a subgroup', filter([group([group([cond('lastName', 'is', 'x')]), cond('lastName', 'is', 'y')])]), BRAND],
      [
        '"or" within a group',
        filter([group([cond('lastName', 'is', 'x'), cond('gender', 'is', ['male'])], 'or')]),
        BRAND,
      ],
      [
        'customer and booking conditions in one group',
        filter([group([cond('lastName', 'is', 'x'), cond('checkInDate', 'in_last_days', 9)])]),
        BRAND,
      ],
      ['a customer group without a family name', filter([group([cond('gender', 'is', ['male'])]), summer]), BRAND],
      ['bookings without check-in days', filter([group([cond('amount', 'greater_than', 5)])]), BRAND],
      [
        'days that do not meet',
        filter([group([cond('checkInDate', 'year_is', 2024), cond('checkInDate', 'year_is', 2025)])]),
        BRAND,
      ],
      ['a days group joined by "or"', filter([summer, notBack], 'or'), BRAND],
      ['only days groups joined by "and"', filter([notBack, group([cond('checkInDate', 'in_next_days', 30)])]), BRAND],
      ['a lone family-name group (already an indexed count)', filter([yamada]), BRAND],
    ];
    for (const [what, f, scope] of cases) {
      expect(setCountSql(f, scope, ENV), what).toBeNull();
      expect(render(countSql(f, scope, ENV)).sql, what).toMatch(
        /from customers where customers\.brand_id = \$\d+::uuid/,
      );
    }
  });
});
