import { FILTER_FIELDS, type TFilter, type TFilterCondition, type TFilterGroup } from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { bookingScopeSql, checkInDays, conditionSql, customerScopeSql, passCountSql } from './filter-sql.ts';
import type { TFilterEnv, TSegmentScope } from './filter-env.ts';

/**
 * The live count of a filter: the whole filter and every group, in one statement (total, n0, n1...).
 *
 * A count that passes over every customer in scope (passCountSql) costs the same whatever it asks:
 * at a million customers, a quarter to half a second warm and several times that when the pages
 * were pushed out. Most segments a marketer builds are narrower than that: stays in some days, a
 * family name, "not back for a year". Where every top-level group is such a set, the count is set
 * arithmetic over what the indexes hand over (docs/benchmarks.md, segment-count):
 * - stays (booking conditions that name check-in days, joined by "and"): the customers of the
 *   bookings in those days, from `bookings_brand_check_in_idx`;
 * - family names (customer conditions joined by "and", one of them on the family name): a range of
 *   `customers_segment_fields_idx`, which is keyed by the family name and holds the other fields;
 * - recent days (check-in days only, up to today or later): from the customers' kept days, read
 *   by last check-in (`customers_last_check_in_idx`, `customers_check_in_days_idx`), so only
 *   customers back since the asked days open their days.
 * The total of groups joined by "and" is counted over one group's customers (a stays group where
 * there is one), the others tested as sets; of groups joined by "or", the union. Anything else (a
 * hotel's or group's scope, subgroups, "or" within a group, mixed groups) passes over the
 * customers as before. Booking sets are taken as the brand's customers: a booking's brand is its
 * customer's (checked by the bookings' triggers, migration 0027).
 */
export function countSql(filter: TFilter, scope: TSegmentScope, env: TFilterEnv): SQL {
  return setCountSql(filter, scope, env) ?? passCountSql(filter, scope, env);
}

const p = (value: unknown): SQL => sql`${sql.param(value)}`;
const day = (iso: string): SQL => sql`${p(iso)}::date`;

/** A top-level group read as a set. */
type TSetGroup =
  /** Customers with bookings matching the group; `low`: the earliest check-in day those bookings can have. */
  | { kind: 'stays'; none: boolean; ids: SQL; low: string }
  | { kind: 'names'; ids: SQL }
  /** Customers with a check-in day in [from, to] (none: without). */
  | { kind: 'days'; none: boolean; from: string; to: string };

const andOf = (parts: SQL[]): SQL =>
  sql.join(
    parts.map((part) => sql`(${part})`),
    sql` and `,
  );

function setGroup(group: TFilterGroup, scope: TSegmentScope, env: TFilterEnv): TSetGroup | null {
  const conds = group.items.filter((item): item is TFilterCondition => item.kind === 'condition');
  if (conds.length !== group.items.length) return null;
  const single = group.join === 'and' || conds.length === 1;
  const onBookings = conds.filter((c) => FILTER_FIELDS[c.field].entity === 'booking');
  if (onBookings.length === 0) {
    if (!single || !conds.some((c) => c.field === 'lastName' && (c.operator === 'is' || c.operator === 'starts_with')))
      return null;
    return {
      kind: 'names',
      ids: sql`select customers.id from customers where ${customerScopeSql(scope)} and ${andOf(conds.map((c) => conditionSql(c, env)))}`,
    };
  }
  if (onBookings.length !== conds.length || !single) return null;
  const none = group.bookings?.quantifier === 'none';
  const count = none ? 1 : (group.bookings?.count ?? 1);
  const spans = conds.map((c) => checkInDays(c, env));
  const asked = spans.filter((s): s is [string, string] => s !== null);
  if (asked.length === 0) return null;
  const from = asked.map((s) => s[0]).reduce((a, b) => (a > b ? a : b));
  const to = asked.map((s) => s[1]).reduce((a, b) => (a < b ? a : b));
  if (from > to) return null;
  // Days up to today or later: few customers have come back since, so the kept days answer with
  // little to read. Days further back: the bookings of those days are fewer than the customers
  // back since.
  if (asked.length === conds.length && count === 1 && to >= env.today) return { kind: 'days', none, from, to };
  const match = andOf([bookingScopeSql(scope), ...conds.map((c) => conditionSql(c, env))]);
  const ids =
    count === 1
      ? sql`select distinct b.customer_id as id from bookings b where ${match}`
      : sql`select b.customer_id as id from bookings b where ${match} group by b.customer_id having count(*) >= ${p(count)}::int`;
  return { kind: 'stays', none, ids, low: from };
}

/** Customers with a stay in [from, to], leaving out, where known, those whose last stay is before `low`. */
function daysIds(g: { none: boolean; from: string; to: string }, scope: TSegmentScope, low: string | null): SQL {
  const inScope = customerScopeSql(scope);
  const [from, to] = [day(g.from), day(g.to)];
  const back = sql`select customers.id from customers where ${inScope} and customers.last_check_in > ${to} and ${stayedSince(g.from, g.to, g.none)}`;
  if (!g.none)
    return sql`select customers.id from customers where ${inScope} and customers.last_check_in between ${day(low && low > g.from ? low : g.from)} and ${to} union all ${back}`;
  const before = low
    ? sql`select customers.id from customers where ${inScope} and customers.last_check_in >= ${day(low)} and customers.last_check_in < ${from}`
    : sql`select customers.id from customers where ${inScope} and customers.last_check_in < ${from} union all select customers.id from customers where ${inScope} and customers.last_check_in is null`;
  return sql`${before} union all ${back}`;
}

