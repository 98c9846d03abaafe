import { DASHBOARD_WINDOW_DAYS, type TDashboardWindow } from '@yado/contracts';

/** The host's local calendar day of an instant, as 'YYYY-MM-DD'. */
export function localDay(instant: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** A calendar day moved by whole days (calendar arithmetic: no time zone involved). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, inclusive. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * The last 7 days as a general manager means them: today and the six days before, in the
 * host's time zone, so Monday morning shows last Tuesday to today; and the 7 days before that.
 */
export function dashboardWindow(now: Date, timezone: string): TDashboardWindow {
  const to = localDay(now, timezone);
  const from = addDays(to, -(DASHBOARD_WINDOW_DAYS - 1));
  return { timezone, from, to, previousFrom: addDays(from, -DASHBOARD_WINDOW_DAYS), previousTo: addDays(from, -1) };
}
