import { Button } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http/ApiError';
import { renderWithProviders } from '../../../test/render';
import { listMemory, useListFilters } from '../hooks/useListFilters';
import { FilterSelect } from './ListControls';
import { ListPage } from './ListPage';

interface TThing {
  id: string;
  name: string;
  status: 'draft' | 'sent';
}

type TQuery = {
  data?: { items: TThing[]; total: number };
  isError: boolean;
  error: unknown;
  isPlaceholderData: boolean;
};

const page = (items: TThing[]): TQuery => ({
  data: { items, total: items.length },
  isError: false,
  error: null,
  isPlaceholderData: false,
});

/** A list page as an area configures it: a status filter, two columns, a row menu. */
function Things({
  query,
  readOnly = false,
  onRun = () => {},
  seen = () => {},
}: {
  query: TQuery;
  readOnly?: boolean;
  onRun?: (action: 'open' | 'delete', thing: TThing) => void;
  seen?: (filters: { search: string; status: string; sort: string }) => void;
}) {
  const list = useListFilters(memory);
  seen(list.filters);
  return (
    <ListPage<TThing, 'open' | 'delete', { search: string; status: string; sort: string }>
      title="Things"
      list={list}
      searchPlaceholder="Search things"
      filters={
        <FilterSelect
          label="Status"
          name="status"
          value={list.filters.status}
          allLabel="All statuses"
          options={[{ value: 'sent', label: 'Sent' }]}
          onChange={(status) => list.change({ status })}
        />
      }
      query={query}
      columns={[
        { key: 'name', header: 'Name', cell: (thing) => thing.name },
        { key: 'status', header: 'Status', cell: (thing) => thing.status, nowrap: true },
      ]}
      rowKey={(thing) => thing.id}
      rowProps={(thing) => ({ 'data-testid': 'thing-row', 'data-name': thing.name })}
      rowActions={{
        of: (thing) => (thing.status === 'draft' ? ['open', 'delete'] : ['open']),
        icons: { open: null, delete: null },
        danger: ['delete'],
        label: (thing) => `Actions for ${thing.name}`,
        textOf: (action) => (action === 'open' ? 'Open' : 'Delete'),
        onRun,
        header: 'Actions',
      }}
      empty={{
        title: 'No things yet',
        next: 'Create a thing to get started.',
        action: <Button>Create thing</Button>,
        readOnly,
      }}
      texts="campaign.list"
      testId="thing"
      pageSize={20}
      minWidth={600}
    />
  );
}

let memory = listMemory({ search: '', status: '', sort: 'name' });

describe('the list page pattern', () => {
  it('shows each row with its columns and the actions its state allows, and runs the one picked', async () => {
    memory = listMemory({ search: '', status: '', sort: 'name' });
    const onRun = vi.fn();
    const things: TThing[] = [
      { id: '1', name: 'Winter news', status: 'draft' },
      { id: '2', name: 'Spring news', status: 'sent' },
    ];
    await renderWithProviders(<Things query={page(things)} onRun={onRun} />);
    const rows = screen.getAllByTestId('thing-row');
    expect(rows.map((row) => row.dataset.name)).toEqual(['Winter news', 'Spring news']);
    expect(rows[0]!.querySelectorAll('td')[1]!.style.whiteSpace).toBe('nowrap');
    expect(screen.getByTestId('thing-range').textContent).toBe('1–2 of 2');

    fireEvent.click(screen.getByRole('button', { name: 'Actions for Spring news' }));
    await screen.findByTestId('thing-action-open');
    expect(screen.queryByTestId('thing-action-delete')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for Winter news' }));
    fireEvent.click(await screen.findByTestId('thing-action-delete'));
    expect(onRun).toHaveBeenCalledWith('delete', things[0]);
  });

  it('says what to do next when nothing exists yet, with the button that does it', async () => {
    memory = listMemory({ search: '', status: '', sort: 'name' });
    await renderWithProviders(<Things query={page([])} />);
    const empty = screen.getByTestId('empty-state');
    expect(empty.textContent).toContain('No things yet');
    expect(empty.textContent).toContain('Create a thing to get started.');
    expect(empty.textContent).not.toContain('No Data Found');
    expect(screen.getByRole('button', { name: 'Create thing' })).toBeTruthy();
    expect(screen.queryByTestId('thing-table')).toBeNull();
  });

  it('tells a viewer there is nothing yet, without a button they may not use', async () => {
    memory = listMemory({ search: '', status: '', sort: 'name' });
    await renderWithProviders(<Things query={page([])} readOnly />, { language: 'ja' });
    const empty = screen.getByTestId('empty-state');
    expect(empty.textContent).toContain('No things yet');
    expect(empty.textContent).toContain('閲覧');
    expect(screen.queryByRole('button', { name: 'Create thing' })).toBeNull();
  });

  it('offers to clear a search or filter that matches nothing, and clearing keeps the sort', async () => {
    memory = listMemory({ search: '', status: '', sort: 'name' });
    memory.filters = { search: 'zzz', status: 'sent', sort: '-created_at' };
    const seen = vi.fn();
    await renderWithProviders(<Things query={page([])} seen={seen} />);
    const empty = screen.getByTestId('empty-state');
    expect(empty.textContent).toContain('Nothing matches');
    expect(empty.textContent).not.toContain('No things yet');
    expect((screen.getByPlaceholderText('Search things') as HTMLInputElement).value).toBe('zzz');

    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ search: '', status: '', sort: '-created_at' }));
    expect((screen.getByPlaceholderText('Search things') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('');
    expect(screen.getByTestId('empty-state').textContent).toContain('No things yet');
  });

  it('shows why the list could not be read', async () => {
    memory = listMemory({ search: '', status: '', sort: 'name' });
    const error = new ApiError(403, 'forbidden', 'Forbidden');
    await renderWithProviders(<Things query={{ isError: true, error, isPlaceholderData: false }} />);
    expect(screen.getByRole('alert').textContent).not.toBe('');
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });
});
