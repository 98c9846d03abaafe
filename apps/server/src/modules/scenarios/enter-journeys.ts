import { STAY_TRIGGERS, zonedToInstant, type TScenarioNode, type TTrigger } from '@yado/contracts/scenarios';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { audienceSql, type TAudienceOwner } from '../campaigns/audience.ts';
import type { TSegmentScope } from '../segments/filter-env.ts';
import { customerScopeSql } from '../segments/filter-sql.ts';
import { scopeOfHost } from '../segments/queries.ts';
import { leave, scenariosById, type TScenarioForEngine } from './advance-journeys.ts';
import { uniformSql } from '../experiments/assignment.ts';
import { localDate } from './delay-time.ts';
import { isPreArrival, nextSendTime, skipForStay, stayDue } from './stay-limits.ts';

/**
 * Who enters a running scenario, each tick, set-based per scenario and trigger:
 * - segment members: at the start, and again at each recurrence (entry key: run and entry number);
 * - new members of a dynamic segment: members not seen before (the first scan only records who is in);
 * - booking triggers: bookings of the scenario's reach changed since the last scan (the daily sync
 *   writes them), one journey per stay (a guest's rooms at one hotel for the same dates are one
 *   stay), waiting at the trigger until the stay's moment in the scenario's time zone, or, read
 *   late, until its next send time; a pre-arrival journey the stay no longer allows is skipped with
 *   the reason (`stay-limits.ts`); a moved stay moves the wait (logged from and to), a cancelled
 *   one takes the guest out unless another room of the same stay remains;
 * - birthdays: once a local day, customers whose birthday it is (29 February: the 28th in other years).
 * Entering is idempotent: the journey's entry key is unique per scenario and customer.
 */

const ALL = { scopeAll: true, brandId: null } as const;
const p = (value: unknown): SQL => sql`${sql.param(value)}`;

interface TScenarioTimes {
  id: string;
  status: string;
  starts_at: Date | null;
  ends_at: Date | null;
  next_entry_at: Date | null;
  entry_count: number;
  run_number: number;
  bookings_seen_at: Date | null;
  birthdays_on: string | null;
  segment_scanned_at: Date | null;
  started_at: Date | null;
}

/** Scheduled scenarios whose start has come begin; running ones past their end with nobody inside complete. */
export async function moveScenarioStatuses(rt: TRuntime, at: Date): Promise<void> {
  const atIso = at.toISOString();
  await withTenant(rt.database.db, ALL, async (tx) => {
    await tx.execute(sql`update scenarios set status = 'running', started_at = ${atIso}::timestamptz, updated_at = now()
      where status = 'scheduled' and starts_at <= ${atIso}::timestamptz`);
    // Completed: no more entries to come (one time after its entry, or past the end) and nobody inside.
    await tx.execute(sql`update scenarios s set status = 'completed', completed_at = ${atIso}::timestamptz, updated_at = now()
      where s.status = 'running'
        and ((s.ends_at is not null and s.ends_at <= ${atIso}::timestamptz)
          or (s.run->'period'->>'kind' = 'one_time' and s.next_entry_at is null and s.entry_count > 0
            and not exists (select 1 from jsonb_array_elements(s.graph->'nodes') n where n->>'type' = 'trigger' and n->'data'->>'kind' <> 'segment_members')))
        and not exists (select 1 from journeys j where j.scenario_id = s.id and j.state = 'waiting')`);
  });
}

