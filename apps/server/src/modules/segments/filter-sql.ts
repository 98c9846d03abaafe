import {
  FILTER_FIELDS,
  type TFilter,
  type TFilterCondition,
  type TFilterField,
  type TFilterGroup,
} from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { startsWith } from '../customers/queries.ts';
import { addDays, type TFilterEnv, type TSegmentScope } from './filter-env.ts';

/**
 * The filter compiler: a checked filter document (contracts' checkFilter found no fault) becomes
 * SQL over the `customers` table. Values only ever travel as parameters; every identifier comes from the
 * fixed maps below, so no text of a document reaches the statement's text. The meaning is the one
 * written in packages/contracts/src/segments.ts, and filter-eval.ts states it again in plain code;
 * the property test (filter.property.int.test.ts) proves the two agree.
 */

/**
 * `set`: booking conditions as uncorrelated `customers.id in (select customer_id ...)`, which PostgreSQL
 * runs once as a hash for a whole count. `row`: correlated per customer, for questions about one
 * customer (explain, a customer's segments), where hashing every matching booking would waste work.
 */
export type TCompileMode = 'set' | 'row';

const p = (value: unknown): SQL => sql`${sql.param(value)}`;

/** The lower-cased text a text field is compared on (the key columns are lower() already). */
const TEXT_COLUMNS: Partial<Record<TFilterField, SQL>> = {
  firstName: sql.raw('customers.first_name_key'),
  lastName: sql.raw('customers.last_name_key'),
  email: sql.raw('customers.email_key'),
  phone: sql.raw('lower(customers.phone)'),
  idNumber: sql.raw('lower(customers.id_number)'),
  address: sql.raw('lower(customers.address)'),
  city: sql.raw('lower(customers.city)'),
};

const CHOICE_COLUMNS: Partial<Record<TFilterField, SQL>> = {
  gender: sql.raw('customers.gender'),
  country: sql.raw('customers.country'),
  prefecture: sql.raw('customers.prefecture'),
  emailStatus: sql.raw('customers.email_status'),
  source: sql.raw('customers.consent_source'),
  bookingStatus: sql.raw('b.status'),
  checkInStatus: sql.raw(
    `(case when b.status in ('checked_in', 'checked_out') then 'checked_in' else 'not_checked_in' end)`,
  ),
  checkOutStatus: sql.raw(`(case when b.status = 'checked_out' then 'checked_out' else 'not_checked_out' end)`),
  roomType: sql.raw('b.room_type'),
  bookingSource: sql.raw('b.source'),
};

const NUMBER_COLUMNS: Partial<Record<TFilterField, (env: TFilterEnv) => SQL>> = {
  age: (env) => sql`extract(year from age(${p(env.today)}::date, customers.date_of_birth))::int`,
  nights: () => sql.raw('b.nights'),
  amount: () => sql.raw('b.amount'),
  guests: () => sql.raw('b.guests'),
};

const DATE_COLUMNS: Partial<Record<TFilterField, (env: TFilterEnv) => SQL>> = {
  createdDate: (env) => sql`(customers.created_at at time zone ${p(env.timeZone)})::date`,
  bookingDate: () => sql.raw('b.booking_date'),
  checkInDate: () => sql.raw('b.check_in'),
  checkOutDate: () => sql.raw('b.check_out'),
};

/** Text values are lowered here, as the evaluator lowers them, so both compare the same strings. */
const lowered = (value: unknown) => String(value).toLowerCase();

