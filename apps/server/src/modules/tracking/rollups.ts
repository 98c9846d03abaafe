import { STAT_COUNTERS, type TStatCounters } from '@yado/contracts/tracking';
import { type SQL, sql } from 'drizzle-orm';
import { queryPrepared, type TTx } from '../../db/client.ts';

/**
 * The rollups every statistic reads (never the raw events): per campaign, per campaign and hour,
 * per campaign and hotel, per campaign and link, and per host and local day for the dashboard.
 * Deltas are summed in memory first, then each rollup takes one set-based upsert, its rows in key
 * order so that two writers meeting on the same rows queue rather than deadlock.
 */

export type TCounterDelta = Partial<TStatCounters>;

export interface TRollupDelta {
  campaignId: string;
  brandId: string;
  /** The delivery's hotel, or the brand itself for a delivery without one. */
  hostId: string;
  at: Date;
  counters: TCounterDelta;
}

const COLUMN: Record<keyof TStatCounters, string> = Object.fromEntries(
  STAT_COUNTERS.map((k) => [k, k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
) as Record<keyof TStatCounters, string>;
const COLUMNS = STAT_COUNTERS.map((k) => COLUMN[k]);
const TYPED = COLUMNS.map((c) => `${c} bigint`).join(', ');
const LIST = COLUMNS.join(', ');
const SUMS = COLUMNS.map((c) => `sum(v.${c})`).join(', ');
const adds = (table: string) => COLUMNS.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

function addInto(target: Record<string, number>, counters: TCounterDelta): void {
  for (const key of STAT_COUNTERS) {
    const n = counters[key];
    if (n) target[COLUMN[key]] = (target[COLUMN[key]] ?? 0) + n;
  }
}

function group<K>(
  deltas: TRollupDelta[],
  keyOf: (d: TRollupDelta) => string,
  keys: (d: TRollupDelta) => K,
): (K & Record<string, number>)[] {
  const rows = new Map<string, K & Record<string, number>>();
  for (const d of deltas) {
    const key = keyOf(d);
    let row = rows.get(key);
    if (!row) {
      row = { ...keys(d), ...Object.fromEntries(COLUMNS.map((c) => [c, 0])) } as K & Record<string, number>;
      rows.set(key, row);
    }
    addInto(row, d.counters);
  }
  return [...rows.values()];
}

const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000).toISOString();
// A quarter hour is fine enough to cut days in any time zone (offsets are whole quarter hours).
const quarterOf = (at: Date) => new Date(Math.floor(at.getTime() / 900_000) * 900_000).toISOString();

/**
 * `spell` of an instant, worked out once per instant: a batch's deltas share one or two, and
 * spelling each delta's hour and quarter anew for every rollup was most of the grouping's time.
 */
function onceAnInstant<T>(spell: (at: Date) => T): (at: Date) => T {
  const spelled = new Map<number, T>();
  return (at) => {
    let value = spelled.get(at.getTime());
    if (value === undefined) spelled.set(at.getTime(), (value = spell(at)));
    return value;
  };
}

/**
 * Adds deltas to every rollup, in the caller's transaction, in one statement (one round trip: the
 * send commits a few hundred times a second). Its four upserts are data-modifying CTEs read in
 * order by the final select, so every writer locks the rollups in the same order (campaign, hour,
 * host, day) and, within each, rows in key order.
 */
export async function applyRollups(tx: TTx, deltas: TRollupDelta[]): Promise<void> {
  const query = rollupsQuery(deltas);
  if (query) await queryPrepared(tx, query);
}

/** applyRollups' statement, for a caller that sends it in a pipeline; null when nothing changes. */
export function rollupsQuery(deltas: TRollupDelta[]): SQL | null {
  const useful = deltas.filter((d) => STAT_COUNTERS.some((k) => d.counters[k]));
  if (useful.length === 0) return null;
  const hour = onceAnInstant(hourOf);
  const quarter = onceAnInstant(quarterOf);

  const campaigns = group(
    useful,
    (d) => d.campaignId,
    (d) => ({ campaign_id: d.campaignId, brand_id: d.brandId }),
  );
  const hours = group(
    useful,
    (d) => `${d.campaignId}|${hour(d.at)}`,
    (d) => ({ campaign_id: d.campaignId, brand_id: d.brandId, hour: hour(d.at) }),
  );
  const hosts = group(
    useful,
    (d) => `${d.campaignId}|${d.hostId}`,
    (d) => ({ campaign_id: d.campaignId, host_id: d.hostId, brand_id: d.brandId }),
  );
  // The day is the host's local day (its time zone), cut here where the zone is known.
  const quarters = group(
    useful,
    (d) => `${d.hostId}|${quarter(d.at)}`,
    (d) => ({ host_id: d.hostId, brand_id: d.brandId, at: quarter(d.at) }),
  );
  return sql`with campaign_rows as (
        insert into campaign_stats (campaign_id, brand_id, ${sql.raw(LIST)})
        select v.campaign_id, v.brand_id, ${sql.raw(LIST)} from jsonb_to_recordset(${JSON.stringify(campaigns)}::jsonb) as v(campaign_id uuid, brand_id uuid, ${sql.raw(TYPED)})
        order by v.campaign_id
        on conflict (campaign_id) do update set ${sql.raw(adds('campaign_stats'))}, updated_at = now()
        returning 1
      ), hour_rows as (
        insert into campaign_stats_hourly (campaign_id, hour, brand_id, ${sql.raw(LIST)})
        select v.campaign_id, v.hour, v.brand_id, ${sql.raw(LIST)} from jsonb_to_recordset(${JSON.stringify(hours)}::jsonb) as v(campaign_id uuid, hour timestamptz, brand_id uuid, ${sql.raw(TYPED)})
        order by v.campaign_id, v.hour
        on conflict (campaign_id, hour) do update set ${sql.raw(adds('campaign_stats_hourly'))}
        returning 1
      ), host_rows as (
        insert into campaign_host_stats (campaign_id, host_id, brand_id, ${sql.raw(LIST)})
        select v.campaign_id, v.host_id, v.brand_id, ${sql.raw(LIST)} from jsonb_to_recordset(${JSON.stringify(hosts)}::jsonb) as v(campaign_id uuid, host_id uuid, brand_id uuid, ${sql.raw(TYPED)})
        order by v.campaign_id, v.host_id
        on conflict (campaign_id, host_id) do update set ${sql.raw(adds('campaign_host_stats'))}
        returning 1
      ), day_rows as (
        insert into host_daily_stats (host_id, day, brand_id, ${sql.raw(LIST)})
        select v.host_id, (v.at at time zone coalesce(h.timezone, 'Asia/Tokyo'))::date as day, v.brand_id, ${sql.raw(SUMS)}
        from jsonb_to_recordset(${JSON.stringify(quarters)}::jsonb) as v(host_id uuid, brand_id uuid, at timestamptz, ${sql.raw(TYPED)})
        left join hosts h on h.id = v.host_id
        group by 1, 2, 3 order by 1, 2
        on conflict (host_id, day) do update set ${sql.raw(adds('host_daily_stats'))}
        returning 1
      )
      select (select count(*) from campaign_rows), (select count(*) from hour_rows),
        (select count(*) from host_rows), (select count(*) from day_rows)`;
}

/** A mail the relay accepted that bounced afterwards (deliverability/apply-feedback.ts). */
export interface TUndelivered {
  campaignId: string;
  brandId: string;
  /** The delivery's hotel, or the brand itself for a delivery without one. */
  hostId: string;
  /** When the relay accepted it (`deliveries.sent_at`). */
  sentAt: Date;
  /** The From domain its bounce report named, if any. */
  sendingDomain: string | null;
}

/**
 * Takes mails that bounced after the relay accepted them out of `delivered`, where the send counted
 * them: the campaign's total, its hour, its hotel, the hotel's day and the sending domain's hour.
 * Only rows that exist are changed, and none below zero: a mail never counted (arranged without a
 * send) changes nothing. The send counted it by its process's clock and `sent_at` is the database's,
 * so a mail sent on the stroke of an hour may sit in the next (or, with the clocks apart, the
 * previous) hour's row: the hour of `sent_at` is taken when it counted a delivered mail, else the
 * next, else the one before; likewise the day. The same order of tables as applyRollups.
 */
export function undeliveredQuery(mails: TUndelivered[]): SQL | null {
  if (mails.length === 0) return null;
  const rows = JSON.stringify(
    mails.map((m) => ({
      campaign_id: m.campaignId,
      brand_id: m.brandId,
      host_id: m.hostId,
      sent_at: m.sentAt.toISOString(),
      domain: m.sendingDomain?.toLowerCase() ?? null,
    })),
  );
  return undeliveredFrom(
    sql`select * from jsonb_to_recordset(${rows}::jsonb)
      as v(campaign_id uuid, brand_id uuid, host_id uuid, sent_at timestamptz, domain text)`,
  );
}

/**
 * undeliveredQuery's statement over `source`'s mails (`campaign_id`, `brand_id`, `host_id`,
 * `sent_at`, `domain`), after the common table expressions `before` (which `source` may read).
 */
function undeliveredFrom(source: SQL, before?: SQL): SQL {
  // The row of the hour (or day) a mail was counted in: its own if that counted a delivered mail,
  // else the next, else the one before (else its own, which then changes nothing).
  const counted = (table: string, key: string, unit: string, own: string, match: string) =>
    sql.raw(`coalesce((select c.${key} from ${table} c where ${match} and c.delivered > 0
        and c.${key} in (${own}, ${own} + interval '1 ${unit}', ${own} - interval '1 ${unit}')
        order by c.${key} = ${own} desc, c.${key} > ${own} desc limit 1), ${own})`);
  // Each rollup's rows, less the mails placed in them (a key is a column of both, or the rollup's
  // column and the one of `placed` that holds it); a row with none delivered is not written again.
  const takeOut = (
    table: string,
    keys: (string | [string, string])[],
    { touch = false, where = 'true' }: { touch?: boolean; where?: string } = {},
  ) => {
    const pairs = keys.map((k) => (typeof k === 'string' ? [k, k] : k));
    return sql.raw(`update ${table} t set delivered = greatest(t.delivered - n.n, 0)${touch ? ', updated_at = now()' : ''}
        from (select ${pairs.map(([column, from]) => `${from} as ${column}`).join(', ')}, count(*)::int as n
          from placed where ${where} group by ${pairs.map((_, i) => i + 1).join(', ')}) n
        where ${pairs.map(([column]) => `t.${column} = n.${column}`).join(' and ')} and t.delivered > 0
        returning 1`);
  };
  return sql`with ${before ? sql`${before}, ` : sql``}v as (
        select v.*, date_trunc('hour', v.sent_at, 'UTC') as own_hour,
          (v.sent_at at time zone coalesce(h.timezone, 'Asia/Tokyo'))::date as own_day
        from (${source}) v
          left join hosts h on h.id = v.host_id
      ), placed as (
        select v.campaign_id, v.brand_id, v.host_id, v.domain,
          ${counted('campaign_stats_hourly', 'hour', 'hour', 'v.own_hour', 'c.campaign_id = v.campaign_id')} as hour,
          ${counted('host_daily_stats', 'day', 'day', 'v.own_day', 'c.host_id = v.host_id')} as day,
          ${counted('sending_domain_stats_hourly', 'hour', 'hour', 'v.own_hour', 'c.brand_id = v.brand_id and c.domain = v.domain')} as domain_hour
        from v
      ), campaign_rows as (${takeOut('campaign_stats', ['campaign_id'], { touch: true })}
      ), hour_rows as (${takeOut('campaign_stats_hourly', ['campaign_id', 'hour'])}
      ), host_rows as (${takeOut('campaign_host_stats', ['campaign_id', 'host_id'])}
      ), day_rows as (${takeOut('host_daily_stats', ['host_id', 'day'])}
      ), domain_rows as (${takeOut('sending_domain_stats_hourly', ['brand_id', 'domain', ['hour', 'domain_hour']], { where: 'domain is not null' })}
      )
      select (select count(*) from campaign_rows), (select count(*) from hour_rows), (select count(*) from host_rows),
        (select count(*) from day_rows), (select count(*) from domain_rows)`;
}

/**
 * Mails counted as sent whose bounce was applied before the count: a relay fast enough that its
 * report (a webhook, or the embedded sink's DSN 200 ms after it accepted) was applied while the
 * send's answer was still to be committed, when the rules could not yet take the mail out of a
 * `delivered` that had not counted it. Taken out here, in the transaction that counted it, once
 * per delivery (`delivery_bounces`, as the rules mark it: whichever comes first acts). A report
 * whose transaction is still open while this one looks is not seen here: the rules lock such a
 * mail's delivery and take it out themselves once this commits (apply-feedback.ts settleInFlight).
 */
function bouncedBeforeCountQuery(sent: TDeliveryOutcome[]): SQL | null {
  if (sent.length === 0) return null;
  const rows = JSON.stringify(
    sent.map((o) => ({
      delivery_id: o.deliveryId,
      campaign_id: o.campaignId,
      brand_id: o.brandId,
      host_id: o.hotelId ?? o.brandId,
      domain: o.sendingDomain?.toLowerCase() ?? null,
    })),
  );
  return undeliveredFrom(
    sql`select s.campaign_id, s.brand_id, s.host_id, coalesce(d.sent_at, now()) as sent_at, s.domain
      from early e join s on s.delivery_id = e.delivery_id join deliveries d on d.id = e.delivery_id`,
    sql`s as (
        select * from jsonb_to_recordset(${rows}::jsonb)
          as s(delivery_id uuid, campaign_id uuid, brand_id uuid, host_id uuid, domain text)
      ), early as (
        insert into delivery_bounces (delivery_id, brand_id, bounced_at)
        select s.delivery_id, s.brand_id, b.at from s
          join lateral (select min(f.received_at) as at from feedback_events f
            where f.delivery_id = s.delivery_id and f.kind in ('hard_bounce', 'soft_bounce')) b on b.at is not null
        on conflict (delivery_id) do nothing
        returning delivery_id
      )`,
  );
}

/** Clicks per link: total, and unique (the first click of a delivery on that link). */
export async function applyLinkRollups(
  tx: TTx,
  links: {
    campaignId: string;
    brandId: string;
    linkIndex: number;
    url: string;
    clicks: number;
    uniqueClicks: number;
  }[],
): Promise<void> {
  if (links.length === 0) return;
  const rows = new Map<
    string,
    { campaign_id: string; brand_id: string; link_index: number; url: string; clicks: number; unique_clicks: number }
  >();
  for (const l of links) {
    const key = `${l.campaignId}|${l.linkIndex}`;
    const row = rows.get(key) ?? {
      campaign_id: l.campaignId,
      brand_id: l.brandId,
      link_index: l.linkIndex,
      url: l.url,
      clicks: 0,
      unique_clicks: 0,
    };
    row.clicks += l.clicks;
    row.unique_clicks += l.uniqueClicks;
    rows.set(key, row);
  }
  await tx.execute(
    sql`insert into campaign_link_stats (campaign_id, link_index, brand_id, url, clicks, unique_clicks)
      select v.campaign_id, v.link_index, v.brand_id, v.url, v.clicks, v.unique_clicks
      from jsonb_to_recordset(${JSON.stringify([...rows.values()])}::jsonb) as v(campaign_id uuid, link_index int, brand_id uuid, url text, clicks int, unique_clicks int)
      order by v.campaign_id, v.link_index
      on conflict (campaign_id, link_index) do update set clicks = campaign_link_stats.clicks + excluded.clicks,
        unique_clicks = campaign_link_stats.unique_clicks + excluded.unique_clicks`,
  );
}

export interface TDeliveryOutcome {
  deliveryId: string;
  campaignId: string;
  brandId: string;
  hotelId: string | null;
  /** sent: a 2xx reply (sent and delivered); failed: 5xx or retries used up; skipped: not sent (consent, cap). */
  outcome: 'sent' | 'failed' | 'skipped';
  /** A hard bounce (5xx): also counted as a bounce and logged as a bounce event. */
  bounce?: boolean;
  at?: Date;
  /** The From domain it went out from: a sent or failed mail counts as handed to the relay for it. */
  sendingDomain?: string | null;
}

/** The counters of the rollup per sending domain and hour (`sending_domain_stats_hourly`). */
export const DOMAIN_COUNTERS = [
  'handed',
  'delivered',
  'hardBounces',
  'softBounces',
  'complaints',
  'policyBlocks',
  'autoReplies',
] as const;
export type TDomainCounter = (typeof DOMAIN_COUNTERS)[number];

export interface TDomainDelta {
  brandId: string;
  /** The From domain, in punycode (lower-cased here). */
  domain: string;
  at: Date;
  counters: Partial<Record<TDomainCounter, number>>;
}

const DOMAIN_COLUMNS = DOMAIN_COUNTERS.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/**
 * Adds to the rollup per brand, sending domain and UTC hour that the deliverability view per
 * sending domain reads (one upsert, rows in key order as the other rollups).
 */
export async function applyDomainRollups(tx: TTx, deltas: TDomainDelta[]): Promise<void> {
  const query = domainRollupsQuery(deltas);
  if (query) await queryPrepared(tx, query);
}

/** applyDomainRollups' statement; null when nothing changes. */
export function domainRollupsQuery(deltas: TDomainDelta[]): SQL | null {
  const rows = new Map<string, Record<string, string | number>>();
  const hourOnce = onceAnInstant(hourOf);
  for (const d of deltas) {
    const domain = d.domain.toLowerCase();
    const hour = hourOnce(d.at);
    const key = `${d.brandId}|${domain}|${hour}`;
    let row = rows.get(key);
    if (!row) {
      row = { brand_id: d.brandId, domain, hour, ...Object.fromEntries(DOMAIN_COLUMNS.map((c) => [c, 0])) };
      rows.set(key, row);
    }
    DOMAIN_COUNTERS.forEach((k, i) => {
      const column = DOMAIN_COLUMNS[i] as string;
      (row as Record<string, number>)[column] = Number(row?.[column] ?? 0) + (d.counters[k] ?? 0);
    });
  }
  if (rows.size === 0) return null;
  return sql`insert into sending_domain_stats_hourly (brand_id, domain, hour, ${sql.raw(DOMAIN_COLUMNS.join(', '))})
      select v.brand_id, v.domain, v.hour, ${sql.raw(DOMAIN_COLUMNS.map((c) => `v.${c}`).join(', '))}
      from jsonb_to_recordset(${JSON.stringify([...rows.values()])}::jsonb)
        as v(brand_id uuid, domain text, hour timestamptz, ${sql.raw(DOMAIN_COLUMNS.map((c) => `${c} int`).join(', '))})
      order by v.brand_id, v.domain, v.hour
      on conflict (brand_id, domain, hour) do update set ${sql.raw(
        DOMAIN_COLUMNS.map((c) => `${c} = sending_domain_stats_hourly.${c} + excluded.${c}`).join(', '),
      )}`;
}

/**
 * What SEND calls, in the same transaction as its delivery status change, once per delivery's
 * final outcome (packages/contracts tracking.ts explains the contract).
 */
export async function recordDeliveryOutcomes(tx: TTx, outcomes: TDeliveryOutcome[]): Promise<void> {
  for (const query of deliveryOutcomeQueries(outcomes)) await tx.execute(query);
}

/** recordDeliveryOutcomes' statements, in their order, for a caller that sends them in a pipeline. */
export function deliveryOutcomeQueries(outcomes: TDeliveryOutcome[]): SQL[] {
  if (outcomes.length === 0) return [];
  const now = new Date();
  const queries = [
    rollupsQuery(
      outcomes.map((o) => ({
        campaignId: o.campaignId,
        brandId: o.brandId,
        hostId: o.hotelId ?? o.brandId,
        at: o.at ?? now,
        counters:
          o.outcome === 'sent'
            ? { sent: 1, delivered: 1 }
            : o.outcome === 'skipped'
              ? { skipped: 1 }
              : { failed: 1, bounced: o.bounce ? 1 : 0 },
      })),
    ),
    domainRollupsQuery(
      outcomes.flatMap((o) =>
        o.sendingDomain && o.outcome !== 'skipped'
          ? [
              {
                brandId: o.brandId,
                domain: o.sendingDomain,
                at: o.at ?? now,
                counters: { handed: 1, delivered: o.outcome === 'sent' ? 1 : 0 },
              },
            ]
          : [],
      ),
    ),
  ];
  queries.push(bouncedBeforeCountQuery(outcomes.filter((o) => o.outcome === 'sent')));
  const bounces = outcomes.filter((o) => o.outcome === 'failed' && o.bounce);
  if (bounces.length > 0) {
    const rows = bounces.map((o) => ({
      at: (o.at ?? now).toISOString(),
      brand_id: o.brandId,
      campaign_id: o.campaignId,
      delivery_id: o.deliveryId,
    }));
    queries.push(
      sql`insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind)
        select v.at, v.brand_id, v.campaign_id, v.delivery_id, 'bounce' from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(at timestamptz, brand_id uuid, campaign_id uuid, delivery_id uuid)`,
    );
  }
  return queries.filter((q): q is SQL => q !== null);
}