export async function enterCustomers(rt: TRuntime, at: Date): Promise<number> {
  const rows = await withTenant(rt.database.db, ALL, (tx) =>
    selectRows<Record<keyof TScenarioTimes, unknown>>(
      tx,
      sql`select id, status, starts_at, ends_at, next_entry_at, entry_count, run_number, bookings_seen_at, birthdays_on::text, segment_scanned_at, started_at
        from scenarios where status = 'running' and (ends_at is null or ends_at > ${at.toISOString()}::timestamptz)`,
    ),
  );
  // Timestamps as Dates whatever the driver gave (a raw query in a tenant transaction gives text
  // over PostgreSQL): comparing text with a Date is always false, and a recurring entry then came
  // again at every tick until the next period.
  const instant = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date));
  const running: TScenarioTimes[] = rows.map((r) => ({
    id: r.id as string,
    status: r.status as string,
    starts_at: instant(r.starts_at),
    ends_at: instant(r.ends_at),
    next_entry_at: instant(r.next_entry_at),
    entry_count: Number(r.entry_count),
    run_number: Number(r.run_number),
    bookings_seen_at: instant(r.bookings_seen_at),
    birthdays_on: (r.birthdays_on as string | null) ?? null,
    segment_scanned_at: instant(r.segment_scanned_at),
    started_at: instant(r.started_at),
  }));
  let entered = 0;
  for (const times of running) {
    // One scenario's failure (its transaction rolls back) does not keep the others' guests out.
    entered += await enterScenario(rt, times, at).catch((error: unknown) => {
      rt.log.error({ err: error, scenarioId: times.id }, 'scenario entry failed');
      return 0;
    });
  }
  return entered;
}

async function enterScenario(rt: TRuntime, times: TScenarioTimes, at: Date): Promise<number> {
  return withTenant(rt.database.db, ALL, async (tx) => {
    const scenario = (await scenariosById(tx, [times.id])).get(times.id);
    if (!scenario) return 0;
    const host = await hostOf(tx, scenario.host_id);
    const scope = await scopeOfHost(tx, host);
    const owner = {
      brandId: scenario.brand_id,
      hostId: scenario.host_id,
      hostLevel: host.level as 'brand' | 'hotel_group' | 'hotel',
    };
    let n = 0;
    const errors: Record<string, string> = {};
    for (const node of scenario.graph.nodes) {
      if (node.type !== 'trigger') continue;
      try {
        n += await enterAtTrigger(tx, scenario, times, node, node.data, scope, owner, at);
      } catch (error) {
        // A deleted segment under a running scenario: the trigger shows the error; the rest goes on.
        if (error instanceof AppError) errors[node.id] = error.code;
        else throw error;
      }
    }
    await afterEntries(tx, scenario, times, at, errors);
    return n;
  });
}

async function hostOf(tx: TTx, hostId: string) {
  const [row] = await selectRows<{ id: string; level: string; brand_id: string | null }>(
    tx,
    sql`select id, level, brand_id from hosts where id = ${hostId}::uuid`,
  );
  return { id: hostId, level: row?.level ?? 'brand', brandId: row?.brand_id ?? null };
}

/**
 * Inserts journeys from a source of (customer_id, booking_id, entry_key, due_at, stay_key), which
 * may be a data-modifying statement with RETURNING (it runs as a CTE); answers how many entered.
 * Entries already made are left out before the rounds are numbered, so a customer's rounds stay
 * 0, 1, 2... A source row with a stay key (hotel and dates of its booking) enters only if the
 * customer has no journey for that stay yet and once among the rows of the same stay: two rooms
 * booked for the same dates are one journey, not two identical mails. With `liveStays`, a journey
 * whose booking was cancelled no longer holds its stay (the guest cancelled and booked again).
 *
 * The entering guests' earlier journeys are read once, into a materialized CTE, before anything is
 * inserted. As per-guest subqueries they were planned as a sequential scan while the table's
 * statistics said it was empty (a new product, a table just vacuumed empty), and each such scan
 * also read the rows this statement had inserted so far: quadratic, a minute for 100,000 guests.
 */
