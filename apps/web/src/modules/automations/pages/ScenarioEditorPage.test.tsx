import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture, scenarioFixture as scenario } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { ScenarioEditorPage } from './ScenarioEditorPage';

describe('the scenario editor', () => {
  it('saves each change as a draft with the version last seen, and asks before leaving with a change not saved yet', async () => {
    const saves: { updatedAt: string | undefined; nodes: number }[] = [];
    let stored = '2026-11-21T00:00:00.000Z';
    mockFetch((method, url, init) => {
      if (url.pathname !== '/v1/scenarios/s1') return undefined;
      if (method === 'GET') return { body: { data: scenario(stored) } };
      if (method !== 'PUT') return undefined;
      const body = JSON.parse(String(init.body)) as { updatedAt?: string; graph: { nodes: unknown[] } };
      saves.push({ updatedAt: body.updatedAt, nodes: body.graph.nodes.length });
      stored = new Date(Date.parse(stored) + 60_000).toISOString();
      return { body: { data: scenario(stored, body.graph.nodes) } };
    });
    const me = profileFixture('brand', 'admin');
    const { router } = await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(me),
      routes: [{ path: '/automations/scenario', element: <div data-testid="scenario-list" /> }],
    });
    await screen.findByTestId('scenario-editor');
    const status = () => screen.getByTestId('save-status').getAttribute('data-state');
    expect(status()).toBe('saved');

    // A step added is saved a moment later, naming the version the editor loaded.
    fireEvent.click(screen.getByTestId('palette-delay'));
    expect(status()).toBe('unsaved');
    await waitFor(() => expect(status()).toBe('saved'), { timeout: 10_000 });
    expect(saves).toEqual([{ updatedAt: '2026-11-21T00:00:00.000Z', nodes: 2 }]);

    // Another step, and the link back at once: the editor asks; staying keeps the page and the change.
    fireEvent.click(screen.getByTestId('palette-email'));
    fireEvent.click(screen.getAllByRole('link', { name: 'Back to the scenario list' })[0]!);
    await screen.findByTestId('leave-guard', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/automations/editor');
    // Saved with the version the first save returned; then leaving does not ask.
    await waitFor(() => expect(status()).toBe('saved'), { timeout: 10_000 });
    expect(saves[1]).toEqual({ updatedAt: '2026-11-21T00:01:00.000Z', nodes: 3 });
    fireEvent.click(screen.getAllByRole('link', { name: 'Back to the scenario list' })[0]!);
    await screen.findByTestId('scenario-list');
    expect(screen.queryByTestId('leave-guard')).toBeNull();
  }, 30_000);

  it('holds out 10% of the entering guests once the holdout is switched on in the run settings, and saves it', async () => {
    const saves: (number | null | undefined)[] = [];
    mockFetch((method, url, init) => {
      if (url.pathname !== '/v1/scenarios/s1') return undefined;
      if (method === 'GET') return { body: { data: scenario('2026-11-21T00:00:00.000Z') } };
      if (method !== 'PUT') return undefined;
      const body = JSON.parse(String(init.body)) as { holdoutPercent?: number | null };
      saves.push(body.holdoutPercent);
      return { body: { data: { ...scenario('2026-11-21T00:01:00.000Z'), holdoutPercent: body.holdoutPercent } } };
    });
    await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    fireEvent.click(screen.getByTestId('open-settings'));
    const settings = await screen.findByTestId('scenario-settings', {}, { timeout: 10_000 });
    expect(settings.textContent).toContain('never mailed by this scenario');
    fireEvent.click(screen.getByTestId('holdout-switch'));
    expect((screen.getByTestId('holdout-percent') as HTMLInputElement).value).toBe('10%');
    await waitFor(() => expect(saves).toEqual([10]), { timeout: 10_000 });
  }, 30_000);

  it('offers nothing to change where nothing can be changed: a running scenario, and a draft opened by a viewer', async () => {
    let stored = { ...scenario('2026-11-21T00:00:00.000Z'), status: 'running', editable: false };
    mockFetch((method, url) =>
      method === 'GET' && url.pathname === '/v1/scenarios/s1' ? { body: { data: stored } } : undefined,
    );
    await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    expect(screen.getByTestId('editor-read-only').textContent).toBe(
      'This scenario is Running: it can be viewed but not changed.',
    );
    expect(screen.getByTestId('no-selection').textContent).toBe('Choose a step to see its settings.');
    expect(screen.queryByTestId('palette')).toBeNull();

    // A viewer's draft is read-only for want of the right, not because of its status.
    cleanup();
    stored = scenario('2026-11-21T00:00:00.000Z');
    await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('hotel', 'viewer')),
      language: 'ja',
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    expect(screen.getByTestId('editor-read-only').textContent).toBe('このシナリオは閲覧のみ可能で、変更はできません。');
    expect(screen.getByTestId('no-selection').textContent).toBe('ステップを選ぶと、その設定が表示されます。');
  }, 30_000);

  it('asks for a step to change in a draft its user may change', async () => {
    mockFetch((method, url) =>
      method === 'GET' && url.pathname === '/v1/scenarios/s1'
        ? { body: { data: scenario('2026-11-21T00:00:00.000Z') } }
        : undefined,
    );
    await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('editor-read-only')).toBeNull();
    expect(screen.getByTestId('no-selection').textContent).toBe('Select a step to change its settings.');
  }, 30_000);
});
