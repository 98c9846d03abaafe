import { ENTITLEMENTS, ERROR_MESSAGES } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../../test/harness.ts';
import { DEMO_PASSWORD } from '../../seed/demo.ts';
import { MAX_FAILURES_PER_ACCOUNT } from './throttle.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const resetLinkToken = async (email: string, previousCount = 0) => {
  const mails = await eventually(async () => {
    const m = await s.outbox(email);
    return m.length > previousCount ? m : null;
  });
  const match = /reset-password\?token=([\w-]+)/.exec(mails[0]?.text ?? '');
  if (!match?.[1]) throw new Error('no link in the mail');
  return { token: match[1], mails };
};

describe('sign-in', () => {
  it('signs in every demo account and sets a strict HttpOnly refresh cookie', async () => {
    for (const email of Object.values(DEMO)) {
      const res = await s.call('POST', '/v1/auth/login', { body: { email, password: DEMO_PASSWORD } });
      expect(res.status, email).toBe(200);
      const { accessToken, expiresAt, refreshAt } = res.body.data;
      expect(accessToken).toMatch(/^ey/);
      expect(expiresAt - refreshAt).toBe(10 * 60 * 1000);
      const cookie = res.headers.getSetCookie()[0] ?? '';
      expect(cookie).toMatch(/^yado_refresh=/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Path=\/v1\/auth/);
    }
  });

  it('takes the email in any case and with surrounding spaces', async () => {
    const res = await s.call('POST', '/v1/auth/login', {
      body: { email: '  Hotel.Admin@Demo.Test ', password: DEMO_PASSWORD },
    });
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    for (const email of [DEMO.hotelAdmin, 'nobody@demo.test']) {
      const res = await s.call('POST', '/v1/auth/login', { body: { email, password: 'wrong-pass-9' } });
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'invalid_credentials', message: ERROR_MESSAGES.invalid_credentials });
    }
  });

  it('refuses an inactive user with the right password, and ends their current session at once', async () => {
    const email = 'inactive.case@demo.test';
    const [viewer] = await s.sql(`select id, original_host_id from users where email = $1`, [DEMO.hotelViewer]);
    await s.sql(
      `insert into users (email, first_name, last_name, password_hash, original_host_id)
       select $1, 'In', 'Active', password_hash, original_host_id from users where id = $2`,
      [email, viewer.id],
    );
    await s.sql(
      `insert into role_assignments (user_id, host_id, brand_id, role, is_default)
       select u.id, h.id, h.brand_id, 'viewer', true from users u, hosts h where u.email = $1 and h.id = $2`,
      [email, viewer.original_host_id],
    );
    const { token, cookie } = await s.login(email);
    expect((await s.call('GET', '/v1/auth/me', { token })).status).toBe(200);

    await s.sql(`update users set status = 'inactive' where email = $1`, [email]);
    const me = await s.call('GET', '/v1/auth/me', { token });
    expect(me.status).toBe(403);
    expect(me.body.error.code).toBe('no_access');
    expect(me.body.error.message).toBe("Oops! It looks like you don't have permission to access our system.");
    expect((await s.call('POST', '/v1/auth/refresh', { cookie })).status).toBe(403);
    const login = await s.call('POST', '/v1/auth/login', { body: { email, password: DEMO_PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.error.code).toBe('no_access');
  });

  it('throttles an account after 10 failures in 15 minutes, even for the right password, with Retry-After', async () => {
    const email = DEMO.hotelStaff;
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      const res = await s.call('POST', '/v1/auth/login', { body: { email, password: `wrong-${i}-pass` } });
      expect(res.status).toBe(401);
    }
    const blocked = await s.call('POST', '/v1/auth/login', { body: { email, password: DEMO_PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('too_many_attempts');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // Other accounts are untouched; once the failures age out of the window the account is free.
    expect(
      (await s.call('POST', '/v1/auth/login', { body: { email: DEMO.hotelAdmin, password: DEMO_PASSWORD } })).status,
    ).toBe(200);
    await s.sql(`update auth_failures set at = at - interval '16 minutes' where key like 'login:account:%'`);
    expect((await s.call('POST', '/v1/auth/login', { body: { email, password: DEMO_PASSWORD } })).status).toBe(200);
  });

  it('throttles one address that tries many accounts, however it names itself in X-Forwarded-For', async () => {
    await s.sql(`delete from auth_failures where key like 'login:ip:%'`);
    // No proxy is trusted (TRUST_PROXY unset): a forged header neither names another address nor escapes the limit.
    for (let i = 0; i < 50; i++) {
      const headers = { 'x-forwarded-for': `10.77.0.${i}` };
      await s.call('POST', '/v1/auth/login', { body: { email: `guess${i}@demo.test`, password: 'nope-123' }, headers });
    }
    const keys = await s.sql(`select distinct key from auth_failures where key like 'login:ip:%'`);
    expect(keys.map((k) => k.key)).toEqual(['login:ip:127.0.0.1']);
    const res = await s.call('POST', '/v1/auth/login', {
      body: { email: DEMO.groupAdmin, password: DEMO_PASSWORD },
      headers: { 'x-forwarded-for': '10.77.0.200' },
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    // The address's failures age out: later sign-ins of this file come from the same address.
    await s.sql(`delete from auth_failures where key like 'login:ip:%'`);
  });
});

describe('refresh tokens', () => {
  it('rotates on each use, and reuse of a spent token revokes the whole family', async () => {
    const { cookie: first } = await s.login(DEMO.brandAdmin);
    const r1 = await s.call('POST', '/v1/auth/refresh', { cookie: first });
    expect(r1.status).toBe(200);
    const second = (r1.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
    expect(second).not.toBe(first);

    // Reused within seconds (two tabs racing): refused, the family lives on.
    expect((await s.call('POST', '/v1/auth/refresh', { cookie: first })).status).toBe(401);
    const r2 = await s.call('POST', '/v1/auth/refresh', { cookie: second });
    expect(r2.status).toBe(200);
    const third = (r2.headers.getSetCookie()[0] ?? '').split(';')[0] as string;

    // Reused later: theft. The family is revoked, so even the newest token stops working.
    await s.sql(`update refresh_tokens set used_at = used_at - interval '1 minute' where used_at is not null`);
    const stolen = await s.call('POST', '/v1/auth/refresh', { cookie: first });
    expect(stolen.status).toBe(401);
    expect(stolen.body.error.code).toBe('session_expired');
    expect((await s.call('POST', '/v1/auth/refresh', { cookie: third })).status).toBe(401);
  });

  it('refuses a refresh without a cookie, and logout revokes the session', async () => {
    expect((await s.call('POST', '/v1/auth/refresh')).status).toBe(401);
    const { cookie } = await s.login(DEMO.groupAdmin);
    const out = await s.call('POST', '/v1/auth/logout', { cookie });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/yado_refresh=;/);
    expect((await s.call('POST', '/v1/auth/refresh', { cookie })).status).toBe(401);
  });

  it('refuses a forged or expired access token', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await s.call('GET', '/v1/auth/me', { token: forged })).status).toBe(401);
    expect((await s.call('GET', '/v1/auth/me', { token: 'not-a-jwt' })).status).toBe(401);
    expect((await s.call('GET', '/v1/auth/me')).status).toBe(401);
  });
});

describe('password reset', () => {
  it('refuses an unregistered email with the catalogue text', async () => {
    const res = await s.call('POST', '/v1/auth/forgot-password', { body: { email: 'ghost@demo.test' } });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('You’ve entered an unregistered email.');
  });

  it('mails a single-use link that sets a new password and ends every session', async () => {
    const email = DEMO.hotelViewer;
    const before = await s.login(email);
    const sent = await s.call('POST', '/v1/auth/forgot-password', { body: { email, language: 'en' } });
    expect(sent.status).toBe(200);
    const { token, mails } = await resetLinkToken(email);
    expect(mails[0]?.subject).toBe('Reset your Yado password');
    expect(mails[0]?.text).toContain(`${s.url}/reset-password?token=`);
    // Only the hash is stored.
    const stored = await s.sql(`select token_hash from password_reset_tokens`);
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    expect((await s.call('GET', `/v1/auth/reset-password?token=${token}`)).body.data.valid).toBe(true);
    const weak = await s.call('POST', '/v1/auth/reset-password', { body: { token, password: 'short1' } });
    expect(weak.status).toBe(400);
    expect(weak.body.error.fields.password.code).toBe('password_too_short');
    const noDigit = await s.call('POST', '/v1/auth/reset-password', { body: { token, password: 'longenough' } });
    expect(noDigit.body.error.fields.password.code).toBe('password_no_digit');

    const done = await s.call('POST', '/v1/auth/reset-password', { body: { token, password: 'new-secret-42' } });
    expect(done.status).toBe(200);
    expect((await s.call('POST', '/v1/auth/login', { body: { email, password: DEMO_PASSWORD } })).status).toBe(401);
    await s.login(email, 'new-secret-42');
    // Sessions from before the reset are over: refresh and access token alike.
    expect((await s.call('POST', '/v1/auth/refresh', { cookie: before.cookie })).status).toBe(401);
    expect((await s.call('GET', '/v1/auth/me', { token: before.token })).status).toBe(401);

    const again = await s.call('POST', '/v1/auth/reset-password', { body: { token, password: 'another-pass-7' } });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(
      'This link has expired. Your password may have already been changed, or please use the latest reset email.',
    );
    expect((await s.call('GET', `/v1/auth/reset-password?token=${token}`)).body.data.valid).toBe(false);
  });

  it('refuses a link older than 30 minutes, and only the latest link works', async () => {
    const email = DEMO.groupAdmin;
    await s.call('POST', '/v1/auth/forgot-password', { body: { email } });
    const first = await resetLinkToken(email);
    expect(first.mails[0]?.subject).toBe('【Yado】パスワード再設定のご案内');
    await s.call('POST', '/v1/auth/forgot-password', { body: { email } });
    const second = await resetLinkToken(email, first.mails.length);
    expect(second.token).not.toBe(first.token);
    const old = await s.call('POST', '/v1/auth/reset-password', {
      body: { token: first.token, password: 'fresh-pass-1' },
    });
    expect(old.body.error.code).toBe('reset_link_expired');

    await s.sql(`update password_reset_tokens set expires_at = now() - interval '1 second' where used_at is null`);
    const expired = await s.call('POST', '/v1/auth/reset-password', {
      body: { token: second.token, password: 'fresh-pass-1' },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('reset_link_expired');
  });
});

describe('change password', () => {
  it('needs the current password and ends the other sessions, keeping this one', async () => {
    const email = DEMO.multi;
    const other = await s.login(email);
    const mine = await s.login(email);
    const wrong = await s.call('POST', '/v1/auth/change-password', {
      token: mine.token,
      body: { currentPassword: 'not-it-123', newPassword: 'changed-pass-2' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.currentPassword.code).toBe('wrong_current_password');

    const ok = await s.call('POST', '/v1/auth/change-password', {
      token: mine.token,
      body: { currentPassword: DEMO_PASSWORD, newPassword: 'changed-pass-2' },
    });
    expect(ok.status).toBe(200);
    const fresh = ok.body.data.accessToken as string;
    expect((await s.call('GET', '/v1/auth/me', { token: fresh })).status).toBe(200);
    expect((await s.call('POST', '/v1/auth/refresh', { cookie: mine.cookie })).status).toBe(200);
    expect((await s.call('POST', '/v1/auth/refresh', { cookie: other.cookie })).status).toBe(401);
    expect((await s.call('GET', '/v1/auth/me', { token: other.token })).status).toBe(401);
    await s.login(email, 'changed-pass-2');
  });
});

describe('the logged-in user', () => {
  it('returns the specification fields with every entitlement key', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    const res = await s.call('GET', '/v1/auth/me', {
      token,
      headers: { 'x-user-role': ' ', 'x-host-slug': ' ', 'x-host-level': ' ' },
    });
    expect(res.status).toBe(200);
    const me = res.body.data;
    expect(me).toMatchObject({
      email: DEMO.hotelAdmin,
      firstName: '美咲',
      lastName: '田中',
      fullName: '田中 美咲',
      role: 'Hotel Admin',
      hostName: 'さくらホテル 新宿',
      meta: { slug: 'sakura-shinjuku', level: 'hotel', hostName: 'さくらホテル 新宿', role: 'admin' },
      hostRole: { level: 'hotel', role: 'admin', slug: 'sakura-shinjuku', roleName: 'Hotel Admin' },
      isDefaultRole: true,
    });
    expect(me.hostAddress).toContain('新宿');
    expect(Object.keys(me.entitlements).sort()).toEqual([...ENTITLEMENTS].sort());
    expect(me.entitlements['customer.delete']).toBe(true);
    expect(me.entitlements['shell.read_switch_role']).toBe(false);
    expect(me.features.automation).toBe(true);
  });

  it('gives the granduser everything but the dashboard, and staff and viewers less', async () => {
    const grand = (await s.call('GET', '/v1/auth/me', { token: (await s.login(DEMO.grand)).token })).body.data;
    expect(grand.role).toBe('Granduser');
    expect(grand.entitlements['dashboard.read_level_info']).toBe(false);
    expect(grand.entitlements['manage_brand.create_brand']).toBe(true);
    expect(grand.entitlements['shell.read_switch_role']).toBe(true);
    const staff = (await s.call('GET', '/v1/auth/me', { token: (await s.login(DEMO.hotelStaff)).token })).body.data;
    expect(staff.role).toBe('Hotel Staff');
    expect(staff.entitlements['customer.update']).toBe(true);
    expect(staff.entitlements['customer.delete']).toBe(false);
    const viewer = (
      await s.call('GET', '/v1/auth/me', { token: (await s.login(DEMO.hotelViewer, 'new-secret-42')).token })
    ).body.data;
    expect(viewer.entitlements['customer.read']).toBe(true);
    expect(viewer.entitlements['customer.update']).toBe(false);
    expect(viewer.entitlements['dashboard.read_quick_actions']).toBe(false);
  });
});

describe('acting context', () => {
  const as = (role: string, slug: string, level: string) => ({
    'x-user-role': role,
    'x-host-slug': slug,
    'x-host-level': level,
  });

  it('acts as an own assignment, or as admin of a host below an admin assignment', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const hotel = await s.call('GET', '/v1/auth/me', { token, headers: as('admin', 'sakura-kyoto', 'hotel') });
    expect(hotel.status).toBe(200);
    expect(hotel.body.data.role).toBe('Hotel Admin');
    expect(hotel.body.data.hostName).toBe('さくらホテル 京都');
    expect(hotel.body.data.isDefaultRole).toBe(false);
    const group = await s.call('GET', '/v1/auth/me', { token, headers: as('admin', 'sakura-kanto', 'hotel_group') });
    expect(group.body.data.role).toBe('Hotel Group Admin');
  });

  it('refuses a host of another brand, a role not delegated, a wrong level and an unknown host alike', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    for (const headers of [
      as('admin', 'harbor-kobe', 'hotel'),
      as('admin', 'harbor-view', 'brand'),
      as('staff', 'sakura-kyoto', 'hotel'),
      as('admin', 'sakura-kyoto', 'hotel_group'),
      as('admin', 'no-such-host', 'hotel'),
      as('granduser', 'platform', 'grand_user'),
    ]) {
      const res = await s.call('GET', '/v1/auth/me', { token, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('context_forbidden');
      expect(res.body.data).toBeUndefined();
    }
  });

  it('rejects malformed role headers with field messages', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/auth/me', { token, headers: as('emperor', 'sakura-kyoto', 'galaxy') });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['x-host-level', 'x-user-role']);
  });

  it('lets a hotel group admin act only on hotels of its group', async () => {
    const { token } = await s.login(DEMO.groupAdmin, 'fresh-pass-1').catch(() => s.login(DEMO.groupAdmin));
    expect(
      (await s.call('GET', '/v1/auth/me', { token, headers: as('admin', 'sakura-yokohama', 'hotel') })).status,
    ).toBe(200);
    expect((await s.call('GET', '/v1/auth/me', { token, headers: as('admin', 'sakura-kyoto', 'hotel') })).status).toBe(
      403,
    );
    expect((await s.call('GET', '/v1/auth/me', { token, headers: as('admin', 'sakura-hotels', 'brand') })).status).toBe(
      403,
    );
  });
});

describe('assignable roles', () => {
  it("lists the user's own roles by level with the default tab and selection", async () => {
    const { token } = await s.login(DEMO.multi, 'changed-pass-2');
    const res = await s.call('GET', '/v1/auth/assignable', { token });
    expect(res.status).toBe(200);
    const roles = res.body.data;
    expect(roles.defaultTab).toBe('hotel');
    expect(roles.isDefaultLoggedIn).toBe(true);
    expect(roles.grandUser).toEqual([]);
    expect(roles.brand.map((r: { slug: string }) => r.slug)).toEqual(['harbor-view']);
    expect(roles.hotelGroup[0]).toMatchObject({
      slug: 'sakura-kansai',
      role: 'staff',
      brandName: 'さくらホテルズ',
      isDefault: false,
    });
    expect(roles.hotel[0]).toMatchObject({
      slug: 'harbor-okinawa',
      isDefault: true,
      isSelected: true,
      brandName: 'Harbor View Hotels',
    });

    const acting = await s.call('GET', '/v1/auth/assignable', {
      token,
      headers: { 'x-user-role': 'viewer', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' },
    });
    expect(acting.body.data.isDefaultLoggedIn).toBe(false);
    expect(acting.body.data.brand[0].isSelected).toBe(true);
    expect(acting.body.data.hotel[0].isSelected).toBe(false);
  });

  it('adds every host below an admin assignment, sorted in Japanese order, and searches names', async () => {
    const { token } = await s.login(DEMO.brandAdmin);
    const res = await s.call('GET', '/v1/auth/assignable', { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = res.body.data;
    expect(all.brand.map((r: { slug: string }) => r.slug)).toEqual(['sakura-hotels']);
    expect(all.hotelGroup.map((r: { username: string }) => r.username)).toEqual(
      ['関西エリア', '関東エリア'].sort(new Intl.Collator('ja').compare),
    );
    const hotels = all.hotel.map((r: { username: string }) => r.username);
    expect(hotels).toHaveLength(4);
    expect(hotels).toEqual([...hotels].sort(new Intl.Collator('ja').compare));
    expect(
      all.hotel.every(
        (r: { role: string; brandName: string }) => r.role === 'admin' && r.brandName === 'さくらホテルズ',
      ),
    ).toBe(true);

    const search = (await s.call('GET', `/v1/auth/assignable?search=${encodeURIComponent('京都')}`, { token })).body
      .data;
    expect(search.hotel.map((r: { slug: string }) => r.slug)).toEqual(['sakura-kyoto']);
    expect(search.brand).toEqual([]);

    const grand = await s.login(DEMO.grand);
    const harbor = (await s.call('GET', '/v1/auth/assignable?search=HARBOR%20view', { token: grand.token })).body.data;
    expect(harbor.brand.map((r: { slug: string }) => r.slug)).toEqual(['harbor-view']);
    expect(harbor.hotel.map((r: { slug: string }) => r.slug).sort()).toEqual(['harbor-kobe', 'harbor-okinawa']);
    // Full-width letters match too.
    const wide = (
      await s.call('GET', `/v1/auth/assignable?search=${encodeURIComponent('ＫＯＢＥ')}`, { token: grand.token })
    ).body.data;
    expect(wide.hotel.map((r: { slug: string }) => r.slug)).toEqual(['harbor-kobe']);
  });
});

describe('email exists', () => {
  it('tells whether an email is registered', async () => {
    const { token } = await s.login(DEMO.hotelAdmin);
    expect(
      (await s.call('GET', `/v1/auth/exist?email=${encodeURIComponent(DEMO.brandAdmin.toUpperCase())}`, { token })).body
        .data,
    ).toEqual({ exist: true });
    expect((await s.call('GET', '/v1/auth/exist?email=ghost%40demo.test', { token })).body.data).toEqual({
      exist: false,
    });
    expect((await s.call('GET', '/v1/auth/exist?email=ghost%40demo.test')).status).toBe(401);
  });
});

describe('bad input', () => {
  it('answers malformed JSON, wrong types, oversized bodies and unknown paths without a 500', async () => {
    const malformed = await s.call('POST', '/v1/auth/login', { rawBody: '{"email":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('malformed_json');
    const typed = await s.call('POST', '/v1/auth/login', { body: { email: ['a'], password: 12 } });
    expect(typed.status).toBe(400);
    expect(Object.keys(typed.body.error.fields).sort()).toEqual(['email', 'password']);
    const missing = await s.call('POST', '/v1/auth/login', { body: {} });
    expect(missing.body.error.fields.email).toEqual({ code: 'field_required', message: 'Please fill out this field.' });
    const invalid = await s.call('POST', '/v1/auth/login', { body: { email: 'not-an-email', password: 'x1234567' } });
    expect(invalid.body.error.fields.email.message).toBe('Oops! Invalid email address.');
    const huge = await s.call('POST', '/v1/auth/login', {
      rawBody: JSON.stringify({ email: 'a@b.jp', password: 'x'.repeat(1_100_000) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('body_too_large');
    const unknown = await s.call('GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    for (const res of [malformed, typed, huge, unknown])
      expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules/);
  });

  it('never writes a password, token or reset link to a log line', async () => {
    const secret = 'log-check-pass-1';
    await s.call('POST', '/v1/auth/login', { body: { email: DEMO.hotelAdmin, password: secret } });
    const { token, cookie } = await s.login(DEMO.brandAdmin);
    await s.call('GET', '/v1/auth/me', { token });
    await s.call('POST', '/v1/auth/refresh', { cookie });
    await s.call('GET', `/v1/auth/exist?email=${encodeURIComponent(DEMO.brandAdmin)}`, { token });
    await s.call('GET', '/v1/auth/reset-password?token=abcdefSECRETTOKEN');
    const text = s.logs.join('\n');
    expect(s.logs.length).toBeGreaterThan(0);
    for (const needle of [
      secret,
      DEMO_PASSWORD,
      token,
      cookie.split('=')[1] as string,
      'abcdefSECRETTOKEN',
      DEMO.brandAdmin,
      '$argon2id',
    ]) {
      expect(text).not.toContain(needle);
    }
  });
});