async function insertJourneys(
  tx: TTx,
  scenario: TScenarioForEngine,
  nodeId: string,
  source: SQL,
  at: Date,
  liveStays = true,
): Promise<number> {
  const atIso = at.toISOString();
  // Issue 26: the scenario's holdout, by the same hash as a campaign's (the guest is held out in
  // every journey of the scenario, so the comparison is of guests).
  const heldOut = scenario.holdout_percent
    ? sql`${uniformSql(sql`${scenario.id}::text`, sql`fresh.customer_id`)} < ${scenario.holdout_percent / 100}::double precision`
    : sql`false`;
  const held = liveStays ? sql`b2.status not in ('cancelled', 'no_show')` : sql`true`;
  const rows = await selectRows<{ n: number }>(
    tx,
    sql`with src as (${source}), existing as materialized (
        select j.customer_id, j.entry_key, j.round,
          case when ${held} then b2.hotel_id::text || '|' || b2.check_in::text || '|' || b2.check_out::text end as stay_key
        from journeys j left join bookings b2 on b2.id = j.booking_id
        where j.scenario_id = ${scenario.id}::uuid and j.customer_id in (select src.customer_id from src)
      ), last_round as materialized (
        select customer_id, max(round) as round from existing group by customer_id
      ), fresh as (
        select distinct on (src.customer_id, coalesce(src.stay_key, src.entry_key)) src.* from src
        where not exists (select 1 from existing e where e.customer_id = src.customer_id and e.entry_key = src.entry_key)
          and (src.stay_key is null or not exists (select 1 from existing e where e.customer_id = src.customer_id and e.stay_key = src.stay_key))
        order by src.customer_id, coalesce(src.stay_key, src.entry_key), src.entry_key
      ), ins as (
        insert into journeys (brand_id, scenario_id, customer_id, booking_id, entry_key, round, node_id, phase, state, due_at, entered_at, updated_at, held_out)
        select ${scenario.brand_id}::uuid, ${scenario.id}::uuid, fresh.customer_id, fresh.booking_id, fresh.entry_key,
          coalesce(last_round.round + 1, 0) + (row_number() over (partition by fresh.customer_id order by fresh.entry_key))::int - 1,
          ${nodeId}, 'wait', 'waiting', fresh.due_at, ${atIso}::timestamptz, ${atIso}::timestamptz, ${heldOut}
        from fresh left join last_round on last_round.customer_id = fresh.customer_id
        on conflict (scenario_id, customer_id, entry_key) do nothing
        returning id, brand_id, scenario_id
      ), logged as (
        insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, at)
        select brand_id, scenario_id, id, ${nodeId}, 'entered', ${atIso}::timestamptz from ins returning 1
      )
      select count(*)::int as n from logged`,
  );
  return rows[0]?.n ?? 0;
}

/** The stay's moment: a local date (SQL) at the scenario's send time, in its time zone. */
const localMoment = (date: SQL, sendTime: string, timeZone: string) =>
  sql`((${date})::timestamp + ${sendTime}::time) at time zone ${timeZone}`;

function stayMoment(trigger: TTrigger, sendTime: string, timeZone: string): SQL | null {
  switch (trigger.kind) {
    case 'before_check_in':
      return localMoment(sql`b.check_in - ${trigger.days}::int`, sendTime, timeZone);
    case 'check_in_day':
      return localMoment(sql`b.check_in`, sendTime, timeZone);
    case 'after_check_out':
      return localMoment(sql`b.check_out + ${trigger.days}::int`, sendTime, timeZone);
    default:
      return null;
  }
}

const bookingScope = (scope: TSegmentScope) =>
  scope.hotelIds
    ? sql`b.brand_id = ${scope.brandId}::uuid and b.hotel_id = any(${p(scope.hotelIds)}::uuid[])`
    : sql`b.brand_id = ${scope.brandId}::uuid`;

