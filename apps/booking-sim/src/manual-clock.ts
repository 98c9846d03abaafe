import { MS_PER_DAY } from './calendar.ts';

/** A clock that moves only when told to: tests and scripted demos drive the simulator with it. */
export interface TManualClock {
  now: () => Date;
  set: (instant: Date | string) => void;
  advance: (milliseconds: number) => void;
  advanceDays: (days: number) => void;
}

export function createManualClock(start: Date | string): TManualClock {
  let current = toMs(start);
  return {
    now: () => new Date(current),
    set: (instant) => {
      current = toMs(instant);
    },
    advance: (milliseconds) => {
      current += milliseconds;
    },
    advanceDays: (days) => {
      current += days * MS_PER_DAY;
    },
  };
}

function toMs(instant: Date | string): number {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(ms)) throw new Error(`not an instant: ${String(instant)}`);
  return ms;
}
