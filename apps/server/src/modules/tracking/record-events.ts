import { sql } from 'drizzle-orm';
import { selectRows, withTenant, type TTx } from '../../db/client.ts';
import type { TRuntime } from '../../runtime.ts';
import { isTooSoon, type TMachineReason } from './machine-opens.ts';
import { applyLinkRollups, applyRollups, type TRollupDelta } from './rollups.ts';

/**
 * Opens and clicks are collected in memory and written in batches: one transaction per batch, a
 * few set-based statements, however many events it holds. A batch is written when it reaches
 * BATCH_SIZE or FLUSH_MS after its first event, and when the server closes. An event whose process
 * dies before its batch is written is lost (at most FLUSH_MS of them): that is the price of a
 * redirect that waits for no database write.
 *
 * The batches are small and frequent on purpose: whatever a batch costs the event loop (building
 * its parameters, reading its answers) is time the redirects wait, so many short pieces keep the
 * slowest redirect fast where one big piece every half second made it wait. Rows go to the
 * database as one array per column (`unnest`), not as an object per row.
 */

export interface TPendingEvent {
  kind: 'open' | 'click';
  deliveryId: string;
  at: Date;
  /** Set when the request already showed a machine (Apple's proxy, a scanner). */
  machine?: TMachineReason | null;
  linkIndex?: number;
  url?: string;
}

export const BATCH_SIZE = 250;
export const FLUSH_MS = 100;
/** Beyond this many waiting events new ones are dropped (and counted in a log line), not queued. */
export const MAX_PENDING = 50_000;

/** The platform context: a batch spans brands; row-level security still checks each row's brand. */
const SYSTEM = { scopeAll: true, brandId: null } as const;

/** A delivery as a batch needs it, and what it has seen so far (its engagement row, locked). */
interface TDeliveryRow {
  id: string;
  brand_id: string;
  campaign_id: string;
  hotel_id: string | null;
  sent_at: Date | null;
  opens: number;
  machine_opens: number;
  clicks: number;
  opened_at: Date | null;
  clicked_at: Date | null;
  last_clicked_at: Date | null;
}

/** Raw statements give timestamps as text on one driver and as dates on another. */
const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

export class EventRecorder {
  private pending: TPendingEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(private readonly rt: TRuntime) {}

  add(event: TPendingEvent): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped++;
      return;
    }
    this.pending.push(event);
    if (this.pending.length >= BATCH_SIZE) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is waiting; batches are written one after another, in arrival order. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    if (this.dropped > 0) {
      this.rt.log.warn({ dropped: this.dropped }, 'tracking events dropped: too many waiting');
      this.dropped = 0;
    }
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() =>
      writeEvents(this.rt, batch).catch((error: unknown) => {
        // Logged by count and error only: events carry delivery ids, never personal data.
        this.rt.log.error({ err: error, events: batch.length }, 'tracking events not written');
      }),
    );
    return this.writing;
  }
}

const recorders = new WeakMap<TRuntime, EventRecorder>();
export function recorderOf(rt: TRuntime): EventRecorder {
  let recorder = recorders.get(rt);
  if (!recorder) {
    recorder = new EventRecorder(rt);
    recorders.set(rt, recorder);
  }
  return recorder;
}

/** The events of a batch, one array per column of tracking_events. */
class EventColumns {
  at: string[] = [];
  brand: string[] = [];
  campaign: string[] = [];
  delivery: string[] = [];
  kind: string[] = [];
  linkIndex: (number | null)[] = [];
  url: (string | null)[] = [];
  source: (string | null)[] = [];

  push(
    d: TDeliveryRow,
    at: Date,
    kind: string,
    linkIndex: number | null,
    url: string | null,
    source: string | null,
  ): void {
    this.at.push(at.toISOString());
    this.brand.push(d.brand_id);
    this.campaign.push(d.campaign_id);
    this.delivery.push(d.id);
    this.kind.push(kind);
    this.linkIndex.push(linkIndex);
    this.url.push(url);
    this.source.push(source);
  }
}

const QUARTER_MS = 900_000;

/**
 * Rollup deltas summed per campaign, host and quarter hour: the finest key any rollup needs (the
 * hourly one sums quarters, the daily one cuts days from quarters), so a batch of a thousand clicks
 * of one campaign hands the rollups a handful of deltas instead of a thousand.
 */
