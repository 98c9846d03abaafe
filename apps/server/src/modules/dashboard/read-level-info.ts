import type { TLevelInfo } from '@yado/contracts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { dashboardScope } from './dashboard-scope.ts';
import { panelChildren, panelHost, type TPanelHostRow } from './queries.ts';

const panel = (row: TPanelHostRow) => ({
  id: row.id,
  level: row.level,
  name: row.name,
  address: row.address,
  email: row.email,
  phone: row.phone,
  logoUrl: row.logo_url,
});

/** The information panel of the acting brand, hotel group or hotel, with what lies below it. */
export async function readLevelInfo(rt: TRuntime, ctx: TActingContext): Promise<TLevelInfo> {
  const scope = dashboardScope(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const host = await panelHost(tx, scope.id);
    if (!host) throw new AppError(404, 'not_found');
    const children = scope.level === 'hotel' ? [] : await panelChildren(tx, scope);
    return {
      host: {
        ...panel(host),
        timezone: host.timezone,
        brandName: host.brand_name,
        hotelGroupName: host.hotel_group_name,
      },
      hotelGroups: children
        .filter((c) => c.level === 'hotel_group')
        .map((c) => ({ ...panel(c), hotelCount: c.hotel_count })),
      hotels: children
        .filter((c) => c.level === 'hotel')
        .map((c) => ({ ...panel(c), hotelGroupName: c.hotel_group_name })),
    };
  });
}
