import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { PublicLayout } from '../../auth/components/PublicLayout';
import { UnsubscribePage } from './UnsubscribePage';

const LOGO = `/files/logos/${'c'.repeat(64)}.png`;

describe('the public unsubscribe page', () => {
  it("shows the brand's name and logo, not the product's", async () => {
    mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/public/unsubscribe'
        ? {
            body: {
              data: {
                brandName: 'さくらホテルズ',
                brandLogoUrl: LOGO,
                message: null,
                language: 'en',
                emailStatus: 'unsubscribed',
                canUndo: true,
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<UnsubscribePage />, { path: '/unsubscribe?token=t&lang=en', pattern: '/unsubscribe' });
    expect((await screen.findByTestId('unsubscribe-brand')).textContent).toBe('さくらホテルズ');
    expect(screen.getByRole('img', { name: 'さくらホテルズ' }).getAttribute('src')).toBe(LOGO);
  });

  it("is framed without the product's name, which the sign-in pages keep", async () => {
    const guest = await renderWithProviders(<PublicLayout />, { path: '/unsubscribe' });
    expect(screen.queryByText('Yado')).toBeNull();
    guest.unmount();
    await renderWithProviders(<PublicLayout />, { path: '/login' });
    expect(screen.getByText('Yado')).toBeTruthy();
  });
});