class DeltaSums {
  private sums = new Map<string, TRollupDelta>();

  add(d: TDeliveryRow, at: Date, counters: TRollupDelta['counters']): void {
    const hostId = d.hotel_id ?? d.brand_id;
    const quarter = Math.floor(at.getTime() / QUARTER_MS) * QUARTER_MS;
    const key = `${d.campaign_id}|${hostId}|${quarter}`;
    let delta = this.sums.get(key);
    if (!delta) {
      delta = { campaignId: d.campaign_id, brandId: d.brand_id, hostId, at: new Date(quarter), counters: {} };
      this.sums.set(key, delta);
    }
    const sum = delta.counters as Record<string, number>;
    for (const k in counters) {
      const n = (counters as Record<string, number>)[k];
      if (n) sum[k] = (sum[k] ?? 0) + n;
    }
  }

  list(): TRollupDelta[] {
    return [...this.sums.values()];
  }
}

/** One batch: events, what each delivery has seen, unique counts, and every rollup, in one transaction. */
export async function writeEvents(rt: TRuntime, batch: TPendingEvent[]): Promise<void> {
  const ids = [...new Set(batch.map((e) => e.deliveryId))].sort();
  await withTenant(rt.database.db, SYSTEM, async (tx) => {
    const deliveries = await lockEngagement(tx, ids);
    // A delivery of a deleted campaign has nothing left to count against.
    if (deliveries.size === 0) return;

    const events = new EventColumns();
    const deltas = new DeltaSums();
    const linkClicks = new Map<string, { delivery: TDeliveryRow; linkIndex: number; url: string; clicks: number }>();
    // In arrival order already (one process adds them as they come); sorted only if not.
    const ordered = isInOrder(batch) ? batch : [...batch].sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const e of ordered) {
      const d = deliveries.get(e.deliveryId);
      if (!d) continue;
      if (e.kind === 'open') {
        const machine = e.machine ?? (isTooSoon(d.sent_at, e.at) ? 'too_soon' : null);
        if (machine) {
          d.machine_opens++;
          events.push(d, e.at, 'machine_open', null, null, machine);
          deltas.add(d, e.at, { machineOpens: 1 });
        } else {
          d.opens++;
          const first = d.opened_at === null;
          if (first) d.opened_at = e.at;
          events.push(d, e.at, 'open', null, null, null);
          deltas.add(d, e.at, { opens: 1, uniqueOpens: first ? 1 : 0 });
        }
      } else {
        d.clicks++;
        const firstClick = d.clicked_at === null;
        if (firstClick) d.clicked_at = e.at;
        d.last_clicked_at = e.at;
        // A click proves a person read the mail, even when their client blocked the pixel.
        const impliedOpen = d.opened_at === null;
        if (impliedOpen) d.opened_at = e.at;
        const linkIndex = e.linkIndex ?? 0;
        events.push(d, e.at, 'click', linkIndex, e.url ?? null, null);
        deltas.add(d, e.at, { clicks: 1, uniqueClicks: firstClick ? 1 : 0, uniqueOpens: impliedOpen ? 1 : 0 });
        const key = `${d.id}|${linkIndex}`;
        const link = linkClicks.get(key);
        if (link) link.clicks++;
        else linkClicks.set(key, { delivery: d, linkIndex, url: e.url ?? '', clicks: 1 });
      }
    }

    await tx.execute(sql`insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, link_index, url, source)
      select * from unnest(${sql.param(events.at)}::timestamptz[], ${sql.param(events.brand)}::uuid[], ${sql.param(events.campaign)}::uuid[],
        ${sql.param(events.delivery)}::uuid[], ${sql.param(events.kind)}::text[], ${sql.param(events.linkIndex)}::int[],
        ${sql.param(events.url)}::text[], ${sql.param(events.source)}::text[])`);
    await saveEngagement(tx, [...deliveries.values()]);
    await applyRollups(tx, deltas.list());
    await applyLinkRollups(tx, await countLinkClicks(tx, [...linkClicks.values()]));
  });
}

function isInOrder(batch: TPendingEvent[]): boolean {
  for (let i = 1; i < batch.length; i++)
    if ((batch[i] as TPendingEvent).at < (batch[i - 1] as TPendingEvent).at) return false;
  return true;
}

