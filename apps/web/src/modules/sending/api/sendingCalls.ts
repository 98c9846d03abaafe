import * as sendingApi from '@yado/contracts/sending';
import * as domainDeliverabilityApi from '@yado/contracts/domain-deliverability';
import type { TCampaignEmailSettings, TCampaignEmailValues, TSendingDomain } from '@yado/contracts/sending';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

export const domainsQuery = queryOptions({
  queryKey: ['sending', 'domains'],
  queryFn: ({ signal }) => request(sendingApi.listDomains, { signal }),
});

export const emailSettingsQuery = queryOptions({
  queryKey: ['sending', 'settings'],
  queryFn: ({ signal }) => request(sendingApi.getSettings, { signal }),
});

export const setupQuery = queryOptions({
  queryKey: ['sending', 'setup'],
  queryFn: ({ signal }) => request(sendingApi.setupOverview, { signal }),
});

export function addDomain(domain: string): Promise<TSendingDomain> {
  return request(sendingApi.addDomain, { body: { domain } });
}

export function verifyDomain(id: string): Promise<TSendingDomain> {
  return request(sendingApi.verifyDomain, { params: { id } });
}

export function removeDomain(id: string): Promise<{ id: string }> {
  return request(sendingApi.removeDomain, { params: { id } });
}

export function saveEmailSettings(values: TCampaignEmailValues): Promise<TCampaignEmailSettings> {
  return request(sendingApi.updateSettings, { body: values });
}

export const domainDeliverabilityQuery = queryOptions({
  queryKey: ['sending', 'deliverability'],
  queryFn: ({ signal }) => request(domainDeliverabilityApi.listDomainDeliverability, { signal }),
});
