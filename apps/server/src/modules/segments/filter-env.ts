/**
 * What both readings of a filter take besides the filter itself (the SQL compiler, filter-sql.ts, and
 * the evaluator it is proven against, filter-eval.ts): whose customers, what "today" is, and the
 * calendar arithmetic on 'YYYY-MM-DD' days they share.
 */

/** Whose customers and bookings a segment sees: a brand, or some of its hotels. */
export interface TSegmentScope {
  brandId: string;
  /** null: the whole brand. Otherwise the hotels (one for a hotel, the group's for a group). */
  hotelIds: string[] | null;
}

/** What "today" is, and the brand's time zone for dates of timestamps. */
export interface TFilterEnv {
  today: string;
  timeZone: string;
}

/** 'YYYY-MM-DD' of an instant in a time zone. */
export function dateIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** A 'YYYY-MM-DD' day moved by whole days (calendar arithmetic: no time zone involved). */
export function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
