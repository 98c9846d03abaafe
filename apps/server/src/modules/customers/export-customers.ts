import { Readable } from 'node:stream';
import { and, type SQL } from 'drizzle-orm';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import type { TTx } from '../../db/client.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { toCustomer } from './customer-operations.ts';
import { UTF8_BOM, csvRow } from './csv.ts';
import { hostTimeZone } from '../management/queries.ts';
import { FALLBACK_TIME_ZONE, localDate, localDateTime } from './local-time.ts';
import { afterCursor, cursorOf, filterCondition, selectCustomers, type TCustomerFilter } from './queries.ts';

const BATCH = 1000;
/** The export's columns, in order (the import reads them back: customer-imports/columns.ts). */
export const EXPORT_COLUMNS = [
  'last_name',
  'first_name',
  'phone',
  'email',
  'id_number',
  'gender',
  'date_of_birth',
  'age',
  'country',
  'prefecture',
  'city',
  'address',
  'email_status',
  'total_bookings',
  'total_payments',
  'created_at',
] as const;

/** The acting host's time zone (`hosts.timezone`), the one the console shows its times in. */
export async function exportTimeZone(rt: TRuntime, ctx: TActingContext): Promise<string> {
  return (await inTenant(rt, ctx, (tx) => hostTimeZone(tx, ctx.host.id))) ?? FALLBACK_TIME_ZONE;
}

/**
 * An export's file name, dated with the day it is made in the host's zone (`customers-2026-12-03.csv`
 * from five past midnight in Tokyo on, not from nine in the morning).
 */
export function exportFileName(prefix: string, now: Date, timeZone: string): string {
  return `${prefix}-${localDate(now, timeZone)}.csv`;
}

/**
 * The customers the current filters show, as CSV, streamed batch by batch along the keyset:
 * memory stays flat at any size, and each batch is its own short transaction.
 */
export function exportCustomers(
  rt: TRuntime,
  ctx: TActingContext,
  filter: TCustomerFilter,
  language: 'ja' | 'en',
  timeZone?: string,
): Readable {
  return exportCustomersWhere(rt, ctx, async () => filterCondition(ctx, filter), filter.sort, language, timeZone);
}

/**
 * The same file for the customers a condition selects (a segment's members): `whereOf` is asked
 * in each batch's transaction. Times are written in `timeZone`, by default the acting host's, with
 * the offset (`2026-12-03 00:05:00 +09:00`); the import does not read them back (IGNORED_EXPORT_KEYS).
 */
export function exportCustomersWhere(
  rt: TRuntime,
  ctx: TActingContext,
  whereOf: (tx: TTx) => Promise<SQL>,
  sort: TCustomerFilter['sort'],
  language: 'ja' | 'en',
  timeZone?: string,
): Readable {
  const labels = language === 'ja' ? ja : en;
  let zone = timeZone;
  async function* lines() {
    yield UTF8_BOM + csvRow(EXPORT_COLUMNS.map((c) => labels.customer_csv[c]));
    let position: SQL | undefined;
    for (;;) {
      const rows = await inTenant(rt, ctx, async (tx) => {
        zone ??= (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE;
        const where = await whereOf(tx);
        return selectCustomers(tx, position ? (and(where, position) as SQL) : where, sort, BATCH, ctx);
      });
      let chunk = '';
      for (const row of rows) {
        const c = toCustomer(row);
        chunk += csvRow([
          c.lastName,
          c.firstName,
          c.phone,
          c.email,
          c.idNumber,
          c.gender ? labels.gender[c.gender] : null,
          c.dateOfBirth,
          c.age,
          c.country,
          c.prefecture,
          c.city,
          c.address,
          labels.email_status[c.emailStatus],
          c.totalBookings,
          c.totalPayments,
          localDateTime(row.createdAt, zone as string),
        ]);
      }
      if (chunk) yield chunk;
      const last = rows[rows.length - 1];
      if (rows.length < BATCH || !last) return;
      position = afterCursor(sort, cursorOf(sort, last));
    }
  }
  return Readable.from(lines());
}
