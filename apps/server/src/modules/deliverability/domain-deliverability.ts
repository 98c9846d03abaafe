import { domainToUnicode } from 'node:url';
import {
  DELIVERABILITY_WINDOW_DAYS,
  RECENT_POLICY_BLOCKS,
  type TDomainDeliverability,
  type TDomainWindow,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { listDomainRows } from '../sending/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * Deliverability per sending domain (issue 25): for each of the brand's sending domains, the last
 * 7 and 30 days (by the hour: a window starts at the top of the hour 7 or 30 days ago) of mails
 * handed to the relay, delivered, hard and soft bounces, complaints, policy blocks and
 * auto-replies, from the rollup `sending_domain_stats_hourly` (at most 720 rows a domain), and the
 * latest policy blocks' diagnostics through the partial index of policy blocks. Never the
 * deliveries. The figures are the brand's, so only the brand level reads them.
 */

interface TSums {
  domain: string;
  days: number;
  handed: number;
  delivered: number;
  hard_bounces: number;
  soft_bounces: number;
  complaints: number;
  policy_blocks: number;
  auto_replies: number;
}

const rate = (part: number, whole: number) => (whole > 0 ? part / whole : null);

function windowOf(days: number, s: TSums | undefined): TDomainWindow {
  const n = (v: number | undefined) => Number(v ?? 0);
  const handed = n(s?.handed);
  const delivered = n(s?.delivered);
  return {
    days,
    handed,
    delivered,
    hardBounces: n(s?.hard_bounces),
    softBounces: n(s?.soft_bounces),
    complaints: n(s?.complaints),
    policyBlocks: n(s?.policy_blocks),
    autoReplies: n(s?.auto_replies),
    hardBounceRate: rate(n(s?.hard_bounces), handed),
    complaintRate: rate(n(s?.complaints), delivered),
    policyBlockRate: rate(n(s?.policy_blocks), handed),
  };
}

async function windowSums(tx: TTx, brandId: string, domains: string[]): Promise<TSums[]> {
  return selectRows<TSums>(
    tx,
    sql`select s.domain, w.days, sum(s.handed)::int as handed, sum(s.delivered)::int as delivered,
        sum(s.hard_bounces)::int as hard_bounces, sum(s.soft_bounces)::int as soft_bounces,
        sum(s.complaints)::int as complaints, sum(s.policy_blocks)::int as policy_blocks,
        sum(s.auto_replies)::int as auto_replies
      from sending_domain_stats_hourly s
        join unnest(${sql.param([...DELIVERABILITY_WINDOW_DAYS])}::int[]) as w(days)
          on s.hour >= date_trunc('hour', now()) - make_interval(days => w.days)
      where s.brand_id = ${brandId}::uuid and s.domain = any(${sql.param(domains)}::text[])
        and s.hour >= date_trunc('hour', now()) - make_interval(days => ${Math.max(...DELIVERABILITY_WINDOW_DAYS)}::int)
      group by s.domain, w.days`,
  );
}

async function recentPolicyBlocks(tx: TTx, brandId: string, domains: string[]) {
  return selectRows<{ domain: string; received_at: Date | string; status: string | null; diagnostic: string | null }>(
    tx,
    sql`select d.domain, f.received_at, f.status, f.diagnostic
      from unnest(${sql.param(domains)}::text[]) as d(domain)
        cross join lateral (
          select received_at, status, diagnostic from feedback_events
          where brand_id = ${brandId}::uuid and sending_domain = d.domain and kind = 'policy_block'
          order by received_at desc limit ${RECENT_POLICY_BLOCKS}::int) f
      order by d.domain, f.received_at desc`,
  );
}

export async function listDomainDeliverability(
  rt: TRuntime,
  ctx: TActingContext,
): Promise<{ domains: TDomainDeliverability[] }> {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'domain_deliverability_brand_only');
  const brandId = ctx.host.id;
  return inTenant(rt, ctx, async (tx) => {
    const rows = await listDomainRows(tx, brandId);
    if (rows.length === 0) return { domains: [] };
    const names = rows.map((r) => r.domain);
    const sums = await windowSums(tx, brandId, names);
    const blocks = await recentPolicyBlocks(tx, brandId, names);
    return {
      domains: rows.map((r) => ({
        domainId: r.id,
        domain: r.domain,
        displayName: domainToUnicode(r.domain) || r.domain,
        state: r.state,
        lapsedAt: r.lapsedAt?.toISOString() ?? null,
        windows: DELIVERABILITY_WINDOW_DAYS.map((days) =>
          windowOf(
            days,
            sums.find((s) => s.domain === r.domain && Number(s.days) === days),
          ),
        ),
        recentPolicyBlocks: blocks
          .filter((b) => b.domain === r.domain)
          .map((b) => ({ at: new Date(b.received_at).toISOString(), status: b.status, diagnostic: b.diagnostic })),
      })),
    };
  });
}
