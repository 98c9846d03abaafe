import { render, screen, waitFor } from '@testing-library/react';
import { emptyDocument, type TTemplate, type TTemplateContents } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/render';
import { useAutosave } from './useAutosave';

const contentsWith = (subject: string): TTemplateContents => ({
  ja: { subject, preheader: '', document: emptyDocument() },
  en: null,
});

const template = (version: number, subject = ''): TTemplate => ({
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
  contents: contentsWith(subject),
});

function Probe({ subject, revision }: { subject: string; revision: number }) {
  const { state } = useAutosave(template(1), contentsWith(subject), revision, true, () => undefined);
  return <output data-testid="state">{state}</output>;
}

const state = () => screen.getByTestId('state').textContent;

describe('autosave', () => {
  it('saves a pause after a change with the version last seen, and stops at a version changed elsewhere', async () => {
    const sent: { version: number; subject: string | undefined }[] = [];
    let stored = 1;
    mockFetch((method, url, init) => {
      if (method !== 'PATCH' || url.pathname !== '/v1/templates/t1') return undefined;
      const body = JSON.parse(String(init.body)) as { version: number; contents?: TTemplateContents };
      sent.push({ version: body.version, subject: body.contents?.ja?.subject });
      if (body.version !== stored) {
        return { status: 409, body: { error: { code: 'template_stale', message: 'stale', params: { version: '9' } } } };
      }
      stored += 1;
      return { body: { data: template(stored, body.contents?.ja?.subject) } };
    });

    const view = render(<Probe subject="" revision={0} />);
    expect(state()).toBe('saved');
    view.rerender(<Probe subject="ご" revision={1} />);
    view.rerender(<Probe subject="ご案内" revision={2} />);
    expect(state()).toBe('unsaved');
    await waitFor(() => expect(state()).toBe('saved'), { timeout: 3000 });
    // One save for the two changes, with the latest text.
    expect(sent).toEqual([{ version: 1, subject: 'ご案内' }]);

    view.rerender(<Probe subject="ご案内です" revision={3} />);
    await waitFor(() => expect(sent).toHaveLength(2), { timeout: 3000 });
    expect(sent[1]).toEqual({ version: 2, subject: 'ご案内です' });
    await waitFor(() => expect(state()).toBe('saved'));

    // Another tab saved meanwhile: the next save is refused and nothing more is sent.
    stored = 9;
    view.rerender(<Probe subject="変更" revision={4} />);
    await waitFor(() => expect(state()).toBe('stale'), { timeout: 3000 });
    view.rerender(<Probe subject="変更2" revision={5} />);
    await new Promise((r) => setTimeout(r, 1300));
    expect(sent).toHaveLength(3);
    expect(state()).toBe('stale');
  });
});
