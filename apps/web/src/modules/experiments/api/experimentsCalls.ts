import * as experimentsApi from '@yado/contracts/experiments';
import type { TCampaignExperiment, TVariantKey } from '@yado/contracts/experiments';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import { SCENARIOS_QUERY_KEY } from '../../automations/api/scenariosCalls';
import { CAMPAIGNS_QUERY_KEY } from '../../campaigns/api/campaignsCalls';

/** A campaign's A/B test and holdout report; followed while the test runs and the bookings come in. */
export const experimentReportQuery = (campaignId: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', campaignId, 'experiment'],
    queryFn: ({ signal }) => request(experimentsApi.experimentReport, { params: { id: campaignId }, signal }),
    refetchInterval: 10_000,
  });

export const scenarioHoldoutQuery = (scenarioId: string) =>
  queryOptions({
    queryKey: [...SCENARIOS_QUERY_KEY, 'holdout', scenarioId],
    queryFn: ({ signal }) => request(experimentsApi.scenarioHoldout, { params: { id: scenarioId }, signal }),
  });

export function pickWinner(campaignId: string, key: TVariantKey): Promise<TCampaignExperiment> {
  return request(experimentsApi.pickWinner, { params: { id: campaignId }, body: { key } });
}
