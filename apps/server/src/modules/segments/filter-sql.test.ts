import {
  FILTER_FIELDS,
  OPERATORS_BY_TYPE,
  type TFilter,
  type TFilterCondition,
  type TFilterField,
} from '@yado/contracts';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { countSql } from './filter-count.ts';
import type { TFilterEnv, TSegmentScope } from './filter-env.ts';
import { conditionSql, filterSql, groupPlaces } from './filter-sql.ts';

const dialect = new PgDialect();
const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => {
  const { sql, params } = dialect.sqlToQuery(q);
  return { sql, params };
};
const ENV: TFilterEnv = { today: '2026-07-01', timeZone: 'Asia/Tokyo' };
const BRAND: TSegmentScope = { brandId: '00000000-0000-4000-8000-000000000001', hotelIds: null };
const HOTEL: TSegmentScope = { brandId: BRAND.brandId, hotelIds: ['00000000-0000-4000-8000-000000000002'] };
const MARK = "x'); drop table customers; --";
const HOTEL_ID = '00000000-0000-4000-8000-0000000000aa';

/** A value of the right shape for a field and operator, carrying MARK where text can go. */
function valueFor(field: TFilterField, operator: string): unknown {
  const def = FILTER_FIELDS[field];
  if (def.type === 'text') return MARK;
  if (def.type === 'number') return operator === 'between' ? [1, 9] : 7;
  if (def.type === 'date') {
    if (operator === 'is') return '2026-07-15';
    if (operator === 'between') return ['2026-07-01', '2026-08-31'];
    return operator === 'year_is' ? 2026 : 5;
  }
  if (operator === 'all') return null;
  if ('options' in def) return [def.options[0]];
  return field === 'hotel' ? [HOTEL_ID] : [MARK];
}

const every: [TFilterField, string][] = (Object.keys(FILTER_FIELDS) as TFilterField[]).flatMap((field) =>
  OPERATORS_BY_TYPE[FILTER_FIELDS[field].type].map((op): [TFilterField, string] => [field, op]),
);

describe('compiling one condition', () => {
  it.each(every)('%s %s: values travel only as parameters', (field, operator) => {
    const cond = { kind: 'condition', field, operator, value: valueFor(field, operator) } as TFilterCondition;
    const { sql, params } = render(conditionSql(cond, ENV));
    expect(sql).not.toContain('drop table');
    expect(sql).not.toContain('2026-07-15');
    if (FILTER_FIELDS[field].type === 'text') expect(params).toContain(MARK.toLowerCase());
    // Every identifier is one of the fixed map's.
    const identifiers = sql.match(/\b(customers|b)\.[a-z_]+/g) ?? [];
    for (const id of identifiers)
      expect(id).toMatch(
        /^(customers\.(first_name_key|last_name_key|email_key|phone|id_number|address|city|gender|country|prefecture|email_status|consent_source|date_of_birth|created_at)|b\.(booking_date|check_in|check_out|status|hotel_id|nights|amount|guests|room_type|source))$/,
      );
  });

  it('writes each operator as its meaning', () => {
    const one = (field: TFilterField, operator: string, value: unknown) =>
      render(conditionSql({ kind: 'condition', field, operator, value } as TFilterCondition, ENV));
    expect(one('lastName', 'is', 'Yamada')).toEqual({ sql: 'customers.last_name_key = $1', params: ['yamada'] });
    expect(one('email', 'is_not', 'A@B.JP')).toEqual({
      sql: 'customers.email_key is distinct from $1',
      params: ['a@b.jp'],
    });
    expect(one('firstName', 'starts_with', 'Ta').sql).toBe(
      '(customers.first_name_key ~>=~ $1 and customers.first_name_key ~<~ $2)',
    );
    expect(one('firstName', 'starts_with', 'Ta').params).toEqual(['ta', 'tb']);
    expect(one('address', 'contains', '新宿')).toEqual({
      sql: 'strpos(lower(customers.address), $1) > 0',
      params: ['新宿'],
    });
    expect(one('amount', 'between', [100, 200])).toEqual({
      sql: 'b.amount between $1::bigint and $2::bigint',
      params: [100, 200],
    });
    expect(one('amount', 'between', [99.5, 200.5]).params).toEqual([100, 200]);
    expect(one('nights', 'greater_than', 2.5)).toEqual({ sql: 'b.nights > $1::bigint', params: [2] });
    expect(one('guests', 'less_than', 2.5)).toEqual({ sql: 'b.guests < $1::bigint', params: [3] });
    expect(one('guests', 'is', 2.5).sql).toBe('false');
    expect(one('age', 'is', 30).sql).toBe(
      'extract(year from age($1::date, customers.date_of_birth))::int = $2::bigint',
    );
    expect(one('checkInDate', 'month_is', 7)).toEqual({ sql: 'extract(month from b.check_in) = $1::int', params: [7] });
    expect(one('checkOutDate', 'in_last_days', 30)).toEqual({
      sql: 'b.check_out between $1::date - $2::int and $3::date',
      params: ['2026-07-01', 30, '2026-07-01'],
    });
    expect(one('bookingDate', 'in_next_days', 7).sql).toBe('b.booking_date between $1::date and $2::date + $3::int');
    expect(one('createdDate', 'is', '2026-01-01')).toEqual({
      sql: '(customers.created_at at time zone $1)::date = $2::date',
      params: ['Asia/Tokyo', '2026-01-01'],
    });
    expect(one('hotel', 'is', [HOTEL_ID])).toEqual({ sql: 'b.hotel_id = any($1::uuid[])', params: [[HOTEL_ID]] });
    expect(one('gender', 'is_not', ['male']).sql).toBe(
      '(customers.gender is null or not (customers.gender = any($1::text[])))',
    );
    // Any value given: a missing one fails "all" as it fails every operator but is_not.
    expect(one('roomType', 'all', null).sql).toBe('b.room_type is not null');
    expect(one('prefecture', 'all', null).sql).toBe('customers.prefecture is not null');
    expect(one('hotel', 'all', null).sql).toBe('true');
    expect(one('checkInStatus', 'is', ['checked_in']).sql).toContain(
      "case when b.status in ('checked_in', 'checked_out')",
    );
  });
});

