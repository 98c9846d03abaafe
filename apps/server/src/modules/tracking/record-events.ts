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

export const BATCH_SIZE = 1000;
export const FLUSH_MS = 500;
/** Beyond this many waiting events new ones are dropped (and counted in a log line), not queued. */
export const MAX_PENDING = 50_000;

/** The platform context: a batch spans brands; row-level security still checks each row's brand. */
const SYSTEM = { scopeAll: true, brandId: null } as const;

interface TDeliveryRow {
  id: string;
  brand_id: string;
  campaign_id: string;
  customer_id: string;
  hotel_id: string | null;
  sent_at: Date | null;
}

interface TEngagementRow {
  delivery_id: string;
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

/** One batch: events, what each delivery has seen, unique counts, and every rollup, in one transaction. */
export async function writeEvents(rt: TRuntime, batch: TPendingEvent[]): Promise<void> {
  const ids = [...new Set(batch.map((e) => e.deliveryId))].sort();
  await withTenant(rt.database.db, SYSTEM, async (tx) => {
    const found = await selectRows<TDeliveryRow>(
      tx,
      sql`select id, brand_id, campaign_id, customer_id, hotel_id, sent_at from deliveries where id = any(${sql.param(ids)}::uuid[])`,
    );
    const deliveries = new Map(found.map((d) => [d.id, { ...d, sent_at: dateOrNull(d.sent_at) }]));
    // A delivery of a deleted campaign has nothing left to count against.
    const known = [...deliveries.values()];
    if (known.length === 0) return;
    const engagement = await lockEngagement(tx, known);

    const events: { at: string; brand_id: string; campaign_id: string; delivery_id: string; kind: string; link_index: number | null; url: string | null; source: string | null }[] = [];
    const deltas: TRollupDelta[] = [];
    const linkClicks = new Map<string, { delivery: TDeliveryRow; linkIndex: number; url: string; clicks: number }>();
    for (const e of [...batch].sort((a, b) => a.at.getTime() - b.at.getTime())) {
      const d = deliveries.get(e.deliveryId);
      const eng = engagement.get(e.deliveryId);
      if (!d || !eng) continue;
      const base = { campaignId: d.campaign_id, brandId: d.brand_id, hostId: d.hotel_id ?? d.brand_id, at: e.at };
      const row = { at: e.at.toISOString(), brand_id: d.brand_id, campaign_id: d.campaign_id, delivery_id: d.id, link_index: null, url: null, source: null };
      if (e.kind === 'open') {
        const machine = e.machine ?? (isTooSoon(d.sent_at, e.at) ? 'too_soon' : null);
        if (machine) {
          eng.machine_opens++;
          events.push({ ...row, kind: 'machine_open', source: machine });
          deltas.push({ ...base, counters: { machineOpens: 1 } });
        } else {
          eng.opens++;
          const first = eng.opened_at === null;
          if (first) eng.opened_at = e.at;
          events.push({ ...row, kind: 'open' });
          deltas.push({ ...base, counters: { opens: 1, uniqueOpens: first ? 1 : 0 } });
        }
      } else {
        eng.clicks++;
        const firstClick = eng.clicked_at === null;
        if (firstClick) eng.clicked_at = e.at;
        eng.last_clicked_at = e.at;
        // A click proves a person read the mail, even when their client blocked the pixel.
        const impliedOpen = eng.opened_at === null;
        if (impliedOpen) eng.opened_at = e.at;
        events.push({ ...row, kind: 'click', link_index: e.linkIndex ?? 0, url: e.url ?? null });
        deltas.push({ ...base, counters: { clicks: 1, uniqueClicks: firstClick ? 1 : 0, uniqueOpens: impliedOpen ? 1 : 0 } });
        const key = `${d.id}|${e.linkIndex ?? 0}`;
        const link = linkClicks.get(key) ?? { delivery: d, linkIndex: e.linkIndex ?? 0, url: e.url ?? '', clicks: 0 };
        link.clicks++;
        linkClicks.set(key, link);
      }
    }

    await tx.execute(sql`insert into tracking_events (occurred_at, brand_id, campaign_id, delivery_id, kind, link_index, url, source)
      select v.at, v.brand_id, v.campaign_id, v.delivery_id, v.kind, v.link_index, v.url, v.source
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
        as v(at timestamptz, brand_id uuid, campaign_id uuid, delivery_id uuid, kind text, link_index int, url text, source text)`);
    await saveEngagement(tx, [...engagement.values()]);
    await applyRollups(tx, deltas);
    await applyLinkRollups(tx, await countLinkClicks(tx, [...linkClicks.values()]));
  });
}

/** Makes sure each delivery has its row, then locks them in id order (two writers queue, never deadlock). */
async function lockEngagement(tx: TTx, deliveries: TDeliveryRow[]): Promise<Map<string, TEngagementRow>> {
  const rows = deliveries.map((d) => ({ delivery_id: d.id, brand_id: d.brand_id, campaign_id: d.campaign_id, customer_id: d.customer_id }));
  await tx.execute(sql`insert into delivery_engagement (delivery_id, brand_id, campaign_id, customer_id)
    select v.delivery_id, v.brand_id, v.campaign_id, v.customer_id
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(delivery_id uuid, brand_id uuid, campaign_id uuid, customer_id uuid)
    order by v.delivery_id
    on conflict (delivery_id) do nothing`);
  const locked = await selectRows<TEngagementRow>(
    tx,
    sql`select delivery_id, opens, machine_opens, clicks, opened_at, clicked_at, last_clicked_at from delivery_engagement
      where delivery_id = any(${sql.param(rows.map((r) => r.delivery_id))}::uuid[]) order by delivery_id for update`,
  );
  return new Map(
    locked.map((r) => [
      r.delivery_id,
      { ...r, opened_at: dateOrNull(r.opened_at), clicked_at: dateOrNull(r.clicked_at), last_clicked_at: dateOrNull(r.last_clicked_at) },
    ]),
  );
}

async function saveEngagement(tx: TTx, rows: TEngagementRow[]): Promise<void> {
  const values = rows.map((r) => ({
    ...r,
    opened_at: r.opened_at?.toISOString() ?? null,
    clicked_at: r.clicked_at?.toISOString() ?? null,
    last_clicked_at: r.last_clicked_at?.toISOString() ?? null,
  }));
  await tx.execute(sql`update delivery_engagement e set opens = v.opens, machine_opens = v.machine_opens, clicks = v.clicks,
      opened_at = v.opened_at, clicked_at = v.clicked_at, last_clicked_at = v.last_clicked_at
    from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
      as v(delivery_id uuid, opens int, machine_opens int, clicks int, opened_at timestamptz, clicked_at timestamptz, last_clicked_at timestamptz)
    where e.delivery_id = v.delivery_id`);
}

/** Per delivery and link: adds the clicks and learns which were the link's first for that delivery. */
async function countLinkClicks(tx: TTx, links: { delivery: TDeliveryRow; linkIndex: number; url: string; clicks: number }[]) {
  if (links.length === 0) return [];
  const rows = links.map((l) => ({ delivery_id: l.delivery.id, link_index: l.linkIndex, brand_id: l.delivery.brand_id, clicks: l.clicks }));
  // xmax = 0 only on a row this statement inserted: the delivery's first click on that link.
  const firsts = await selectRows<{ delivery_id: string; link_index: number; first: boolean }>(
    tx,
    sql`insert into delivery_link_clicks (delivery_id, link_index, brand_id, clicks)
      select v.delivery_id, v.link_index, v.brand_id, v.clicks
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(delivery_id uuid, link_index int, brand_id uuid, clicks int)
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
