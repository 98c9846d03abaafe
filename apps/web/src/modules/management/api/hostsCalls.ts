import * as managementApi from '@yado/contracts/management';
import type { HOST_SORTS, THost } from '@yado/contracts/management';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import { hostInput, hotelInput, type THostFormValues } from '../hostForm';
import { LEVELS, type TManagedLevel } from '../levels';

export type THostSort = (typeof HOST_SORTS)[number];

export interface THostFilters {
  search: string;
  brandId: string;
  hotelGroupId: string;
  sort: THostSort;
  page: number;
}

export const HOSTS_QUERY_KEY = ['hosts'] as const;
export const HOSTS_PAGE_SIZE = 20;
/** Filter choices: the first hundred by name are plenty for a dropdown. */
const CHOICES_PAGE_SIZE = 100;

export const hostListQuery = (level: TManagedLevel, filters: THostFilters) =>
  queryOptions({
    queryKey: [...HOSTS_QUERY_KEY, level, 'list', filters],
    queryFn: ({ signal }) =>
      request(LEVELS[level].api.list, {
        query: {
          search: filters.search || undefined,
          brandId: filters.brandId || undefined,
          hotelGroupId: filters.hotelGroupId || undefined,
          sort: filters.sort,
          page: filters.page,
          pageSize: HOSTS_PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const hostChoicesQuery = (level: 'brand' | 'hotel_group', brandId: string | null, enabled: boolean) =>
  queryOptions({
    queryKey: [...HOSTS_QUERY_KEY, level, 'choices', brandId],
    queryFn: async ({ signal }) =>
      (
        await request(LEVELS[level].api.list, {
          query: { brandId: brandId || undefined, sort: 'name', page: 1, pageSize: CHOICES_PAGE_SIZE },
          signal,
        })
      ).items,
    enabled,
  });

export const hostDetailQuery = (level: TManagedLevel, id: string) =>
  queryOptions({
    queryKey: [...HOSTS_QUERY_KEY, level, 'one', id],
    queryFn: ({ signal }) => request(LEVELS[level].api.get, { params: { id }, signal }),
  });

export function createHost(
  level: TManagedLevel,
  values: THostFormValues,
  parents: { brandId?: string; hotelGroupId?: string },
): Promise<THost> {
  if (level === 'brand') return request(managementApi.brands.create, { body: hostInput(values) });
  if (level === 'hotel_group')
    return request(managementApi.hotelGroups.create, { body: { ...hostInput(values), ...parents } });
  return request(managementApi.hotels.create, { body: { ...hotelInput(values), ...parents } });
}

export function updateHost(level: TManagedLevel, id: string, values: THostFormValues): Promise<THost> {
  if (level === 'hotel') return request(managementApi.hotels.update, { params: { id }, body: hotelInput(values) });
  return request(LEVELS[level].api.update, { params: { id }, body: hostInput(values) });
}

export function removeHost(level: TManagedLevel, id: string, confirmation: string) {
  return request(LEVELS[level].api.remove, { params: { id }, body: { confirmation } });
}

export function setHotelGroup(hotelId: string, hotelGroupId: string | null): Promise<THost> {
  return request(managementApi.hotels.setGroup, { params: { id: hotelId }, body: { hotelGroupId } });
}
