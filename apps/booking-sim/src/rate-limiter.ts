/**
 * A token bucket per API key: `burst` requests at once, refilled at `perSecond`. It runs on its
 * own clock (wall time by default), not the simulated business clock, because throttling is
 * about how fast a client calls, while tests jump the business clock by days.
 */
export interface TRateLimitConfig {
  burst: number;
  perSecond: number;
  /** Milliseconds from any fixed point; default performance.now. */
  clock?: () => number;
}

export type TRateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();
  private readonly clock: () => number;

  constructor(private readonly config: TRateLimitConfig) {
    if (!(config.burst >= 1) || !(config.perSecond > 0))
      throw new Error('rate limit needs burst >= 1 and perSecond > 0');
    this.clock = config.clock ?? (() => performance.now());
  }

  take(key: string): TRateDecision {
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: this.config.burst, updatedAt: now };
    bucket.tokens = Math.min(
      this.config.burst,
      bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.config.perSecond,
    );
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    // Retry-After is whole seconds (RFC 9110); round up so that a client that obeys it succeeds.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.config.perSecond)) };
  }
}
