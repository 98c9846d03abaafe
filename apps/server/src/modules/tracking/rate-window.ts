/**
 * Requests per key (a delivery, a client address) in a fixed one-minute window, kept in memory per
 * process (memory holds one minute of keys). Tracking must never wait on the database to decide,
 * and a limit per process is enough to keep one key from flooding it.
 */
export class RateWindow {
  private current = new Map<string, number>();
  private windowStart: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windowStart = now();
  }

  /** Counts a request; false once the address has used its minute's allowance. */
  take(address: string): boolean {
    this.roll();
    const used = (this.current.get(address) ?? 0) + 1;
    this.current.set(address, used);
    return used <= this.perMinute;
  }

  /** Whether the address has used up its minute's allowance already (counts nothing). */
  spent(address: string): boolean {
    this.roll();
    return (this.current.get(address) ?? 0) >= this.perMinute;
  }

  private roll(): void {
    const t = this.now();
    if (t - this.windowStart >= 60_000) {
      this.current = new Map();
      this.windowStart = t;
    }
  }
}
