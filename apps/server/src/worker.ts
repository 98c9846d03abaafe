import { QUEUES, type TSendAccountLink } from './jobs/queue.ts';
import { dispatchDailySyncs, scheduleDailySyncDispatch } from './modules/booking/daily-sync.ts';
import { syncBookings, type TSyncJob } from './modules/booking/sync-bookings.ts';
import { sendAccountLink } from './modules/auth/password-links.ts';
import { pruneAttempts } from './modules/auth/throttle.ts';
import { applyImport, type TApplyImportJob } from './modules/customer-imports/apply-import.ts';
import { pruneImports } from './modules/customer-imports/prune-imports.ts';
import { reviewImport, type TReviewImportJob } from './modules/customer-imports/review-import.ts';
import type { TRuntime } from './runtime.ts';
import { recheckDomains } from './modules/sending/recheck-domains.ts';

const POLL_SECONDS = 0.5;

/** The worker: the second entry point of the same code. Registers a handler per queue. */
export async function startWorker(rt: TRuntime): Promise<void> {
  await rt.queue.work<TSendAccountLink>(
    QUEUES.sendAccountLink,
    { pollingIntervalSeconds: POLL_SECONDS },
    async (jobs) => {
      for (const job of jobs) await sendAccountLink(rt, job.data);
    },
  );
  await rt.queue.work<TReviewImportJob>(QUEUES.reviewImport, { pollingIntervalSeconds: POLL_SECONDS }, async (jobs) => {
    for (const job of jobs) await reviewImport(rt, job.data);
  });
  await rt.queue.work<TApplyImportJob>(QUEUES.applyImport, { pollingIntervalSeconds: POLL_SECONDS }, async (jobs) => {
    for (const job of jobs) await applyImport(rt, job.data);
  });
  await rt.queue.work(QUEUES.pruneAuthFailures, async () => {
    await pruneAttempts(rt.database.db);
  });
  await rt.queue.schedule(QUEUES.pruneAuthFailures, '*/15 * * * *');
  await rt.queue.work(QUEUES.pruneImports, async () => {
    await pruneImports(rt);
  });
  await rt.queue.schedule(QUEUES.pruneImports, '17 3 * * *');
  await rt.queue.work<TSyncJob>(QUEUES.bookingSync, { pollingIntervalSeconds: POLL_SECONDS }, async (jobs) => {
    for (const job of jobs) await syncBookings(rt, job.data);
  });
  await rt.queue.work(QUEUES.bookingSyncDispatch, async () => {
    await dispatchDailySyncs(rt);
  });
  await scheduleDailySyncDispatch(rt);
  await rt.queue.work(QUEUES.recheckDomains, async () => {
    await recheckDomains(rt);
  });
  await rt.queue.schedule(QUEUES.recheckDomains, '41 4 * * *');
}
