import * as deliverabilityApi from '@yado/contracts/deliverability';
import type { TSuppressionReason } from '@yado/contracts/deliverability';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

export const SUPPRESSIONS_QUERY_KEY = ['suppressions'] as const;

export interface TSuppressionFilters {
  search: string;
  reason: TSuppressionReason | '';
}

export const suppressionListQuery = (filters: TSuppressionFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...SUPPRESSIONS_QUERY_KEY, 'list', filters, page, pageSize],
    queryFn: ({ signal }) =>
      request(deliverabilityApi.list, {
        query: { search: filters.search || undefined, reason: filters.reason || undefined, page, pageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export function liftSuppression(id: string) {
  return request(deliverabilityApi.lift, { params: { id }, body: {} });
}

export function addSuppression(email: string) {
  return request(deliverabilityApi.add, { body: { email } });
}
