import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SETTINGS_FIELDS } from '@yado/contracts/sending';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { readToken } from '../../../lib/session/storage';
import { SettingsPage } from './SettingsPage';

const host = {
  id: 'h1',
  level: 'hotel',
  name: 'さくらホテル 新宿',
  slug: 'sakura-shinjuku',
  brandId: 'b1',
  brandName: 'さくらホテルズ',
  hotelGroupId: null,
  hotelGroupName: null,
  address: '東京都新宿区',
  email: null,
  phone: null,
  logoUrl: '/files/logos/abc.png',
  timezone: 'Asia/Tokyo',
  bookingHotelCode: 'SKR-SHINJUKU',
  createdAt: '2026-01-01T00:00:00Z',
  hotelGroupCount: 0,
  hotelCount: 0,
  userCount: 3,
};

const newToken = { accessToken: 'new-token', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_000_000 };

function serve(changePassword: () => { status?: number; body?: unknown } = () => ({ body: { data: newToken } })) {
  return mockFetch((method, url) => {
    if (url.pathname === '/v1/settings/host' && method === 'GET') return { body: { data: host } };
    if (url.pathname === '/v1/settings/host' && method === 'PUT') return { body: { data: host } };
    if (url.pathname === '/v1/auth/change-password') return changePassword();
    return undefined;
  });
}

async function renderAs(level: 'hotel', role: 'admin' | 'viewer') {
  return renderWithProviders(<SettingsPage />, { queryClient: signedInClient(profileFixture(level, role)) });
}

function fillPassword(current: string, next: string, confirmation: string) {
  const form = screen.getByTestId('change-password-form');
  fireEvent.change(within(form).getByLabelText(/^Current password/), { target: { value: current } });
  fireEvent.change(within(form).getByLabelText(/^New password/), { target: { value: next } });
  fireEvent.change(within(form).getByLabelText(/^Confirm new password/), { target: { value: confirmation } });
  fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
}

