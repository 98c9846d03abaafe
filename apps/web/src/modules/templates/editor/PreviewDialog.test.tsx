import { fireEvent, screen, within } from '@testing-library/react';
import { emptyDocument } from '@yado/contracts/templates';
import { describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { newBlock, newSection } from './documentEditing';
import { PreviewDialog } from './PreviewDialog';

const contents = { ja: { subject: 'ご案内', preheader: '', document: emptyDocument() }, en: null };

describe('the preview', () => {
  it('shows the server’s HTML in a scriptless frame, with its size and its warnings', async () => {
    const calls = mockFetch((method, url) => {
      if (method === 'POST' && url.pathname === '/v1/templates/t1/preview') {
        return {
          body: {
            data: {
              language: 'ja',
              subject: 'ご案内',
              preheader: '',
              html: '<html><body><p>本文</p></body></html>',
              text: '本文',
              htmlBytes: 110 * 1024,
              warnings: [{ code: 'html_too_large' }, { code: 'image_missing_alt', blockId: 'img1' }],
            },
          },
        };
      }
      return undefined;
    });
    await renderWithProviders(
      <PreviewDialog
        opened
        onClose={() => undefined}
        templateId="t1"
        contents={contents}
        initialLanguage="ja"
        canPickCustomer={false}
        onSelectBlock={() => undefined}
      />,
      { queryClient: signedInClient(profileFixture('hotel', 'admin')) },
    );
    const warnings = await screen.findByTestId('preview-warnings');
    expect(
      within(warnings).getByText('The HTML is 110.0 KB. Gmail clips messages past 102 KB: shorten the mail.'),
    ).toBeTruthy();
    expect(within(warnings).getByText('An image has no alternative text.')).toBeTruthy();
    expect(screen.getByTestId('preview-size').textContent).toBe('HTML 110.0 KB');
    const frame = screen.getByTestId('preview-frame');
    expect(frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    expect(frame.getAttribute('srcdoc')).toBe('<html><body><p>本文</p></body></html>');
    expect(frame.getAttribute('width')).toBe('600');
    // The unsaved contents go to the server, which alone renders.
    const body = JSON.parse(String(calls.find((c) => c.method === 'POST')!.init.body)) as {
      language: string;
      contents: unknown;
    };
    expect(body).toEqual({ language: 'ja', contents: contents.ja });
  });

  it("says the server's warning that a button without a label is left out of the mail, and selects it on a click", async () => {
    const button = newBlock('button', 'btn1');
    const labelled = { ...newBlock('button', 'btn2'), label: 'ご予約はこちら', href: 'https://yado.example/book' };
    const document = { ...emptyDocument(), sections: [newSection(1, () => 's1', [button, labelled])] };
    mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/templates/t1/preview'
        ? {
            body: {
              data: {
                language: 'ja',
                subject: 'ご案内',
                preheader: '',
                html: '<html><body><p>本文</p></body></html>',
                text: '本文',
                htmlBytes: 1024,
                warnings: [{ code: 'button_label_missing', blockId: 'btn1' }],
              },
            },
          }
        : undefined,
    );
    const onSelectBlock = vi.fn();
    await renderWithProviders(
      <PreviewDialog
        opened
        onClose={() => undefined}
        templateId="t1"
        contents={{ ja: { subject: 'ご案内', preheader: '', document }, en: null }}
        initialLanguage="ja"
        canPickCustomer={false}
        onSelectBlock={onSelectBlock}
      />,
      { queryClient: signedInClient(profileFixture('hotel', 'admin')) },
    );
    const warnings = await screen.findByTestId('preview-warnings');
    const items = within(warnings).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['A button has no label: it is left out of the mail.']);
    fireEvent.click(within(warnings).getByText('A button has no label: it is left out of the mail.'));
    expect(onSelectBlock).toHaveBeenCalledWith('btn1');
  });
});
