import * as trackingApi from '@yado/contracts/tracking';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import { CAMPAIGNS_QUERY_KEY } from './campaignsCalls';

type TRecipientStatus = (typeof trackingApi.DELIVERY_STATUSES)[number];

// Opens and clicks arrive while the page is open: follow them without a reload.
const LIVE = { refetchInterval: 10_000 } as const;

export const reportQuery = (id: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', id],
    queryFn: ({ signal }) => request(trackingApi.statistics, { params: { id }, signal }),
    ...LIVE,
  });

/** Days cut in `timeZone`: the page's one zone (the campaign host's), which it names. */
export const seriesQuery = (id: string, interval: 'day' | 'hour', timeZone: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', id, 'series', interval, timeZone],
    queryFn: ({ signal }) => request(trackingApi.series, { params: { id }, query: { interval, timeZone }, signal }),
    ...LIVE,
  });

export const linksQuery = (id: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', id, 'links'],
    queryFn: ({ signal }) => request(trackingApi.links, { params: { id }, signal }),
    ...LIVE,
  });

export const hotelsQuery = (id: string) =>
  queryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', id, 'hotels'],
    queryFn: ({ signal }) => request(trackingApi.hotels, { params: { id }, signal }),
    ...LIVE,
  });

/** `feedback`: only those who bounced, were blocked, answered automatically or complained so (issue 25). */
export const recipientsQuery = (
  id: string,
  status: TRecipientStatus | '',
  repeatsOnly = false,
  feedback: trackingApi.TRecipientFeedbackKind | '' = '',
) =>
  infiniteQueryOptions({
    queryKey: [...CAMPAIGNS_QUERY_KEY, 'statistics', id, 'recipients', status, repeatsOnly, feedback],
    queryFn: ({ signal, pageParam }) =>
      request(trackingApi.recipients, {
        params: { id },
        query: {
          cursor: pageParam ?? undefined,
          limit: 50,
          status: status || undefined,
          possibleRepeats: repeatsOnly ? 'true' : undefined,
          feedback: feedback || undefined,
        },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
