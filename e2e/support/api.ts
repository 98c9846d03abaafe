import { baseUrl, DEMO_PASSWORD, readOutbox } from './browser';

/** Calls the product's API directly, for arranging what a spec needs before the browser part. */
export async function apiCall<T = unknown>(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; data: T }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const json = (await response.json().catch(() => null)) as { data: T } | null;
  return { status: response.status, data: json?.data as T };
}

export async function apiToken(email: string, password = DEMO_PASSWORD): Promise<string> {
  const { status, data } = await apiCall<{ accessToken: string }>('POST', '/v1/auth/login', {
    body: { email, password },
  });
  if (status !== 200) throw new Error(`sign-in of ${email} answered ${status}`);
  return data.accessToken;
}

/** The newest set-password link mailed to `to`, once more than `countBefore` mails have arrived. */
export async function passwordLinkFromOutbox(to: string, countBefore: number): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const mails = await readOutbox(to);
    const newest = mails[0];
    const link =
      newest &&
      `${newest.text} ${newest.html ?? ''}`.match(/https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/)?.[0];
    if (link && mails.length > countBefore) return link.replace(/&amp;/g, '&');
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No set-password mail reached the outbox for ${to}`);
}

/** A unique address per run, so specs can be re-run against one product. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@mail.yado.jp`;
}

/**
 * A new user added by `adminEmail` at that admin's default host (or where `actingAs` says), who has already set `password`
 * through the mailed link: ready to sign in.
 */
export async function createUserWithPassword(
  adminEmail: string,
  user: { email: string; fullName: string; role: 'admin' | 'staff' | 'viewer' },
  password: string,
  /** The role headers when the admin acts somewhere else than at their default host. */
  actingAs?: { role: 'admin'; slug: string; level: 'brand' | 'hotel_group' | 'hotel' },
): Promise<{ id: string }> {
  const token = await apiToken(adminEmail);
  const before = (await readOutbox(user.email)).length;
  const created = await apiCall<{ id: string }>('POST', '/v1/users', {
    token,
    headers: actingAs
      ? { 'x-user-role': actingAs.role, 'x-host-slug': actingAs.slug, 'x-host-level': actingAs.level }
      : undefined,
    body: { ...user, nickName: user.fullName.split(' ')[0], phoneNumber: '0312345678', language: 'en' },
  });
  if (created.status >= 300) throw new Error(`adding ${user.email} answered ${created.status}`);
  const link = new URL(await passwordLinkFromOutbox(user.email, before));
  const set = await apiCall('POST', '/v1/auth/reset-password', {
    body: { token: link.searchParams.get('token'), password },
  });
  if (set.status >= 300) throw new Error(`setting the password of ${user.email} answered ${set.status}`);
  return created.data;
}

/** A real 1×1 PNG: the server judges a logo by its content. */
export const PNG_LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads a logo as `token`'s user and returns its URL. */
export async function apiUploadLogo(token: string, bytes: Buffer = PNG_LOGO): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'logo.png');
  const response = await fetch(`${baseUrl()}/v1/uploads/logo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 200) throw new Error(`logo upload answered ${response.status}`);
  return ((await response.json()) as { data: { logoUrl: string } }).data.logoUrl;
}

/** The id of the host named `name` at `level`, as the granduser sees it. */
export async function apiHostId(
  token: string,
  level: 'brand' | 'hotel_group' | 'hotel',
  name: string,
): Promise<string> {
  const path = { brand: '/v1/brands', hotel_group: '/v1/hotel-groups', hotel: '/v1/hotels' }[level];
  const { data } = await apiCall<{ items: { id: string; name: string }[] }>(
    'GET',
    `${path}?search=${encodeURIComponent(name)}&pageSize=100`,
    { token },
  );
  const found = data.items.find((h) => h.name === name);
  if (!found) throw new Error(`no ${level} named ${name}`);
  return found.id;
}

/** A new hotel of the demo brand さくらホテルズ, made by the granduser, for a spec to change freely. */
export async function apiCreateHotel(name: string): Promise<{ id: string; name: string; slug: string }> {
  const token = await apiToken('grand@demo.test');
  const brandId = await apiHostId(token, 'brand', 'さくらホテルズ');
  const created = await apiCall<{ id: string; name: string; slug: string }>('POST', '/v1/hotels', {
    token,
    body: { name, address: '東京都港区芝公園4-2-8', logoUrl: await apiUploadLogo(token), brandId },
  });
  if (created.status !== 200) throw new Error(`creating hotel ${name} answered ${created.status}`);
  return created.data;
}
