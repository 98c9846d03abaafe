import * as authApi from '@yado/contracts/auth';
import { CLIENT_EXCEPTION_CODE } from '@yado/contracts/errors';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/render';
import { storeToken, storeUser } from '../session/storage';
import { ApiError } from './ApiError';
import { buildUrl, request } from './request';

const token = { accessToken: 'tok-1', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_000_000 };

describe('request', () => {
  it('sends the bearer token and blank role headers for the default role', async () => {
    storeToken(token);
    const calls = mockFetch(() => ({ body: { data: { exist: true } } }));
    await expect(request(authApi.exist, { query: { email: 'a@b.jp' } })).resolves.toEqual({ exist: true });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-1');
    expect(headers['x-user-role']).toBe(' ');
    expect(headers['x-host-slug']).toBe(' ');
    expect(headers['x-host-level']).toBe(' ');
    expect(calls[0]!.url.search).toBe('?email=a%40b.jp');
  });

  it('sends the stored role selector when the user acts in another role', async () => {
    storeToken(token);
    storeUser({
      id: 'u',
      fullName: 'A',
      email: 'a@b.jp',
      role: 'Hotel Admin',
      hostName: 'H',
      meta: { slug: 'hotel-a', level: 'hotel', hostName: 'H', role: 'admin' },
      isDefaultRole: false,
    });
    const calls = mockFetch(() => ({ body: { data: { exist: false } } }));
    await request(authApi.exist, { query: { email: 'a@b.jp' } });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect([headers['x-user-role'], headers['x-host-slug'], headers['x-host-level']]).toEqual([
      'admin',
      'hotel-a',
      'hotel',
    ]);
  });

  it('rejects a non-2xx answer with the server code and fields', async () => {
    mockFetch(() => ({
      status: 401,
      body: {
        error: { code: 'invalid_credentials', message: 'Oops!', fields: { email: { code: 'x', message: 'y' } } },
      },
    }));
    const error = await request(authApi.login, { body: { email: 'a@b.jp', password: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials', fields: { email: { code: 'x' } } });
  });

  it('turns a thrown exception into error code 000000 with an empty message', async () => {
    globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const error = await request(authApi.exist, { query: { email: 'a@b.jp' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: CLIENT_EXCEPTION_CODE, message: '', status: 0 });
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    storeToken(token);
    await import('../session/refresh');
    let meCalls = 0;
    const calls = mockFetch((method, url, init) => {
      if (url.pathname === '/v1/auth/refresh') {
        return {
          body: {
            data: { accessToken: 'tok-2', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_000_000 },
          },
        };
      }
      meCalls += 1;
      const auth = (init.headers as Record<string, string>).Authorization;
      return auth === 'Bearer tok-2'
        ? { body: { data: { exist: true } } }
        : { status: 401, body: { error: { code: 'unauthenticated', message: '' } } };
    });
    await expect(request(authApi.exist, { query: { email: 'a@b.jp' } })).resolves.toEqual({ exist: true });
    expect(meCalls).toBe(2);
    expect(calls.map((c) => c.url.pathname)).toEqual(['/v1/auth/exist', '/v1/auth/refresh', '/v1/auth/exist']);
  });

  it('builds query strings from non-null parameters only', () => {
    expect(buildUrl('/v1/x', { a: 'b c', b: null, c: undefined, d: 0 })).toBe('/v1/x?a=b+c&d=0');
    expect(buildUrl('/v1/x/:id', {}, { id: 'a/b' })).toBe('/v1/x/a%2Fb');
  });
});
