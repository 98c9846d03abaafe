import type { TCustomerFilters } from './api/customersCalls';

export const PAGE_SIZES = [20, 50, 100] as const;
export type TPageSize = (typeof PAGE_SIZES)[number];

/**
 * The customer list: its filters, the page size, the keyset cursors of the pages walked so far
 * (the list has no page numbers to jump to: "previous" goes back along this trail) and the
 * selected customers, which stay selected across pages until the filters change.
 */
export interface TCustomerListState {
  filters: TCustomerFilters;
  pageSize: TPageSize;
  /** The cursor of each page walked; the first page has none, the last entry is the page shown. */
  trail: (string | undefined)[];
  selected: string[];
}

export type TCustomerListAction =
  | { type: 'filter'; filters: Partial<TCustomerFilters> }
  | { type: 'page_size'; pageSize: TPageSize }
  | { type: 'next'; cursor: string }
  | { type: 'previous' }
  | { type: 'toggle'; id: string }
  | { type: 'toggle_page'; ids: string[] }
  | { type: 'clear_selection' };

export const INITIAL_LIST_STATE: TCustomerListState = {
  filters: { search: '', emailStatus: '', hotelId: '', sort: '-created_at' },
  pageSize: 20,
  trail: [undefined],
  selected: [],
};

export function customerListReducer(state: TCustomerListState, action: TCustomerListAction): TCustomerListState {
  switch (action.type) {
    case 'filter':
      return { ...state, filters: { ...state.filters, ...action.filters }, trail: [undefined], selected: [] };
    case 'page_size':
      return { ...state, pageSize: action.pageSize, trail: [undefined] };
    case 'next':
      return { ...state, trail: [...state.trail, action.cursor] };
    case 'previous':
      return state.trail.length > 1 ? { ...state, trail: state.trail.slice(0, -1) } : state;
    case 'toggle':
      return {
        ...state,
        selected: state.selected.includes(action.id)
          ? state.selected.filter((id) => id !== action.id)
          : [...state.selected, action.id],
      };
    case 'toggle_page': {
      const all = action.ids.length > 0 && action.ids.every((id) => state.selected.includes(id));
      return {
        ...state,
        selected: all
          ? state.selected.filter((id) => !action.ids.includes(id))
          : [...state.selected, ...action.ids.filter((id) => !state.selected.includes(id))],
      };
    }
    case 'clear_selection':
      return { ...state, selected: [] };
  }
}

export const currentCursor = (state: TCustomerListState) => state.trail[state.trail.length - 1];
export const pageNumber = (state: TCustomerListState) => state.trail.length;

/** The 1-based rows a page shows ("21–40"), or null for an empty page. */
export function pageRange(state: TCustomerListState, rowsOnPage: number): { from: number; to: number } | null {
  if (rowsOnPage === 0) return null;
  const from = (pageNumber(state) - 1) * state.pageSize + 1;
  return { from, to: from + rowsOnPage - 1 };
}

/*
 * The list as last left, so that coming back from a customer's page finds the same search,
 * filters, page and selection. Module state lives until the page reloads, which a role switch does.
 */
let remembered: TCustomerListState | null = null;

export const recallListState = (): TCustomerListState => remembered ?? INITIAL_LIST_STATE;
export function rememberListState(state: TCustomerListState): void {
  remembered = state;
}
