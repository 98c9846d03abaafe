import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture, scenarioFixture as scenario } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { ScenarioEditorPage } from './ScenarioEditorPage';

describe('the scenario editor', () => {
  it('saves each change as a draft with the version last seen, and saves a change not saved yet before leaving', async () => {
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

    // Another step, and the link back at once: the change is saved first (with the version the
    // first save returned), then the editor is left; nothing asks, as nothing is lost.
    fireEvent.click(screen.getByTestId('palette-email'));
    fireEvent.click(screen.getAllByRole('link', { name: 'Back to the scenario list' })[0]!);
    await screen.findByTestId('scenario-list', {}, { timeout: 10_000 });
    expect(saves[1]).toEqual({ updatedAt: '2026-11-21T00:01:00.000Z', nodes: 3 });
    expect(screen.queryByTestId('leave-guard')).toBeNull();
    expect(router.state.location.pathname).toBe('/automations/scenario');
  }, 30_000);

  it('asks before leaving only when the change could not be saved, and then it is not saved', async () => {
    let puts = 0;
    mockFetch((method, url) => {
      if (url.pathname !== '/v1/scenarios/s1') return undefined;
      if (method === 'GET') return { body: { data: scenario('2026-11-21T00:00:00.000Z') } };
      puts += 1;
      return { status: 500, body: { error: { code: 'general', message: 'x' } } };
    });
    const { router } = await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      routes: [{ path: '/automations/scenario', element: <div data-testid="scenario-list" /> }],
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    fireEvent.click(screen.getByTestId('palette-delay'));
    fireEvent.click(screen.getAllByRole('link', { name: 'Back to the scenario list' })[0]!);
    await screen.findByTestId('leave-guard', {}, { timeout: 10_000 });
    expect(puts).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/automations/editor');
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
      'This scenario is running: it can be viewed but not changed.',
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
    cleanup();
    stored = { ...scenario('2026-11-21T00:00:00.000Z'), status: 'running', editable: false };
    await renderWithProviders(<ScenarioEditorPage />, {
      path: '/automations/editor?id=s1',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
      language: 'ja',
    });
    await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
    expect(screen.getByTestId('editor-read-only').textContent).toBe(
      'このシナリオは実行中のため、閲覧のみ可能で変更できません。',
    );
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
  describe('as hotel staff, who may edit scenarios but not the campaign email settings', () => {
    const values = {
      senderEmail: 'info@sakura-hotels.example.jp',
      senderName: 'さくらホテルズ',
      replyTo: null,
      unsubscribedMessage: 'x',
      unsubscribedMessageEn: null,
      footerSenderName: 'さくらホテルズ',
      footerPostalAddress: '東京都',
      defaultLanguage: 'ja',
      frequencyCapCount: 3,
      frequencyCapDays: 7,
      quietHoursStart: '21:00',
      quietHoursEnd: '08:00',
    };
    const setup = {
      settings: {
        hostLevel: 'hotel',
        hostName: 'さくら旅館 箱根',
        timeZone: 'Asia/Tokyo',
        own: { ...values, senderEmail: null },
        inherited: values,
        inheritedFrom: {},
        effective: values,
        senderDomain: { domain: 'sakura-hotels.example.jp', state: 'verified' },
        canSend: true,
        problems: [],
      },
      domains: [],
      checklist: [],
    };
    const preArrival = [
      { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'before_check_in', days: 3 } },
      {
        id: 'email',
        type: 'email',
        position: { x: 0, y: 160 },
        data: { templateId: null, subject: '', senderEmail: null },
      },
    ];
    const serve = (sendTime = '09:00') => {
      const saves: { senderEmail: string | null }[] = [];
      let stored = { ...scenario('2026-11-21T00:00:00.000Z', preArrival), run: { ...scenario('x').run, sendTime } };
      mockFetch((method, url, init) => {
        // The campaign email settings are not for staff; the Setup overview is.
        if (url.pathname === '/v1/sending/settings')
          return { status: 403, body: { error: { code: 'forbidden', message: 'x' } } };
        if (method === 'GET' && url.pathname === '/v1/sending/setup') return { body: { data: setup } };
        if (url.pathname !== '/v1/scenarios/s1') return undefined;
        if (method === 'GET') return { body: { data: stored } };
        if (method !== 'PUT') return undefined;
        const body = JSON.parse(String(init.body)) as {
          graph: { nodes: { type: string; data: { senderEmail?: string } }[] };
        };
        const email = body.graph.nodes.find((n) => n.type === 'email');
        saves.push({ senderEmail: email?.data.senderEmail ?? null });
        stored = {
          ...stored,
          graph: { ...stored.graph, nodes: body.graph.nodes as never },
          updatedAt: '2026-11-21T00:01:00.000Z',
        };
        return { body: { data: stored } };
      });
      return saves;
    };
    const render = () =>
      renderWithProviders(<ScenarioEditorPage />, {
        path: '/automations/editor?id=s1',
        queryClient: signedInClient(profileFixture('hotel', 'staff')),
      });

    it('offers the sender the campaign editor shows, and gives it to the email step when it is the only one', async () => {
      const saves = serve();
      await render();
      await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
      // The preset's email step had no sender: it gets the one sender, and that is saved.
      await waitFor(() => expect(saves).toContainEqual({ senderEmail: 'info@sakura-hotels.example.jp' }), {
        timeout: 10_000,
      });
      // The step's panel shows it chosen, and says where it comes from.
      const node = screen.getAllByTestId('scenario-node').find((n) => n.getAttribute('data-node-id') === 'email');
      fireEvent.click(node as HTMLElement);
      const sender = (await screen.findByTestId('email-sender', {}, { timeout: 10_000 })) as HTMLSelectElement;
      expect(sender.value).toBe('info@sakura-hotels.example.jp');
      expect(screen.getByTestId('node-panel').textContent).toContain(
        'The sender comes from the campaign email settings.',
      );
      expect(screen.getByTestId('node-panel').textContent).not.toContain('No sender is set up yet.');
    }, 30_000);

    it.each([
      ['22:00', true],
      ['09:00', false],
    ] as const)(
      'says whether a send time of %s falls in the quiet hours (21:00–08:00), in the settings and before the run',
      async (sendTime, held) => {
        serve(sendTime);
        await render();
        await screen.findByTestId('scenario-editor', {}, { timeout: 15_000 });
        await waitFor(() => expect(screen.queryAllByTestId('scenario-node').length).toBe(2));
        fireEvent.click(screen.getByTestId('open-settings'));
        await screen.findByTestId('scenario-settings', {}, { timeout: 10_000 });
        await waitFor(() =>
          expect(screen.queryByTestId('send-time-quiet')?.textContent ?? null).toBe(
            held
              ? '22:00 falls in the quiet hours (21:00–08:00, Asia/Tokyo): mails due then are held until 08:00.'
              : null,
          ),
        );
        fireEvent.click(screen.getByRole('button', { name: 'Done' }));
        fireEvent.click(screen.getByTestId('run'));
        await waitFor(() => expect(document.body.textContent).toContain('will start as its run period says'), {
          timeout: 10_000,
        });
        const note =
          'The send time, 22:00, falls in the quiet hours (21:00–08:00): stay-relative and birthday mails will be held until 08:00.';
        if (held) expect(document.body.textContent).toContain(note);
        else expect(document.body.textContent).not.toContain('The send time,');
      },
      30_000,
    );
  });
});
