import { sql } from 'drizzle-orm';
import {
  PROTECTION_BOUNDS,
  PROTECTION_DEFAULTS,
  PROTECTION_FIELDS,
  protectionWarning,
  type TProtection,
} from '@yado/contracts';
import type { TProtectionAlert } from '@yado/contracts/deliverability';
import { selectRows, type TTx } from '../../db/client.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { diff, recordAudit } from '../audit/record-audit.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/**
 * The brand's protection thresholds (issue 25): kept on its campaign email settings row, where
 * protection (apply-feedback.ts) and the statistics' warning read them. Brand context only; a
 * value outside PROTECTION_BOUNDS is refused, so that no brand switches protection off.
 */

function brandOf(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'protection_brand_only');
  return ctx.host.id;
}

/** The brand's thresholds, the defaults when it has no settings row. */
export async function protectionOf(tx: TTx, brandId: string): Promise<TProtection> {
  const [row] = await selectRows<{ min_sent: number; hard_pct: string | number; complaint_pct: string | number }>(
    tx,
    sql`select pause_min_sent as min_sent, pause_hard_bounce_pct as hard_pct, pause_complaint_pct as complaint_pct
      from campaign_email_settings where host_id = ${brandId}::uuid`,
  );
  if (!row) return { ...PROTECTION_DEFAULTS };
  return { minSent: row.min_sent, hardBouncePct: Number(row.hard_pct), complaintPct: Number(row.complaint_pct) };
}

export function getProtection(rt: TRuntime, ctx: TActingContext): Promise<TProtection> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, (tx) => protectionOf(tx, brandId));
}

export function saveProtection(rt: TRuntime, ctx: TActingContext, input: TProtection): Promise<TProtection> {
  const brandId = brandOf(ctx);
  // The columns keep two decimals: what is stored is what the form shows back.
  const values: TProtection = {
    minSent: input.minSent,
    hardBouncePct: Math.round(input.hardBouncePct * 100) / 100,
    complaintPct: Math.round(input.complaintPct * 100) / 100,
  };
  const fields: TFieldErrors = {};
  for (const f of PROTECTION_FIELDS) {
    const { min, max } = PROTECTION_BOUNDS[f];
    if (!(values[f] >= min && values[f] <= max)) fields[f] = fieldError('protection_out_of_range');
  }
  if (Object.keys(fields).length) throw badRequest(fields);
  return inTenant(rt, ctx, async (tx) => {
    const before = await protectionOf(tx, brandId);
    await tx.execute(sql`insert into campaign_email_settings (host_id, brand_id, pause_min_sent, pause_hard_bounce_pct, pause_complaint_pct, updated_by)
      values (${brandId}::uuid, ${brandId}::uuid, ${values.minSent}, ${values.hardBouncePct}, ${values.complaintPct}, ${ctx.user.id}::uuid)
      on conflict (host_id) do update set pause_min_sent = excluded.pause_min_sent, pause_hard_bounce_pct = excluded.pause_hard_bounce_pct,
        pause_complaint_pct = excluded.pause_complaint_pct, updated_by = excluded.updated_by, updated_at = now()`);
    const changed = diff(before, values);
    if (Object.keys(changed).length)
      await recordAudit(tx, ctx, {
        action: 'update',
        targetType: 'campaign_email_settings',
        targetId: brandId,
        brandId,
        // Named as the columns are, so the audit log labels them apart from the sender fields.
        changes: Object.fromEntries(
          Object.entries(changed).map(([k, v]) => [`pause${k[0]!.toUpperCase()}${k.slice(1)}`, v]),
        ),
      });
    return values;
  });
}

/**
 * The brand's sending campaigns that paused themselves, or whose rates are past the warning level
 * (the same `protectionWarning` as their statistics), and those sent within the last day that are:
 * what the brand admins' banner lists (reports keep coming in after a send finished). A finished
 * one is `finished` (it will not pause: its list needs a look before the next campaign), whether
 * or not it paused itself and was resumed on the way.
 */
export function listProtectionAlerts(rt: TRuntime, ctx: TActingContext): Promise<TProtectionAlert[]> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const protection = await protectionOf(tx, brandId);
    const rows = await selectRows<{
      id: string;
      name: string;
      paused_reason: { kind: 'hard_bounce' | 'complaint'; rate: number | string; resumed?: boolean } | null;
      paused: boolean;
      status: string;
      sent: number;
      failed: number;
      delivered: number;
      hard_bounces: number;
      complaints: number;
    }>(
      tx,
      sql`select c.id, c.name, c.paused_reason, (c.paused_at is not null and c.paused_by is null) as paused,
          c.status, st.sent, st.failed, st.delivered, st.hard_bounces, st.complaints
        from campaigns c join campaign_stats st on st.campaign_id = c.id
        where c.brand_id = ${brandId}::uuid and c.scenario_id is null
          and (c.status = 'pending' or (c.status = 'sent' and c.finished_at > now() - interval '1 day'))
        order by c.started_at desc nulls last, c.id limit 20`,
    );
    const alerts: TProtectionAlert[] = [];
    for (const r of rows) {
      if (r.paused && r.paused_reason && !r.paused_reason.resumed) {
        const kind = r.paused_reason.kind;
        alerts.push({
          campaignId: r.id,
          name: r.name,
          kind,
          rate: Number(r.paused_reason.rate),
          pausePct: kind === 'hard_bounce' ? protection.hardBouncePct : protection.complaintPct,
          paused: true,
          finished: false,
        });
        continue;
      }
      const finished = r.status === 'sent';
      // Resumed by an admin after it paused itself: it will not pause again, so no warning says it will.
      if (r.paused_reason && !finished) continue;
      const warning = protectionWarning(
        {
          sent: r.sent,
          failed: r.failed,
          delivered: r.delivered,
          hardBounces: r.hard_bounces,
          complaints: r.complaints,
        },
        protection,
      );
      if (warning) alerts.push({ campaignId: r.id, name: r.name, ...warning, paused: false, finished });
    }
    return alerts;
  });
}
