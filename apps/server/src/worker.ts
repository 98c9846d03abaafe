import { maintainTables, MAINTENANCE_CRON } from './db/maintenance.ts';
import { ClockHold } from './jobs/clock-hold.ts';
import { JobLeases } from './jobs/leases.ts';
import { QUEUES, type TSendAccountLink } from './jobs/queue.ts';
import { dispatchDailySyncs, scheduleDailySyncDispatch } from './modules/booking/daily-sync.ts';
import { syncBookings, syncLapsed, type TSyncJob } from './modules/booking/sync-bookings.ts';
import { sendAccountLink } from './modules/auth/password-links.ts';
import { pruneAttempts } from './modules/auth/throttle.ts';
import { applyImport, applyImportLapsed, type TApplyImportJob } from './modules/customer-imports/apply-import.ts';
import { pruneImports } from './modules/customer-imports/prune-imports.ts';
import { reviewImport, reviewImportLapsed, type TReviewImportJob } from './modules/customer-imports/review-import.ts';
import { recheckDomains } from './modules/sending/recheck-domains.ts';
import { pruneFeedbackRaw } from './modules/deliverability/prune-feedback-raw.ts';
import {
  dispatchCampaigns,
  sendCampaign,
  startCampaign,
  type TCampaignJob,
} from './modules/campaigns/send-campaign.ts';
import { keepDailyCustomerCounts } from './modules/dashboard/keep-daily-customer-counts.ts';
import { runScenarioTick } from './modules/scenarios/run-tick.ts';
import type { TStarted } from './start.ts';

const POLL_SECONDS = 0.5;

/**
 * The worker: the second entry point of the same code. Registers a handler per queue, each under a
 * job lease (jobs/leases.ts), so a job whose process died runs again within a lease time.
 */
export async function startWorker(rt: TStarted): Promise<void> {
  const leases = await JobLeases.start(rt);
  const clockHold = (rt.clockHold ??= new ClockHold());
  rt.leases = leases;
  rt.stopAfterQueue.push(() => leases.stop());
  // First thing on stop: running jobs are told, so a campaign send stops claiming at once.
  rt.stopBeforeQueue.unshift(async () => leases.beginStop());
  await leases.work<TSendAccountLink>(QUEUES.sendAccountLink, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: (data) => sendAccountLink(rt, data),
  });
  await leases.work<TReviewImportJob>(QUEUES.reviewImport, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: (data) => reviewImport(rt, data),
    onLapse: (data, outcome) => reviewImportLapsed(rt, data, outcome),
  });
  await leases.work<TApplyImportJob>(QUEUES.applyImport, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: (data) => applyImport(rt, data),
    onLapse: (data, outcome) => applyImportLapsed(rt, data, outcome),
  });
  await leases.work(QUEUES.pruneAuthFailures, { quiet: true, run: () => pruneAttempts(rt.database.db) });
  await rt.queue.schedule(QUEUES.pruneAuthFailures, '*/15 * * * *');
  await leases.work(QUEUES.pruneImports, { run: () => pruneImports(rt) });
  await rt.queue.schedule(QUEUES.pruneImports, '17 3 * * *');
  await leases.work(QUEUES.pruneFeedbackRaw, { run: () => pruneFeedbackRaw(rt) });
  await rt.queue.schedule(QUEUES.pruneFeedbackRaw, '29 3 * * *');
  await leases.work(QUEUES.maintainTables, {
    quiet: true,
    run: async () => {
      const done = await maintainTables(rt.database, rt.config.dbMaintenance);
      // Table names and counts only: nothing of anyone's data.
      if (done.vacuumed.length || done.analysed.length) rt.log.info(done, 'tables vacuumed and analysed');
    },
  });
  await rt.queue.schedule(QUEUES.maintainTables, MAINTENANCE_CRON);
  await leases.work<TSyncJob>(QUEUES.bookingSync, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: async (data, { resumed }) => {
      await syncBookings(rt, data, resumed);
    },
    onLapse: (data, outcome) => syncLapsed(rt, data, outcome),
  });
  await leases.work(QUEUES.bookingSyncDispatch, { run: () => dispatchDailySyncs(rt) });
  await scheduleDailySyncDispatch(rt);
  await leases.work(QUEUES.recheckDomains, { run: () => recheckDomains(rt) });
  await rt.queue.schedule(QUEUES.recheckDomains, '41 4 * * *');
  await leases.work(QUEUES.dashboardCountCustomers, { run: () => keepDailyCustomerCounts(rt) });
  await rt.queue.schedule(QUEUES.dashboardCountCustomers, '7 * * * *');
  await leases.work<TCampaignJob>(QUEUES.campaignStart, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: (data) => startCampaign(rt, data),
  });
  await leases.work<TCampaignJob>(QUEUES.campaignSend, {
    pollingIntervalSeconds: POLL_SECONDS,
    run: (data, { workerId, signal }) => sendCampaign(rt, data, { workerId, signal }),
  });
  await leases.work(QUEUES.scenarioTick, {
    pollingIntervalSeconds: POLL_SECONDS,
    // Every few seconds: its summary is logged at info only when it is slow or fails.
    quiet: true,
    // Left out while the demo history runs the engine over the past (jobs/clock-hold.ts).
    run: () => clockHold.run(() => runScenarioTick(rt)),
  });
  await leases.watch();
  // Due campaigns are found at once on start (after downtime too) and then every few seconds.
  // Each timer's run in progress is awaited on stop, so none meets a closed database.
  let dispatching: Promise<unknown> = Promise.resolve();
  const dispatch = () =>
    (dispatching = clockHold
      .run(() => dispatchCampaigns(rt))
      .catch((error: unknown) => rt.log.warn({ err: error }, 'campaign dispatch failed')));
  await dispatch();
  const timer = setInterval(() => void dispatch(), rt.config.campaigns.dispatchSeconds * 1000);
  timer.unref();
  // The scenario engine: one tick job at a time (stately, under a lease), never a timer per customer.
  let ticking: Promise<unknown> = Promise.resolve();
  const tick = () =>
    (ticking = rt.queue
      .send(QUEUES.scenarioTick, {}, { singletonKey: 'tick' })
      .catch((error: unknown) => rt.log.warn({ err: error }, 'scenario tick not queued')));
  await tick();
  const ticker = setInterval(() => void tick(), rt.config.scenarios.tickSeconds * 1000);
  ticker.unref();
  rt.stopBeforeQueue.push(async () => {
    clearInterval(timer);
    clearInterval(ticker);
    await Promise.all([dispatching, ticking]);
  });
}
