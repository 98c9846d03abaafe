import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { mailableSql, suppressedBy } from '../campaigns/audience.ts';
import { suppressionJoinSql } from '../deliverability/suppression.ts';

/**
 * The dashboard's reads. It owns only `customer_count_days`; everything else here is read, never
 * written: hosts, customers, allocations and the suppression list (counted once per host and few
 * minutes into the daily counts), the booking sync log, campaigns.
 */

/** The acting host, as far as the dashboard needs it. */
export interface TScopeHost {
  id: string;
  level: 'brand' | 'hotel_group' | 'hotel';
  brandId: string;
}

export interface TPanelHostRow {
  id: string;
  level: 'brand' | 'hotel_group' | 'hotel';
  name: string;
  address: string | null;
  email: string | null;
  phone: string | null;
  logo_url: string | null;
  timezone: string;
  hotel_group_id: string | null;
  brand_name: string | null;
  hotel_group_name: string | null;
  hotel_count: number;
}

const PANEL = sql`select h.id, h.level, h.name, h.address, h.email, h.phone, h.logo_url, h.timezone, h.hotel_group_id,
  b.name as brand_name, g.name as hotel_group_name,
  (select count(*)::int from hosts x where x.hotel_group_id = h.id and x.level = 'hotel' and x.deleted_at is null) as hotel_count
  from hosts h left join hosts b on b.id = h.brand_id and h.level <> 'brand' left join hosts g on g.id = h.hotel_group_id`;

export async function panelHost(tx: TTx, hostId: string): Promise<TPanelHostRow | null> {
  const [row] = await selectRows<TPanelHostRow>(tx, sql`${PANEL} where h.id = ${hostId} and h.deleted_at is null`);
  return row ?? null;
}

/** A brand's hotel groups and hotels, or a group's hotels, by name. */
export function panelChildren(tx: TTx, host: TScopeHost): Promise<TPanelHostRow[]> {
  const below =
    host.level === 'brand'
      ? sql`h.brand_id = ${host.id} and h.level in ('hotel_group', 'hotel')`
      : sql`h.hotel_group_id = ${host.id} and h.level = 'hotel'`;
  return selectRows<TPanelHostRow>(tx, sql`${PANEL} where ${below} and h.deleted_at is null order by h.name, h.id`);
}

/** The live hotels of a scope: a brand's, a group's, or the hotel itself. */
export async function scopeHotels(tx: TTx, host: TScopeHost): Promise<{ id: string; name: string }[]> {
  const where =
    host.level === 'brand'
      ? sql`brand_id = ${host.id}`
      : host.level === 'hotel_group'
        ? sql`hotel_group_id = ${host.id}`
        : sql`id = ${host.id}`;
  return selectRows(
    tx,
    sql`select id, name from hosts where level = 'hotel' and deleted_at is null and ${where} order by name, id`,
  );
}

export interface TCustomerCounts {
  customers: number;
  active: number;
  unsubscribed: number;
}

/**
 * Counts the customers of a scope now: a brand's all; a group's or hotel's those allocated to its
 * hotels, each customer once however many of them it is allocated to. `active` are the customers
 * a campaign can mail (campaigns/audience.ts's mailableSql): email status active, an email address,
 * and no entry on the brand's suppression list (a hard bounce, soft bounces within their 30 days, a
 * complaint, a manual entry); an active customer without an address or with a suppressed one is
 * among the customers only. With `asOf`, the counts at that past moment by the customers' creation
 * and email status change times and the suppression list's entries then (the demo history's past
 * days; a status changed and changed back since is not seen).
 */
