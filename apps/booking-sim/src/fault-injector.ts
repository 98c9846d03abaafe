import { createRandom, hashSeed, type TRandom } from './random.ts';
import type { TFaultConfig } from './types.ts';

export type TServerErrorStatus = 500 | 502 | 503 | 504;

/**
 * Decides which requests answer with a server error, so that Yado's sync can be tested for
 * retries and resumption. Failures are drawn from a seeded stream per account: the same
 * sequence of requests fails at the same places in every run.
 */
export class FaultInjector {
  private readonly streams = new Map<string, TRandom>();
  private readonly queued = new Map<string, TServerErrorStatus[]>();
  private readonly rates = new Map<string, TFaultConfig>();

  constructor(
    private readonly seed: string,
    defaults: Readonly<Record<string, TFaultConfig | undefined>>,
  ) {
    for (const [accountId, config] of Object.entries(defaults)) if (config) this.rates.set(accountId, config);
  }

  /** The next `count` requests of the account fail with `status`, whatever the rate says. */
  failNext(accountId: string, count: number, status: TServerErrorStatus): void {
    const queue = this.queued.get(accountId) ?? [];
    for (let n = 0; n < count; n += 1) queue.push(status);
    this.queued.set(accountId, queue);
  }

  /** Replaces the account's intermittent failure rate; `null` stops it. */
  setFaults(accountId: string, config: TFaultConfig | null): void {
    if (config) this.rates.set(accountId, config);
    else this.rates.delete(accountId);
  }

  /** The status to fail this request with, or null to answer normally. */
  next(accountId: string): TServerErrorStatus | null {
    const queued = this.queued.get(accountId)?.shift();
    if (queued !== undefined) return queued;
    const config = this.rates.get(accountId);
    if (!config?.failureRate) return null;
    let stream = this.streams.get(accountId);
    if (!stream) {
      stream = createRandom(hashSeed(this.seed, accountId, 'faults'));
      this.streams.set(accountId, stream);
    }
    if (!stream.chance(config.failureRate)) return null;
    return stream.pick(config.statuses?.length ? config.statuses : ([500, 503] as const));
  }
}
