import { STAY_SKIP_REASONS, zonedToInstant, type TTriggerKind } from '@yado/contracts/scenarios';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { localDate } from './delay-time.ts';

/**
 * What a stay allows a journey of a stay-relative trigger (docs/architecture.md, "Stays"):
 *
 * - Check-in is at 15:00 on the arrival day in the hotel's time zone (`hosts.timezone` of the
 *   booking's hotel): hotels carry no check-in time of their own, and 15:00 is the hotels' common
 *   one (the booking simulator checks guests in from 15:00 too).
 * - A pre-arrival journey ("N days before check-in", "check-in day") never goes on once the guest
 *   has checked in or check-in has passed, nor when the wait would end at or after check-in: it is
 *   skipped at its trigger with a reason (`STAY_SKIP_REASONS` of the contract); each of its email
 *   steps is checked again when due (a delay can carry a mail past check-in).
 * - A late entry (the stay's moment already past when the booking is read) waits for the
 *   scenario's next send time; for a pre-arrival trigger only if that is still before check-in.
 */

export const CHECK_IN_TIME = '15:00';

/** Triggers whose mail is meant before the stay: the check-in limits apply to them. */
export const PRE_ARRIVAL_TRIGGERS = ['before_check_in', 'check_in_day'] as const satisfies readonly TTriggerKind[];

export const isPreArrival = (kind: TTriggerKind): boolean => (PRE_ARRIVAL_TRIGGERS as readonly string[]).includes(kind);

/** The first instant at or after `at` that is the scenario's send time in its time zone. */
export function nextSendTime(at: Date, sendTime: string, timeZone: string): Date {
  const today = localDate(at, timeZone).date;
  const todays = zonedToInstant(today, sendTime, timeZone);
  if (todays >= at.getTime()) return new Date(todays);
  const tomorrow = new Date(`${today}T00:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  return new Date(zonedToInstant(tomorrow.toISOString().slice(0, 10), sendTime, timeZone));
}

/**
 * A stay-relative wait's end over bookings `b`: the stay's moment, or, when that is already past at
 * `at` (a late booking, a stay moved into the past), the scenario's next send time `next`.
 */
export const stayDue = (moment: SQL, at: Date, next: Date): SQL =>
  sql`(case when ${moment} >= ${at.toISOString()}::timestamptz then ${moment} else ${next.toISOString()}::timestamptz end)`;

/** Check-in of booking `b` at hotel `h`, as an instant. */
const checkInAt = sql`((b.check_in)::timestamp + ${CHECK_IN_TIME}::time) at time zone h.timezone`;
/** The stay has ended once the check-out day has begun in the hotel's time zone. */
const checkOutDay = sql`(b.check_out)::timestamp at time zone h.timezone`;

/**
 * Why a pre-arrival journey whose wait ends at `due` cannot be mailed at `at` (null: it can); with
 * the stay's `moment`, a send time that is itself at or after check-in is told from a late booking.
 */
function skipReason(due: SQL, at: Date, moment: SQL | null): SQL {
  const atIso = at.toISOString();
  const [ended, checkedIn, passed, sendTime, late] = STAY_SKIP_REASONS;
  const tooLate = moment
    ? sql`(case when ${moment} >= ${checkInAt} then ${sendTime}::text else ${late}::text end)`
    : sql`${late}::text`;
  return sql`case
    when b.status = 'checked_out' or ${atIso}::timestamptz >= ${checkOutDay} then ${ended}::text
    when b.status = 'checked_in' then ${checkedIn}::text
    when ${atIso}::timestamptz >= ${checkInAt} then ${passed}::text
    when ${due} >= ${checkInAt} then ${tooLate}
  end`;
}

/**
 * Skips the waiting pre-arrival journeys matching `where` (over journeys `j` and their bookings `b`)
 * whose stay no longer allows the mail, when their wait ends at `due` (an expression over `j`):
 * they leave the scenario with a `skipped` step at `nodeId` carrying the reason. Answers their ids.
 */
export async function skipForStay(
  tx: TTx,
  where: SQL,
  due: SQL,
  nodeId: string,
  at: Date,
  moment: SQL | null = null,
): Promise<string[]> {
  const atIso = at.toISOString();
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`with s as (
        select j.id, ${skipReason(due, at, moment)} as reason
        from journeys j join bookings b on b.id = j.booking_id join hosts h on h.id = b.hotel_id
        where j.state = 'waiting' and ${where}
      ), moved as (
        update journeys j set state = 'left', due_at = null, updated_at = ${atIso}::timestamptz
        from s where j.id = s.id and s.reason is not null
        returning j.id, j.brand_id, j.scenario_id, s.reason
      ), logged as (
        insert into journey_steps (brand_id, scenario_id, journey_id, node_id, event, detail, at)
        select brand_id, scenario_id, id, ${nodeId}, 'skipped', reason, ${atIso}::timestamptz from moved
        returning journey_id
      )
      select journey_id as id from logged`,
  );
  return rows.map((r) => r.id);
}
