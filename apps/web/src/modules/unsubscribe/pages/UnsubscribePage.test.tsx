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
                messages: { ja: null, en: null },
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

  it.each([
    ['ja', '配信を停止しました。'],
    ['en', 'You have been unsubscribed.'],
  ] as const)("shows the brand's unsubscribed message in the page's language (%s)", async (language, expected) => {
    mockFetch((method, url) =>
      method === 'POST' && url.pathname === '/v1/public/unsubscribe'
        ? {
            body: {
              data: {
                brandName: 'さくらホテルズ',
                brandLogoUrl: null,
                // The guest's language is the other one: the link's lang decides the page's.
                message: language === 'ja' ? 'You have been unsubscribed.' : '配信を停止しました。',
                messages: { ja: '配信を停止しました。', en: 'You have been unsubscribed.' },
                language: language === 'ja' ? 'en' : 'ja',
                emailStatus: 'unsubscribed',
                canUndo: false,
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<UnsubscribePage />, {
      path: `/unsubscribe?token=t&lang=${language}`,
      pattern: '/unsubscribe',
      language,
    });
    expect((await screen.findByTestId('unsubscribe-message')).textContent).toBe(expected);
  });

  it("is framed without the product's name, which the sign-in pages keep", async () => {
    const guest = await renderWithProviders(<PublicLayout />, { path: '/unsubscribe' });
    expect(screen.queryByText('Yado')).toBeNull();
    guest.unmount();
    await renderWithProviders(<PublicLayout />, { path: '/login' });
    expect(screen.getByText('Yado')).toBeTruthy();
  });
});