async function enterAtTrigger(
  tx: TTx,
  scenario: TScenarioForEngine,
  times: TScenarioTimes,
  node: TScenarioNode,
  trigger: TTrigger,
  scope: TSegmentScope,
  owner: TAudienceOwner,
  at: Date,
): Promise<number> {
  const atIso = at.toISOString();
  const { timeZone, sendTime } = scenario.run;
  switch (trigger.kind) {
    case 'segment_members': {
      if (!trigger.segmentId || !times.next_entry_at || times.next_entry_at > at) return 0;
      const audience = await audienceSql(tx, owner, [trigger.segmentId], [], at);
      const key = `run:${times.run_number}:${times.entry_count}`;
      return insertJourneys(
        tx,
        scenario,
        node.id,
        sql`select customers.id as customer_id, null::uuid as booking_id, ${key}::text as entry_key, ${atIso}::timestamptz as due_at, null::text as stay_key from customers where ${audience.where}`,
        at,
      );
    }
    case 'segment_entered': {
      if (!trigger.segmentId) return 0;
      // A dynamic segment is evaluated at most once a minute per scenario.
      if (times.segment_scanned_at && at.getTime() - new Date(times.segment_scanned_at).getTime() < 60_000) return 0;
      const audience = await audienceSql(tx, owner, [trigger.segmentId], [], at);
      const first = times.segment_scanned_at === null;
      await tx.execute(
        sql`update scenarios set segment_scanned_at = ${atIso}::timestamptz where id = ${scenario.id}::uuid`,
      );
      // Members not seen before are recorded and, after the first look, enter: the insert is the journeys' source
      // (a data-modifying statement may only be a CTE, not a subquery).
      const seen = sql`insert into scenario_segment_seen (scenario_id, customer_id, brand_id)
        select ${scenario.id}::uuid, customers.id, customers.brand_id from customers where ${audience.where}
        on conflict do nothing
        returning customer_id, null::uuid as booking_id, ${`segment:${times.run_number}`}::text as entry_key, ${atIso}::timestamptz as due_at, null::text as stay_key`;
      if (first) {
        await tx.execute(seen);
        return 0;
      }
      return insertJourneys(tx, scenario, node.id, seen, at);
    }
    case 'birthday': {
      const today = localDate(at, timeZone).date;
      if (times.birthdays_on === today) return 0;
      const [y, m, d] = today.split('-').map(Number) as [number, number, number];
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
      const feb29 =
        !leap && m === 2 && d === 28
          ? sql`or (extract(month from customers.date_of_birth) = 2 and extract(day from customers.date_of_birth) = 29)`
          : sql``;
      const due = new Date(Math.max(zonedToInstant(today, sendTime, timeZone), at.getTime())).toISOString();
      await tx.execute(sql`update scenarios set birthdays_on = ${today}::date where id = ${scenario.id}::uuid`);
      return insertJourneys(
        tx,
        scenario,
        node.id,
        sql`select customers.id as customer_id, null::uuid as booking_id, ${`birthday:${y}`}::text as entry_key, ${due}::timestamptz as due_at, null::text as stay_key
          from customers where ${customerScopeSql(scope)} and customers.date_of_birth is not null
            and ((extract(month from customers.date_of_birth) = ${m} and extract(day from customers.date_of_birth) = ${d}) ${feb29})`,
        at,
      );
    }
    default:
      return enterFromBookings(tx, scenario, times, node, trigger, scope, at);
  }
}