/**
 * Of customers whose last check-in is after `to`: whether one of their days is in [from, to]
 * (negated: none is). Those whose first day is inside answer at once; only those with days on
 * both sides open the days.
 */
function stayedSince(from: string, to: string, none: boolean): SQL {
  const test = sql`customers.first_check_in <= ${day(to)} and (customers.first_check_in >= ${day(from)} or customers.check_ins && daterange(${day(from)}, ${day(to)}, '[]'))`;
  return none ? sql`not (${test})` : test;
}

function daysCount(g: { none: boolean; from: string; to: string }, scope: TSegmentScope): SQL {
  const count = (where: SQL) => sql`(select count(*) from customers where ${customerScopeSql(scope)} and ${where})`;
  const back = count(sql`customers.last_check_in > ${day(g.to)} and ${stayedSince(g.from, g.to, g.none)}`);
  if (!g.none) return sql`${count(sql`customers.last_check_in between ${day(g.from)} and ${day(g.to)}`)} + ${back}`;
  return sql`${count(sql`customers.last_check_in < ${day(g.from)}`)} + ${count(sql`customers.last_check_in is null`)} + ${back}`;
}

/** The count as set arithmetic, or null where the filter is not made of such sets. */
export function setCountSql(filter: TFilter, scope: TSegmentScope, env: TFilterEnv): SQL | null {
  if (scope.hotelIds) return null;
  const groups = filter.groups.map((g) => setGroup(g, scope, env));
  if (groups.some((g) => g === null)) return null;
  const sets = groups as TSetGroup[];
  // A lone family-name group is already a plain indexed count.
  if (sets.length === 1 && sets[0]!.kind === 'names') return null;
  const name = (k: number) => sql.raw(`s${k}`);
  const everyone = sql`(select count(*) from customers where ${customerScopeSql(scope)})`;
  const counts = sets.map((g, k) => {
    if (g.kind === 'days') return daysCount(g, scope);
    const n = sql`(select count(*) from ${name(k)})`;
    return g.kind === 'stays' && g.none ? sql`${everyone} - ${n}` : n;
  });

  let total: SQL | null = null;
  if (sets.length === 1) {
    // The group's count, below.
  } else if (filter.join === 'or') {
    if (sets.some((g) => g.kind === 'days' || (g.kind === 'stays' && g.none))) return null;
    total = sql`(select count(*) from (${sql.join(
      sets.map((_, k) => sql`select id from ${name(k)}`),
      sql` union `,
    )}) u)`;
  } else {
    // Without a group that lists its customers (a stays or family-name group), the total would be
    // read from every customer: the pass does that once for all the counts.
    const listed = sets
      .map((g, k) => ({ g, k }))
      .filter(({ g }) => g.kind !== 'days' && !(g.kind === 'stays' && g.none));
    if (listed.length === 0) return null;
    // Every customer of a stays group has a check-in on or after its first asked day.
    const lows = sets.flatMap((g) => (g.kind === 'stays' && !g.none ? [g.low] : []));
    const low = lows.length > 0 ? lows.reduce((a, b) => (a > b ? a : b)) : null;
    // The customers counted come from one group, the others test them: days groups are read
    // once in full, so one of them leads where there is one (its customers stream past the others'
    // hashed sets); otherwise a stays group, whose bookings name few customers.
    const days = sets.findIndex((g) => g.kind === 'days');
    const lead = days >= 0 ? days : (listed.find(({ g }) => g.kind === 'stays') ?? listed[0]!).k;
    const from = (g: TSetGroup, k: number): SQL =>
      g.kind === 'days' ? daysIds(g, scope, low) : sql`select id from ${name(k)}`;
    const tests = sets.flatMap((g, k): SQL[] => {
      if (k === lead) return [];
      return [g.kind === 'stays' && g.none ? sql`m.id not in (${from(g, k)})` : sql`m.id in (${from(g, k)})`];
    });
    total = sql`(select count(*) from (${from(sets[lead]!, lead)}) m where ${andOf(tests)})`;
  }

  const ctes = sets.flatMap((g, k) => (g.kind === 'days' ? [] : [sql`${name(k)} as materialized (${g.ids})`]));
  const withClause = ctes.length > 0 ? sql`with ${sql.join(ctes, sql`, `)} ` : sql``;
  const columns = sql.join(
    counts.map((_, k) => sql`x.${sql.raw(`n${k}`)}`),
    sql`, `,
  );
  const inner = sql.join(
    counts.map((c, k) => sql`(${c})::int as ${sql.raw(`n${k}`)}`),
    sql`, `,
  );
  // The group counts are computed once, in x (offset 0 keeps it from being flattened into two
  // copies where a lone group's count is also the total).
  return sql`${withClause}select ${total ? sql`(${total})::int` : sql`x.n0`} as total, ${columns} from (select ${inner} offset 0) x`;
}
