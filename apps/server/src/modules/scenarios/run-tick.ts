import type { TRuntime } from '../../runtime.ts';
import { advanceBatch, wakeEmailWaits } from './advance-journeys.ts';
import { scenarioNow } from './clock.ts';
import { enterCustomers, moveScenarioStatuses } from './enter-journeys.ts';

/** Sets claimed per tick at most, so one tick ends and the next (with a fresh clock) begins. */
const MAX_SETS_PER_TICK = 200;

/**
 * One engine tick (DESIGN: one pg-boss job every SCENARIO_TICK_SECONDS under a job lease, never a
 * timer per customer): start and complete scenarios, let new customers in, wake the email waits
 * whose send has answered, then advance due journeys set by set until none is due at `at`.
 * Answers the journey steps taken. Safe to run twice at once (claims skip locked rows; entries are keyed).
 * `sendJobs: false`: the mails queued are not handed to the send path's jobs; the caller answers
 * them itself (the demo history, which records the relay's answers at their past moments).
 */
export async function runScenarioTick(rt: TRuntime, now?: Date, options: { sendJobs?: boolean } = {}): Promise<number> {
  const at = now ?? (await scenarioNow(rt));
  await moveScenarioStatuses(rt, at);
  await enterCustomers(rt, at);
  await wakeEmailWaits(rt, at);
  let steps = 0;
  for (let i = 0; i < MAX_SETS_PER_TICK; i++) {
    const n = await advanceBatch(rt, at, rt.config.scenarios.batchSize, options.sendJobs ?? true);
    steps += n;
    if (n === 0) break;
  }
  await moveScenarioStatuses(rt, at);
  return steps;
}
