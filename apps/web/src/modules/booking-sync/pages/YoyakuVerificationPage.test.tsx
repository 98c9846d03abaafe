import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../../i18n/allTexts';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { BookingSystemSection } from '../../settings/components/BookingSystemSection';
import { YoyakuRedirectPage } from './YoyakuRedirectPage';
import { YoyakuVerificationPage } from './YoyakuVerificationPage';

const notConnected = {
  connection: null,
  runs: [],
  syncPending: false,
  schedule: { time: '01:00', timeZone: 'Asia/Tokyo' },
};
const connected = {
  ...notConnected,
  syncPending: true,
  connection: {
    accountId: 'DBK-100990',
    accountName: '湯けむり温泉グループ',
    status: 'active',
    connectedAt: '2026-11-22T05:00:00Z',
    connectedByName: '佐藤 花子',
    syncedUpTo: null,
    hotels: [],
  },
};

async function renderSettings(language: 'ja' | 'en', connect: () => { status?: number; body?: unknown }) {
  const calls = mockFetch((method, url) => {
    if (url.pathname === '/v1/booking/connection' && method === 'GET') return { body: { data: notConnected } };
    if (url.pathname === '/v1/booking/connection' && method === 'POST') return connect();
    return undefined;
  });
  const view = await renderWithProviders(<BookingSystemSection />, {
    path: '/settings',
    language,
    queryClient: signedInClient(profileFixture('brand', 'admin')),
    routes: [
      { path: '/yoyaku-verification', element: <YoyakuVerificationPage /> },
      { path: '/yoyaku-verification/redirect', element: <YoyakuRedirectPage /> },
    ],
  });
  return { calls, view };
}

async function enterAndConnect(language: 'ja' | 'en') {
  const t = ALL_TEXTS[language].booking_sync;
  expect((await screen.findByTestId('booking-daily-notice')).textContent).toContain('Asia/Tokyo');
  fireEvent.change(screen.getByLabelText(t.settings.account_id, { exact: false }), {
    target: { value: ' DBK-100990 ' },
  });
  fireEvent.change(screen.getByLabelText(t.settings.api_key, { exact: false }), {
    target: { value: 'dbk_secret_key' },
  });
  fireEvent.click(screen.getByRole('button', { name: t.settings.connect }));
}

describe('connecting the booking system', () => {
  it('tells a hotel (or group) that only the brand connects, without asking the server', async () => {
    const calls = mockFetch(() => undefined);
    await renderWithProviders(<BookingSystemSection />, {
      path: '/settings',
      language: 'ja',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    expect((await screen.findByTestId('booking-unavailable')).textContent).toBe(ALL_TEXTS.ja.errors.booking_brand_only);
    expect(calls.some((c) => c.url.pathname.startsWith('/v1/booking'))).toBe(false);
  });

  it('asks for both fields before leaving settings', async () => {
    const { calls } = await renderSettings('en', () => ({ body: { data: connected } }));
    await screen.findByTestId('booking-connect-form');
    fireEvent.click(screen.getByRole('button', { name: ALL_TEXTS.en.booking_sync.settings.connect }));
    expect(await screen.findAllByText(ALL_TEXTS.en.validation.required)).toHaveLength(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('verifies on /yoyaku-verification, the key only in the body, then counts down to settings', async () => {
    const { calls, view } = await renderSettings('en', () => ({ body: { data: connected } }));
    await enterAndConnect('en');
    expect((await screen.findByTestId('yoyaku-verification-message')).textContent).toContain('湯けむり温泉グループ');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ accountId: 'DBK-100990', apiKey: 'dbk_secret_key' });
    expect(post.url.search).toBe('');
    fireEvent.click(screen.getByRole('link', { name: ALL_TEXTS.en.booking_sync.verification.continue }));
    const redirect = await screen.findByTestId('yoyaku-redirect');
    expect(view.router.state.location.pathname).toBe('/yoyaku-verification/redirect');
    expect(redirect.textContent).not.toMatch(/[0-9]/);
  });

  it("shows the server's refusal in the user's language", async () => {
    await renderSettings('ja', () => ({
      status: 409,
      body: { error: { code: 'booking_already_connected', message: 'brand is already connected to another account' } },
    }));
    await enterAndConnect('ja');
    await waitFor(() =>
      expect(screen.getByTestId('yoyaku-verification-message').textContent).toContain(
        ALL_TEXTS.ja.errors.booking_already_connected,
      ),
    );
  });

  it('has nothing to verify when opened without the settings form (a reload)', async () => {
    mockFetch(() => undefined);
    await renderWithProviders(<YoyakuVerificationPage />, { path: '/yoyaku-verification' });
    expect((await screen.findByTestId('yoyaku-verification-message')).textContent).toContain(
      ALL_TEXTS.en.booking_sync.verification.nothing,
    );
  });
});
