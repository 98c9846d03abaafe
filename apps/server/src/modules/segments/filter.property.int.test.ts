import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  checkFilter,
  FILTER_FIELDS,
  OPERATORS_BY_TYPE,
  type TFilter,
  type TFilterCondition,
  type TFilterField,
  type TFilterGroup,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, withTenant } from '../../db/client.ts';
import { startTestServer, type TTestServer } from '../../test/harness.ts';
import { countSql, setCountSql } from './filter-count.ts';
import type { TFilterEnv, TSegmentScope } from './filter-env.ts';
import { customerScopeSql, filterSql, groupPlaces } from './filter-sql.ts';
import { evaluateFilter, evaluateGroup, type TEvalBooking, type TEvalCustomer } from './filter-eval.ts';

/**
 * The compiler and the evaluator agree: random customers and bookings are written to real
 * PostgreSQL, random filters are compiled and run there (under the brand's row-level security, in
 * both compile modes and as the one-statement count), and the answers must equal the plain
 * evaluator's, customer by customer and group by group.
 */

let s: TTestServer;
let brandId: string;
let otherBrandId: string;
let hotels: string[];
let groupHotels: string[];

beforeAll(async () => {
  s = await startTestServer();
  const rows = await s.sql(`select slug, id, hotel_group_id from hosts`);
  const id = (slug: string) => rows.find((r) => r.slug === slug).id as string;
  brandId = id('sakura-hotels');
  otherBrandId = id('harbor-view');
  hotels = ['sakura-shinjuku', 'sakura-yokohama', 'sakura-kyoto', 'sakura-hakone'].map(id);
  groupHotels = rows.filter((r) => r.hotel_group_id === id('sakura-kanto')).map((r) => r.id);
});
afterAll(async () => {
  await s?.close();
});

const TODAY = '2026-03-01';
const ENV: TFilterEnv = { today: TODAY, timeZone: 'Asia/Tokyo' };

