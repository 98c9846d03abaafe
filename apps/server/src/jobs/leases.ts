import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import type { TDatabase } from '../db/client.ts';
import type { TRuntime } from '../runtime.ts';
import { countTakeover } from '../metrics/metrics.ts';

/**
 * Job leases: a job whose worker died is run again within a lease, however long the job is.
 *
 * pg-boss 10 knows a job only as "active" until it completes, fails or passes its expiry; it cannot
 * tell a long import from a killed one. So every worker process holds a lease (`worker_leases`),
 * renewed every `jobs.leaseRenewSeconds`, and records the jobs it runs (`job_claims`). Each worker,
 * at start and at every renewal, puts back the active jobs that no live lease holds: back to
 * "retry" at once while the queue's retry limit allows, else failed with the reason. A job killed
 * with its process thus runs again within about `jobs.leaseSeconds` of the kill (10 s by default; at once when a worker starts on the same machine),
 * and a job that runs for an hour keeps its lease all along.
 *
 * API, for every queue (campaign sends and scenarios too), in worker.ts:
 *
 *   const leases = await JobLeases.start(rt);         // the lease, renewed from now on
 *   await leases.work<TData>(QUEUES.x, {
 *     run: async (data, { resumed }) => { ... },      // one job; `resumed`: taken up again after a lapse
 *     onLapse: async (data, outcome) => { ... },      // optional: 'requeued' | 'failed', called once
 *   });
 *   await leases.watch();                             // after every queue: put back, now and every few seconds
 *
 * A handler must tolerate running again from the start (a transaction that rolled back, upserts,
 * a status checked first): the lease decides when, the handler makes it safe. A process whose event
 * loop stalls for longer than a lease may see its job taken up by another worker meanwhile: keep
 * `leaseSeconds` well above any synchronous stretch.
 */

export interface TJobContext {
  jobId: string;
  /** The job was put back after the worker running it stopped: it may have done part of its work. */
  resumed: boolean;
  /** This worker's lease (`worker_leases.id`): what a job claims rows under (the campaign send does). */
  workerId: string;
  /** Aborted when the worker stops (SIGTERM): a long job ends its work in hand and returns. */
  signal: AbortSignal;
}

export type TLapseOutcome = 'requeued' | 'failed';

export interface TLeasedWork<T> {
  run(data: T, context: TJobContext): Promise<unknown>;
  /**
   * The worker running the job stopped. 'requeued': it runs again shortly; 'failed': its retries are
   * used up, so the job's own record should say why. Called once per lapse, by the worker that noticed.
   */
  onLapse?(data: T, outcome: TLapseOutcome): Promise<void>;
  pollingIntervalSeconds?: number;
  /** A frequent housekeeping job: its summary is logged at debug unless it is slow or fails. */
  quiet?: boolean;
}

/** A job that takes longer than this has its summary logged at info even when its queue is quiet. */
const SLOW_JOB_MS = 1000;

/** Whether a process of this machine still runs (a signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Written into a job that failed for good because its worker stopped: pg-boss shows it as the output. */
const LAPSE_OUTPUT = JSON.stringify({ message: 'the worker running this job stopped, and its retries are used up' });

interface TLapsedRow {
  id: string;
  name: string;
  data: unknown;
  started_on: string;
}

export class JobLeases {
  readonly workerId = randomUUID();
  private readonly works = new Map<string, TLeasedWork<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  /** The batches running in this process: stop() lets them finish before the database closes. */
  private readonly running = new Set<Promise<void>>();
  private sweeping: Promise<void> | null = null;
  private started = false;
  /** Sweeps wait for watch(): a job put back before its queue's onLapse is known would skip it. */
  private watching = false;
  private readonly stopping = new AbortController();

  private constructor(
    private readonly rt: TRuntime,
    private readonly database: TDatabase,
  ) {}

  /** Takes the lease and renews it every few seconds. */
  static async start(rt: TRuntime): Promise<JobLeases> {
    const leases = new JobLeases(rt, rt.database);
    await leases.renew();
    await leases.forgetDeadNeighbours();
    leases.timer = setInterval(() => {
      leases.sweeping ??= leases
        .renew()
        .then(() => (leases.watching ? leases.sweep() : undefined))
        .catch((error: unknown) => rt.log.warn({ err: error }, 'job lease renewal failed'))
        .finally(() => {
          leases.sweeping = null;
        });
    }, rt.config.jobs.leaseRenewSeconds * 1000);
    leases.timer.unref();
    return leases;
  }

  /** Once every queue is registered: puts back what dead workers left, now and at every renewal. */
  async watch(): Promise<void> {
    this.watching = true;
    await this.sweep();
  }

