import * as bookingApi from '@yado/contracts/booking';
import type { TBookingStatus } from '@yado/contracts/booking';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

/** The brand's connection and sync log; polled while a sync is under way. */
export const bookingStatusQuery = queryOptions({
  queryKey: ['booking', 'status'],
  queryFn: ({ signal }) => request(bookingApi.status, { signal }),
  refetchInterval: (query) => (query.state.data?.syncPending ? 2000 : false),
  retry: false,
});

export function connectBookingSystem(accountId: string, apiKey: string): Promise<TBookingStatus> {
  return request(bookingApi.connect, { body: { accountId, apiKey } });
}

export function disconnectBookingSystem(): Promise<TBookingStatus> {
  return request(bookingApi.disconnect);
}

export function syncNow(): Promise<TBookingStatus> {
  return request(bookingApi.syncNow);
}
