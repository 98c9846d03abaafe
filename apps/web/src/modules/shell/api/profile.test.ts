import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch } from '../../../test/render';
import { readUser, storeToken, storeUser } from '../../../lib/session/storage';
import { fetchProfile } from './profile';

describe('fetchProfile', () => {
  it('retries without the role selector when the stored role is refused, and keeps the default role', async () => {
    storeToken({ accessToken: 't', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    storeUser({ ...profileFixture('brand', 'viewer'), isDefaultRole: false });
    const me = profileFixture('hotel', 'admin');
    const calls = mockFetch((_, url, init) => {
      if (url.pathname !== '/v1/auth/me') return undefined;
      const role = (init.headers as Record<string, string>)['x-user-role'];
      return role === 'viewer'
        ? { status: 403, body: { error: { code: 'context_forbidden', message: '' } } }
        : { body: { data: me } };
    });
    await expect(fetchProfile()).resolves.toEqual(me);
    expect(calls).toHaveLength(2);
    expect(readUser()?.meta.level).toBe('hotel');
    expect(readUser()?.isDefaultRole).toBe(true);
  });

  it('fails when the default role is refused too (the shell then goes to /login)', async () => {
    storeToken({ accessToken: 't', expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    mockFetch(() => ({ status: 403, body: { error: { code: 'no_access', message: '' } } }));
    await expect(fetchProfile()).rejects.toMatchObject({ code: 'no_access' });
  });
});