export function conditionSql(cond: TFilterCondition, env: TFilterEnv): SQL {
  const def = FILTER_FIELDS[cond.field];
  const v = cond.value;
  switch (def.type) {
    case 'text': {
      const col = TEXT_COLUMNS[cond.field] as SQL;
      const value = lowered(v);
      if (cond.operator === 'is') return sql`${col} = ${p(value)}`;
      if (cond.operator === 'is_not') return sql`${col} is distinct from ${p(value)}`;
      if (cond.operator === 'starts_with') return startsWith(col, value);
      return sql`strpos(${col}, ${p(value)}) > 0`;
    }
    case 'number': {
      // Every number field holds whole numbers, so a bound is rounded to the whole number that
      // means the same (age > 30.5 is age > 30) and compared as an integer: no cast of the column,
      // so its index still serves.
      const col = (NUMBER_COLUMNS[cond.field] as (env: TFilterEnv) => SQL)(env);
      const n = v as number;
      if (cond.operator === 'between') {
        const [lo, hi] = v as [number, number];
        return sql`${col} between ${p(Math.ceil(lo))}::bigint and ${p(Math.floor(hi))}::bigint`;
      }
      if (cond.operator === 'greater_than') return sql`${col} > ${p(Math.floor(n))}::bigint`;
      if (cond.operator === 'less_than') return sql`${col} < ${p(Math.ceil(n))}::bigint`;
      return Number.isInteger(n) ? sql`${col} = ${p(n)}::bigint` : sql`false`;
    }
    case 'date': {
      const col = (DATE_COLUMNS[cond.field] as (env: TFilterEnv) => SQL)(env);
      switch (cond.operator) {
        case 'is':
          return sql`${col} = ${p(v)}::date`;
        case 'between': {
          const [from, to] = v as [string, string];
          return sql`${col} between ${p(from)}::date and ${p(to)}::date`;
        }
        case 'day_is':
          return sql`extract(day from ${col}) = ${p(v)}::int`;
        case 'month_is':
          return sql`extract(month from ${col}) = ${p(v)}::int`;
        case 'year_is':
          return sql`extract(year from ${col}) = ${p(v)}::int`;
        case 'in_last_days':
          return sql`${col} between ${p(env.today)}::date - ${p(v)}::int and ${p(env.today)}::date`;
        default:
          return sql`${col} between ${p(env.today)}::date and ${p(env.today)}::date + ${p(v)}::int`;
      }
    }
    default: {
      // Any value, as long as there is one: a missing value fails every operator but is_not.
      if (cond.operator === 'all')
        return cond.field === 'hotel' ? sql`true` : sql`${CHOICE_COLUMNS[cond.field]} is not null`;
      if (cond.field === 'hotel') {
        // As uuids, so the hotel's index serves it; hotel ids are never null.
        const hotels = sql`${p((v as string[]).map(String))}::uuid[]`;
        return cond.operator === 'is' ? sql`b.hotel_id = any(${hotels})` : sql`not (b.hotel_id = any(${hotels}))`;
      }
      const col = CHOICE_COLUMNS[cond.field] as SQL;
      const list = sql`${p((v as string[]).map(String))}::text[]`;
      if (cond.operator === 'is') return sql`${col} = any(${list})`;
      return sql`(${col} is null or not (${col} = any(${list})))`;
    }
  }
}

const joinWith = (parts: SQL[], join: 'and' | 'or'): SQL => {
  if (parts.length === 1) return sql`(${parts[0]})`;
  return sql`(${sql.join(
    parts.map((part) => sql`(${part})`),
    sql.raw(join === 'and' ? ' and ' : ' or '),
  )})`;
};

/** Bookings a segment sees: the brand's, or its hotels'. */
export function bookingScopeSql(scope: TSegmentScope): SQL {
  if (!scope.hotelIds) return sql`b.brand_id = ${p(scope.brandId)}::uuid`;
  return sql`b.brand_id = ${p(scope.brandId)}::uuid and b.hotel_id = any(${p(scope.hotelIds)}::uuid[])`;
}

/** Customers a segment sees: the brand's, or those allocated to its hotels. */
export function customerScopeSql(scope: TSegmentScope, mode: TCompileMode = 'set'): SQL {
  const brand = sql`customers.brand_id = ${p(scope.brandId)}::uuid`;
  if (!scope.hotelIds) return brand;
  const hotels = sql`${p(scope.hotelIds)}::uuid[]`;
  if (mode === 'row')
    return sql`${brand} and exists (select 1 from customer_allocations a where a.customer_id = customers.id and a.hotel_id = any(${hotels}))`;
  return sql`${brand} and customers.id in (select a.customer_id from customer_allocations a where a.hotel_id = any(${hotels}))`;
}

/** The days a check-in condition asks for, first and last, or null where they are not one span. */
export function checkInDays(cond: TFilterCondition, env: TFilterEnv): [string, string] | null {
  if (cond.field !== 'checkInDate') return null;
  const v = cond.value;
  switch (cond.operator) {
    case 'is':
      return [v as string, v as string];
    case 'between':
      return v as [string, string];
    case 'year_is':
      return [`${v as number}-01-01`, `${v as number}-12-31`];
    case 'in_last_days':
      return [addDays(env.today, -(v as number)), env.today];
    case 'in_next_days':
      return [env.today, addDays(env.today, v as number)];
    default:
      return null;
  }
}