export async function countCustomers(
  tx: TTx,
  host: TScopeHost,
  hotelIds: string[],
  asOf?: Date,
): Promise<TCustomerCounts> {
  const inScope: SQL =
    host.level === 'brand'
      ? sql`c.brand_id = ${host.id}`
      : sql`c.brand_id = ${host.brandId} and c.id in (select a.customer_id from customer_allocations a where a.hotel_id = any(${sql.param(hotelIds)}::uuid[]))`;
  const at = asOf ? sql`${asOf.toISOString()}::timestamptz` : null;
  const existed = at ? sql` and c.created_at <= ${at}` : sql``;
  const unsubscribed = at
    ? sql`c.email_status = 'unsubscribed' and coalesce(c.email_status_changed_at, c.created_at) <= ${at}`
    : sql`c.email_status = 'unsubscribed'`;
  // The suppression list joined once, not probed per customer (mailableSql says why); in the past,
  // the list as it stood then and the email status by its change time.
  const listed = { entry: 's' };
  const active = at
    ? sql`not (${unsubscribed}) and nullif(c.email, '') is not null and not ${suppressedBy('c', listed)}`
    : mailableSql('c', listed);
  const [row] = await selectRows<TCustomerCounts>(
    tx,
    sql`select count(*)::int as customers,
      count(*) filter (where ${active})::int as active,
      count(*) filter (where ${unsubscribed})::int as unsubscribed
      from customers c ${suppressionJoinSql(listed.entry, 'c', { asOf })}
      where ${inScope}${existed}`,
  );
  return row ?? { customers: 0, active: 0, unsubscribed: 0 };
}

/** Raw statements give timestamps as the driver parses them: a Date on pg, a string on some paths. */
export type TTimestamp = Date | string;

export interface TCountDayRow extends TCustomerCounts {
  day: string;
  counted_at: TTimestamp;
}

export function countDays(tx: TTx, hostId: string, days: string[]): Promise<TCountDayRow[]> {
  return selectRows<TCountDayRow>(
    tx,
    sql`select to_char(day, 'YYYY-MM-DD') as day, customers, active, unsubscribed, counted_at
      from customer_count_days where host_id = ${hostId} and day = any(${sql.param(days)}::date[])`,
  );
}

/** Stores a host's count of a day; gives when it was counted. */
export async function saveCountDay(tx: TTx, host: TScopeHost, day: string, counts: TCustomerCounts): Promise<Date> {
  const [row] = await selectRows<{ counted_at: TTimestamp }>(
    tx,
    sql`insert into customer_count_days (host_id, day, brand_id, customers, active, unsubscribed, counted_at)
    values (${host.id}, ${day}, ${host.brandId}, ${counts.customers}, ${counts.active}, ${counts.unsubscribed}, now())
    on conflict (host_id, day) do update set customers = excluded.customers, active = excluded.active,
      unsubscribed = excluded.unsubscribed, counted_at = excluded.counted_at
    returning counted_at`,
  );
  return row ? new Date(row.counted_at) : new Date();
}

/** The brand's last finished booking-system sync, and whether it is connected at all. */
export async function lastSync(
  tx: TTx,
  brandId: string,
): Promise<{ connected: boolean; run: { status: 'succeeded' | 'failed'; finished_at: TTimestamp } | null }> {
  const [row] = await selectRows<{
    connected: boolean;
    status: 'succeeded' | 'failed' | null;
    finished_at: TTimestamp | null;
  }>(
    tx,
    sql`select exists (select 1 from booking_connections where brand_id = ${brandId}) as connected, r.status, r.finished_at
      from (select 1) one left join lateral (
        select status, finished_at from booking_sync_runs
        where brand_id = ${brandId} and status in ('succeeded', 'failed') and finished_at is not null
        order by started_at desc limit 1) r on true`,
  );
  return {
    connected: row?.connected ?? false,
    run: row?.status && row.finished_at ? { status: row.status, finished_at: row.finished_at } : null,
  };
}

/**
 * Rows owned by a host of the scope (`alias.brand_id`, `alias.host_id`): the brand's and all below
 * it, a group and its hotels, a hotel. Campaigns and scenarios are scoped alike.
 */
function ownedBy(host: TScopeHost, alias: 'c' | 's'): SQL {
  const brand = sql.raw(`${alias}.brand_id`);
  const owner = sql.raw(`${alias}.host_id`);
  if (host.level === 'brand') return sql`${brand} = ${host.id}`;
  if (host.level === 'hotel_group')
    return sql`${brand} = ${host.brandId} and (${owner} = ${host.id} or ${owner} in (select id from hosts where hotel_group_id = ${host.id}))`;
  return sql`${brand} = ${host.brandId} and ${owner} = ${host.id}`;
}

/** An instant within a window of local days (`from` to `to` inclusive, in `timezone`). */
function within(column: SQL, timezone: string, w: { from: string; to: string }): SQL {
  return sql`${column} >= (${w.from}::date)::timestamp at time zone ${timezone} and ${column} < (${w.to}::date + 1)::timestamp at time zone ${timezone}`;
}

