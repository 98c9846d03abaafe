import { screen, within } from '@testing-library/react';
import { emptyDocument } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
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
});
