import { sql } from 'drizzle-orm';
import { selectRows } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';

/**
 * The scenario engine's clock. Real by default; with SCENARIO_CLOCK=manual it is one row in the
 * database (so the API process that moves it and the worker that reads it agree) and moves only
 * when told, which lets tests pass three days in a moment. Only the engine's own work follows it
 * (due times, entries, the step log, a mail step's checks when it queues the mail): the send path
 * (quiet hours, the frequency cap at the claim, retries) keeps real time.
 */
export async function scenarioNow(rt: TRuntime): Promise<Date> {
  if (rt.config.scenarios.clock === 'real') return new Date();
  const [row] = await selectRows<{ now: Date }>(
    rt.database.db,
    sql`insert into scenario_clock (id, now) values (1, now()) on conflict (id) do update set now = scenario_clock.now returning now`,
  );
  return new Date(row?.now ?? Date.now());
}

/** Moves the manual clock forward by minutes, or to an instant (never back); 404 unless manual. */
export async function advanceClock(rt: TRuntime, move: { minutes?: number; to?: string }): Promise<Date> {
  if (rt.config.scenarios.clock !== 'manual') throw new AppError(404, 'scenario_clock_not_manual');
  const current = await scenarioNow(rt);
  const target = move.to
    ? new Date(Math.max(Date.parse(move.to), current.getTime()))
    : new Date(current.getTime() + (move.minutes ?? 0) * 60_000);
  await rt.database.db.execute(sql`update scenario_clock set now = ${target.toISOString()}::timestamptz where id = 1`);
  return target;
}
