import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { DomainLapseNotice } from './DomainLapseNotice';

describe('the notice of a lapsed domain above every page', () => {
  it('says which domain lapsed and offers the way to Domain authentication inside its banner', async () => {
    mockFetch((method, url) =>
      url.pathname === '/v1/sending/domains'
        ? {
            body: {
              data: {
                canManage: true,
                domains: [
                  {
                    id: 'd1',
                    domain: 'sakura-hotels.example.jp',
                    displayName: 'sakura-hotels.example.jp',
                    state: 'in_verification',
                    records: [],
                    verifyInSeconds: 0,
                    verifyAvailableAt: '2026-11-24T00:00:00Z',
                    lastCheckedAt: '2026-11-24T04:41:00Z',
                    verifiedAt: null,
                    lapsedAt: '2026-11-24T04:41:00Z',
                    createdAt: '2026-11-20T00:00:00Z',
                  },
                ],
              },
            },
          }
        : undefined,
    );
    await renderWithProviders(<DomainLapseNotice />);
    const banner = await screen.findByTestId('domain-lapsed-banner');
    expect(banner.textContent).toContain('The DNS records of sakura-hotels.example.jp changed since it was verified.');
    const link = within(banner).getByRole('link', { name: 'Go to domain authentication' });
    expect(link.getAttribute('href')).toBe('/settings#domain');
  });
});
