import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { readToken } from '../../../lib/session/storage';
import { LoginPage } from './LoginPage';

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });

describe('LoginPage', () => {
  it('asks for both fields before calling the server', async () => {
    const calls = mockFetch(() => undefined);
    await renderWithProviders(<LoginPage />, { path: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Please fill out this field.')).toHaveLength(2);
    fill(/Email address/, 'not-an-email');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Oops! Invalid email address.')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('speaks Japanese by default', async () => {
    mockFetch(() => undefined);
    await renderWithProviders(<LoginPage />, { path: '/login', language: 'ja' });
    fireEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect(await screen.findAllByText('この項目を入力してください。')).toHaveLength(2);
  });

  it("shows the catalogue text for the server's code in the user's language, not the server's message", async () => {
    mockFetch(() => ({ status: 401, body: { error: { code: 'invalid_credentials', message: 'server english' } } }));
    await renderWithProviders(<LoginPage />, { path: '/login', language: 'ja' });
    fill(/メールアドレス/, 'hotel.admin@demo.test');
    fill(/パスワード/, 'wrong-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'メールアドレスまたはパスワードが正しくありません。もう一度お試しください。',
    );
    expect(screen.queryByText('server english')).toBeNull();
  });

  it('shows the success banner after a password reset', async () => {
    mockFetch(() => undefined);
    await renderWithProviders(<LoginPage />, { path: '/login?successBanner=true' });
    expect(screen.getByTestId('success-banner').textContent).toMatch(/password has been changed/);
  });

  it('signs in and goes to the start address with loginSuccess=true', async () => {
    const me = profileFixture('grand_user', 'granduser');
    mockFetch((method, url) => {
      if (url.pathname === '/v1/auth/login') {
        return {
          body: { data: { accessToken: 'tok', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_000_000 } },
        };
      }
      if (url.pathname === '/v1/auth/me') return { body: { data: me } };
      return { body: { data: { language: 'en' } } };
    });
    const { router } = await renderWithProviders(<LoginPage />, { path: '/login' });
    fill(/Email address/, 'grand@demo.test');
    fill(/Password/, 'demo-pass-1');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/management/brand-list'));
    expect(router.state.location.search).toBe('?loginSuccess=true');
    expect(readToken()?.accessToken).toBe('tok');
  });
});