const cond = (field: string, operator: string, value: unknown = null) => ({
  kind: 'condition',
  field,
  operator,
  value,
});
const filter = (groups: unknown[], join: 'and' | 'or' = 'and') => ({ version: 1, join, groups }) as TFilter;

describe('compiling a filter', () => {
  it("tests a group's booking conditions on one booking, in the segment's hotels", () => {
    const f = filter([
      {
        kind: 'group',
        join: 'and',
        items: [
          cond('age', 'greater_than', 20),
          cond('hotel', 'is', [HOTEL_ID]),
          cond('amount', 'greater_than', 50000),
        ],
      },
    ]);
    const { sql } = render(filterSql(f, HOTEL, ENV, 'set'));
    expect(sql).toBe(
      '(((extract(year from age($1::date, customers.date_of_birth))::int > $2::bigint) and (customers.id in (select b.customer_id from bookings b where b.brand_id = $3::uuid and b.hotel_id = any($4::uuid[]) and ((b.hotel_id = any($5::uuid[])) and (b.amount > $6::bigint))))))',
    );
  });

  it('counts bookings for "at least N" and negates for "none", per row or as a set', () => {
    const atLeast = filter([
      {
        kind: 'group',
        join: 'and',
        bookings: { quantifier: 'at_least', count: 3 },
        items: [cond('nights', 'greater_than', 1)],
      },
    ]);
    expect(render(filterSql(atLeast, BRAND, ENV, 'set')).sql).toContain('group by b.customer_id having count(*) >= $');
    expect(render(filterSql(atLeast, BRAND, ENV, 'row')).sql).toContain('b.customer_id = customers.id');
    const none = filter([
      {
        kind: 'group',
        join: 'and',
        bookings: { quantifier: 'none', count: 1 },
        items: [cond('nights', 'greater_than', 1)],
      },
    ]);
    expect(render(filterSql(none, BRAND, ENV, 'set')).sql).toContain('customers.id not in (select');
    expect(render(filterSql(none, BRAND, ENV, 'row')).sql).toContain('not exists (select 1 from bookings b');
  });

  it('counts the whole filter and every group in one statement', () => {
    const f = filter(
      [
        { kind: 'group', join: 'and', items: [cond('age', 'greater_than', 20)] },
        { kind: 'group', join: 'or', items: [cond('nights', 'greater_than', 1), cond('gender', 'is', ['female'])] },
      ],
      'or',
    );
    const { sql } = render(countSql(f, BRAND, ENV));
    expect(sql.match(/select /g)?.length).toBe(3);
    expect(sql).toContain(
      'coalesce((extract(year from age($1::date, customers.date_of_birth))::int > $2::bigint), false) as o0',
    );
    expect(sql).toContain('count(*) filter (where (((o0)) or ((o1))))::int as total');
    expect(sql).toContain('count(*) filter (where (o0))::int as n0, count(*) filter (where (o1))::int as n1');
  });

  it('counts every group at every level, testing each condition once', () => {
    const nights = cond('nights', 'greater_than', 1);
    const female = cond('gender', 'is', ['female']);
    const f = filter([
      {
        kind: 'group',
        join: 'or',
        items: [
          cond('age', 'greater_than', 20),
          { kind: 'group', join: 'and', items: [nights, { kind: 'group', join: 'or', items: [female] }] },
        ],
      },
      {
        kind: 'group',
        join: 'and',
        items: [{ kind: 'group', join: 'and', items: [cond('lastName', 'is', 'yamada')] }],
      },
    ]);
    expect(groupPlaces(f).map((p) => [p.path, p.index])).toEqual([
      ['groups.0', 0],
      ['groups.0.items.1', 1],
      ['groups.0.items.1.items.1', 1],
      ['groups.1', 1],
      ['groups.1.items.0', 0],
    ]);
    const { sql } = render(countSql(f, BRAND, ENV));
    // One statement: the count, the customers' answers, and the one booking subquery.
    expect(sql.match(/select /g)?.length).toBe(3);
    for (const column of ['b.nights', 'customers.gender', 'customers.last_name_key', 'customers.date_of_birth'])
      expect(sql.split(column)).toHaveLength(2);
    // A group's answer is its own column joined with its subgroups' (groups.1 has none of its own).
    for (const own of ['o0', 'o1', 'o2', 'o4']) expect(sql).toContain(`, false) as ${own}`);
    expect(sql).not.toContain('as o3');
    expect(sql).toContain('count(*) filter (where ((((o0) or (((o1) and ((o2)))))) and (((o4)))))::int as total');
    expect(sql).toContain('count(*) filter (where ((o1) and ((o2))))::int as n1');
    expect(sql).toContain('count(*) filter (where (o4))::int as n4');
  });

  it('counts a lone group without subgroups in the where clause', () => {
    const { sql } = render(
      countSql(filter([{ kind: 'group', join: 'and', items: [cond('lastName', 'is', 'yamada')] }]), BRAND, ENV),
    );
    expect(sql).toBe(
      'select count(*)::int as total, count(*)::int as n0 from customers where customers.brand_id = $1::uuid and (customers.last_name_key = $2)',
    );
  });
});