/** The same as SQL dates. */
function checkInSpan(cond: TFilterCondition, env: TFilterEnv): [SQL, SQL] | null {
  const days = checkInDays(cond, env);
  return days && [sql`${p(days[0])}::date`, sql`${p(days[1])}::date`];
}

/**
 * "Has a booking whose check-in is between `from` and `to`", read from the customer's own check-in
 * days (customers.check_ins, kept from the bookings by PostgreSQL) instead of the bookings: the
 * first and last day answer every customer whose stays do not lie on both sides of the span; only
 * those open the days themselves.
 */
function checkInDaysSql([from, to]: [SQL, SQL]): SQL {
  return sql`(case when ${from} > ${to} or customers.first_check_in is null or customers.last_check_in < ${from} or customers.first_check_in > ${to} then false
    when customers.last_check_in <= ${to} or customers.first_check_in >= ${from} then true
    else customers.check_ins && daterange(${from}, ${to}, '[]') end)`;
}

/**
 * A brand's group whose booking conditions are only check-in days, asked once (has such a booking,
 * or has none): the same answer from the customer's check-in days. Null where that does not hold: a
 * hotel's or group's scope (the days are the whole brand's), other booking fields, a count.
 */
function checkInDaysPart(
  conds: TFilterCondition[],
  group: TFilterGroup,
  scope: TSegmentScope,
  env: TFilterEnv,
): SQL | null {
  if (scope.hotelIds || (group.bookings?.quantifier !== 'none' && (group.bookings?.count ?? 1) !== 1)) return null;
  const spans = conds.map((c) => checkInSpan(c, env));
  if (spans.some((s) => s === null)) return null;
  const all = spans as [SQL, SQL][];
  // Conditions joined by "and" ask for one booking in every span: in their overlap.
  const test =
    group.join === 'and' && all.length > 1
      ? checkInDaysSql([
          sql`greatest(${sql.join(
            all.map((s) => s[0]),
            sql`, `,
          )})`,
          sql`least(${sql.join(
            all.map((s) => s[1]),
            sql`, `,
          )})`,
        ])
      : joinWith(all.map(checkInDaysSql), group.join);
  return group.bookings?.quantifier === 'none' ? sql`not ${test}` : test;
}

function bookingPart(
  conds: TFilterCondition[],
  group: TFilterGroup,
  scope: TSegmentScope,
  env: TFilterEnv,
  mode: TCompileMode,
): SQL {
  if (mode === 'set') {
    const days = checkInDaysPart(conds, group, scope, env);
    if (days) return days;
  }
  const match = joinWith(
    conds.map((c) => conditionSql(c, env)),
    group.join,
  );
  const none = group.bookings?.quantifier === 'none';
  const count = none ? 1 : (group.bookings?.count ?? 1);
  if (mode === 'row') {
    const where = sql`b.customer_id = customers.id and ${bookingScopeSql(scope)} and ${match}`;
    if (none) return sql`not exists (select 1 from bookings b where ${where})`;
    if (count === 1) return sql`exists (select 1 from bookings b where ${where})`;
    return sql`(select count(*) from (select 1 from bookings b where ${where} limit ${p(count)}::int) n) >= ${p(count)}::int`;
  }
  const inner =
    count === 1
      ? sql`select b.customer_id from bookings b where ${bookingScopeSql(scope)} and ${match}`
      : sql`select b.customer_id from bookings b where ${bookingScopeSql(scope)} and ${match} group by b.customer_id having count(*) >= ${p(count)}::int`;
  // customer_id is never null, so NOT IN has no null trap.
  return none ? sql`customers.id not in (${inner})` : sql`customers.id in (${inner})`;
}

/** A group's own items (its conditions, its booking conditions as one item), without its subgroups. */
function ownParts(group: TFilterGroup, scope: TSegmentScope, env: TFilterEnv, mode: TCompileMode): SQL[] {
  const parts: SQL[] = [];
  const bookingConds: TFilterCondition[] = [];
  for (const item of group.items) {
    if (item.kind === 'group') continue;
    if (FILTER_FIELDS[item.field].entity === 'booking') bookingConds.push(item);
    else parts.push(conditionSql(item, env));
  }
  if (bookingConds.length > 0) parts.push(bookingPart(bookingConds, group, scope, env, mode));
  return parts;
}

