import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_MS, signAccessToken, verifyAccessToken } from './tokens.ts';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const key = new TextEncoder().encode(SECRET);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('verifyAccessToken', () => {
  it('accepts a token signAccessToken made, with its claims', async () => {
    const now = Date.now();
    const { accessToken } = await signAccessToken(SECRET, 'user-1', 'family-1', now);
    expect(verifyAccessToken(SECRET, accessToken)).toEqual({
      userId: 'user-1',
      familyId: 'family-1',
      issuedAt: new Date(now),
    });
  });

  it('refuses another secret, an edited payload or signature, and an expired token', async () => {
    const now = Date.now();
    const { accessToken } = await signAccessToken(SECRET, 'user-1', 'family-1', now);
    const [h, p, s] = accessToken.split('.') as [string, string, string];
    expect(verifyAccessToken(`${SECRET}x`, accessToken)).toBeNull();
    const edited = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'user-2' });
    expect(verifyAccessToken(SECRET, `${h}.${edited}.${s}`)).toBeNull();
    // The first character changed (its 6 bits are all signature; the last one's lowest bits are
    // padding, so "AA" for its last two once in about a thousand runs decoded to the same bytes).
    expect(verifyAccessToken(SECRET, `${h}.${p}.${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`)).toBeNull();
    expect(verifyAccessToken(SECRET, `${h}.${p}.`)).toBeNull();
    expect(verifyAccessToken(SECRET, accessToken, now + ACCESS_TOKEN_TTL_MS + 1000)).toBeNull();
  });

  it('refuses alg none, another algorithm, another issuer and malformed tokens', async () => {
    const claims = {
      sub: 'user-1',
      fam: 'family-1',
      its: Date.now(),
      iss: 'yado',
      exp: Math.floor(Date.now() / 1000) + 60,
    };
    expect(verifyAccessToken(SECRET, `${b64({ alg: 'none' })}.${b64(claims)}.`)).toBeNull();
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key);
    expect(verifyAccessToken(SECRET, hs512)).toBeNull();
    const other = await new SignJWT({ ...claims, iss: 'someone-else' }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(verifyAccessToken(SECRET, other)).toBeNull();
    const noFamily = await new SignJWT({ ...claims, fam: undefined }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(verifyAccessToken(SECRET, noFamily)).toBeNull();
    const critical = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', crit: ['x'], x: 1 } as never)
      .sign(key)
      .catch(() => null);
    if (critical) expect(verifyAccessToken(SECRET, critical)).toBeNull();
    for (const junk of ['', 'a.b', 'a.b.c.d', '...', `${b64('x')}.${b64(claims)}.x`])
      expect(verifyAccessToken(SECRET, junk)).toBeNull();
    const valid = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect(verifyAccessToken(SECRET, valid)).not.toBeNull();
  });
});
