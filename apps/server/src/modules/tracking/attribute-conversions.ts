import { DEFAULT_CONVERSION_WINDOW_DAYS } from '@yado/contracts/tracking';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { applyRollups } from './rollups.ts';

/**
 * Conversions: a booking synced for a customer within the brand's window (7 days unless its
 * tracking setting says otherwise) of a click in a campaign mail is that campaign's conversion,
 * with the booking's amount as its revenue. Called by the booking sync once per page, in the page's
 * transaction, with the external ids of the bookings it created (not of those it changed: a booking
 * synced before a click, then checked in or moved, is no conversion of that click): one statement
 * attributes the whole page.
 *
 * The click is the delivery's: its first click on or before the booking day, and its last click no
 * more than the window before it (both in the brand's time zone); among several such deliveries
 * the one clicked last wins. A booking is attributed once (re-synced or changed, it keeps its
 * conversion); a cancelled booking is not attributed. The conversion is counted when the booking
 * arrives, which is when the hotel learns of it.
 */
export async function attributeConversions(
  tx: TTx,
  brandId: string,
  externalIds: string[],
  /** When the bookings arrived: now, or the past sync of the demo history. */
  at?: Date,
): Promise<number> {
  if (externalIds.length === 0) return 0;
  const rows = await selectRows<{
    booking_id: string;
    campaign_id: string;
    delivery_id: string;
    hotel_id: string | null;
    amount: number;
    at: Date;
  }>(
    tx,
    sql`with settings as (
        select coalesce((select conversion_window_days from tracking_settings where brand_id = ${brandId}), ${DEFAULT_CONVERSION_WINDOW_DAYS}) as days,
          (select timezone from hosts where id = ${brandId}) as tz
      ), attributed as (
        select b.id as booking_id, b.amount, clicked.delivery_id
        from bookings b cross join settings s
        cross join lateral (
          select e.delivery_id from delivery_engagement e
          where e.brand_id = ${brandId} and e.customer_id = b.customer_id and e.clicked_at is not null
            and (e.clicked_at at time zone s.tz)::date <= b.booking_date
            and (e.last_clicked_at at time zone s.tz)::date + s.days >= b.booking_date
          order by e.last_clicked_at desc limit 1
        ) clicked
        where b.brand_id = ${brandId} and b.external_id = any(${sql.param(externalIds)}::text[]) and b.status <> 'cancelled'
      ), inserted as (
        insert into campaign_conversions (booking_id, brand_id, campaign_id, delivery_id, amount, at)
        select a.booking_id, ${brandId}, d.campaign_id, a.delivery_id, a.amount, ${at ? sql`${at.toISOString()}::timestamptz` : sql`now()`}
        from attributed a join deliveries d on d.id = a.delivery_id
        on conflict (booking_id) do nothing
        returning booking_id, campaign_id, delivery_id, amount, at
      )
      select i.booking_id, i.campaign_id, i.delivery_id, d.hotel_id, i.amount, i.at
      from inserted i join deliveries d on d.id = i.delivery_id`,
  );
  if (rows.length === 0) return 0;
  await tx.execute(sql`insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, amount, booking_id)
    select v.at, ${brandId}, v.campaign_id, v.delivery_id, 'conversion', v.amount, v.booking_id
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(at timestamptz, campaign_id uuid, delivery_id uuid, amount int, booking_id uuid)`);
  await applyRollups(
    tx,
    rows.map((r) => ({
      campaignId: r.campaign_id,
      brandId,
      hostId: r.hotel_id ?? brandId,
      at: new Date(r.at),
      counters: { conversions: 1, revenue: r.amount },
    })),
  );
  return rows.length;
}
