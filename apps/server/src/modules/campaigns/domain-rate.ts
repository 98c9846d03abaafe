/**
 * A sending rate per recipient domain (CAMPAIGN_DOMAIN_RATE messages per second, per worker
 * process): large receivers throttle senders that burst, so each domain gets evenly spaced slots.
 * 0 means no limit.
 */
export class DomainRateLimit {
  private readonly next = new Map<string, number>();

  constructor(private readonly perSecond: number) {}

  /** Resolves when the domain's next slot comes. */
  acquire(domain: string, now = Date.now()): Promise<void> | void {
    if (this.perSecond <= 0) return;
    const slot = Math.max(now, this.next.get(domain) ?? 0);
    this.next.set(domain, slot + 1000 / this.perSecond);
    // Forget domains that have been quiet, so the map stays small.
    if (this.next.size > 10_000) for (const [d, t] of this.next) if (t < now) this.next.delete(d);
    const wait = slot - now;
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined;
  }
}