const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * Makes sure each delivery has its engagement row (made from the delivery itself, in the
 * database), then reads the deliveries with their rows locked in id order (two writers queue,
 * never deadlock). Deliveries that no longer exist are simply absent.
 */
async function lockEngagement(tx: TTx, ids: string[]): Promise<Map<string, TDeliveryRow>> {
  await tx.execute(sql`insert into delivery_engagement (delivery_id, brand_id, campaign_id, customer_id)
    select id, brand_id, campaign_id, customer_id from deliveries where id = any(${sql.param(ids)}::uuid[])
    order by id
    on conflict (delivery_id) do nothing`);
  const locked = await selectRows<TDeliveryRow>(
    tx,
    sql`select d.id, d.brand_id, d.campaign_id, d.hotel_id, d.sent_at, e.opens, e.machine_opens, e.clicks, e.opened_at, e.clicked_at, e.last_clicked_at
      from delivery_engagement e join deliveries d on d.id = e.delivery_id
      where e.delivery_id = any(${sql.param(ids)}::uuid[]) order by e.delivery_id for update of e`,
  );
  const byId = new Map<string, TDeliveryRow>();
  for (const r of locked) {
    r.sent_at = dateOrNull(r.sent_at);
    r.opened_at = dateOrNull(r.opened_at);
    r.clicked_at = dateOrNull(r.clicked_at);
    r.last_clicked_at = dateOrNull(r.last_clicked_at);
    byId.set(r.id, r);
  }
  return byId;
}

async function saveEngagement(tx: TTx, rows: TDeliveryRow[]): Promise<void> {
  await tx.execute(sql`update delivery_engagement e set opens = v.opens, machine_opens = v.machine_opens, clicks = v.clicks,
      opened_at = v.opened_at, clicked_at = v.clicked_at, last_clicked_at = v.last_clicked_at
    from unnest(${sql.param(rows.map((r) => r.id))}::uuid[], ${sql.param(rows.map((r) => r.opens))}::int[],
      ${sql.param(rows.map((r) => r.machine_opens))}::int[], ${sql.param(rows.map((r) => r.clicks))}::int[],
      ${sql.param(rows.map((r) => isoOrNull(r.opened_at)))}::timestamptz[], ${sql.param(rows.map((r) => isoOrNull(r.clicked_at)))}::timestamptz[],
      ${sql.param(rows.map((r) => isoOrNull(r.last_clicked_at)))}::timestamptz[])
      as v(delivery_id, opens, machine_opens, clicks, opened_at, clicked_at, last_clicked_at)
    where e.delivery_id = v.delivery_id`);
}

/** Per delivery and link: adds the clicks and learns which were the link's first for that delivery. */
async function countLinkClicks(
  tx: TTx,
  links: { delivery: TDeliveryRow; linkIndex: number; url: string; clicks: number }[],
) {
  if (links.length === 0) return [];
  // xmax = 0 only on a row this statement inserted: the delivery's first click on that link.
  const firsts = await selectRows<{ delivery_id: string; link_index: number; first: boolean }>(
    tx,
    sql`insert into delivery_link_clicks (delivery_id, link_index, brand_id, clicks)
      select v.delivery_id, v.link_index, v.brand_id, v.clicks
      from unnest(${sql.param(links.map((l) => l.delivery.id))}::uuid[], ${sql.param(links.map((l) => l.linkIndex))}::int[],
        ${sql.param(links.map((l) => l.delivery.brand_id))}::uuid[], ${sql.param(links.map((l) => l.clicks))}::int[])
        as v(delivery_id, link_index, brand_id, clicks)
      order by v.delivery_id, v.link_index
      on conflict (delivery_id, link_index) do update set clicks = delivery_link_clicks.clicks + excluded.clicks
      returning delivery_id, link_index, (xmax = 0) as first`,
  );
  const first = new Set(firsts.filter((f) => f.first).map((f) => `${f.delivery_id}|${f.link_index}`));
  return links.map((l) => ({
    campaignId: l.delivery.campaign_id,
    brandId: l.delivery.brand_id,
    linkIndex: l.linkIndex,
    url: l.url,
    clicks: l.clicks,
    uniqueClicks: first.has(`${l.delivery.id}|${l.linkIndex}`) ? 1 : 0,
  }));
}
