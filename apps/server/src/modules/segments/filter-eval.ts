import {
  FILTER_FIELDS,
  type TExplainBooking,
  type TExplainGroup,
  type TFilter,
  type TFilterCondition,
  type TFilterGroup,
} from '@yado/contracts';
import { addDays, dateIn, type TFilterEnv, type TSegmentScope } from './filter-env.ts';

/**
 * The filter's meaning in plain code, one customer at a time: the reference the SQL compiler is
 * proven against (filter.property.int.test.ts), and the source of "why is this guest in", which
 * shows for each condition whether it held and which booking matched.
 */

export interface TEvalBooking {
  id: string;
  brandId: string;
  hotelId: string;
  hotelName?: string;
  bookingDate: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  guests: number;
  amount: number;
  roomType: string | null;
  source: string | null;
  status: string;
}

export interface TEvalCustomer {
  id: string;
  brandId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string;
  idNumber: string | null;
  address: string | null;
  city: string | null;
  dateOfBirth: string | null;
  gender: string | null;
  country: string | null;
  prefecture: string | null;
  emailStatus: string;
  consentSource: string;
  createdAt: Date;
  /** Hotels the customer is allocated to. */
  hotelIds: string[];
  bookings: TEvalBooking[];
}

type TValue = string | number | null;