  async work<T>(queue: string, work: TLeasedWork<T>): Promise<void> {
    this.works.set(queue, work as TLeasedWork<unknown>);
    const options = { pollingIntervalSeconds: work.pollingIntervalSeconds ?? 2 };
    await this.rt.queue.work<T>(queue, options, async (jobs: PgBoss.Job<T>[]) => {
      // Fetched as this worker stops (pg-boss's stop does not wait for a fetch under way): not
      // started, so pg-boss fails them and they run again shortly, in another worker or this one
      // restarted, rather than start against a database about to close.
      if (this.stopping.signal.aborted) throw new Error('the worker is stopping: the job runs again');
      const batch = this.runBatch(queue, work, jobs);
      this.running.add(batch);
      try {
        await batch;
      } finally {
        this.running.delete(batch);
      }
    });
  }

  private async runBatch<T>(queue: string, work: TLeasedWork<T>, jobs: PgBoss.Job<T>[]): Promise<void> {
    // The whole batch is claimed first: a job waiting behind another is this worker's too.
    const lapses = await this.claim(
      queue,
      jobs.map((j) => j.id),
    );
    try {
      for (const job of jobs) {
        const resumed = (lapses.get(job.id) ?? 0) > 0;
        const started = Date.now();
        try {
          await work.run(job.data, { jobId: job.id, resumed, workerId: this.workerId, signal: this.stopping.signal });
        } catch (error) {
          // pg-boss retries it (or fails it for good): either way the log says so once.
          this.rt.log.warn({ queue, jobId: job.id, ms: Date.now() - started, err: error }, 'job failed');
          throw error;
        }
        // A summary per job: its queue, how long it took, whether it was taken up again after a lapse.
        const ms = Date.now() - started;
        const level = work.quiet && ms <= SLOW_JOB_MS ? 'debug' : 'info';
        this.rt.log[level]({ queue, jobId: job.id, ms, resumed }, 'job finished');
      }
    } finally {
      await this.release(jobs.map((j) => j.id)).catch((error: unknown) =>
        this.rt.log.warn({ err: error }, 'job claim release failed'),
      );
    }
  }

  /** The worker is stopping: running jobs are told (their `signal`), so they end soon. */
  beginStop(): void {
    this.stopping.abort();
  }

  /**
   * After the queue stopped fetching: no more renewals once the jobs still running here have
   * finished (at most `waitMs`; pg-boss gives up on them sooner). The lease goes at once unless one
   * is still running, whose job another worker then takes up when the lease lapses.
   */
  async stop(waitMs = 30_000): Promise<void> {
    if (this.running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      await Promise.race([Promise.allSettled(this.running), waited]);
      clearTimeout(timer);
    }
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
    if (this.running.size === 0)
      await this.database.executeSql('delete from worker_leases where id = $1', [this.workerId]);
  }

  /** The lease is held and not expired: this worker's jobs are its own. */
  async fresh(): Promise<boolean> {
    if (!this.timer) return false;
    const { rows } = await this.database.executeSql(
      'select 1 from worker_leases where id = $1 and expires_at > now()',
      [this.workerId],
    );
    return rows.length > 0;
  }

  private async renew(): Promise<void> {
    const ttl = this.rt.config.jobs.leaseSeconds;
    const { rows } = await this.database.executeSql(
      `insert into worker_leases (id, hostname, pid, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4))
       on conflict (id) do update set expires_at = excluded.expires_at
       returning (xmax = 0) as inserted`,
      [this.workerId, hostname(), process.pid, ttl],
    );
    // Inserted again after the first time: another worker took this one for dead and put its jobs back.
    if (this.started && (rows[0] as { inserted: boolean } | undefined)?.inserted)
      this.rt.log.warn({ workerId: this.workerId }, 'this worker missed its lease; its running jobs were put back');
    this.started = true;
  }

  /**
   * Leases of this host whose process is gone (a worker killed and started again on the same
   * machine): dropped at once, so the first sweep puts their jobs back without waiting for them
   * to lapse. Another host's leases can only lapse.
   */
  private async forgetDeadNeighbours(): Promise<void> {
    const { rows } = await this.database.executeSql(
      'select id, pid from worker_leases where hostname = $1 and id <> $2',
      [hostname(), this.workerId],
    );
    const dead = (rows as { id: string; pid: number }[]).filter((r) => r.pid !== process.pid && !alive(r.pid));
    if (dead.length)
      await this.database.executeSql('delete from worker_leases where id = any($1::uuid[])', [dead.map((r) => r.id)]);
  }

