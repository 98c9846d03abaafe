import { zonedToInstant, type TDelay } from '@yado/contracts/scenarios';

/** Local calendar date (`YYYY-MM-DD`) and weekday of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): { date: string; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { date: `${get('year')}-${get('month')}-${get('day')}`, weekday };
}

const addDays = (date: string, days: number): string => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * When a customer who reaches a delay at `at` goes on, in the scenario's time zone. Calendar delays
 * wait for the next matching moment strictly after `at`; a month without the chosen day is passed
 * over (the 31st waits for a month that has one). A dated delay already past goes on at once.
 */
export function delayUntil(delay: TDelay, at: Date, timeZone: string): Date {
  const time = 'time' in delay && delay.time ? delay.time : '09:00';
  const after = (date: string) => {
    const instant = zonedToInstant(date, time, timeZone);
    return instant > at.getTime() ? new Date(instant) : null;
  };
  const today = localDate(at, timeZone);
  switch (delay.kind) {
    case 'duration': {
      const minutes = delay.amount * (delay.unit === 'minutes' ? 1 : delay.unit === 'hours' ? 60 : 1440);
      return new Date(at.getTime() + minutes * 60_000);
    }
    case 'time_of_day':
      return after(today.date) ?? (after(addDays(today.date, 1)) as Date);
    case 'weekday':
      for (let k = 0; k <= 7; k++) {
        const found = delay.weekdays.includes((today.weekday + k) % 7) ? after(addDays(today.date, k)) : null;
        if (found) return found;
      }
      break;
    case 'day_of_month':
    case 'month': {
      const [y, m] = today.date.split('-').map(Number) as [number, number];
      const day = delay.day;
      for (let k = 0; k <= 48; k++) {
        const year = y + Math.floor((m - 1 + k) / 12);
        const month = ((m - 1 + k) % 12) + 1;
        if (delay.kind === 'month' && !delay.months.includes(month)) continue;
        if (day > daysInMonth(year, month)) continue;
        const found = after(`${year}-${pad(month)}-${pad(day)}`);
        if (found) return found;
      }
      break;
    }
    case 'date':
      return new Date(Math.max(zonedToInstant(delay.date, time, timeZone), at.getTime()));
  }
  // Unreachable for a validated delay (no weekday or month chosen): go on at once rather than hold.
  return at;
}
