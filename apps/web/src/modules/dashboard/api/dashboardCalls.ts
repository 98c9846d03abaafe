import * as dashboardApi from '@yado/contracts/dashboard';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

export const DASHBOARD_QUERY_KEY = ['dashboard'] as const;

// Each block is its own call with its own entitlement; the page asks only for those it may show.
export const levelInfoQuery = queryOptions({
  queryKey: [...DASHBOARD_QUERY_KEY, 'level-info'],
  queryFn: ({ signal }) => request(dashboardApi.levelInfo, { signal }),
});
export const customerStatisticsQuery = queryOptions({
  queryKey: [...DASHBOARD_QUERY_KEY, 'customer-statistics'],
  queryFn: ({ signal }) => request(dashboardApi.customerStatistics, { signal }),
});
export const campaignPerformanceQuery = queryOptions({
  queryKey: [...DASHBOARD_QUERY_KEY, 'campaign-performance'],
  queryFn: ({ signal }) => request(dashboardApi.campaignPerformance, { signal }),
});
export const runningScenariosQuery = queryOptions({
  queryKey: [...DASHBOARD_QUERY_KEY, 'running-scenarios'],
  queryFn: ({ signal }) => request(dashboardApi.runningScenarios, { signal }),
});
