import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { TFilter } from '@yado/contracts/segments';
import { useReducer } from 'react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { checkDraft, filterDraftReducer } from '../filterDraft';
import { FilterEditor } from './FilterEditor';

const filter: TFilter = {
  version: 1,
  join: 'or',
  groups: [
    {
      kind: 'group',
      id: 'g1',
      join: 'and',
      items: [{ kind: 'condition', id: 'c1', field: 'lastName', operator: 'is', value: 'Sato' }],
    },
    {
      kind: 'group',
      id: 'g2',
      join: 'and',
      items: [{ kind: 'condition', id: 'c2', field: 'age', operator: 'greater_than', value: 30 }],
    },
  ],
};

/** The same with a subgroup in group 2. */
const nested: TFilter = {
  ...filter,
  groups: [
    filter.groups[0]!,
    {
      ...filter.groups[1]!,
      items: [
        ...filter.groups[1]!.items,
        {
          kind: 'group',
          id: 'g3',
          join: 'and',
          items: [{ kind: 'condition', id: 'c3', field: 'firstName', operator: 'starts_with', value: 'Ta' }],
        },
      ],
    },
  ],
};

function Harness({ start, attempted = false }: { start: TFilter; attempted?: boolean }) {
  const [draft, dispatch] = useReducer(filterDraftReducer, start);
  return (
    <FilterEditor
      filter={draft}
      dispatch={dispatch}
      check={checkDraft(draft)}
      serverError={null}
      attempted={attempted}
    />
  );
}

describe('filter editor', () => {
  it('shows the audience of the whole filter and of each group at every level from one count', async () => {
    const calls = mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/segments/count'
        ? {
            body: {
              data: {
                total: 1234,
                groups: [
                  { index: 0, path: 'groups.0', id: 'g1', count: 1000 },
                  { index: 1, path: 'groups.1', id: 'g2', count: 300 },
                  { index: 1, path: 'groups.1.items.1', id: 'g3', count: 120 },
                ],
                countedAt: '2026-11-24T00:00:00Z',
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<Harness start={nested} />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await waitFor(() => expect(screen.getByTestId('live-count-total').dataset.count).toBe('1234'));
    const badges = screen.getAllByTestId('group-count').map((b) => b.dataset.count);
    expect(badges).toEqual(['1000', '300']);
    expect(
      screen.getByTestId('filter-subgroup').querySelector('[data-testid="subgroup-count"]')?.getAttribute('data-count'),
    ).toBe('120');
    expect(calls.filter((c) => c.url.pathname === '/v1/segments/count')).toHaveLength(1);
  });

  it('counts again only once typing pauses, with the filter as it then stands', async () => {
    const sent: TFilter[] = [];
    mockFetch((method, url, init) => {
      if (url.pathname !== '/v1/segments/count') return undefined;
      sent.push((JSON.parse(String(init.body)) as { filter: TFilter }).filter);
      return { body: { data: { total: sent.length, groups: [], countedAt: '2026-11-24T00:00:00Z' } } };
    });
    await renderWithProviders(<Harness start={filter} />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    const input = screen.getAllByRole('textbox', { name: 'Value' })[0]!;
    for (const text of ['Sa', 'Sai', 'Saito']) fireEvent.change(input, { target: { value: text } });
    // Nothing is sent while the user is still typing...
    expect(sent).toHaveLength(1);
    // ...and one request follows the pause, for the last text.
    await waitFor(() => expect(sent).toHaveLength(2), { timeout: 3000 });
    expect(sent[1]!.groups[0]!.items[0]).toMatchObject({ value: 'Saito' });
    await waitFor(() => expect(screen.getByTestId('live-count-total').dataset.count).toBe('2'));
  });

  it("marks the place the server's refusal names, with the specification's message", async () => {
    mockFetch((method, url) =>
      url.pathname === '/v1/segments/count'
        ? {
            status: 400,
            body: {
              error: {
                code: 'filter_invalid',
                message: 'Oops! Please double-check the filter logic arrangement.',
                fields: { 'filter.groups.1.items.0.value': { code: 'value_out_of_range', message: 'x' } },
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<Harness start={filter} />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const oops = await screen.findByTestId('filter-oops');
    expect(oops.textContent).toBe('Oops! Please double-check the filter logic arrangement.');
    const marked = screen.getAllByTestId('filter-condition').filter((c) => c.dataset.invalid === 'true');
    expect(marked.map((c) => c.dataset.path)).toEqual(['groups.1.items.0']);
    expect(marked[0]!.textContent).toContain('This value is out of range.');
  });

  it('shows no error on a date the user has not typed yet, in either language, and marks it once a save was tried', async () => {
    mockFetch(() => undefined);
    for (const language of ['en', 'ja'] as const) {
      const view = await renderWithProviders(<Harness start={filter} />, {
        language,
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });
      const field = screen.getAllByRole('combobox', { name: language === 'en' ? 'Field' : '項目' })[0]!;
      fireEvent.change(field, { target: { value: 'checkInDate' } });
      const date = await waitFor(() => {
        const input = view.container.querySelector('input[type="date"]');
        expect(input).not.toBeNull();
        return input as HTMLInputElement;
      });
      expect(date.value).toBe('');
      expect(date.getAttribute('aria-invalid')).not.toBe('true');
      expect(screen.queryByTestId('filter-oops')).toBeNull();
      expect(screen.getAllByTestId('filter-condition').filter((c) => c.dataset.invalid === 'true')).toHaveLength(0);
      expect(view.container.textContent).not.toContain(
        language === 'en' ? 'Enter a valid date.' : '正しい日付を入力してください。',
      );
      view.unmount();
    }

    const dated: TFilter = {
      ...filter,
      groups: [
        {
          ...filter.groups[0]!,
          items: [{ kind: 'condition', id: 'c1', field: 'checkInDate', operator: 'is', value: '' }],
        },
      ],
    };
    await renderWithProviders(<Harness start={dated} attempted />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    expect(screen.getByTestId('filter-oops')).toBeTruthy();
    const marked = screen.getAllByTestId('filter-condition').filter((c) => c.dataset.invalid === 'true');
    expect(marked.map((c) => c.dataset.path)).toEqual(['groups.0.items.0']);
  });
});
