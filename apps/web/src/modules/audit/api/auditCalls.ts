import * as settingsApi from '@yado/contracts/settings';
import { AUDIT_PAGE_SIZE } from '@yado/contracts/settings';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

export const AUDIT_QUERY_KEY = ['audit'] as const;

/** The log of a host (or of everything), newest first, one keyset page after another. */
export const auditLogQuery = (hostId: string | null) =>
  infiniteQueryOptions({
    queryKey: [...AUDIT_QUERY_KEY, hostId],
    queryFn: ({ pageParam, signal }) =>
      request(settingsApi.auditLog, {
        query: { hostId: hostId ?? undefined, before: pageParam ?? undefined, limit: AUDIT_PAGE_SIZE },
        signal,
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.length < AUDIT_PAGE_SIZE ? null : (last.at(-1)?.id ?? null)),
  });