describe("a brand's date-only booking group", () => {
  const days = (items: TFilterCondition[], bookings?: { quantifier: 'at_least' | 'none'; count: number }): TFilter =>
    ({
      version: 1,
      join: 'and',
      groups: [{ kind: 'group', join: 'and', items, ...(bookings ? { bookings } : {}) }],
    }) as TFilter;
  const checkIn = (operator: string, value: unknown) =>
    ({ kind: 'condition', field: 'checkInDate', operator, value }) as TFilterCondition;
  const notBack = days([checkIn('in_last_days', 365)], { quantifier: 'none', count: 1 });

  it("reads the customer's kept check-in days in set form, without the bookings", () => {
    const { sql, params } = render(filterSql(notBack, BRAND, ENV, 'set'));
    expect(sql).toContain('customers.check_ins &&');
    expect(sql).not.toContain('bookings');
    expect(sql).toMatch(/not \(+case when/);
    expect(params).toContain('2025-07-01');
  });

  it('asks for the overlap of spans joined by and, as one test', () => {
    const { sql } = render(
      filterSql(days([checkIn('year_is', 2025), checkIn('in_last_days', 400)]), BRAND, ENV, 'set'),
    );
    expect(sql).toContain('greatest(');
    expect(sql.match(/daterange/g)).toHaveLength(1);
  });

  it('still reads the bookings in row form, in a hotel scope, with other fields, a day of the month or a count', () => {
    const cases: [TFilter, TSegmentScope, 'set' | 'row'][] = [
      [notBack, BRAND, 'row'],
      [notBack, HOTEL, 'set'],
      [
        days([
          checkIn('in_last_days', 365),
          { kind: 'condition', field: 'amount', operator: 'greater_than', value: 5 } as TFilterCondition,
        ]),
        BRAND,
        'set',
      ],
      [days([checkIn('day_is', 1)]), BRAND, 'set'],
      [days([checkIn('in_last_days', 365)], { quantifier: 'at_least', count: 2 }), BRAND, 'set'],
    ];
    for (const [filter, scope, mode] of cases) {
      const { sql } = render(filterSql(filter, scope, ENV, mode));
      expect(sql, JSON.stringify(filter)).toContain('from bookings b');
      expect(sql, JSON.stringify(filter)).not.toContain('check_ins');
    }
  });
});