const NAMES = [
  'Taro',
  'taro',
  'TARO',
  'Hanako',
  '山田',
  'やまだ',
  'Smith',
  "O'Brien",
  "'; drop table customers; --",
  '100%_x',
];
const TEXTS = ['ta', 'TA', 'Taro', 'ro', '山', '山田', 'smith', "'", '%', '_', "o'b", 'x', '@ex', '090', '東京'];
const dates = fc.integer({ min: -800, max: 400 }).map((d) => {
  const x = new Date(`${TODAY}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + d);
  return x.toISOString().slice(0, 10);
});
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 3 });

const bookingArb = fc.record({
  hotelIndex: fc.integer({ min: 0, max: 3 }),
  bookingDate: dates,
  checkIn: dates,
  nights: fc.integer({ min: 1, max: 7 }),
  guests: fc.integer({ min: 1, max: 4 }),
  amount: fc.integer({ min: 0, max: 200000 }),
  roomType: nullable(fc.constantFrom('twin', 'double', 'suite', 'Twin')),
  source: nullable(fc.constantFrom('web', 'phone', 'ota', 'Web')),
  status: fc.constantFrom('confirmed', 'cancelled', 'checked_in', 'checked_out', 'no_show'),
});

const customerArb = fc.record({
  firstName: fc.constantFrom(...NAMES),
  lastName: fc.constantFrom(...NAMES),
  email: nullable(fc.constantFrom('taro@example.jp', 'TARO@Example.JP', 'hanako@ex.com', "o'brien@ex.ie")),
  idNumber: nullable(fc.constantFrom('AB123', 'ab123', 'X9')),
  address: nullable(fc.constantFrom('東京都新宿区', 'Kyoto', 'kyoto shi', '100% road')),
  city: nullable(fc.constantFrom('新宿区', 'Kyoto', 'KYOTO')),
  dateOfBirth: nullable(
    fc.constantFrom('1990-03-01', '1990-03-02', '1990-02-28', '2000-02-29', '1986-03-01', '2010-12-31'),
  ),
  gender: nullable(fc.constantFrom('male', 'female', 'prefer_not_to_say')),
  country: nullable(fc.constantFrom('JP', 'US')),
  prefecture: nullable(fc.constantFrom('東京都', '京都府')),
  emailStatus: fc.constantFrom('active', 'unsubscribed'),
  consentSource: fc.constantFrom('import', 'booking_system', 'manual'),
  // Around midnight in Tokyo, so a created date depends on the zone.
  createdAt: fc
    .integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 })
    .map((m) => new Date(Date.parse('2026-02-28T15:00:00Z') + m * 60000)),
  allocations: fc.subarray([0, 1, 2, 3]),
  bookings: fc.array(bookingArb, { maxLength: 4 }),
  otherBrand: fc.boolean(),
});

function valueArb(field: TFilterField, operator: string): fc.Arbitrary<unknown> {
  const def = FILTER_FIELDS[field];
  if (def.type === 'text') return fc.constantFrom(...TEXTS, ...NAMES);
  if (def.type === 'number') {
    const n = field === 'amount' ? fc.integer({ min: 0, max: 200000 }) : fc.integer({ min: 0, max: 60 });
    const any = fc.oneof(
      n,
      n.map((x) => x + 0.5),
    );
    return operator === 'between' ? fc.tuple(any, any).map(([a, b]) => (a <= b ? [a, b] : [b, a])) : any;
  }
  if (def.type === 'date') {
    switch (operator) {
      case 'is':
        return dates;
      case 'between':
        return fc.tuple(dates, dates).map(([a, b]) => (a <= b ? [a, b] : [b, a]));
      case 'day_is':
        return fc.integer({ min: 1, max: 31 });
      case 'month_is':
        return fc.integer({ min: 1, max: 12 });
      case 'year_is':
        return fc.integer({ min: 2023, max: 2027 });
      default:
        return fc.integer({ min: 0, max: 400 });
    }
  }
  if (operator === 'all') return fc.constant(null);
  const options: readonly string[] =
    'options' in def
      ? def.options
      : field === 'hotel'
        ? [...hotels, hotels[0]!.toUpperCase(), randomUUID()]
        : field === 'country'
          ? ['JP', 'US', 'FR']
          : field === 'prefecture'
            ? ['東京都', '京都府']
            : field === 'roomType'
              ? ['twin', 'double', 'suite', 'Twin', 'none']
              : ['web', 'phone', 'ota', 'Web'];
  return fc.subarray([...options], { minLength: 1 });
}

const fieldNames = Object.keys(FILTER_FIELDS) as TFilterField[];
const conditionArb: fc.Arbitrary<TFilterCondition> = fc
  .constantFrom(...fieldNames)
  .chain((field) =>
    fc.constantFrom(...OPERATORS_BY_TYPE[FILTER_FIELDS[field].type]).map((operator) => ({ field, operator })),
  )
  .chain(({ field, operator }) =>
    valueArb(field, operator).map((value) => ({ kind: 'condition', field, operator, value }) as TFilterCondition),
  );

const groupArb = (level: number): fc.Arbitrary<TFilterGroup> =>
  fc.record({
    kind: fc.constant('group' as const),
    join: fc.constantFrom('and' as const, 'or' as const),
    bookings: fc.option(
      fc.oneof(
        fc.record({ quantifier: fc.constant('at_least' as const), count: fc.integer({ min: 1, max: 3 }) }),
        fc.constant({ quantifier: 'none' as const, count: 1 }),
      ),
      { nil: undefined },
    ),
    items: fc.array(
      level < 3
        ? fc.oneof(
            { weight: 4, arbitrary: conditionArb },
            { weight: 1, arbitrary: fc.constant(null).chain(() => groupArb(level + 1)) },
          )
        : conditionArb,
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
  }) as fc.Arbitrary<TFilterGroup>;

const filterArb: fc.Arbitrary<TFilter> = fc.record({
  version: fc.constant(1 as const),
  join: fc.constantFrom('and' as const, 'or' as const),
  groups: fc.array(groupArb(1), { minLength: 1, maxLength: 3 }),
});

describe('compiled SQL and the evaluator agree', () => {
  it('on random customers, bookings, scopes and filters', async () => {
    let runs = 0;
    let nonEmpty = 0;
    let partial = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(customerArb, { minLength: 1, maxLength: 14 }),
        fc.array(filterArb, { minLength: 4, maxLength: 4 }),
        fc.constantFrom('brand', 'hotel', 'group'),
        async (people, filters, scopeKind) => {
          runs++;
          for (const f of filters) expect(checkFilter(f)).toEqual([]);
          const scope: TSegmentScope = {
            brandId,
            hotelIds: scopeKind === 'brand' ? null : scopeKind === 'hotel' ? [hotels[0]!] : groupHotels,
          };
          const customers: TEvalCustomer[] = people.map((p, i) => {
            const id = randomUUID();
            const brand = p.otherBrand && i % 3 === 0 ? otherBrandId : brandId;
            return {
              id,
              brandId: brand,
              firstName: p.firstName,
              lastName: p.lastName,
              email: p.email,
              phone: `0900000${String(i).padStart(4, '0')}`,
              idNumber: p.idNumber,
              address: p.address,
              city: p.city,
              dateOfBirth: p.dateOfBirth,
              gender: p.gender,
              country: p.country,
              prefecture: p.prefecture,
              emailStatus: p.emailStatus,
              consentSource: p.consentSource,
              createdAt: p.createdAt,
              hotelIds: brand === brandId ? p.allocations.map((h) => hotels[h]!) : [],
              bookings:
                brand === brandId
                  ? p.bookings.map((b): TEvalBooking => ({
                      id: randomUUID(),
                      brandId,
                      hotelId: hotels[b.hotelIndex]!,
                      bookingDate: b.bookingDate,
                      checkIn: b.checkIn,
                      checkOut: addDaysIso(b.checkIn, b.nights),
                      nights: b.nights,
                      guests: b.guests,
                      amount: b.amount,
                      roomType: b.roomType,
                      source: b.source,
                      status: b.status,
                    }))
                  : [],
            };
          });
          await arrange(customers);
          try {
            for (const filter of filters) {
              const want = customers
                .filter((c) => evaluateFilter(filter, c, scope, ENV))
                .map((c) => c.id)
                .sort();
              // Every group at every level, as the count answers them.
              const wantGroups = groupPlaces(filter).map(
                (p) => customers.filter((c) => evaluateGroup(p.group, c, scope, ENV)).length,
              );
              const got = await withTenant(s.rt.database.db, { scopeAll: false, brandId }, async (tx) => {
                const set = rowsOf<{ id: string }>(
                  await tx.execute(
                    sql`select customers.id from customers where ${customerScopeSql(scope, 'set')} and ${filterSql(filter, scope, ENV, 'set')}`,
                  ),
                );
                const row = rowsOf<{ id: string }>(
                  await tx.execute(
                    sql`select customers.id from customers where ${customerScopeSql(scope, 'row')} and ${filterSql(filter, scope, ENV, 'row')}`,
                  ),
                );
                const counts = (await tx.execute(countSql(filter, scope, ENV))) as unknown as {
                  rows: Record<string, number>[];
                };
                return {
                  set: set.map((r) => r.id).sort(),
                  row: row.map((r) => r.id).sort(),
                  counts: Object.values(counts.rows[0]!).map(Number),
                };
              });
              if (want.length > 0) nonEmpty++;
              if (want.length > 0 && want.length < customers.filter((c) => c.brandId === brandId).length) partial++;
              const context = JSON.stringify({ filter, scope: scopeKind });
              expect(got.set, context).toEqual(want);
              expect(got.row, context).toEqual(want);
              expect(got.counts, context).toEqual([want.length, ...wantGroups]);
            }
          } finally {
            await s.sql(`delete from customers where phone like '0900000%'`);
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(runs).toBeGreaterThanOrEqual(100);
    // The filters must tell customers apart, or agreeing would prove little.
    expect(nonEmpty).toBeGreaterThan(40);
    expect(partial).toBeGreaterThan(20);
  }, 300_000);
});

// Few days, so that stays fall on the very first and last day a condition asks for.
const DAYS = [-400, -366, -365, -364, -60, -30, -1, 0, 1, 30, 300]
  .map((d) => addDaysIso(TODAY, d))
  .concat(['2025-12-31', '2026-01-01']);
const day = fc.constantFrom(...DAYS);
const dayValue = (operator: string): fc.Arbitrary<unknown> => {
  switch (operator) {
    case 'is':
      return day;
    case 'between':
      return fc.tuple(day, day).map(([a, b]) => (a <= b ? [a, b] : [b, a]));
    case 'year_is':
      return fc.constantFrom(2025, 2026, 2027);
    case 'day_is':
      return fc.constantFrom(1, 31);
    default:
      return fc.constantFrom(0, 1, 30, 364, 365, 366);
  }
};

/*
 * Where every group of a filter is a set an index hands over (stays in some days, a family name,
 * recent days), the count is set arithmetic instead of a pass over the customers (filter-count.ts).
 * Filters of those shapes, on random customers of two brands, must count as the evaluator does.
 */
describe('counts made of sets', () => {
  const spanArb: fc.Arbitrary<TFilterCondition> = fc
    .constantFrom('is', 'between', 'year_is', 'in_last_days', 'in_next_days')
    .chain((operator) =>
      dayValue(operator).map(
        (value) => ({ kind: 'condition', field: 'checkInDate', operator, value }) as TFilterCondition,
      ),
    );
  const c = (field: string, operator: string, value: unknown) =>
    ({ kind: 'condition', field, operator, value }) as TFilterCondition;
  const quantifierArb = fc.option(
    fc.oneof(
      fc.constant({ quantifier: 'none' as const, count: 1 }),
      fc.record({ quantifier: fc.constant('at_least' as const), count: fc.integer({ min: 1, max: 2 }) }),
    ),
    { nil: undefined },
  );
  const staysArb = fc
    .tuple(
      spanArb,
      fc.subarray([
        c('hotel', 'is', ['HOTEL0']),
        c('amount', 'greater_than', 50000),
        c('bookingStatus', 'is', ['checked_out', 'confirmed']),
        c('hotel', 'is_not', ['HOTEL1']),
      ]),
      quantifierArb,
    )
    .map(
      ([span, others, bookings]) =>
        ({ kind: 'group', join: 'and', items: [span, ...others], ...(bookings ? { bookings } : {}) }) as TFilterGroup,
    );
  const daysArb = fc
    .tuple(
      fc.array(spanArb, { minLength: 1, maxLength: 2 }),
      fc.option(fc.constant({ quantifier: 'none' as const, count: 1 }), { nil: undefined }),
    )
    .map(
      ([items, bookings]) => ({ kind: 'group', join: 'and', items, ...(bookings ? { bookings } : {}) }) as TFilterGroup,
    );
  const namesArb = fc
    .tuple(
      fc.oneof(
        fc.constantFrom('山', '山田', 'やま', 'sm').map((v) => c('lastName', 'starts_with', v)),
        fc.constantFrom('山田', 'smith').map((v) => c('lastName', 'is', v)),
      ),
      fc.subarray([
        c('gender', 'is', ['female']),
        c('firstName', 'starts_with', 'ta'),
        c('prefecture', 'is', ['東京都']),
      ]),
    )
    .map(([name, others]) => ({ kind: 'group', join: 'and', items: [name, ...others] }) as TFilterGroup);
  const setFilterArb: fc.Arbitrary<TFilter> = fc.record({
    version: fc.constant(1 as const),
    join: fc.constantFrom('and' as const, 'and' as const, 'or' as const),
    groups: fc.array(fc.oneof(staysArb, daysArb, namesArb), { minLength: 1, maxLength: 3 }),
  });
  const personArb = fc.record({
    lastName: fc.constantFrom('山田', '山本', 'やまだ', 'Smith'),
    firstName: fc.constantFrom('Taro', 'Hanako'),
    gender: nullable(fc.constantFrom('male', 'female')),
    prefecture: nullable(fc.constantFrom('東京都', '京都府')),
    otherBrand: fc.boolean(),
    bookings: fc.array(
      fc.record({
        checkIn: day,
        hotelIndex: fc.integer({ min: 0, max: 3 }),
        amount: fc.constantFrom(10000, 50000, 60000),
        status: fc.constantFrom('confirmed', 'checked_out', 'cancelled'),
      }),
      { maxLength: 4 },
    ),
  });
  // Hotels are placed in the filters once the seeded ids are known.
  const withHotels = (f: TFilter): TFilter =>
    JSON.parse(JSON.stringify(f).replaceAll('HOTEL0', hotels[0]!).replaceAll('HOTEL1', hotels[1]!)) as TFilter;

  it('count as the evaluator does, the total and every group', async () => {
    let asSets = 0;
    let partial = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(personArb, { minLength: 1, maxLength: 12 }),
        fc.array(setFilterArb, { minLength: 4, maxLength: 4 }),
        async (people, drawn) => {
          const scope: TSegmentScope = { brandId, hotelIds: null };
          const customers: TEvalCustomer[] = people.map((p, i) => {
            const id = randomUUID();
            const brand = p.otherBrand && i % 3 === 0 ? otherBrandId : brandId;
            return {
              id,
              brandId: brand,
              firstName: p.firstName,
              lastName: p.lastName,
              email: null,
              phone: `0900003${String(i).padStart(4, '0')}`,
              idNumber: null,
              address: null,
              city: null,
              dateOfBirth: null,
              gender: p.gender,
              country: null,
              prefecture: p.prefecture,
              emailStatus: 'active',
              consentSource: 'manual',
              createdAt: new Date('2026-01-01T00:00:00Z'),
              hotelIds: [],
              // Another brand's customers have their own brand's bookings, which no count of ours may see.
              bookings: p.bookings.map((b): TEvalBooking => ({
                id: randomUUID(),
                brandId: brand,
                hotelId: hotels[b.hotelIndex]!,
                bookingDate: b.checkIn,
                checkIn: b.checkIn,
                checkOut: addDaysIso(b.checkIn, 1),
                nights: 1,
                guests: 1,
                amount: b.amount,
                roomType: null,
                source: null,
                status: b.status,
              })),
            };
          });
          await arrange(customers);
          try {
            for (const filter of drawn.map(withHotels)) {
              expect(checkFilter(filter)).toEqual([]);
              if (setCountSql(filter, scope, ENV)) asSets++;
              const want = customers.filter((x) => evaluateFilter(filter, x, scope, ENV)).length;
              const wantGroups = groupPlaces(filter).map(
                (p) => customers.filter((x) => evaluateGroup(p.group, x, scope, ENV)).length,
              );
              const got = await withTenant(s.rt.database.db, { scopeAll: false, brandId }, async (tx) => {
                const counts = (await tx.execute(countSql(filter, scope, ENV))) as unknown as {
                  rows: Record<string, number>[];
                };
                return Object.values(counts.rows[0]!).map(Number);
              });
              if (want > 0 && want < customers.filter((x) => x.brandId === brandId).length) partial++;
              expect(got, JSON.stringify(filter)).toEqual([want, ...wantGroups]);
            }
          } finally {
            await s.sql(`delete from customers where phone like '0900003%'`);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Most of the drawn filters must take the sets' way, and tell customers apart.
    expect(asSets).toBeGreaterThan(120);
    expect(partial).toBeGreaterThan(80);
  }, 300_000);

  it("refuse a booking of another brand than its customer's, on which the stays' counts rely", async () => {
    const id = randomUUID();
    await s.sql(
      `insert into customers (id, brand_id, first_name, last_name, phone) values ($1, $2, 'Taro', 'Edge', '09000041000')`,
      [id, brandId],
    );
    const write = (sql: string, values: unknown[]) =>
      s.sql(sql, values).then(
        () => 'written',
        (error: { code?: string }) => error.code,
      );
    try {
      const insert = `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
         values ($1, $2, $3, 'X-1', '2026-01-01', '2026-01-01', '2026-01-02', 1, 1, 10000, 'confirmed')`;
      expect(await write(insert, [otherBrandId, id, hotels[0]])).toBe('23514');
      expect(await write(insert, [brandId, id, hotels[0]])).toBe('written');
      expect(await write(`update bookings set brand_id = $1 where customer_id = $2`, [otherBrandId, id])).toBe('23514');
    } finally {
      await s.sql(`delete from customers where id = $1`, [id]);
    }
  });

  it('count a guest whose last stay is the first day a stays group asks for', async () => {
    // "Stayed last summer, not back for a year": only customers last here since the summer began
    // are read for the second group, so one last here on its very first day must still be counted.
    const [first, back, never] = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, id] of [first, back, never].entries()) {
      await s.sql(
        `insert into customers (id, brand_id, first_name, last_name, phone) values ($1, $2, 'Taro', 'Edge', $3)`,
        [id, brandId, `0900004000${i}`],
      );
    }
    for (const [i, [id, checkIn]] of (
      [
        [first, '2024-07-01'],
        [back, '2024-07-01'],
        [back, addDaysIso(TODAY, -10)],
      ] as const
    ).entries()) {
      await s.sql(
        `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
         values ($1, $2, $3, $4, $5, $5, $6, 1, 1, 10000, 'checked_out')`,
        [brandId, id, hotels[0], `EDGE-${i}`, checkIn, addDaysIso(checkIn, 1)],
      );
    }
    try {
      const filter = {
        version: 1,
        join: 'and',
        groups: [
          { kind: 'group', join: 'and', items: [c('checkInDate', 'between', ['2024-07-01', '2024-08-31'])] },
          {
            kind: 'group',
            join: 'and',
            items: [c('checkInDate', 'in_last_days', 365)],
            bookings: { quantifier: 'none', count: 1 },
          },
        ],
      } as TFilter;
      const scope: TSegmentScope = { brandId, hotelIds: null };
      expect(setCountSql(filter, scope, ENV)).not.toBeNull();
      const counts = await withTenant(s.rt.database.db, { scopeAll: false, brandId }, async (tx) =>
        rowsOf<Record<string, number>>(await tx.execute(countSql(filter, scope, ENV))),
      );
      expect(counts).toEqual([{ total: 1, n0: 2, n1: 2 }]);
    } finally {
      await s.sql(`delete from customers where phone like '09000040%'`);
    }
  });
});

/*
 * A brand's groups asking only about check-in days are answered from the customer's own row
 * (customers.check_ins, kept by triggers on bookings). Random bookings are written, then moved to
 * other days and other customers and deleted, in statements of one and of many rows; the kept days
 * must equal the bookings' days, and the filters must answer as the evaluator does on what is left.
 */
describe("a customer's check-in days", () => {
  const DATE_OPERATORS = ['is', 'between', 'year_is', 'in_last_days', 'in_next_days', 'day_is'] as const;
  const checkInArb: fc.Arbitrary<TFilterCondition> = fc
    .constantFrom(...DATE_OPERATORS)
    .chain((operator) =>
      dayValue(operator).map(
        (value) => ({ kind: 'condition', field: 'checkInDate', operator, value }) as TFilterCondition,
      ),
    );
  const daysGroupArb: fc.Arbitrary<TFilterGroup> = fc.record({
    kind: fc.constant('group' as const),
    join: fc.constantFrom('and' as const, 'or' as const),
    bookings: fc.option(
      fc.oneof(
        fc.constant({ quantifier: 'none' as const, count: 1 }),
        fc.record({ quantifier: fc.constant('at_least' as const), count: fc.integer({ min: 1, max: 2 }) }),
      ),
      { nil: undefined },
    ),
    items: fc
      .tuple(
        fc.array(checkInArb, { minLength: 1, maxLength: 3 }),
        fc.option(
          fc.constant({ kind: 'condition', field: 'gender', operator: 'is', value: ['female'] } as TFilterCondition),
          { nil: undefined },
        ),
      )
      .map(([days, other]) => (other ? [...days, other] : days)),
  }) as fc.Arbitrary<TFilterGroup>;
  const daysFilterArb: fc.Arbitrary<TFilter> = fc.record({
    version: fc.constant(1 as const),
    join: fc.constantFrom('and' as const, 'or' as const),
    groups: fc.array(daysGroupArb, { minLength: 1, maxLength: 3 }),
  });
  // What happens to each booking after it is written: kept, moved to another day or to another customer, or deleted.
  const editArb = fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'keep' as const }) },
    { weight: 1, arbitrary: day.map((checkIn) => ({ kind: 'day' as const, checkIn })) },
    { weight: 1, arbitrary: fc.nat(20).map((to) => ({ kind: 'customer' as const, to })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
  );
  const personArb = fc.record({
    gender: nullable(fc.constantFrom('male', 'female')),
    bookings: fc.array(fc.record({ checkIn: day, edit: editArb }), { maxLength: 4 }),
  });

  it('are kept through inserts, moves and deletes, and answer date-only groups as the bookings do', async () => {
    let partial = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(personArb, { minLength: 1, maxLength: 10 }),
        fc.array(daysFilterArb, { minLength: 3, maxLength: 3 }),
        async (people, filters) => {
          const scope: TSegmentScope = { brandId, hotelIds: null };
          const ids = people.map(() => randomUUID());
          const written = people.flatMap((p, i) =>
            p.bookings.map((b) => ({ id: randomUUID(), customer: i, checkIn: b.checkIn, edit: b.edit })),
          );
          for (const [i, p] of people.entries()) {
            await s.sql(
              `insert into customers (id, brand_id, first_name, last_name, phone, gender) values ($1, $2, 'Taro', 'Days', $3, $4)`,
              [ids[i], brandId, `0900001${String(i).padStart(4, '0')}`, p.gender],
            );
          }
          try {
            // One statement for every booking, then the edits one by one and the deletes in one.
            if (written.length > 0) {
              await s.sql(
                `insert into bookings (id, brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
               select v.id, $1, v.customer_id, $2, v.id::text, v.check_in, v.check_in, v.check_in + 1, 1, 1, 10000, 'confirmed'
               from unnest($3::uuid[], $4::uuid[], $5::date[]) as v(id, customer_id, check_in)`,
                [
                  brandId,
                  hotels[0],
                  written.map((b) => b.id),
                  written.map((b) => ids[b.customer]),
                  written.map((b) => b.checkIn),
                ],
              );
            }
            for (const b of written) {
              if (b.edit.kind === 'day') {
                await s.sql(`update bookings set check_in = $2 where id = $1`, [b.id, b.edit.checkIn]);
                b.checkIn = b.edit.checkIn;
              } else if (b.edit.kind === 'customer') {
                b.customer = b.edit.to % people.length;
                await s.sql(`update bookings set customer_id = $2 where id = $1`, [b.id, ids[b.customer]]);
              }
            }
            const gone = written.filter((b) => b.edit.kind === 'delete').map((b) => b.id);
            if (gone.length > 0) await s.sql(`delete from bookings where id = any($1::uuid[])`, [gone]);
            const left = written.filter((b) => b.edit.kind !== 'delete');

            const kept = await s.sql(
              `select id, check_ins::text as days, first_check_in::text as first, last_check_in::text as last from customers where id = any($1::uuid[])`,
              [ids],
            );
            for (const [i, id] of ids.entries()) {
              const days = [...new Set(left.filter((b) => b.customer === i).map((b) => b.checkIn))].sort();
              const row = kept.find((r) => r.id === id);
              expect([row.first, row.last], id).toEqual(days.length > 0 ? [days[0], days.at(-1)] : [null, null]);
              expect(row.days === null ? [] : daysOf(row.days), id).toEqual(days);
            }

            const customers: TEvalCustomer[] = people.map((p, i) => ({
              id: ids[i]!,
              brandId,
              firstName: 'Taro',
              lastName: 'Days',
              email: null,
              phone: `0900001${String(i).padStart(4, '0')}`,
              idNumber: null,
              address: null,
              city: null,
              dateOfBirth: null,
              gender: p.gender,
              country: null,
              prefecture: null,
              emailStatus: 'active',
              consentSource: 'manual',
              createdAt: new Date(),
              hotelIds: [],
              bookings: left
                .filter((b) => b.customer === i)
                .map((b) => ({
                  id: b.id,
                  brandId,
                  hotelId: hotels[0]!,
                  bookingDate: b.checkIn,
                  checkIn: b.checkIn,
                  checkOut: addDaysIso(b.checkIn, 1),
                  nights: 1,
                  guests: 1,
                  amount: 10000,
                  roomType: null,
                  source: null,
                  status: 'confirmed',
                })),
            }));
            for (const filter of filters) {
              expect(checkFilter(filter)).toEqual([]);
              const want = customers
                .filter((c) => evaluateFilter(filter, c, scope, ENV))
                .map((c) => c.id)
                .sort();
              const wantGroups = groupPlaces(filter).map(
                (p) => customers.filter((c) => evaluateGroup(p.group, c, scope, ENV)).length,
              );
              const got = await withTenant(s.rt.database.db, { scopeAll: false, brandId }, async (tx) => {
                const set = rowsOf<{ id: string }>(
                  await tx.execute(
                    sql`select customers.id from customers where ${customerScopeSql(scope, 'set')} and customers.id = any(${`{${ids.join(',')}}`}::uuid[]) and ${filterSql(filter, scope, ENV, 'set')}`,
                  ),
                );
                const counts = (await tx.execute(countSql(filter, scope, ENV))) as unknown as {
                  rows: Record<string, number>[];
                };
                return { set: set.map((r) => r.id).sort(), counts: Object.values(counts.rows[0]!).map(Number) };
              });
              if (want.length > 0 && want.length < customers.length) partial++;
              expect(got.set, JSON.stringify(filter)).toEqual(want);
              // The brand holds only these customers while the property runs.
              expect(got.counts, JSON.stringify(filter)).toEqual([want.length, ...wantGroups]);
            }
          } finally {
            await s.sql(`delete from customers where phone like '0900001%'`);
          }
        },
      ),
      { numRuns: 100 },
    );
    expect(partial).toBeGreaterThan(20);
  }, 300_000);

  // Last in this file: it empties the bookings of its database.
  it('are cleared when the bookings are truncated', async () => {
    const id = randomUUID();
    await s.sql(
      `insert into customers (id, brand_id, first_name, last_name, phone) values ($1, $2, 'Taro', 'Days', '09000020001')`,
      [id, brandId],
    );
    await s.sql(
      `insert into bookings (brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, amount, status)
       values ($1, $2, $3, 'T-1', '2026-01-01', '2026-02-01', '2026-02-02', 1, 1, 10000, 'confirmed')`,
      [brandId, id, hotels[0]],
    );
    expect((await s.sql(`select check_ins::text as days from customers where id = $1`, [id]))[0].days).toBe(
      '{[2026-02-01,2026-02-02)}',
    );
    await s.sql(`truncate bookings cascade`);
    expect(await s.sql(`select check_ins, first_check_in, last_check_in from customers where id = $1`, [id])).toEqual([
      { check_ins: null, first_check_in: null, last_check_in: null },
    ]);
    await s.sql(`delete from customers where id = $1`, [id]);
  });
});

/** The days of a multirange of single days as PostgreSQL writes it: {[2026-01-01,2026-01-03),[2026-02-01,2026-02-02)}. */
function daysOf(text: string): string[] {
  const out: string[] = [];
  for (const [, from, to] of text.matchAll(/\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)/g)) {
    for (let d = from as string; d < (to as string); d = addDaysIso(d, 1)) out.push(d);
  }
  return out;
}

function addDaysIso(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function arrange(customers: TEvalCustomer[]) {
  for (const c of customers) {
    await s.sql(
      `insert into customers (id, brand_id, first_name, last_name, phone, email, id_number, address, city, date_of_birth, gender, country, prefecture, email_status, consent_source, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        c.id,
        c.brandId,
        c.firstName,
        c.lastName,
        c.phone,
        c.email,
        c.idNumber,
        c.address,
        c.city,
        c.dateOfBirth,
        c.gender,
        c.country,
        c.prefecture,
        c.emailStatus,
        c.consentSource,
        c.createdAt,
      ],
    );
    for (const h of c.hotelIds)
      await s.sql(
        `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'booking')`,
        [c.id, h, c.brandId],
      );
    for (const b of c.bookings) {
      await s.sql(
        `insert into bookings (id, brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_type, source, amount, status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          b.id,
          b.brandId,
          c.id,
          b.hotelId,
          b.id,
          b.bookingDate,
          b.checkIn,
          b.checkOut,
          b.nights,
          b.guests,
          b.roomType,
          b.source,
          b.amount,
          b.status,
        ],
      );
    }
  }
}