const subgroupsOf = (group: TFilterGroup): TFilterGroup[] =>
  group.items.filter((item): item is TFilterGroup => item.kind === 'group');

export function groupSql(group: TFilterGroup, scope: TSegmentScope, env: TFilterEnv, mode: TCompileMode): SQL {
  return joinWith(
    [...ownParts(group, scope, env, mode), ...subgroupsOf(group).map((g) => groupSql(g, scope, env, mode))],
    group.join,
  );
}

/** The whole filter as one predicate over `c` (scope not included). */
export function filterSql(filter: TFilter, scope: TSegmentScope, env: TFilterEnv, mode: TCompileMode): SQL {
  return joinWith(
    filter.groups.map((g) => groupSql(g, scope, env, mode)),
    filter.join,
  );
}

/** A group of a filter, at any level, where the count answers it. */
export interface TGroupPlace {
  /** Dotted, as a fault's path: `groups.0`, `groups.0.items.2`. */
  path: string;
  /** Its position among its parent's items (a top-level group: among the filter's groups). */
  index: number;
  id: string | null;
  group: TFilterGroup;
}

/** Every group of a filter in document order (a group before its subgroups); countSql's nK is the K-th. */
export function groupPlaces(filter: TFilter): TGroupPlace[] {
  const out: TGroupPlace[] = [];
  const walk = (group: TFilterGroup, path: string, index: number) => {
    out.push({ path, index, id: group.id ?? null, group });
    group.items.forEach((item, i) => {
      if (item.kind === 'group') walk(item, `${path}.items.${i}`, i);
    });
  };
  filter.groups.forEach((g, i) => walk(g, `groups.${i}`, i));
  return out;
}

/**
 * One statement counting the whole filter and every group at every level (spec: the audience of
 * the whole filter and of each group) in one pass over the customers in scope: what countSql
 * (filter-count.ts) runs where the filter is not made of sets it can count directly. Each group's own items (conditions and booking part,
 * subgroups aside) are tested once per customer in scope, as a column of an inner select; a
 * group's answer is then its own column joined with its subgroups' answers, so a subgroup is never
 * tested twice for its parent and itself. A NULL own answer counts as false: groups only combine
 * by and/or, where NULL and false make the same final answer.
 * Answers one row: total, n0, n1, ... (one per group, in groupPlaces order).
 */
export function passCountSql(filter: TFilter, scope: TSegmentScope, env: TFilterEnv): SQL {
  const places = groupPlaces(filter);
  if (places.length === 1) {
    return sql`select count(*)::int as total, count(*)::int as n0 from customers where ${customerScopeSql(scope)} and ${groupSql(filter.groups[0] as TFilterGroup, scope, env, 'set')}`;
  }
  const columns: SQL[] = [];
  const answerOf = new Map<TFilterGroup, SQL>();
  // Children first, so a parent finds its subgroups' answers.
  for (let k = places.length - 1; k >= 0; k--) {
    const { group } = places[k] as TGroupPlace;
    const parts: SQL[] = [];
    const own = ownParts(group, scope, env, 'set');
    if (own.length > 0) {
      const name = sql.raw(`o${k}`);
      columns.unshift(sql`coalesce(${joinWith(own, group.join)}, false) as ${name}`);
      parts.push(name);
    }
    for (const g of subgroupsOf(group)) parts.push(answerOf.get(g) as SQL);
    answerOf.set(group, joinWith(parts, group.join));
  }
  const total = joinWith(
    filter.groups.map((g) => answerOf.get(g) as SQL),
    filter.join,
  );
  const perGroup = sql.join(
    places.map((place, k) => sql`count(*) filter (where ${answerOf.get(place.group)})::int as ${sql.raw(`n${k}`)}`),
    sql`, `,
  );
  // offset 0 keeps the inner select a subquery of its own: flattened, each group's test would be
  // written out again at every use of its answer in the counts above.
  return sql`select count(*) filter (where ${total})::int as total, ${perGroup} from (select ${sql.join(columns, sql`, `)} from customers where ${customerScopeSql(scope)} offset 0) s`;
}
