import { sql, type SQL } from 'drizzle-orm';

/**
 * The per-brand suppression list (issue 25) as the send paths read it: an address with an active
 * row (not lifted, `until` not passed) is not mailed, by campaigns and journeys alike. Checked
 * where the audience is snapshotted, where a journey's email node queues its deliveries, and again
 * at each claim and right before each mail is handed to SMTP (send-queries.ts).
 */

/** Soft bounces suppress for this long, then the address is tried again. */
export const SOFT_SUPPRESSION_DAYS = 30;
/** ...when this many of the guest's last SOFT_WINDOW sends soft-bounced. */
export const SOFT_BOUNCES = 3;
export const SOFT_WINDOW = 5;

/**
 * Since when the address of the customer row under `alias` has been suppressed for a hard bounce
 * (its active entry's time), else null: what the customer shows as the day the address bounced.
 */
export function hardBouncedSinceSql(alias: string): SQL {
  const c = sql.raw(alias);
  return sql`(select s.created_at from suppressions s where s.brand_id = ${c}.brand_id and s.email = ${c}.email_key
    and s.lifted_at is null and s.reason = 'hard_bounce')`;
}

/**
 * True when the customer row under `alias` (customers, or the alias a query gives it) has a
 * suppressed address in its brand. `email_key` is the generated lower(email), as the list keeps it.
 * `at`: the moment to judge by (the demo history's past sends), else the database's now.
 */
export function suppressedSql(alias: string, at?: Date): SQL {
  const c = sql.raw(alias);
  const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql`exists (select 1 from suppressions s where s.brand_id = ${c}.brand_id and s.email = ${c}.email_key
    and s.lifted_at is null and (s.until is null or s.until > ${now}))`;
}
