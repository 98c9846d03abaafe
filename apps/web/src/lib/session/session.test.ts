import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../test/render';
import { startRefreshTimer } from './refresh';
import { clearSession, readCookie, readToken, readUser, storeToken, storeUser, STORAGE_KEYS } from './storage';
import { profileFixture } from '../../test/fixtures';

describe('session storage', () => {
  it('keeps the token, expiry and refresh times in local storage and in cookies', () => {
    storeToken({ accessToken: 'abc', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    for (const key of [STORAGE_KEYS.accessToken, STORAGE_KEYS.expiryTime, STORAGE_KEYS.refreshTime]) {
      expect(window.localStorage.getItem(key), key).not.toBeNull();
      expect(readCookie(key), key).toBe(window.localStorage.getItem(key));
    }
    expect(readToken()?.accessToken).toBe('abc');
  });

  it('keeps the whole user in local storage and a compact copy in the user cookie', () => {
    const me = profileFixture('hotel', 'admin');
    storeUser(me);
    expect(JSON.parse(window.localStorage.getItem('user')!).entitlements).toBeDefined();
    const cookie = JSON.parse(readCookie('user')!);
    expect(cookie.meta).toEqual(me.meta);
    expect(cookie.entitlements).toBeUndefined();
    expect(readUser()?.email).toBe(me.email);
  });

  it('forgets everything but the language on sign-out', () => {
    storeToken({ accessToken: 'abc', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    window.localStorage.setItem('language', 'en');
    clearSession();
    expect(readToken()).toBeNull();
    expect(readCookie('access_token')).toBeNull();
    expect(window.localStorage.getItem('language')).toBe('en');
  });
});

describe('refresh timer', () => {
  it('refreshes when the refresh time arrives, then schedules the next one', async () => {
    vi.useFakeTimers();
    const now = Date.now();
    storeToken({ accessToken: 'one', expiresAt: now + 60 * 60_000, refreshAt: now + 50 * 60_000 });
    let issued = 0;
    mockFetch((_, url) => {
      if (url.pathname !== '/v1/auth/refresh') return undefined;
      issued += 1;
      const t = Date.now();
      return {
        body: { data: { accessToken: `new-${issued}`, expiresAt: t + 60 * 60_000, refreshAt: t + 50 * 60_000 } },
      };
    });
    const stop = startRefreshTimer(() => {});
    await vi.advanceTimersByTimeAsync(49 * 60_000);
    expect(issued).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000 + 10);
    expect(issued).toBe(1);
    expect(readToken()?.accessToken).toBe('new-1');
    await vi.advanceTimersByTimeAsync(50 * 60_000 + 10);
    expect(issued).toBe(2);
    stop();
  });

  it('refreshes when the tab becomes visible after the refresh time has passed', async () => {
    const now = Date.now();
    storeToken({ accessToken: 'old', expiresAt: now + 5_000, refreshAt: now - 1 });
    const refreshed = vi.fn();
    mockFetch((_, url) => {
      if (url.pathname !== '/v1/auth/refresh') return undefined;
      refreshed();
      return {
        body: { data: { accessToken: 'fresh', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_000_000 } },
      };
    });
    const stop = startRefreshTimer(() => {});
    await vi.waitFor(() => expect(refreshed).toHaveBeenCalledTimes(1));
    storeToken({ accessToken: 'fresh', expiresAt: Date.now() + 5_000, refreshAt: Date.now() - 1 });
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(refreshed).toHaveBeenCalledTimes(2));
    stop();
  });

  it('ends the session when the token has expired and cannot be refreshed', async () => {
    storeToken({ accessToken: 'old', expiresAt: Date.now() - 1, refreshAt: Date.now() - 10 });
    mockFetch(() => ({ status: 401, body: { error: { code: 'unauthenticated', message: '' } } }));
    const ended = vi.fn();
    const stop = startRefreshTimer(ended);
    await vi.waitFor(() => expect(ended).toHaveBeenCalled());
    stop();
  });
});
