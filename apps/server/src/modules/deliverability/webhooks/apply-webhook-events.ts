import { sql } from 'drizzle-orm';
import { planSettings, queryPrepared, withTenant } from '../../../db/client.ts';
import type { TRuntime } from '../../../runtime.ts';
import { applyFeedback, type TFeedback } from '../apply-feedback.ts';
import type { TFeedbackKind } from '../classify.ts';

/**
 * Applies the relay webhook events stored but not yet applied (those with a row in
 * `relay_webhook_pending`, written with the event): the intake answers the relay once an event is
 * stored (durably, once per provider event id), and this applies the rules (apply-feedback.ts) a
 * moment later, in batches, each event once: pending rows are claimed `for update skip locked`
 * and deleted in the same transaction as their effect, so two processes never apply one event,
 * and a process that stops leaves its rows for the next sweep. The event itself is never written
 * again (an `applied_at` mark on it wrote the whole row, payload and indexes, a second time).
 * Nudged after each stored batch, it gathers for GATHER_MS first, so one transaction applies
 * what a moment's batches stored: a transaction is five or six round trips whatever its size
 * (apply-feedback.ts), and applying after every stored batch of a few events made the relay's
 * answers wait behind it
 * (issue 25's bench). Swept every SWEEP_MS besides.
 */

const BATCH = 500;
const SWEEP_MS = 5000;
const GATHER_MS = 200;
const SYSTEM = { scopeAll: true, brandId: null } as const;

interface TStored {
  id: string;
  delivery_id: string;
  kind: TFeedbackKind;
  feedback: { status: string | null; diagnostic: string | null; sendingDomain: string | null };
}

/** One batch; returns how many events it applied. */
export async function applyStoredWebhookEvents(rt: TRuntime): Promise<number> {
  return withTenant(rt.database.db, SYSTEM, async (tx) => {
    // The effects and the pending rows' deletion commit together, so a commit lost in a crash leaves
    // its events unapplied for the next sweep: nothing here waits for the WAL flush (the relay was
    // answered when the events were stored, durably). Each statement here is planned once per
    // connection for any values (they take arrays, whose plans do not depend on their length), not
    // anew, and for any size of table (PLAN_SETTINGS).
    await tx.execute(planSettings('generic', { synchronous_commit: 'off' }));
    // The claimed rows are deleted now and come back should this transaction not commit. An event
    // gone meanwhile (its brand deleted) leaves its pending row to be deleted with nothing to apply.
    const rows = await queryPrepared<TStored>(
      tx,
      sql`with claimed as (
          delete from relay_webhook_pending where event_id in (
            select event_id from relay_webhook_pending order by event_id limit ${BATCH} for update skip locked)
          returning event_id
        )
        select e.id, e.delivery_id, e.kind, e.feedback from claimed c join relay_webhook_events e on e.id = c.event_id
        order by e.id`,
    );
    if (rows.length === 0) return 0;
    const items: TFeedback[] = rows.map((r) => ({
      deliveryId: r.delivery_id,
      kind: r.kind,
      source: 'webhook',
      status: r.feedback.status,
      diagnostic: r.feedback.diagnostic,
      sendingDomain: r.feedback.sendingDomain,
      // The payload stays where it was stored, once (`relay_webhook_events.raw`), not copied here.
      raw: null,
    }));
    await applyFeedback(tx, items);
    return rows.length;
  });
}

export interface TWebhookApplier {
  nudge(): void;
  /** Resolves once nothing stored is left unapplied (tests, the bench). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const appliers = new WeakMap<TRuntime, TWebhookApplier>();

export function webhookApplierOf(rt: TRuntime & { stopBeforeQueue?: (() => Promise<void>)[] }): TWebhookApplier {
  const existing = appliers.get(rt);
  if (existing) return existing;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let gathering: NodeJS.Timeout | null = null;
  const run = (): Promise<void> => {
    if (gathering) {
      clearTimeout(gathering);
      gathering = null;
    }
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          // A full batch says more is waiting; a partial one took all there was.
          while (!stopped && (await applyStoredWebhookEvents(rt)) === BATCH) again = false;
        } catch (error) {
          // Left for the next sweep; the rows stay unapplied, never half-applied.
          rt.log.warn({ err: error }, 'relay webhook events not applied yet');
          again = false;
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void run(), SWEEP_MS);
  timer.unref();
  const applier: TWebhookApplier = {
    nudge: () => {
      if (!gathering && !stopped) gathering = setTimeout(() => void run(), GATHER_MS);
    },
    idle: () => run(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (gathering) clearTimeout(gathering);
      await running;
    },
  };
  appliers.set(rt, applier);
  rt.stopBeforeQueue?.push(() => applier.stop());
  return applier;
}
