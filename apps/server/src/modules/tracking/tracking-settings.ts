import { DEFAULT_CONVERSION_WINDOW_DAYS, type TTrackingSettings } from '@yado/contracts/tracking';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { conversionWindowOf, saveConversionWindow } from './queries.ts';

/**
 * The brand's conversion window: every hotel of the brand reads the brand's, only the brand sets it
 * (conversions are attributed brand-wide, as consent is).
 */

function brandOf(ctx: TActingContext): string {
  // A brand's own row carries its own id as brand id; the platform has none.
  if (!ctx.host.brandId) throw new AppError(403, 'tracking_brand_only');
  return ctx.host.brandId;
}

export function getTrackingSettings(rt: TRuntime, ctx: TActingContext): Promise<TTrackingSettings> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const days = await conversionWindowOf(tx, brandId);
    return { conversionWindowDays: days ?? DEFAULT_CONVERSION_WINDOW_DAYS, isDefault: days === null };
  });
}

export function updateTrackingSettings(
  rt: TRuntime,
  ctx: TActingContext,
  input: { conversionWindowDays: number },
): Promise<TTrackingSettings> {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'tracking_brand_only');
  const brandId = ctx.host.id;
  return inTenant(rt, ctx, async (tx) => {
    const before = (await conversionWindowOf(tx, brandId)) ?? DEFAULT_CONVERSION_WINDOW_DAYS;
    await saveConversionWindow(tx, brandId, input.conversionWindowDays);
    if (before !== input.conversionWindowDays) {
      await recordAudit(tx, ctx, {
        action: 'update',
        targetType: 'tracking_settings',
        targetId: brandId,
        brandId,
        changes: { conversionWindowDays: [before, input.conversionWindowDays] },
      });
    }
    return { conversionWindowDays: input.conversionWindowDays, isDefault: false };
  });
}