/** Whole years from a birth date to today. */
function ageOf(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export function fieldValue(
  field: TFilterCondition['field'],
  customer: TEvalCustomer,
  booking: TEvalBooking | null,
  env: TFilterEnv,
): TValue {
  switch (field) {
    case 'firstName':
      return customer.firstName;
    case 'lastName':
      return customer.lastName;
    case 'email':
      return customer.email;
    case 'phone':
      return customer.phone;
    case 'idNumber':
      return customer.idNumber;
    case 'address':
      return customer.address;
    case 'city':
      return customer.city;
    case 'age':
      return customer.dateOfBirth ? ageOf(customer.dateOfBirth, env.today) : null;
    case 'gender':
      return customer.gender;
    case 'country':
      return customer.country;
    case 'prefecture':
      return customer.prefecture;
    case 'emailStatus':
      return customer.emailStatus;
    case 'createdDate':
      return dateIn(customer.createdAt, env.timeZone);
    case 'source':
      return customer.consentSource;
  }
  if (!booking) return null;
  switch (field) {
    case 'bookingDate':
      return booking.bookingDate;
    case 'checkInDate':
      return booking.checkIn;
    case 'checkOutDate':
      return booking.checkOut;
    case 'checkInStatus':
      return booking.status === 'checked_in' || booking.status === 'checked_out' ? 'checked_in' : 'not_checked_in';
    case 'checkOutStatus':
      return booking.status === 'checked_out' ? 'checked_out' : 'not_checked_out';
    case 'bookingStatus':
      return booking.status;
    case 'hotel':
      return booking.hotelId;
    case 'nights':
      return booking.nights;
    case 'amount':
      return booking.amount;
    case 'guests':
      return booking.guests;
    case 'roomType':
      return booking.roomType;
    default:
      return booking.source;
  }
}

export function conditionHolds(
  cond: TFilterCondition,
  customer: TEvalCustomer,
  booking: TEvalBooking | null,
  env: TFilterEnv,
): boolean {
  const def = FILTER_FIELDS[cond.field];
  const actual = fieldValue(cond.field, customer, booking, env);
  const v = cond.value;
  switch (def.type) {
    case 'text': {
      const want = String(v).toLowerCase();
      if (cond.operator === 'is_not') return actual === null || String(actual).toLowerCase() !== want;
      if (actual === null) return false;
      const have = String(actual).toLowerCase();
      if (cond.operator === 'is') return have === want;
      if (cond.operator === 'starts_with') return have.startsWith(want);
      return have.includes(want);
    }
    case 'number': {
      if (actual === null) return false;
      const n = Number(actual);
      if (cond.operator === 'between') return n >= (v as number[])[0]! && n <= (v as number[])[1]!;
      if (cond.operator === 'greater_than') return n > (v as number);
      if (cond.operator === 'less_than') return n < (v as number);
      return n === v;
    }
    case 'date': {
      if (actual === null) return false;
      const d = String(actual);
      switch (cond.operator) {
        case 'is':
          return d === v;
        case 'between':
          return d >= (v as string[])[0]! && d <= (v as string[])[1]!;
        case 'day_is':
          return Number(d.slice(8, 10)) === v;
        case 'month_is':
          return Number(d.slice(5, 7)) === v;
        case 'year_is':
          return Number(d.slice(0, 4)) === v;
        case 'in_last_days':
          return d >= addDays(env.today, -(v as number)) && d <= env.today;
        default:
          return d >= env.today && d <= addDays(env.today, v as number);
      }
    }
    default: {
      // Any value, as long as there is one: a missing value fails every operator but is_not.
      if (cond.operator === 'all') return actual !== null;
      // Hotel ids are uuids: compared without regard to letter case, as PostgreSQL compares uuids.
      const norm = (x: unknown) => (cond.field === 'hotel' ? String(x).toLowerCase() : String(x));
      const listed = actual !== null && (v as string[]).some((x) => norm(x) === norm(actual));
      return cond.operator === 'is' ? listed : !listed;
    }
  }
}

const joined = (values: boolean[], join: 'and' | 'or') =>
  join === 'and' ? values.every(Boolean) : values.some(Boolean);

export function customerInScope(customer: TEvalCustomer, scope: TSegmentScope): boolean {
  if (customer.brandId !== scope.brandId) return false;
  return scope.hotelIds === null || customer.hotelIds.some((h) => scope.hotelIds!.includes(h));
}

export function bookingsInScope(customer: TEvalCustomer, scope: TSegmentScope): TEvalBooking[] {
  return customer.bookings.filter(
    (b) => b.brandId === scope.brandId && (scope.hotelIds === null || scope.hotelIds.includes(b.hotelId)),
  );
}

function explainBooking(b: TEvalBooking): TExplainBooking {
  return {
    id: b.id,
    hotelId: b.hotelId,
    hotelName: b.hotelName ?? '',
    bookingDate: b.bookingDate,
    checkIn: b.checkIn,
    checkOut: b.checkOut,
    nights: b.nights,
    guests: b.guests,
    amount: b.amount,
    roomType: b.roomType,
    source: b.source,
    status: b.status,
  };
}

function explainGroup(
  group: TFilterGroup,
  path: string,
  customer: TEvalCustomer,
  bookings: TEvalBooking[],
  env: TFilterEnv,
): TExplainGroup {
  const bookingConds = group.items.filter(
    (i): i is TFilterCondition => i.kind === 'condition' && FILTER_FIELDS[i.field].entity === 'booking',
  );
  const matches = (b: TEvalBooking) =>
    joined(
      bookingConds.map((c) => conditionHolds(c, customer, b, env)),
      group.join,
    );
  let bookingInfo: TExplainGroup['bookings'] = null;
  let shown: TEvalBooking | null = null;
  if (bookingConds.length > 0) {
    const quantifier = group.bookings?.quantifier ?? 'at_least';
    const count = quantifier === 'none' ? 1 : (group.bookings?.count ?? 1);
    const byRecent = [...bookings].sort((a, b) =>
      a.checkIn < b.checkIn ? 1 : a.checkIn > b.checkIn ? -1 : a.id < b.id ? 1 : -1,
    );
    const matched = byRecent.filter(matches);
    // Shown: the latest matching booking, or else the one that came closest (most conditions held).
    shown = matched[0] ?? null;
    if (!shown) {
      let best = -1;
      for (const b of byRecent) {
        const held = bookingConds.filter((c) => conditionHolds(c, customer, b, env)).length;
        if (held > best) [best, shown] = [held, b];
      }
    }
    const held = quantifier === 'none' ? matched.length === 0 : matched.length >= count;
    bookingInfo = { quantifier, count, matched: matched.length, held, booking: shown ? explainBooking(shown) : null };
  }
  const items = group.items.map((item, i): TExplainGroup['items'][number] => {
    const at = `${path}.items.${i}`;
    if (item.kind === 'group') return explainGroup(item, at, customer, bookings, env);
    const isBooking = FILTER_FIELDS[item.field].entity === 'booking';
    const b = isBooking ? shown : null;
    return {
      kind: 'condition',
      path: at,
      field: item.field,
      operator: item.operator,
      value: item.value,
      held: isBooking && !b ? false : conditionHolds(item, customer, b, env),
      actual: isBooking && !b ? null : fieldValue(item.field, customer, b, env),
    };
  });
  const parts: boolean[] = [];
  for (const item of items) {
    if (item.kind === 'group') parts.push(item.held);
    else if (FILTER_FIELDS[item.field as TFilterCondition['field']].entity === 'customer') parts.push(item.held);
  }
  if (bookingInfo) parts.push(bookingInfo.held);
  return { kind: 'group', path, join: group.join, held: joined(parts, group.join), bookings: bookingInfo, items };
}

/** Each top-level group explained, and whether the customer is in. */
export function explainFilter(filter: TFilter, customer: TEvalCustomer, scope: TSegmentScope, env: TFilterEnv) {
  const inScope = customerInScope(customer, scope);
  const bookings = bookingsInScope(customer, scope);
  const groups = filter.groups.map((g, i) => explainGroup(g, `groups.${i}`, customer, bookings, env));
  return {
    inScope,
    groups,
    in:
      inScope &&
      joined(
        groups.map((g) => g.held),
        filter.join,
      ),
  };
}

export function evaluateFilter(
  filter: TFilter,
  customer: TEvalCustomer,
  scope: TSegmentScope,
  env: TFilterEnv,
): boolean {
  return explainFilter(filter, customer, scope, env).in;
}

/** Whether one top-level group holds (the live count's per-group figure). */
export function evaluateGroup(
  group: TFilterGroup,
  customer: TEvalCustomer,
  scope: TSegmentScope,
  env: TFilterEnv,
): boolean {
  return (
    customerInScope(customer, scope) && explainGroup(group, 'g', customer, bookingsInScope(customer, scope), env).held
  );
}
