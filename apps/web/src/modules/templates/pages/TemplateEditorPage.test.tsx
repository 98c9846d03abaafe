import { fireEvent, screen, waitFor } from '@testing-library/react';
import { emptyDocument, type TTemplate, type TTemplateContents } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { TemplateEditorPage } from './TemplateEditorPage';

const template = (version: number, subject: string): TTemplate => ({
  id: 't1',
  name: 'Pre-arrival',
  description: '',
  coverImageUrl: null,
  defaultLanguage: 'ja',
  languages: ['ja'],
  owner: { hostId: 'h1', level: 'hotel', name: 'さくらホテル 新宿' },
  editable: true,
  version,
  createdAt: '2026-11-20T00:00:00Z',
  updatedAt: '2026-11-20T00:00:00Z',
  updatedByName: null,
  contents: { ja: { subject, preheader: '', document: emptyDocument() }, en: null },
});

/** The editor of t1, with saves answered by `save` (null: a server failure). */
async function openEditor(save: (version: number, subject: string | undefined) => TTemplate | null) {
  const sent: (string | undefined)[] = [];
  mockFetch((method, url, init) => {
    if (url.pathname !== '/v1/templates/t1') return undefined;
    if (method === 'GET') return { body: { data: template(1, 'ご案内') } };
    if (method !== 'PATCH') return undefined;
    const body = JSON.parse(String(init.body)) as { version: number; contents?: TTemplateContents };
    sent.push(body.contents?.ja?.subject);
    const saved = save(body.version, body.contents?.ja?.subject);
    return saved
      ? { body: { data: saved } }
      : { status: 500, body: { error: { code: 'general', message: 'An error has occured.' } } };
  });
  const view = await renderWithProviders(<TemplateEditorPage />, {
    path: '/templates/t1',
    pattern: '/templates/:id',
    queryClient: signedInClient(profileFixture('hotel', 'admin')),
    routes: [{ path: '/templates', element: <div data-testid="template-list" /> }],
  });
  const subject = (await screen.findByRole('textbox', { name: 'Subject' }, { timeout: 10_000 })) as HTMLInputElement;
  return { ...view, sent, subject };
}

describe('the template editor', () => {
  it('saves a change not saved yet before leaving by the link back, and asks nothing', async () => {
    const { router, sent, subject } = await openEditor((version, text) => template(version + 1, text ?? ''));
    fireEvent.change(subject, { target: { value: 'ご到着前のご案内' } });
    // At once, before the autosave's pause: the change is saved first, then the editor is left.
    fireEvent.click(screen.getByRole('link', { name: 'Back to templates' }));
    await screen.findByTestId('template-list', {}, { timeout: 10_000 });
    expect(sent).toEqual(['ご到着前のご案内']);
    expect(screen.queryByTestId('leave-guard')).toBeNull();
    expect(router.state.location.pathname).toBe('/templates');
  }, 30_000);

  it('asks before leaving only when the change could not be saved', async () => {
    const { router, sent, subject } = await openEditor(() => null);
    fireEvent.change(subject, { target: { value: 'ご到着前のご案内' } });
    fireEvent.click(screen.getByRole('link', { name: 'Back to templates' }));
    await screen.findByTestId('leave-guard', {}, { timeout: 10_000 });
    expect(sent.length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByTestId('leave-guard')).toBeNull());
    expect(router.state.location.pathname).toBe('/templates/t1');
    expect(screen.queryByTestId('template-list')).toBeNull();
  }, 30_000);

  it('says once that a template not found is not found', async () => {
    mockFetch((method, url) =>
      method === 'GET' && url.pathname === '/v1/templates/gone'
        ? { status: 404, body: { error: { code: 'not_found', message: 'Page not found.' } } }
        : undefined,
    );
    await renderWithProviders(<TemplateEditorPage />, {
      path: '/templates/gone',
      pattern: '/templates/:id',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    expect(await screen.findAllByText('Page not found.')).toHaveLength(1);
  });
});