describe('SettingsPage', () => {
  it('shows the host read-only to a viewer, and no sending settings', async () => {
    serve();
    await renderAs('hotel', 'viewer');
    const section = screen.getByTestId('settings-host');
    expect(((await within(section).findByDisplayValue('さくらホテル 新宿')) as HTMLInputElement).readOnly).toBe(true);
    // The booking-system code is shown; it is set by the brand in Management, not here.
    expect((within(section).getByDisplayValue('SKR-SHINJUKU') as HTMLInputElement).readOnly).toBe(true);
    expect(within(section).getByText('Set by the brand in Management.')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Upload logo' })).toBeNull();
    // Campaign email settings and domains are for admins (settings.manage_*).
    expect(screen.queryByTestId('settings-campaign-email')).toBeNull();
    expect(screen.queryByTestId('settings-domain')).toBeNull();
  });

  it('refuses an empty host name before calling the server', async () => {
    const calls = serve();
    await renderAs('hotel', 'admin');
    const section = screen.getByTestId('settings-host');
    fireEvent.change(await within(section).findByDisplayValue('さくらホテル 新宿'), { target: { value: ' ' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('This field is required to fill.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('asks for the matched password when the confirmation differs', async () => {
    const calls = serve();
    await renderAs('hotel', 'viewer');
    fillPassword('demo-pass-1', 'new-pass-22', 'new-pass-23');
    expect(await screen.findByText('Please enter the matched password.')).toBeTruthy();
    expect(calls.some((c) => c.url.pathname === '/v1/auth/change-password')).toBe(false);
  });

  it('shows a wrong current password beside its field', async () => {
    serve(() => ({
      status: 400,
      body: {
        error: {
          code: 'wrong_current_password',
          message: 'x',
          fields: { currentPassword: { code: 'wrong_current_password', message: 'x' } },
        },
      },
    }));
    await renderAs('hotel', 'viewer');
    fillPassword('nope-pass-1', 'new-pass-22', 'new-pass-22');
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
  });

  it('keeps the new token the server answers with and clears the form', async () => {
    const calls = serve();
    await renderAs('hotel', 'viewer');
    fillPassword('demo-pass-1', 'new-pass-22', 'new-pass-22');
    await waitFor(() => expect(readToken()?.accessToken).toBe('new-token'));
    const call = calls.find((c) => c.url.pathname === '/v1/auth/change-password')!;
    expect(JSON.parse(String(call.init.body))).toEqual({ currentPassword: 'demo-pass-1', newPassword: 'new-pass-22' });
    await waitFor(() =>
      expect(
        (within(screen.getByTestId('change-password-form')).getByLabelText(/^Current password/) as HTMLInputElement)
          .value,
      ).toBe(''),
    );
  });

  it('links each section it shows from a bar kept in view, and marks the one chosen', async () => {
    serve();
    const { router } = await renderAs('hotel', 'admin');
    const nav = screen.getByRole('navigation', { name: 'Sections of this page' });
    const links = within(nav).getAllByRole('link');
    // One link per section on the page, in its order, under the section's own title.
    const titles = [...document.querySelectorAll('[data-testid^="settings-"] > h2')].map((h) => h.textContent);
    expect(links.map((l) => l.textContent)).toEqual(titles);
    expect(titles.length).toBeGreaterThan(2);
    expect(links.map((l) => l.getAttribute('href'))).toContain('#password');
    fireEvent.click(within(nav).getByRole('link', { name: 'Change password' }));
    expect(within(nav).getByRole('link', { name: 'Change password' }).getAttribute('aria-current')).toBe('location');
    await waitFor(() => expect(router.state.location.hash).toBe('#password'));
  });
});

describe('SettingsPage, leaving with changes not saved', () => {
  const empty = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, null]));
  const brandSettings = {
    hostLevel: 'brand',
    hostName: 'さくらホテルズ',
    timeZone: 'Asia/Tokyo',
    own: { ...empty, senderName: 'さくらホテルズ', unsubscribedMessage: '停止しました' },
    inherited: {
      ...empty,
      frequencyCapCount: 3,
      frequencyCapDays: 7,
      quietHoursStart: '21:00',
      quietHoursEnd: '08:00',
    },
    inheritedFrom: {},
    effective: { ...empty, senderName: 'さくらホテルズ', unsubscribedMessage: '停止しました' },
    senderDomain: null,
    canSend: false,
    problems: ['sending_settings_missing'],
  };

  /** A brand admin's page, every section of it with its data (so that each form, and its guard, is there). */
  async function renderBrandAdmin() {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/settings/host')
        return { body: { data: { ...host, level: 'brand', name: 'さくらホテルズ' } } };
      if (url.pathname === '/v1/sending/settings') return { body: { data: brandSettings } };
      if (url.pathname === '/v1/deliverability/protection')
        return { body: { data: { minSent: 1000, hardBouncePct: 5, complaintPct: 0.3 } } };
      if (url.pathname === '/v1/deliverability/relay-webhooks') return { body: { data: [] } };
      if (url.pathname === '/v1/sending/domains') return { body: { data: { domains: [], canManage: true } } };
      return undefined;
    });
    const view = await renderWithProviders(<SettingsPage />, {
      path: '/settings',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('campaign-email-form');
    await screen.findByTestId('protection-form');
    return view;
  }

  const unloadPrevented = () => {
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    return unload.defaultPrevented;
  };

  it('asks before leaving with the campaign email settings changed, and stays when asked to', async () => {
    const { router } = await renderBrandAdmin();
    expect(unloadPrevented()).toBe(false);
    const form = screen.getByTestId('campaign-email-form');
    const senderName = form.querySelector('input[name="senderName"]') as HTMLInputElement;
    fireEvent.change(senderName, { target: { value: 'さくらホテルズ 公式' } });
    // Closing or reloading the tab gets the browser's own question.
    expect(unloadPrevented()).toBe(true);
    // A sidebar link (or the browser's back button) gets the console's.
    void router.navigate('/campaign');
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(senderName.value).toBe('さくらホテルズ 公式');
    await waitFor(() => expect(screen.queryByTestId('leave-guard')).toBeNull());
    void router.navigate('/campaign');
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaign'));
  });

  it('asks for every form of the page, not only the last one shown', async () => {
    const { router } = await renderBrandAdmin();
    // The protection form comes before the relay webhooks and the domains, each with changes of its own to guard.
    fireEvent.change(within(screen.getByTestId('protection-form')).getByLabelText(/^Minimum/), {
      target: { value: '2000' },
    });
    void router.navigate('/campaign');
    await screen.findByTestId('leave-guard');
    fireEvent.click(screen.getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    // The host's information too.
    const hostForm = screen.getByTestId('host-info-form');
    fireEvent.change(within(hostForm).getByDisplayValue('東京都新宿区'), { target: { value: '東京都千代田区' } });
    fireEvent.change(within(screen.getByTestId('protection-form')).getByLabelText(/^Minimum/), {
      target: { value: '1000' },
    });
    void router.navigate('/campaign');
    await screen.findByTestId('leave-guard');
  });

  it('leaves an untouched page without asking', async () => {
    const { router } = await renderBrandAdmin();
    void router.navigate('/campaign');
    await screen.findByTestId('elsewhere');
    expect(screen.queryByTestId('leave-guard')).toBeNull();
  });

  it('introduces the relay webhooks without pointing to an address the page does not show yet', async () => {
    await renderBrandAdmin();
    const section = screen.getByTestId('settings-relay-webhooks');
    expect(section.textContent).not.toMatch(/address below/);
    expect(section.textContent).toContain('Once it is set up, its card shows the address to give it.');
  });
});
