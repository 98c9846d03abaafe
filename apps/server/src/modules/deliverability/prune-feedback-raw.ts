import { sql, type SQL } from 'drizzle-orm';
import { selectRows, withTenant } from '../../db/client.ts';
import type { TRuntime } from '../../runtime.ts';

/**
 * Retention of raw reports (issue 25), daily: the bounce and complaint reports as received (DSN,
 * ARF: `feedback_events.raw`), the mail the receiver could not read (`inbound_unparsed.raw`) and
 * the relay webhook payloads (`relay_webhook_events.raw`) are cleared once older than
 * FEEDBACK_RAW_RETENTION_DAYS. What they meant stays: the feedback event with its kind, status and
 * diagnostic, the suppression, the statistics, the unparsed mail's reason and size, and each
 * webhook event's row (its provider id keeps deduplicating). A webhook event not applied yet keeps
 * its payload. Batches of BATCH rows, each its own transaction, through the partial indexes of
 * rows still holding a body, so no run reads more than what it clears.
 *
 * It also forgets the signatures' one-time tokens (`relay_webhook_replay_keys`) older than
 * REPLAY_KEYS_DAYS: past any timestamp window (WEBHOOK_MAX_AGE_SECONDS is at most a day), their
 * requests are refused as too old before the token is looked at. One statement (the table holds a
 * few days of Mailgun's requests).
 */

const BATCH = 5000;
const REPLAY_KEYS_DAYS = 2;
const SYSTEM = { scopeAll: true, brandId: null } as const;

export interface TPruned {
  feedbackEvents: number;
  unparsed: number;
  webhookEvents: number;
  replayKeys: number;
}

export async function pruneFeedbackRaw(rt: TRuntime, now = new Date()): Promise<TPruned> {
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const cutoff = before(rt.config.feedbackRawRetentionDays);
  const clear = async (statement: SQL): Promise<number> => {
    let total = 0;
    for (;;) {
      const rows = await withTenant(rt.database.db, SYSTEM, (tx) => selectRows<{ n: number | string }>(tx, statement));
      const n = Number(rows[0]?.n ?? 0);
      total += n;
      if (n < BATCH) return total;
    }
  };
  return {
    feedbackEvents: await clear(
      sql`with done as (update feedback_events set raw = null where id in (
          select id from feedback_events where raw is not null and received_at < ${cutoff}::timestamptz limit ${BATCH})
        returning 1) select count(*) as n from done`,
    ),
    unparsed: await clear(
      sql`with done as (update inbound_unparsed set raw = null where id in (
          select id from inbound_unparsed where raw is not null and received_at < ${cutoff}::timestamptz limit ${BATCH})
        returning 1) select count(*) as n from done`,
    ),
    webhookEvents: await clear(
      sql`with done as (update relay_webhook_events set raw = null where id in (
          select id from relay_webhook_events where raw is not null and received_at < ${cutoff}::timestamptz
            and not exists (select from relay_webhook_pending p where p.event_id = relay_webhook_events.id) limit ${BATCH})
        returning 1) select count(*) as n from done`,
    ),
    // All at once, not in batches: each batch would read the table whole again (it has no index
    // but its key); the loop's next run then finds none.
    replayKeys: await clear(
      sql`with done as (delete from relay_webhook_replay_keys where received_at < ${before(REPLAY_KEYS_DAYS)}::timestamptz
        returning 1) select count(*) as n from done`,
    ),
  };
}
