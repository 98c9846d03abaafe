import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { checkFilter, FILTER_FIELDS, OPERATORS_BY_TYPE, type TFilter, type TFilterCondition, type TFilterField, type TFilterGroup } from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, withTenant } from '../../db/client.ts';
import { startTestServer, type TTestServer } from '../../test/harness.ts';
import { countSql, customerScopeSql, filterSql, groupPlaces, type TFilterEnv, type TSegmentScope } from './filter-sql.ts';
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

const NAMES = ['Taro', 'taro', 'TARO', 'Hanako', '山田', 'やまだ', 'Smith', "O'Brien", "'; drop table customers; --", '100%_x'];
const TEXTS = ['ta', 'TA', 'Taro', 'ro', '山', '山田', 'smith', "'", '%', '_', "o'b", 'x', '@ex', '090', '東京'];
const dates = fc.integer({ min: -800, max: 400 }).map((d) => {
  const x = new Date(`${TODAY}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + d);
  return x.toISOString().slice(0, 10);
});
const nullable = <T,>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 3 });

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
  dateOfBirth: nullable(fc.constantFrom('1990-03-01', '1990-03-02', '1990-02-28', '2000-02-29', '1986-03-01', '2010-12-31')),
  gender: nullable(fc.constantFrom('male', 'female', 'prefer_not_to_say')),
  country: nullable(fc.constantFrom('JP', 'US')),
  prefecture: nullable(fc.constantFrom('東京都', '京都府')),
  emailStatus: fc.constantFrom('active', 'unsubscribed'),
  consentSource: fc.constantFrom('import', 'booking_system', 'manual'),
  // Around midnight in Tokyo, so a created date depends on the zone.
  createdAt: fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }).map((m) => new Date(Date.parse('2026-02-28T15:00:00Z') + m * 60000)),
  allocations: fc.subarray([0, 1, 2, 3]),
  bookings: fc.array(bookingArb, { maxLength: 4 }),
  otherBrand: fc.boolean(),
});

function valueArb(field: TFilterField, operator: string): fc.Arbitrary<unknown> {
  const def = FILTER_FIELDS[field];
  if (def.type === 'text') return fc.constantFrom(...TEXTS, ...NAMES);
  if (def.type === 'number') {
    const n = field === 'amount' ? fc.integer({ min: 0, max: 200000 }) : fc.integer({ min: 0, max: 60 });
    const any = fc.oneof(n, n.map((x) => x + 0.5));
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
  .chain((field) => fc.constantFrom(...OPERATORS_BY_TYPE[FILTER_FIELDS[field].type]).map((operator) => ({ field, operator })))
  .chain(({ field, operator }) => valueArb(field, operator).map((value) => ({ kind: 'condition', field, operator, value }) as TFilterCondition));

const groupArb = (level: number): fc.Arbitrary<TFilterGroup> =>
  fc.record({
    kind: fc.constant('group' as const),
    join: fc.constantFrom('and' as const, 'or' as const),
    bookings: fc.option(
      fc.oneof(fc.record({ quantifier: fc.constant('at_least' as const), count: fc.integer({ min: 1, max: 3 }) }), fc.constant({ quantifier: 'none' as const, count: 1 })),
      { nil: undefined },
    ),
    items: fc.array(level < 3 ? fc.oneof({ weight: 4, arbitrary: conditionArb }, { weight: 1, arbitrary: fc.constant(null).chain(() => groupArb(level + 1)) }) : conditionArb, {
      minLength: 1,
      maxLength: 4,
    }),
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
      fc.asyncProperty(fc.array(customerArb, { minLength: 1, maxLength: 14 }), fc.array(filterArb, { minLength: 4, maxLength: 4 }), fc.constantFrom('brand', 'hotel', 'group'), async (people, filters, scopeKind) => {
        runs++;
        for (const f of filters) expect(checkFilter(f)).toEqual([]);
        const scope: TSegmentScope = { brandId, hotelIds: scopeKind === 'brand' ? null : scopeKind === 'hotel' ? [hotels[0]!] : groupHotels };
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
            bookings: brand === brandId
              ? p.bookings.map(
                  (b): TEvalBooking => ({
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
                  }),
                )
              : [],
          };
        });
        await arrange(customers);
        try {
          for (const filter of filters) {
            const want = customers.filter((c) => evaluateFilter(filter, c, scope, ENV)).map((c) => c.id).sort();
            // Every group at every level, as the count answers them.
            const wantGroups = groupPlaces(filter).map((p) => customers.filter((c) => evaluateGroup(p.group, c, scope, ENV)).length);
            const got = await withTenant(s.rt.database.db, { scopeAll: false, brandId }, async (tx) => {
              const set = rowsOf<{ id: string }>(await tx.execute(sql`select customers.id from customers where ${customerScopeSql(scope, 'set')} and ${filterSql(filter, scope, ENV, 'set')}`));
              const row = rowsOf<{ id: string }>(await tx.execute(sql`select customers.id from customers where ${customerScopeSql(scope, 'row')} and ${filterSql(filter, scope, ENV, 'row')}`));
              const counts = (await tx.execute(countSql(filter, scope, ENV))) as unknown as { rows: Record<string, number>[] };
              return { set: set.map((r) => r.id).sort(), row: row.map((r) => r.id).sort(), counts: Object.values(counts.rows[0]!).map(Number) };
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
      }),
      { numRuns: 100 },
    );
    expect(runs).toBeGreaterThanOrEqual(100);
    // The filters must tell customers apart, or agreeing would prove little.
    expect(nonEmpty).toBeGreaterThan(40);
    expect(partial).toBeGreaterThan(20);
  }, 300_000);
});

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
      [c.id, c.brandId, c.firstName, c.lastName, c.phone, c.email, c.idNumber, c.address, c.city, c.dateOfBirth, c.gender, c.country, c.prefecture, c.emailStatus, c.consentSource, c.createdAt],
    );
    for (const h of c.hotelIds) await s.sql(`insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'booking')`, [c.id, h, c.brandId]);
    for (const b of c.bookings) {
      await s.sql(
        `insert into bookings (id, brand_id, customer_id, hotel_id, external_id, booking_date, check_in, check_out, nights, guests, room_type, source, amount, status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [b.id, b.brandId, c.id, b.hotelId, b.id, b.bookingDate, b.checkIn, b.checkOut, b.nights, b.guests, b.roomType, b.source, b.amount, b.status],
      );
    }
  }
}
