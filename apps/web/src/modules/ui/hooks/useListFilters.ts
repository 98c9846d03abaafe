import { useState } from 'react';

/** Where a list page keeps its filters and page between visits (one per page, at module level). */
export interface TListMemory<F> {
  filters: F;
  page: number;
}

export function listMemory<F>(initial: F): TListMemory<F> {
  return { filters: initial, page: 1 };
}

/**
 * A paged list's filters, as last left: coming back to the page finds the same search, filters
 * and page. Changing a filter goes back to the first page.
 */
export function useListFilters<F>(memory: TListMemory<F>) {
  const [filters, setFilters] = useState(memory.filters);
  const [page, setPage] = useState(memory.page);
  memory.filters = filters;
  memory.page = page;
  const change = (next: Partial<F>) => {
    setFilters({ ...filters, ...next });
    setPage(1);
  };
  return { filters, page, setPage, change };
}
