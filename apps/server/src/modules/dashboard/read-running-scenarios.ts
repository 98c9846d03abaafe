import type { TRunningScenarios } from '@yado/contracts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { dashboardScope } from './dashboard-scope.ts';
import { runningScenarios } from './queries.ts';

export const RUNNING_SCENARIOS_LIMIT = 5;

/**
 * The running automation scenarios of the acting brand (all of the brand's), hotel group (its own
 * and its hotels') or hotel (its own), as the scenario list scopes them.
 */
export async function readRunningScenarios(rt: TRuntime, ctx: TActingContext): Promise<TRunningScenarios> {
  const scope = dashboardScope(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const { rows, total } = await runningScenarios(tx, scope, RUNNING_SCENARIOS_LIMIT);
    return {
      scenarios: rows.map((r) => ({
        id: r.id,
        name: r.name,
        hostName: r.host_name,
        startedAt: r.started_at ? new Date(r.started_at).toISOString() : null,
        entered: r.entered,
      })),
      total,
    };
  });
}