/** The span of all windows, for the index or the scan to start from. */
function spanOf(windows: { from: string; to: string }[]): { from: string; to: string } {
  return {
    from: windows.map((w) => w.from).sort()[0]!,
    to: windows
      .map((w) => w.to)
      .sort()
      .at(-1)!,
  };
}

/**
 * Campaigns of the scope whose send finished as sent or failed in each window, by its local days
 * (`from` to `to` inclusive, in `timezone`); all windows in one statement. The scope's campaigns
 * are the campaign list's (`reach`, campaigns/queries.ts): its own and those below it, and for a
 * hotel or group a campaign of its brand or group that reached its guests.
 */
export async function finishedCampaigns(
  tx: TTx,
  reach: SQL,
  timezone: string,
  windows: { from: string; to: string }[],
): Promise<{ sent: number; failed: number }[]> {
  const at = sql`c.finished_at`;
  const columns = windows.map(
    (w, i) =>
      sql`count(*) filter (where c.status = 'sent' and ${within(at, timezone, w)})::int as ${sql.raw(`sent_${i}`)},
        count(*) filter (where c.status = 'failed' and ${within(at, timezone, w)})::int as ${sql.raw(`failed_${i}`)}`,
  );
  const [row] = await selectRows<Record<string, number>>(
    tx,
    sql`select ${sql.join(columns, sql`, `)} from campaigns c join hosts h on h.id = c.host_id
      where ${reach} and c.status in ('sent', 'failed') and ${within(at, timezone, spanOf(windows))}`,
  );
  return windows.map((_, i) => ({ sent: row?.[`sent_${i}`] ?? 0, failed: row?.[`failed_${i}`] ?? 0 }));
}

export interface TNextCampaignRow {
  id: string;
  name: string;
  status: 'scheduled' | 'pending';
  send_at: TTimestamp | null;
  host_name: string;
  /** Deliveries in flight (claimed, not answered) that the reader sees; a sending one's only. */
  in_flight: number;
}

/**
 * The scope's next scheduled campaigns (soonest first, `limit`), and every campaign of the scope
 * sending now (few at any time), whose holds the caller works out. `seen` narrows the in-flight
 * count to the deliveries the reader sees (its own hotels' guests of a campaign above it).
 */
export async function nextCampaigns(
  tx: TTx,
  reach: SQL,
  seen: SQL,
  limit: number,
): Promise<{ scheduled: TNextCampaignRow[]; sending: TNextCampaignRow[] }> {
  const scheduled = await selectRows<TNextCampaignRow>(
    tx,
    sql`select c.id, c.name, c.status, c.send_at, h.name as host_name, 0 as in_flight
      from campaigns c join hosts h on h.id = c.host_id
      where ${reach} and c.status = 'scheduled' and c.send_at is not null
      order by c.send_at, c.id limit ${limit}`,
  );
  const sending = await selectRows<TNextCampaignRow>(
    tx,
    sql`select c.id, c.name, c.status, c.send_at, h.name as host_name,
        (select count(*)::int from deliveries d where d.campaign_id = c.id and d.status = 'sending' and ${seen}) as in_flight
      from campaigns c join hosts h on h.id = c.host_id
      where ${reach} and c.status = 'pending'
      order by c.started_at, c.id limit 100`,
  );
  return { scheduled, sending };
}

/** One host's tracked figures of one local day (TRACK's `host_daily_stats`, kept as events arrive). */
export interface TPerformanceRow {
  day: string;
  /** A hotel, or the brand itself for guests allocated to no hotel. */
  hotel_id: string | null;
  sent: number;
  opened: number;
  clicked: number;
  bookings: number;
  revenue: number;
}

/**
 * The scope's rows of the tracking rollup per host and day: a brand's all (its own row included),
 * a group's or hotel's only those of its hotels. Unique opens and clicks: a guest who opens twice
 * is one open.
 */