/** Booking triggers over the bookings changed since the last scan (the first scan reads them all). */
async function enterFromBookings(
  tx: TTx,
  scenario: TScenarioForEngine,
  times: TScenarioTimes,
  node: TScenarioNode,
  trigger: TTrigger,
  scope: TSegmentScope,
  at: Date,
): Promise<number> {
  const atIso = at.toISOString();
  const { timeZone, sendTime } = scenario.run;
  const today = localDate(at, timeZone).date;
  const changed = times.bookings_seen_at
    ? sql`b.updated_at > ${new Date(times.bookings_seen_at).toISOString()}::timestamptz`
    : sql`true`;
  const base = sql`${bookingScope(scope)} and ${changed}`;
  const moment = stayMoment(trigger, sendTime, timeZone);
  const key = sql`'booking:' || b.id::text`;
  const stayKey = sql`b.hotel_id::text || '|' || b.check_in::text || '|' || b.check_out::text`;
  if (moment) {
    const next = nextSendTime(at, sendTime, timeZone);
    const due = stayDue(moment, at, next);
    const mine = sql`j.scenario_id = ${scenario.id}::uuid and j.state = 'waiting'`;
    // The stay moves: the wait at the trigger moves with it, and the journey's history says from when
    // to when. A wait whose moment has passed (due now, or read late and waiting for the send time)
    // is no move unless it was later than the next send time: the stay came earlier.
    await tx.execute(sql`with m as (
        select j.id, j.due_at as was, ${due} as due from journeys j join bookings b on b.id = j.booking_id
        where ${mine} and j.node_id = ${node.id} and j.phase = 'wait' and ${base} and b.status not in ('cancelled', 'no_show')
          and j.due_at is distinct from ${due} and (${moment} >= ${atIso}::timestamptz or j.due_at > ${next.toISOString()}::timestamptz)
      ), moved as (
        -- Checked again on the row as it is when locked: two ticks at once (the worker's and a
        -- moved clock's) both read the old wait, and the second would record the move a second time.
        update journeys j set due_at = m.due, updated_at = ${atIso}::timestamptz from m
        where j.id = m.id and j.due_at is distinct from m.due and j.state = 'waiting'
        returning j.id, j.brand_id, j.scenario_id, m.was, m.due
      )
      insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
      select brand_id, scenario_id, id, ${node.id}, 'moved',
        to_char(was at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '/' || to_char(due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        ${atIso}::timestamptz
      from moved`);
    // A cancelled room of a stay that has another room booked: the journey follows the other room.
    await tx.execute(sql`update journeys j set booking_id = s.other, updated_at = ${atIso}::timestamptz from (
        select j.id, (select o.id from bookings o where o.customer_id = b.customer_id and o.hotel_id = b.hotel_id
            and o.check_in = b.check_in and o.check_out = b.check_out and o.status not in ('cancelled', 'no_show') order by o.id limit 1) as other
        from journeys j join bookings b on b.id = j.booking_id where ${mine} and ${base} and b.status in ('cancelled', 'no_show')
      ) s where j.id = s.id and s.other is not null`);
    // Cancelled: the guest leaves the journey.
    const cancelled = await selectRows<{ id: string }>(
      tx,
      sql`select j.id from journeys j join bookings b on b.id = j.booking_id
        where ${mine} and ${base} and b.status in ('cancelled', 'no_show')`,
    );
    if (cancelled.length)
      await leave(
        tx,
        cancelled.map((r) => r.id),
        node.id,
        'booking_cancelled',
        at,
      );
    const dateOf =
      trigger.kind === 'after_check_out'
        ? sql`b.check_out + ${trigger.days}::int`
        : trigger.kind === 'before_check_in'
          ? sql`b.check_in - ${trigger.days}::int`
          : sql`b.check_in`;
    // A stay whose moment is today or later enters; one read late (after its moment, before the
    // stay itself) waits for the next send time, and is skipped below if that is too late.
    const stillAhead =
      trigger.kind === 'after_check_out' ? sql`${dateOf} >= ${today}::date` : sql`b.check_in >= ${today}::date`;
    const n = await insertJourneys(
      tx,
      scenario,
      node.id,
      sql`select b.customer_id, b.id as booking_id, ${key} as entry_key, ${due} as due_at, ${stayKey} as stay_key
        from bookings b where ${base} and b.status not in ('cancelled', 'no_show') and ${stillAhead}`,
      at,
    );
    // New, moved or checked-in stays whose pre-arrival mail can no longer go out before check-in.
    if (isPreArrival(trigger.kind))
      await skipForStay(
        tx,
        sql`${mine} and j.node_id = ${node.id} and j.phase = 'wait' and ${base}`,
        sql`j.due_at`,
        node.id,
        at,
        moment,
      );
    return n;
  }
  if (trigger.kind === 'booking_made') {
    const startDay = localDate(times.started_at ? new Date(times.started_at) : at, timeZone).date;
    return insertJourneys(
      tx,
      scenario,
      node.id,
      sql`select b.customer_id, b.id as booking_id, ${key} as entry_key, ${atIso}::timestamptz as due_at, ${stayKey} as stay_key
        from bookings b where ${base} and b.status <> 'cancelled' and b.booking_date >= ${startDay}::date`,
      at,
    );
  }
  if (trigger.kind === 'booking_cancelled') {
    // Only cancellations seen while running: the first scan records where the bookings stand.
    if (!times.bookings_seen_at) return 0;
    return insertJourneys(
      tx,
      scenario,
      node.id,
      sql`select b.customer_id, b.id as booking_id, ${key} as entry_key, ${atIso}::timestamptz as due_at, ${stayKey} as stay_key
        from bookings b where ${base} and b.status = 'cancelled'`,
      at,
      false,
    );
  }
  return 0;
}

