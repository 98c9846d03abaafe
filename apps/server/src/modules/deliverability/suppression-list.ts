import {
  fullName,
  isValidEmail,
  type TSuppression,
  type TSuppressionListQuery,
  type TSuppressionReason,
} from '@yado/contracts';
import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { FALLBACK_TIME_ZONE } from '../customers/local-time.ts';
import { hostTimeZone } from '../management/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * The suppression list in the console (issue 25): the brand's active entries (not lifted, `until`
 * not passed), lifted and added by a brand admin. Kept per brand, so only the brand level reads it;
 * row-level security keeps every statement inside the acting brand.
 */

function brandOf(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'suppressions_brand_only');
  return ctx.host.id;
}

function adminBrandOf(ctx: TActingContext): string {
  const brandId = brandOf(ctx);
  if (ctx.role !== 'admin') throw new AppError(403, 'suppression_admin_only');
  return brandId;
}

const ACTIVE = sql`s.lifted_at is null and (s.until is null or s.until > now())`;

interface TRow {
  id: string;
  email: string;
  customer_id: string | null;
  first_name: string | null;
  last_name: string | null;
  reason: TSuppressionReason;
  diagnostic: string | null;
  campaign_id: string | null;
  campaign_name: string | null;
  scenario_id: string | null;
  scenario_name: string | null;
  created_at: Date | string;
  until: Date | string | null;
  total?: number | string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

function toSuppression(r: TRow): TSuppression {
  return {
    id: r.id,
    email: r.email,
    customer:
      r.customer_id && r.first_name !== null
        ? { id: r.customer_id, name: fullName(r.first_name, r.last_name ?? '') }
        : null,
    reason: r.reason,
    diagnostic: r.diagnostic,
    // A journey's mail is a delivery of its node's hidden campaign: name the scenario, not that.
    campaign:
      r.campaign_id && !r.scenario_id && r.campaign_name !== null ? { id: r.campaign_id, name: r.campaign_name } : null,
    scenario: r.scenario_id && r.scenario_name !== null ? { id: r.scenario_id, name: r.scenario_name } : null,
    createdAt: iso(r.created_at),
    until: r.until === null ? null : iso(r.until),
  };
}

const SELECT = sql`select s.id, s.email, s.customer_id, cu.first_name, cu.last_name, s.reason, s.diagnostic,
    s.campaign_id, c.name as campaign_name, s.scenario_id, sc.name as scenario_name, s.created_at, s.until
  from suppressions s
    left join customers cu on cu.id = s.customer_id
    left join campaigns c on c.id = s.campaign_id
    left join scenarios sc on sc.id = s.scenario_id`;

/**
 * A page of the brand's active entries, with the acting host's time zone (`hosts.timezone`): the
 * console shows when each entry was made and until when it holds in it, and names it under the list.
 */
export async function listSuppressions(rt: TRuntime, ctx: TActingContext, query: TSuppressionListQuery) {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const search = query.search ? `%${query.search.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
    const where = sql`s.brand_id = ${brandId} and ${ACTIVE}
      ${query.reason ? sql`and s.reason = ${query.reason}` : sql``}
      ${search ? sql`and s.email like ${search}` : sql``}`;
    const rows = await selectRows<TRow>(
      tx,
      sql`${SELECT} where ${where} order by s.created_at desc, s.id
        limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
    );
    const [count] = await selectRows<{ total: string | number }>(
      tx,
      sql`select count(*) as total from suppressions s where ${where}`,
    );
    return {
      items: rows.map(toSuppression),
      total: Number(count?.total ?? 0),
      page: query.page,
      pageSize: query.pageSize,
      timeZone: (await hostTimeZone(tx, ctx.host.id)) ?? FALLBACK_TIME_ZONE,
    };
  });
}

async function activeRow(tx: TTx, brandId: string, id: string): Promise<TRow | undefined> {
  const [row] = await selectRows<TRow>(tx, sql`${SELECT} where s.id = ${id} and s.brand_id = ${brandId} and ${ACTIVE}`);
  return row;
}

/**
 * Lifts an entry: the address may be mailed again (a hard bounce's lift also ends the bounce the
 * customer shows, read from this entry); a complaint's lift leaves the guest unsubscribed (only
 * the guest re-subscribes).
 */
export async function liftSuppression(rt: TRuntime, ctx: TActingContext, id: string) {
  const brandId = adminBrandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const row = await activeRow(tx, brandId, id);
    if (!row) throw new AppError(404, 'suppression_not_found');
    await tx.execute(sql`update suppressions set lifted_at = now(), lifted_by = ${ctx.user.id} where id = ${id}`);
    await recordAudit(tx, ctx, {
      action: 'lift',
      targetType: 'suppression',
      targetId: id,
      brandId,
      changes: { email: row.email, reason: row.reason },
    });
    return { id };
  });
}

/** Puts an address on the list by hand (reason `manual`, until lifted). */
export async function addSuppression(rt: TRuntime, ctx: TActingContext, input: { email: string }) {
  const brandId = adminBrandOf(ctx);
  const email = input.email.trim().toLowerCase();
  if (!isValidEmail(email)) throw badRequest({ email: fieldError('email_invalid') });
  return inTenant(rt, ctx, async (tx) => {
    // An expired soft entry still holds the address's one unlifted row: a manual entry replaces it.
    const [inserted] = await selectRows<{ id: string }>(
      tx,
      sql`insert into suppressions (brand_id, email, customer_id, reason)
        values (${brandId}, ${email},
          (select id from customers where brand_id = ${brandId} and email_key = ${email} order by created_at limit 1), 'manual')
        on conflict (brand_id, email) where lifted_at is null do update set
          reason = 'manual', diagnostic = null, delivery_id = null, campaign_id = null, scenario_id = null,
          customer_id = excluded.customer_id, created_at = now(), until = null
        where suppressions.until is not null and suppressions.until <= now()
        returning id`,
    );
    if (!inserted) throw new AppError(409, 'suppression_exists');
    await recordAudit(tx, ctx, {
      action: 'create',
      targetType: 'suppression',
      targetId: inserted.id,
      brandId,
      changes: { email, reason: 'manual' },
    });
    return toSuppression((await activeRow(tx, brandId, inserted.id)) as TRow);
  });
}
