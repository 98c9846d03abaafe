import { fireEvent, screen, waitFor } from '@testing-library/react';
import { featureFlagsFor } from '@yado/contracts';
import type { TFilter } from '@yado/contracts/segments';
import { beforeAll, describe, expect, it } from 'vitest';
import { profileFixture, segmentFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { renderSegmentPage } from '../test/segmentPages';
import { SegmentEditorPage } from './SegmentEditorPage';

const ID = '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a02';
const filter: TFilter = {
  version: 1,
  join: 'and',
  groups: [
    { kind: 'group', join: 'and', items: [{ kind: 'condition', field: 'lastName', operator: 'is', value: 'Sato' }] },
  ],
};
const segment = segmentFixture(ID, { name: 'Satos', type: 'dynamic', filter, audience: 3 });

// jsdom has no font loading; Mantine's autosizing description field listens for it.
beforeAll(() => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
});

describe('segment editor with dynamic segments turned off', () => {
  it("shows a dynamic segment's filter read-only, never counts it, and saves the name with the filter as it was", async () => {
    const sent: { path: string; body: unknown }[] = [];
    mockFetch((method, url, init) => {
      const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : null;
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: segment } };
      if (method === 'PUT' && url.pathname === `/v1/segments/${ID}`) {
        sent.push({ path: url.pathname, body });
        return { body: { data: { ...segment, name: 'Satos 2' } } };
      }
      if (url.pathname === '/v1/segments/count') sent.push({ path: url.pathname, body });
      if (url.pathname.startsWith('/v1/locations/') || url.pathname === '/v1/segments/field-values')
        return { body: { data: [] } };
      return undefined;
    });
    const features = { ...featureFlagsFor('production'), dynamic_segmentation: false };
    await renderSegmentPage(<SegmentEditorPage />, ID, profileFixture('brand', 'admin', { features }), '/edit');
    const locked = await screen.findByTestId('filter-locked');
    expect(locked.textContent).toContain('Dynamic segments are turned off. Static segments can still be used.');
    expect(screen.queryByTestId('filter-builder')).toBeNull();
    const name = screen.getByRole('textbox', { name: /Name/ });
    fireEvent.change(name, { target: { value: 'Satos 2' } });
    fireEvent.click(screen.getByTestId('segment-save'));
    await waitFor(() => expect(sent.filter((s) => s.path === `/v1/segments/${ID}`)).toHaveLength(1));
    expect(sent.find((s) => s.path === `/v1/segments/${ID}`)?.body).toMatchObject({ name: 'Satos 2', filter });
    expect(sent.filter((s) => s.path === '/v1/segments/count')).toHaveLength(0);
  }, 20_000);
});

describe('segment editor, leaving with unsaved work', () => {
  const answerCounts = (created: { id: string }[]) =>
    mockFetch((method, url, init) => {
      if (url.pathname === '/v1/segments/count')
        return { body: { data: { total: 0, groups: [], countedAt: '2026-11-24T00:00:00Z' } } };
      if (url.pathname.startsWith('/v1/locations/') || url.pathname === '/v1/segments/field-values')
        return { body: { data: [] } };
      if (method === 'POST' && url.pathname === '/v1/segments') {
        const body = JSON.parse(String(init.body)) as { name: string };
        created.push({ id: ID });
        return { status: 201, body: { data: { ...segment, name: body.name } } };
      }
      return undefined;
    });
  const renderNew = () =>
    renderWithProviders(<SegmentEditorPage />, {
      path: '/segmentation/new',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [
        { path: '/segmentation', element: <div data-testid="segment-list" /> },
        { path: '/segmentation/:id', element: <div data-testid="segment-detail" /> },
      ],
    });

  it('asks before the back link drops a typed name and condition; staying keeps them, leaving goes', async () => {
    answerCounts([]);
    const { router } = await renderNew();
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Winter guests' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Field' }), { target: { value: 'lastName' } });
    fireEvent.change(screen.getAllByRole('textbox', { name: 'Value' })[0]!, { target: { value: 'Sato' } });
    // Closing or reloading the tab gets the browser's own question.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    fireEvent.click(screen.getByRole('link', { name: 'Back to the segment list' }));
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/segmentation/new');
    expect(screen.getByRole('textbox', { name: /Name/ })).toHaveProperty('value', 'Winter guests');

    fireEvent.click(screen.getByRole('link', { name: 'Back to the segment list' }));
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await screen.findByTestId('segment-list');
  }, 20_000);

  it('leaves an untouched form, and a saved segment, without asking', async () => {
    const created: { id: string }[] = [];
    answerCounts(created);
    const { router } = await renderNew();
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    fireEvent.click(screen.getByRole('link', { name: 'Back to the segment list' }));
    await screen.findByTestId('segment-list');
    expect(screen.queryByTestId('leave-guard')).toBeNull();

    await router.navigate('/segmentation/new');
    fireEvent.change(await screen.findByRole('textbox', { name: /Name/ }), { target: { value: 'Winter guests' } });
    fireEvent.click(screen.getByTestId('type-static'));
    fireEvent.click(screen.getByTestId('segment-save'));
    await screen.findByTestId('segment-detail');
    expect(created).toHaveLength(1);
    expect(screen.queryByTestId('leave-guard')).toBeNull();
  }, 20_000);
});

describe("a new segment's first condition", () => {
  it('starts with no field chosen, says to choose one, and is not saved until one is', async () => {
    const sent: string[] = [];
    mockFetch((method, url) => {
      sent.push(`${method} ${url.pathname}`);
      if (url.pathname.startsWith('/v1/locations/') || url.pathname === '/v1/segments/field-values')
        return { body: { data: [] } };
      return undefined;
    });
    await renderWithProviders(<SegmentEditorPage />, {
      path: '/segmentation/new',
      language: 'ja',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const field = screen.getByRole('combobox', { name: '項目' }) as HTMLSelectElement;
    // Not 姓 (last name), which no one chose: the prompt, and no operator or value to fill in yet.
    expect(field.value).toBe('');
    expect(field.selectedOptions[0]?.textContent).toBe('項目を選択');
    expect(screen.queryByRole('combobox', { name: '演算子' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: '値' })).toBeNull();
    // Unfinished, not wrong: nothing is marked until the user saves.
    expect(screen.queryByText('項目を選択してください。')).toBeNull();

    fireEvent.change(screen.getByRole('textbox', { name: /名前/ }), { target: { value: '冬のお客様' } });
    fireEvent.click(screen.getByTestId('segment-save'));
    expect(await screen.findByText('項目を選択してください。')).toBeTruthy();
    expect(sent.filter((s) => s.startsWith('POST /v1/segments') || s.endsWith('/v1/segments/count'))).toEqual([]);

    fireEvent.change(field, { target: { value: 'checkInDate' } });
    expect(screen.getByRole('combobox', { name: '演算子' })).toBeTruthy();
  }, 20_000);
});
