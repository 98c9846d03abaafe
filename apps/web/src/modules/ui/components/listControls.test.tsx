import { act, fireEvent, renderHook, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { listMemory, useListFilters } from '../hooks/useListFilters';
import { FilterSelect, ListPager } from './ListControls';
import { RowActionMenu } from './RowActionMenu';

describe('useListFilters', () => {
  it('goes back to the first page on a filter change, and a page coming back finds filters and page as left', () => {
    const memory = listMemory({ search: '', status: '' });
    const first = renderHook(() => useListFilters(memory));
    act(() => first.result.current.setPage(3));
    expect(first.result.current.page).toBe(3);
    act(() => first.result.current.change({ status: 'sent' }));
    expect(first.result.current.filters).toEqual({ search: '', status: 'sent' });
    expect(first.result.current.page).toBe(1);
    act(() => first.result.current.setPage(2));
    first.unmount();
    const again = renderHook(() => useListFilters(memory));
    expect(again.result.current.filters).toEqual({ search: '', status: 'sent' });
    expect(again.result.current.page).toBe(2);
  });
});

describe('FilterSelect', () => {
  it('offers "all" first, shows counts once known, and answers with the value picked', async () => {
    const onChange = vi.fn();
    await renderWithProviders(
      <FilterSelect<'draft' | 'sent' | ''>
        label="Status"
        name="status"
        value=""
        allLabel="All statuses"
        options={[
          { value: 'draft', label: 'Draft', count: 2 },
          { value: 'sent', label: 'Sent', count: 0 },
        ]}
        onChange={onChange}
      />,
    );
    const select = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'All statuses'],
      ['draft', 'Draft (2)'],
      ['sent', 'Sent (0)'],
    ]);
    fireEvent.change(select, { target: { value: 'sent' } });
    expect(onChange).toHaveBeenCalledWith('sent');
  });
});

describe('ListPager', () => {
  const pageOf = (shown: number, total: number, isPlaceholderData = false) => ({
    data: { items: Array.from({ length: shown }), total },
    isPlaceholderData,
  });

  it('shows the range in the catalogue texts and stops at the first and last page', async () => {
    const onPage = vi.fn();
    await renderWithProviders(
      <ListPager
        texts="campaign.list"
        testId="campaign"
        page={2}
        pageSize={20}
        query={pageOf(5, 1025)}
        onPage={onPage}
      />,
    );
    expect(screen.getByTestId('campaign-range').textContent).toBe('21–25 of 1,025');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenCalledWith(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(3);
  });

  it('disables Next on the last page and while the next page loads, Previous on the first', async () => {
    await renderWithProviders(
      <>
        <ListPager
          texts="campaign.list"
          testId="last"
          page={2}
          pageSize={20}
          query={pageOf(20, 40)}
          onPage={() => {}}
        />
        <ListPager
          texts="campaign.list"
          testId="loading"
          page={1}
          pageSize={20}
          query={pageOf(20, 100, true)}
          onPage={() => {}}
        />
      </>,
    );
    const [previousOfLast, previousOfFirst] = screen.getAllByRole('button', {
      name: 'Previous',
    }) as HTMLButtonElement[];
    const [nextOfLast, nextWhileLoading] = screen.getAllByRole('button', { name: 'Next' }) as HTMLButtonElement[];
    expect(previousOfLast!.disabled).toBe(false);
    expect(nextOfLast!.disabled).toBe(true);
    expect(previousOfFirst!.disabled).toBe(true);
    expect(nextWhileLoading!.disabled).toBe(true);
  });
});

describe('RowActionMenu', () => {
  it('lists the allowed actions, the dangerous ones in red, and runs the one picked', async () => {
    const onRun = vi.fn();
    await renderWithProviders(
      <RowActionMenu
        actions={['edit', 'delete']}
        icons={{ edit: null, delete: null }}
        danger={['delete']}
        label="Actions for Summer"
        textOf={(action) => action.toUpperCase()}
        onRun={onRun}
        testId="campaign"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Summer' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['EDIT', 'DELETE']);
    expect(items[1]!.getAttribute('data-testid')).toBe('campaign-action-delete');
    expect(items[1]!.style.getPropertyValue('--menu-item-color')).not.toBe('');
    expect(items[0]!.style.getPropertyValue('--menu-item-color')).toBe('');
    fireEvent.click(items[1]!);
    expect(onRun).toHaveBeenCalledWith('delete');
  });

  it('shows nothing when no action is allowed', async () => {
    await renderWithProviders(
      <div data-testid="cell">
        <RowActionMenu
          actions={[]}
          icons={{}}
          danger={[]}
          label="Actions"
          textOf={String}
          onRun={() => {}}
          testId="campaign"
        />
      </div>,
    );
    expect(screen.getByTestId('cell').childElementCount).toBe(0);
  });
});
