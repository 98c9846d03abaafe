import { useQuery } from '@tanstack/react-query';
import type { TFilter, TFilterCount } from '@yado/contracts/segments';
import { useEffect, useState } from 'react';
import { filterCountQuery } from '../api/segmentsCalls';

/** Spec section 5: counts follow the filter once editing pauses for 1,000 ms. */
export const LIVE_COUNT_DEBOUNCE_MS = 1000;

export interface TLiveCount {
  /** The last count made (of the filter as it was then), or none yet. */
  count: TFilterCount | undefined;
  /** A count of the filter as it is now is waiting for the pause or the answer. */
  counting: boolean;
  /** The filter cannot be counted as it stands (a value to fill in, a fault). */
  waiting: boolean;
  error: unknown;
  /** A group's audience, at any level, by its console id (or its path, `groups.0.items.1`), from the last count. */
  groupCount: (id: string | undefined, path: string) => number | undefined;
}

/**
 * The audience of an unsaved filter and of each of its groups at every level, while it is edited: one request
 * per pause, never one per group. A filter that cannot be counted yet is not sent.
 */
export function useLiveCount(filter: TFilter, countable: boolean): TLiveCount {
  const key = countable ? JSON.stringify(filter) : null;
  // A filter opened for editing is counted at once; later edits wait for the pause.
  const [sent, setSent] = useState<string | null>(key);
  useEffect(() => {
    if (key === sent) return;
    const timer = setTimeout(() => setSent(key), LIVE_COUNT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, sent]);
  const query = useQuery(filterCountQuery(sent === null ? null : (JSON.parse(sent) as TFilter)));
  const count = query.data;
  return {
    count,
    counting: countable && (key !== sent || query.isFetching),
    waiting: !countable,
    error: sent !== null && key === sent ? query.error : null,
    groupCount: (id, path) => {
      const groups = count?.groups ?? [];
      return (
        groups.find((g) => id !== undefined && g.id === id) ?? groups.find((g) => g.id === null && g.path === path)
      )?.count;
    },
  };
}