/** Moves the scenario's marks on: next segment entry, booking watermark, node errors. */
async function afterEntries(
  tx: TTx,
  scenario: TScenarioForEngine,
  times: TScenarioTimes,
  at: Date,
  errors: Record<string, string>,
): Promise<void> {
  const hasSegmentEntry = scenario.graph.nodes.some((n) => n.type === 'trigger' && n.data.kind === 'segment_members');
  const hasBookings = scenario.graph.nodes.some(
    (n) => n.type === 'trigger' && (STAY_TRIGGERS as readonly string[]).includes(n.data.kind),
  );
  let next: Date | null = times.next_entry_at ? new Date(times.next_entry_at) : null;
  let count = times.entry_count;
  if (hasSegmentEntry && next && next <= at) {
    count += 1;
    const period = scenario.run.period;
    next = period.kind === 'recurring' ? nextRecurrence(next, period.every, period.unit, at) : null;
    if (next && times.ends_at && next >= new Date(times.ends_at)) next = null;
  }
  const scope = await scopeOfHost(tx, await hostOf(tx, scenario.host_id));
  // Five minutes back from the newest change: a sync transaction that committed late is still read
  // (reading a booking twice changes nothing: entries are keyed, moves and leaves compare first).
  // Not after the first look, which read everything: a booking cancelled just before the scenario
  // started must not count as cancelled while it runs.
  const lookBack = times.bookings_seen_at ? sql`interval '5 minutes'` : sql`interval '0'`;
  const [mark] = hasBookings
    ? await selectRows<{ at: Date | null }>(
        tx,
        sql`select max(b.updated_at) - ${lookBack} as at from bookings b where ${bookingScope(scope)}`,
      )
    : [];
  await tx.execute(sql`update scenarios set next_entry_at = ${next?.toISOString() ?? null}::timestamptz, entry_count = ${count},
      bookings_seen_at = greatest(bookings_seen_at, coalesce(${mark?.at ? new Date(mark.at).toISOString() : null}::timestamptz, ${hasBookings ? '1970-01-01T00:00:00Z' : null}::timestamptz)),
      node_errors = ${JSON.stringify(errors)}::jsonb
    where id = ${scenario.id}::uuid`);
}

/** The first recurrence after `at` (catching up after downtime enters once, not once per missed period). */
export function nextRecurrence(
  from: Date,
  every: number,
  unit: 'minutes' | 'days' | 'weeks' | 'months' | 'years',
  at: Date,
): Date {
  let next = new Date(from);
  const stepOnce = (d: Date) => {
    const n = new Date(d);
    if (unit === 'minutes') n.setTime(n.getTime() + every * 60_000);
    else if (unit === 'days') n.setUTCDate(n.getUTCDate() + every);
    else if (unit === 'weeks') n.setUTCDate(n.getUTCDate() + 7 * every);
    else if (unit === 'months') n.setUTCMonth(n.getUTCMonth() + every);
    else n.setUTCFullYear(n.getUTCFullYear() + every);
    return n;
  };
  for (let i = 0; i < 100_000 && next <= at; i++) next = stepOnce(next);
  return next;
}
