import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { LogoField } from './LogoField';

const choose = (file: File) => fireEvent.change(screen.getByTestId('logo-file'), { target: { files: [file] } });

describe('LogoField', () => {
  it('refuses a file that is not .jpg or .png, or 5MB and over, without uploading', async () => {
    const calls = mockFetch(() => undefined);
    await renderWithProviders(<LogoField value={null} onChange={() => {}} />);
    choose(new File(['x'], 'logo.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Please upload image file only in .jpg/.png.')).toBeTruthy();
    choose(new File([new Uint8Array(5 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText("The file size is too big. Make sure it's less than 5MB.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('uploads a chosen logo and hands back its URL; a failed upload says so', async () => {
    let fail = false;
    mockFetch((method, url) =>
      url.pathname === '/v1/uploads/logo'
        ? fail
          ? { status: 500, body: { error: { code: 'internal', message: 'x' } } }
          : { body: { data: { logoUrl: '/files/logos/abc.png' } } }
        : undefined,
    );
    const onChange = vi.fn();
    await renderWithProviders(<LogoField value={null} onChange={onChange} />);
    choose(new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/files/logos/abc.png'));
    fail = true;
    choose(new File(['png'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Failed to upload the file. Please try again.')).toBeTruthy();
  });
});
