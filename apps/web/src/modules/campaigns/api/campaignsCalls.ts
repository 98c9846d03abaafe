import * as campaignsApi from '@yado/contracts/campaigns';
import type {
  CAMPAIGN_SORTS,
  TAudienceQuestion,
  TCampaign,
  TCampaignInput,
  TCampaignListStatus,
  TSchedule,
} from '@yado/contracts/campaigns';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import * as templatesApi from '@yado/contracts/templates';
import { request } from '../../../lib/http/request';
import type { TLanguage } from '../../../lib/session/storage';
import { TEMPLATES_QUERY_KEY } from '../../templates/api/templatesCalls';

export type TCampaignSort = (typeof CAMPAIGN_SORTS)[number];

export const CAMPAIGNS_QUERY_KEY = ['campaigns'] as const;

export interface TCampaignFilters {
  search: string;
  /** As the badges say it: Pending leaves out the paused and the waiting campaigns. */
  status: TCampaignListStatus | '';
  sort: TCampaignSort;
}

export const campaignListQuery = (filters: TCampaignFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'list', filters, page, pageSize],
    queryFn: ({ signal }) =>
      request(campaignsApi.list, {
        query: {
          search: filters.search || undefined,
          status: filters.status || undefined,
          sort: filters.sort,
          page,
          pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
    // A campaign due or being sent moves on its own: follow it while the list is open.
    refetchInterval: (query) => (query.state.data?.items.some((campaign) => isMoving(campaign)) ? 5_000 : false),
  });

/** Sending, or due within a minute: its status changes without the user doing anything. */
export function isMoving(campaign: Pick<TCampaign, 'status' | 'sendAt'>, now = Date.now()): boolean {
  if (campaign.status === 'pending') return true;
  return campaign.status === 'scheduled' && campaign.sendAt !== null && Date.parse(campaign.sendAt) - now < 60_000;
}

export const campaignQuery = (id: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(campaignsApi.get, { params: { id }, signal }),
    enabled: Boolean(id),
  });

/** The de-duplicated audience of a choice of segments, as the server counts it now. */
export const audienceQuery = (recipients: TAudienceQuestion) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'audience', recipients],
    queryFn: ({ signal }) => request(campaignsApi.audience, { body: recipients, signal }),
    enabled: recipients.segmentIds.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });

/** Whether a schedule falls in the host's quiet hours (the server knows the hours and the zone). */
export const quietHoursQuery = (schedule: TSchedule | null) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'quiet-hours', schedule],
    queryFn: ({ signal }) => request(campaignsApi.quietHours, { body: { schedule: schedule! }, signal }),
    enabled: schedule !== null,
    retry: false,
  });

/** The chosen template by id, read again when the user comes back from the builder's tab. */
export const chosenTemplateQuery = (id: string | null) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, 'chosen', id],
    queryFn: ({ signal }) => request(templatesApi.get, { params: { id: id ?? '' }, signal }),
    enabled: Boolean(id),
    refetchOnWindowFocus: 'always',
  });

export function createCampaign(input: TCampaignInput): Promise<TCampaign> {
  return request(campaignsApi.create, { body: input });
}

export function updateCampaign(id: string, input: z.input<typeof campaignsApi.ZCampaignUpdate>): Promise<TCampaign> {
  return request(campaignsApi.update, { params: { id }, body: input });
}

export function scheduleCampaign(id: string, schedule: TSchedule): Promise<TCampaign> {
  return request(campaignsApi.schedule, { params: { id }, body: { schedule } });
}

export function sendCampaignNow(id: string): Promise<TCampaign> {
  return request(campaignsApi.sendNow, { params: { id }, body: {} });
}

export function saveCampaignAsDraft(id: string): Promise<TCampaign> {
  return request(campaignsApi.saveDraft, { params: { id }, body: {} });
}

export function cancelCampaign(id: string): Promise<TCampaign> {
  return request(campaignsApi.cancel, { params: { id }, body: {} });
}

export function pauseCampaign(id: string): Promise<TCampaign> {
  return request(campaignsApi.pause, { params: { id }, body: {} });
}

export function resumeCampaign(id: string): Promise<TCampaign> {
  return request(campaignsApi.resume, { params: { id }, body: {} });
}

/** A draft copy, named "<name> (copy)" in `language` (the console's): 誕生日（コピー） in Japanese. */
export function duplicateCampaign(id: string, language: TLanguage): Promise<TCampaign> {
  return request(campaignsApi.duplicate, { params: { id }, body: { language } });
}

export function deleteCampaign(id: string) {
  return request(campaignsApi.remove, { params: { id } });
}

export function testSendCampaign(id: string, emails: string[], language: 'ja' | 'en') {
  return request(campaignsApi.testSend, { params: { id }, body: { emails, language } });
}
