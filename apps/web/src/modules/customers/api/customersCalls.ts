import * as customersApi from '@yado/contracts/customers';
import type { CUSTOMER_SORTS, EMAIL_STATUSES, TCustomer } from '@yado/contracts/customers';
import * as managementApi from '@yado/contracts/management';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import type { TLanguage } from '../../../lib/session/storage';
import type { TCustomerInput } from '../customerForm';

export type TCustomerSort = (typeof CUSTOMER_SORTS)[number];
export type TEmailStatus = (typeof EMAIL_STATUSES)[number];

/** What the list's filters hold; the export takes the same, so it holds what the list shows. */
export interface TCustomerFilters {
  search: string;
  emailStatus: TEmailStatus | '';
  hotelId: string;
  sort: TCustomerSort;
}

export const CUSTOMERS_QUERY_KEY = ['customers'] as const;
/** Hotel choices for the filter and the add form: the first hundred by name. */
const HOTEL_CHOICES = 100;

const filterQuery = (filters: TCustomerFilters) => ({
  search: filters.search || undefined,
  emailStatus: filters.emailStatus || undefined,
  hotelId: filters.hotelId || undefined,
  sort: filters.sort,
});

export const customerListQuery = (filters: TCustomerFilters, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'list', filters, cursor ?? null, limit],
    queryFn: ({ signal }) => request(customersApi.list, { query: { ...filterQuery(filters), cursor, limit }, signal }),
    placeholderData: keepPreviousData,
  });

export const customerQuery = (id: string) =>
  queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(customersApi.get, { params: { id }, signal }),
  });

export const bookingHistoryQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'bookings', id],
    queryFn: ({ signal }) => request(customersApi.bookingHistory, { params: { id }, signal }),
    enabled,
  });

export const allocationSummaryQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...CUSTOMERS_QUERY_KEY, 'allocations', id],
    queryFn: ({ signal }) => request(customersApi.allocationSummary, { params: { id }, signal }),
    enabled,
  });

/** The hotels in reach of the acting role, for the hotel filter and the hotel of a new customer. */
export const hotelChoicesQuery = (enabled: boolean) =>
  queryOptions({
    queryKey: ['hosts', 'hotel', 'choices', null],
    queryFn: async ({ signal }) =>
      (
        await request(managementApi.hotels.list, {
          query: { sort: 'name', page: 1, pageSize: HOTEL_CHOICES },
          signal,
        })
      ).items,
    enabled,
    staleTime: 60_000,
  });

export function createCustomer(input: TCustomerInput & { hotelId?: string }): Promise<TCustomer> {
  return request(customersApi.create, { body: input });
}

export function updateCustomer(id: string, input: TCustomerInput): Promise<TCustomer> {
  return request(customersApi.update, { params: { id }, body: input });
}

export function deleteCustomer(id: string) {
  return request(customersApi.remove, { params: { id } });
}

export function setEmailStatus(ids: string[], emailStatus: TEmailStatus) {
  return request(customersApi.setEmailStatus, { body: { ids, emailStatus } });
}

/**
 * A one-minute download link for the CSV of what the filters show (all pages), in the console's
 * language, for the browser to navigate to (`downloadThroughLink`).
 */
export async function exportLink(filters: TCustomerFilters, language: TLanguage): Promise<string> {
  const { url } = await request(customersApi.createExportLink, { body: { ...filterQuery(filters), lang: language } });
  return url;
}