  private async claim(queue: string, jobIds: string[]): Promise<Map<string, number>> {
    const { rows } = await this.database.executeSql(
      `insert into job_claims (job_id, queue, worker_id)
       select unnest($1::uuid[]), $2, $3
       on conflict (job_id) do update set worker_id = excluded.worker_id, claimed_at = now()
       returning job_id, lapses`,
      [jobIds, queue, this.workerId],
    );
    return new Map((rows as { job_id: string; lapses: number }[]).map((r) => [r.job_id, r.lapses]));
  }

  private async release(jobIds: string[]): Promise<void> {
    await this.database.executeSql('delete from job_claims where job_id = any($1::uuid[]) and worker_id = $2', [
      jobIds,
      this.workerId,
    ]);
  }

  /**
   * Puts back the active jobs no live lease holds. A job counts as held from its start for one lease
   * time even before its claim is written, so a worker between fetching and claiming keeps it; a
   * job claimed by a worker whose lease is gone is put back at once.
   */
  async sweep(): Promise<void> {
    const ttl = this.rt.config.jobs.leaseSeconds;
    await this.database.executeSql('delete from worker_leases where expires_at < now()');
    const { rows } = await this.database.executeSql(
      `select j.id, j.name, j.data, j.started_on::text as started_on
       from pgboss.job j
       where j.state = 'active'
         and (j.started_on < now() - make_interval(secs => $1)
           or exists (select 1 from job_claims c where c.job_id = j.id and c.worker_id is not null))
         and not exists (
           select 1 from job_claims c join worker_leases w on w.id = c.worker_id where c.job_id = j.id
         )`,
      [ttl],
    );
    for (const row of rows as unknown as TLapsedRow[]) {
      const outcome = await this.putBack(row);
      if (!outcome) continue; // another worker got there first
      countTakeover(outcome);
      this.rt.log.warn({ queue: row.name, jobId: row.id, outcome }, 'job of a stopped worker put back');
      const work = this.works.get(row.name);
      await work
        ?.onLapse?.(row.data, outcome)
        .catch((error: unknown) => this.rt.log.error({ err: error, queue: row.name }, 'job lapse handler failed'));
    }
    // Claims nobody holds of jobs that are over (a release that failed, a job put back and then
    // cancelled or failed): nothing reads them any more.
    await this.database.executeSql(
      `delete from job_claims c where not exists (select 1 from worker_leases w where w.id = c.worker_id)
         and not exists (select 1 from pgboss.job j where j.name = c.queue and j.id = c.job_id and j.state <= 'active')`,
    );
  }

  /**
   * Back to "retry", due now, when retries are left (pg-boss counts this as one when it fetches the
   * job again); failed with the reason when not. Only if the job is still the run that lapsed.
   */
  private async putBack(row: TLapsedRow): Promise<TLapseOutcome | null> {
    let state: string | undefined;
    try {
      const { rows } = await this.database.executeSql(
        `update pgboss.job set
           state = case when retry_count < retry_limit then 'retry'::pgboss.job_state else 'failed'::pgboss.job_state end,
           start_after = now(),
           completed_on = case when retry_count < retry_limit then null else now() end,
           output = case when retry_count < retry_limit then output else $4::jsonb end
         where name = $1 and id = $2 and state = 'active' and started_on = $3::timestamptz
         returning state`,
        [row.name, row.id, row.started_on, LAPSE_OUTPUT],
      );
      state = (rows[0] as { state: string } | undefined)?.state;
    } catch (error) {
      // A "stately" queue holds one job per state and key: another is already waiting to run, and
      // it does the same work, so this one ends.
      if ((error as { code?: string }).code !== '23505') throw error;
      const { rows } = await this.database.executeSql(
        `update pgboss.job set state = 'failed', completed_on = now(), output = $4::jsonb
         where name = $1 and id = $2 and state = 'active' and started_on = $3::timestamptz returning state`,
        [row.name, row.id, row.started_on, LAPSE_OUTPUT],
      );
      state = (rows[0] as { state: string } | undefined)?.state;
    }
    if (!state) return null;
    const outcome: TLapseOutcome = state === 'retry' ? 'requeued' : 'failed';
    if (outcome === 'requeued')
      await this.database.executeSql(
        `insert into job_claims (job_id, queue, worker_id, lapses) values ($1, $2, null, 1)
         on conflict (job_id) do update set worker_id = null, lapses = job_claims.lapses + 1`,
        [row.id, row.name],
      );
    else await this.database.executeSql('delete from job_claims where job_id = $1', [row.id]);
    return outcome;
  }
}
