import PgBoss from 'pg-boss';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TDatabase } from '../db/client.ts';

/** Every queue the worker serves, in one place. */
export const QUEUES = {
  /** Mint a password link (reset or invitation) and mail it. Carries no secret: the worker makes it. */
  sendAccountLink: 'auth.send-account-link',
  /** Housekeeping: prune sign-in failure records past their window. */
  pruneAuthFailures: 'auth.prune-failures',
  /** Read an uploaded customer CSV into import rows and count what it would do. */
  reviewImport: 'customer-imports.review',
  /** Write a confirmed import's rows to customers, all in one transaction. */
  applyImport: 'customer-imports.apply',
  /** Housekeeping: drop imports nobody ran, and old leftovers of finished ones. */
  pruneImports: 'customer-imports.prune',
  /** Sync one brand with its booking system (connect, "sync now", the daily dispatch). */
  bookingSync: 'booking.sync',
  /** Every quarter hour: queue the daily sync of each brand whose 01:00 has come. */
  bookingSyncDispatch: 'booking.sync-dispatch',
  /** Daily: clear raw bounce and complaint reports and webhook payloads past FEEDBACK_RAW_RETENTION_DAYS. */
  pruneFeedbackRaw: 'deliverability.prune-raw',
  /** Every ten minutes: vacuum and analyse the tables where no autovacuum does (db/maintenance.ts). */
  maintainTables: 'db.maintain-tables',
  /** Daily: look every sending domain's DNS records up again; mark those that fell out of verification. */
  recheckDomains: 'sending.recheck-domains',
  /** Snapshot a due campaign's audience into deliveries and start sending (one waiting job per campaign). */
  campaignStart: 'campaigns.start',
  /** Send a campaign's due deliveries batch by batch (one waiting job per campaign). */
  campaignSend: 'campaigns.send',
  /** Hourly: each host's customer count at the end of its local yesterday, for the dashboard's week before. */
  dashboardCountCustomers: 'dashboard.count-customers',
  /** One scenario engine tick: enter customers and advance due journey steps in sets (one waiting job at most). */
  scenarioTick: 'scenarios.tick',
} as const;

/** Queue options that differ from the default (retry five times with back-off). */
const QUEUE_OPTIONS: Partial<Record<(typeof QUEUES)[keyof typeof QUEUES], Partial<PgBoss.Queue>>> = {
  // One active run per brand (singleton key) and at most one waiting; a failed run is recorded in
  // the sync log and redone by the next one, so a retry here would only repeat it.
  [QUEUES.bookingSync]: { policy: 'stately', retryLimit: 1, retryDelay: 60 },
  // The dispatcher queues these again every few seconds while there is work, so one waiting job per
  // campaign is enough, and a failed one is simply taken up by the next.
  [QUEUES.campaignStart]: { policy: 'stately', retryLimit: 3, retryDelay: 5 },
  [QUEUES.campaignSend]: { policy: 'stately', retryLimit: 3, retryDelay: 5 },
  // Queued every SCENARIO_TICK_SECONDS; a failed tick is simply the next one's work.
  [QUEUES.scenarioTick]: { policy: 'stately', retryLimit: 0 },
};

/** Six hours: longer than any job should run (pg-boss 10 allows up to 24). */
const EXPIRE_SECONDS = 6 * 3600;

export interface TSendAccountLink {
  userId: string;
  purpose: 'reset' | 'invitation';
  language: 'ja' | 'en';
  hostName?: string;
}

/** The statements each queue has sent and not yet had answered (stopQueue waits for them). */
const unanswered = new WeakMap<PgBoss, Set<Promise<unknown>>>();

/**
 * pg-boss on our own connection (pool or PGlite), so jobs live in the same database and
 * workers claim them with SKIP LOCKED: more worker processes means more throughput. `onError`
 * also hears of a statement pg-boss sent without awaiting it (a job's completion or failure) that
 * failed: unheard, it was an unhandled rejection.
 */
export async function startQueue(database: TDatabase, onError: (error: Error) => void): Promise<PgBoss> {
  const sent = new Set<Promise<unknown>>();
  const boss = new PgBoss({
    db: {
      executeSql: (text: string, values: unknown[]) => {
        const answer = database.executeSql(text, values);
        sent.add(answer);
        answer.then(
          () => sent.delete(answer),
          (error: Error) => {
            sent.delete(answer);
            onError(error);
          },
        );
        return answer;
      },
    },
    schema: 'pgboss',
    // The API only enqueues; the worker process runs maintenance and schedules.
    supervise: true,
    schedule: true,
    migrate: true,
  } as PgBoss.ConstructorOptions);
  unanswered.set(boss, sent);
  // pg-boss reports maintenance errors here; it retries on its next cycle.
  boss.on('error', onError);
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    // A dead worker's job comes back through its lease (jobs/leases.ts), not through expiry: the
    // expiry is only the last resort for a handler that hangs while its process lives.
    const options = {
      name,
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: EXPIRE_SECONDS,
      ...QUEUE_OPTIONS[name],
    };
    await boss.createQueue(name, options);
    // createQueue keeps an existing queue's settings: bring older databases to these.
    await boss.updateQueue(name, options);
  }
  return boss;
}

/**
 * Stops the queue and lets what it still sends finish before the database closes. pg-boss's stop
 * does not wait for a fetch under way: the jobs it returns reach their handler after stop()
 * returned (JobLeases refuses them, so they fail and run again), and pg-boss then fails or
 * completes them without awaiting it, which met a closed pool. Waits at most `timeoutMs` in all.
 */
export async function stopQueue(boss: PgBoss, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  const sent = unanswered.get(boss);
  while (sent && Date.now() < until) {
    // An answer's consequences (a handler, then its completion or failure) are sent within the turn it came in.
    await new Promise((resolve) => setImmediate(resolve));
    if (sent.size === 0) return;
    await Promise.race([Promise.allSettled([...sent]), sleep(Math.max(0, until - Date.now()))]);
  }
}
