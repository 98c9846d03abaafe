import { describe, expect, it } from 'vitest';
import {
  currentCursor,
  customerListReducer,
  INITIAL_LIST_STATE,
  pageNumber,
  pageRange,
  type TCustomerListAction,
} from './customerListState';

const run = (...actions: TCustomerListAction[]) => actions.reduce(customerListReducer, INITIAL_LIST_STATE);

describe('customer list state', () => {
  it('walks keyset pages forward and back along the cursors it was given', () => {
    const third = run({ type: 'next', cursor: 'c2' }, { type: 'next', cursor: 'c3' });
    expect([pageNumber(third), currentCursor(third)]).toEqual([3, 'c3']);
    const back = customerListReducer(third, { type: 'previous' });
    expect([pageNumber(back), currentCursor(back)]).toEqual([2, 'c2']);
    const first = run({ type: 'previous' });
    expect([pageNumber(first), currentCursor(first)]).toEqual([1, undefined]);
  });

  it('starts again from the first page when a filter or the page size changes', () => {
    const paged = run({ type: 'next', cursor: 'c2' });
    const filtered = customerListReducer(paged, { type: 'filter', filters: { search: '山田' } });
    expect([pageNumber(filtered), filtered.filters.search, filtered.filters.sort]).toEqual([1, '山田', '-created_at']);
    expect(pageNumber(customerListReducer(paged, { type: 'page_size', pageSize: 50 }))).toBe(1);
  });

  it('keeps a selection across pages, and clears it when the filters change', () => {
    const state = run(
      { type: 'toggle', id: 'a' },
      { type: 'next', cursor: 'c2' },
      { type: 'toggle', id: 'b' },
      { type: 'toggle', id: 'c' },
      { type: 'toggle', id: 'c' },
    );
    expect(state.selected).toEqual(['a', 'b']);
    expect(customerListReducer(state, { type: 'filter', filters: { emailStatus: 'active' } }).selected).toEqual([]);
  });

  it('selects a whole page, or unselects it when all its rows are selected already', () => {
    const some = run(
      { type: 'toggle', id: 'x' },
      { type: 'toggle', id: 'b' },
      { type: 'toggle_page', ids: ['a', 'b'] },
    );
    expect(some.selected).toEqual(['x', 'b', 'a']);
    expect(customerListReducer(some, { type: 'toggle_page', ids: ['a', 'b'] }).selected).toEqual(['x']);
  });

  it('numbers the rows a page shows', () => {
    const second = run({ type: 'next', cursor: 'c2' });
    expect(pageRange(second, 7)).toEqual({ from: 21, to: 27 });
    expect(pageRange(second, 0)).toBeNull();
  });
});
