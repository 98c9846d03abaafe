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
 * A new user added by `adminEmail` at that admin's default host, who has already set `password`
 * through the mailed link: ready to sign in.
 */
export async function createUserWithPassword(
  adminEmail: string,
  user: { email: string; fullName: string; role: 'admin' | 'staff' | 'viewer' },
  password: string,
): Promise<{ id: string }> {
  const token = await apiToken(adminEmail);
  const before = (await readOutbox(user.email)).length;
  const created = await apiCall<{ id: string }>('POST', '/v1/users', {
    token,
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
