import { useState } from 'react';

/** Where a list page keeps its filters and page between visits (one per page, at module level). */
export interface TListMemory<F> {
  /** The filters a first visit starts with; clearing the filters comes back to them. */
  initial: F;
  filters: F;
  page: number;
}

export function listMemory<F>(initial: F): TListMemory<F> {
  return { initial, filters: initial, page: 1 };
}

/** A list's filters with its search box; `sort` orders the list and narrows nothing. */
export interface TListFilterValues {
  search: string;
  sort?: string;
}

/** What `useListFilters` hands a list page (and `ListPage` reads). */
export interface TListFilters<F extends TListFilterValues> {
  filters: F;
  page: number;
  setPage: (page: number) => void;
  change: (next: Partial<F>) => void;
  /** Whether the search or a filter narrows the list (the sort does not). */
  filtered: boolean;
  /** Back to the first visit's search and filters, keeping the sort. */
  clear: () => void;
  /** Changes when `clear` empties the search, so the search box empties too. */
  searchResetKey: number;
}

/**
 * A paged list's filters, as last left: coming back to the page finds the same search, filters
 * and page. Changing a filter goes back to the first page.
 */
export function useListFilters<F extends TListFilterValues>(memory: TListMemory<F>): TListFilters<F> {
  const [filters, setFilters] = useState(memory.filters);
  const [page, setPage] = useState(memory.page);
  const [searchResetKey, setSearchResetKey] = useState(0);
  memory.filters = filters;
  memory.page = page;
  const change = (next: Partial<F>) => {
    setFilters({ ...filters, ...next });
    setPage(1);
  };
  const filtered = (Object.keys(memory.initial) as (keyof F)[]).some(
    (key) => key !== 'sort' && filters[key] !== memory.initial[key],
  );
  const clear = () => {
    setFilters({ ...memory.initial, sort: filters.sort });
    setPage(1);
    setSearchResetKey((key) => key + 1);
  };
  return { filters, page, setPage, change, filtered, clear, searchResetKey };
}
