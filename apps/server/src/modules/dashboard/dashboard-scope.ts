import { AppError } from '../../http/errors.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import type { TScopeHost } from './queries.ts';

/** The acting host as the dashboard's scope. The platform has no dashboard (specification section 6). */
export function dashboardScope(ctx: TActingContext): TScopeHost {
  const { host } = ctx;
  if (host.level === 'grand_user' || !host.brandId) throw new AppError(403, 'forbidden');
  return { id: host.id, level: host.level, brandId: host.brandId };
}
