import { setTimeout as sleep } from 'node:timers/promises';
import type { TDatabase } from '../../db/client.ts';

const PRUNE_EVERY_MS = 3600_000;

/**
 * A sending rate per recipient domain (CAMPAIGN_DOMAIN_RATE messages per second), shared by every
 * worker process through one row per domain (`domain_send_slots`, the time its next free slot
 * begins): large receivers throttle senders that burst, so a domain's messages take evenly spaced
 * slots whichever process sends them. A chunk of a send reserves its slots in one statement (rows
 * locked in domain order, so two chunks never wait on each other in a cycle) and waits for the last
 * of them. 0 means no limit, and no statement at all.
 */
export class DomainRate {
  private prunedAt = 0;

  constructor(
    private readonly database: Pick<TDatabase, 'executeSql'>,
    private readonly perSecond: number,
  ) {}

  /** Reserves one slot per entry (a recipient's domain); answers the milliseconds until the last begins. */
  async reserve(domains: string[]): Promise<number> {
    if (this.perSecond <= 0 || domains.length === 0) return 0;
    const step = 1000 / this.perSecond;
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      // Domains quiet for an hour hold no future slot: their rows go, so the table stays small.
      await this.database.executeSql(`delete from domain_send_slots where next_at < now() - interval '1 hour'`);
    }
    const { rows } = await this.database.executeSql(
      `with wanted as (select domain, count(*)::int as n from unnest($1::text[]) as u(domain) group by domain),
         taken as (
           insert into domain_send_slots as s (domain, next_at)
           select domain, statement_timestamp() + make_interval(secs => n * $2::double precision / 1000) from wanted order by domain
           on conflict (domain) do update set next_at = greatest(s.next_at, statement_timestamp()) + (excluded.next_at - statement_timestamp())
           returning s.next_at)
       select coalesce(max(extract(epoch from (next_at - statement_timestamp())) * 1000), 0)::float8 as until from taken`,
      [domains, step],
    );
    return Math.max(0, Number((rows[0] as { until: number } | undefined)?.until ?? 0) - step);
  }

  /** Resolves when every slot reserved for `domains` has begun. */
  async pace(domains: string[]): Promise<void> {
    const wait = await this.reserve(domains);
    if (wait > 0) await sleep(wait);
  }
}