export function performanceRows(
  tx: TTx,
  host: TScopeHost,
  hotelIds: string[],
  from: string,
  to: string,
): Promise<TPerformanceRow[]> {
  const hosts = host.level === 'brand' ? sql`true` : sql`s.host_id = any(${sql.param([host.id, ...hotelIds])}::uuid[])`;
  return selectRows<TPerformanceRow>(
    tx,
    sql`select to_char(s.day, 'YYYY-MM-DD') as day, s.host_id as hotel_id, s.sent::int as sent,
      s.unique_opens::int as opened, s.unique_clicks::int as clicked, s.conversions::int as bookings, s.revenue::bigint::float8 as revenue
      from host_daily_stats s
      where s.brand_id = ${host.brandId} and ${hosts} and s.day >= ${from}::date and s.day <= ${to}::date`,
  );
}

/**
 * Delivered, uniquely opened and uniquely clicked mails of the campaigns whose send started in
 * each window, for the scope's hosts (TRACK's per campaign and host rollup); all windows in one
 * statement. Rates are taken over these, so a week's rate is its own mails' and never passes
 * 100 % from opens of an older mail.
 */
export async function campaignEngagement(
  tx: TTx,
  host: TScopeHost,
  hotelIds: string[],
  timezone: string,
  windows: { from: string; to: string }[],
): Promise<
  { delivered: number; opened: number; clicked: number; handed: number; hardBounces: number; complaints: number }[]
> {
  const hosts = host.level === 'brand' ? sql`true` : sql`s.host_id = any(${sql.param([host.id, ...hotelIds])}::uuid[])`;
  const at = sql`c.started_at`;
  const columns = windows.map((w, i) => {
    const inside = within(at, timezone, w);
    return sql`coalesce(sum(s.delivered) filter (where ${inside}), 0)::int as ${sql.raw(`delivered_${i}`)},
      coalesce(sum(s.unique_opens) filter (where ${inside}), 0)::int as ${sql.raw(`opened_${i}`)},
      coalesce(sum(s.unique_clicks) filter (where ${inside}), 0)::int as ${sql.raw(`clicked_${i}`)},
      coalesce(sum(s.sent + s.failed) filter (where ${inside}), 0)::int as ${sql.raw(`handed_${i}`)},
      coalesce(sum(s.hard_bounces) filter (where ${inside}), 0)::int as ${sql.raw(`hard_bounces_${i}`)},
      coalesce(sum(s.complaints) filter (where ${inside}), 0)::int as ${sql.raw(`complaints_${i}`)}`;
  });
  const [row] = await selectRows<Record<string, number>>(
    tx,
    sql`select ${sql.join(columns, sql`, `)}
      from campaign_host_stats s join campaigns c on c.id = s.campaign_id
      where s.brand_id = ${host.brandId} and ${hosts} and c.scenario_id is null and ${within(at, timezone, spanOf(windows))}`,
  );
  return windows.map((_, i) => ({
    delivered: row?.[`delivered_${i}`] ?? 0,
    opened: row?.[`opened_${i}`] ?? 0,
    clicked: row?.[`clicked_${i}`] ?? 0,
    handed: row?.[`handed_${i}`] ?? 0,
    hardBounces: row?.[`hard_bounces_${i}`] ?? 0,
    complaints: row?.[`complaints_${i}`] ?? 0,
  }));
}

export interface TRunningScenarioRow {
  id: string;
  name: string;
  host_name: string;
  started_at: TTimestamp | null;
  entered: number;
}

/**
 * The scope's running scenarios, most recently started first, with how many customers entered
 * each (its journeys, counted on the journeys' scenario index for the few shown only), and how
 * many run in all. Read from the scenarios module's tables, never written.
 */
export async function runningScenarios(
  tx: TTx,
  host: TScopeHost,
  limit: number,
): Promise<{ rows: TRunningScenarioRow[]; total: number }> {
  const rows = await selectRows<TRunningScenarioRow>(
    tx,
    sql`select s.id, s.name, h.name as host_name, s.started_at,
        (select count(*)::int from journeys j where j.scenario_id = s.id) as entered
      from (select s.id, s.name, s.host_id, s.started_at from scenarios s
        where ${ownedBy(host, 's')} and s.status = 'running'
        order by s.started_at desc nulls last, s.id limit ${limit}) s
      join hosts h on h.id = s.host_id
      order by s.started_at desc nulls last, s.id`,
  );
  const [count] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from scenarios s where ${ownedBy(host, 's')} and s.status = 'running'`,
  );
  return { rows, total: count?.n ?? 0 };
}
