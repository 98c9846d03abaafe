import { dashboardApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { readCampaignPerformance } from './read-campaign-performance.ts';
import { readCustomerStatistics } from './read-customer-statistics.ts';
import { readLevelInfo } from './read-level-info.ts';
import { readRunningScenarios } from './read-running-scenarios.ts';

/** One route per dashboard block, each behind its own entitlement (specification section 6). */
export function dashboardRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, dashboardApi.levelInfo, { entitlement: 'dashboard.read_level_info' }, async ({ ctx }) =>
    readLevelInfo(rt, ctx),
  );
  route(app, dashboardApi.customerStatistics, { entitlement: 'dashboard.read_customer_statistics' }, async ({ ctx }) =>
    readCustomerStatistics(rt, ctx),
  );
  route(
    app,
    dashboardApi.campaignPerformance,
    { entitlement: 'dashboard.read_campaign_performance' },
    async ({ ctx }) => readCampaignPerformance(rt, ctx),
  );
  // The running scenarios are the scenario list's, so its read entitlement (section 6) decides.
  route(app, dashboardApi.runningScenarios, { entitlement: 'scenarios.read_scenario' }, async ({ ctx }) =>
    readRunningScenarios(rt, ctx),
  );
}
