import { sql } from 'drizzle-orm';
import { PROTECTION_BOUNDS, PROTECTION_DEFAULTS, PROTECTION_FIELDS, type TProtection } from '@yado/contracts';
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
