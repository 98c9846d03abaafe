import { describe, expect, it } from 'vitest';
import { profileFixture } from '../test/fixtures';
import { mockFetch } from '../test/render';
import { readToken, storeToken } from '../lib/session/storage';
import { requireSession } from './authLoader';
import { queryClient } from './queryClient';

async function redirectOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

describe('signed-in pages', () => {
  it('send a visitor without a token to /login', async () => {
    queryClient.clear();
    expect(await redirectOf(requireSession())).toBe('/login');
  });

  it('try one refresh for an expired token, and go to /login when it fails', async () => {
    queryClient.clear();
    storeToken({ accessToken: 'old', expiresAt: Date.now() - 1, refreshAt: Date.now() - 10 });
    const calls = mockFetch(() => ({ status: 401, body: { error: { code: 'unauthenticated', message: '' } } }));
    expect(await redirectOf(requireSession())).toBe('/login');
    expect(calls.map((c) => c.url.pathname)).toEqual(['/v1/auth/refresh']);
    expect(readToken()).toBeNull();
  });

  it('go to /login when the profile cannot be fetched', async () => {
    queryClient.clear();
    storeToken({ accessToken: 't', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    mockFetch(() => ({ status: 403, body: { error: { code: 'no_access', message: '' } } }));
    expect(await redirectOf(requireSession())).toBe('/login');
    expect(readToken()).toBeNull();
  });

  it('open once the token is there and the profile is fetched', async () => {
    queryClient.clear();
    storeToken({ accessToken: 't', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    mockFetch((_, url) =>
      url.pathname === '/v1/auth/me' ? { body: { data: profileFixture('hotel', 'staff') } } : undefined,
    );
    expect(await redirectOf(requireSession())).toBeNull();
  });
});
