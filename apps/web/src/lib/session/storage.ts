import type { TAccessToken, TMe } from '@yado/contracts/auth';
import type { THostLevel, TRole } from '@yado/contracts/tenancy';

/**
 * The session as the specification lists it (section 3): local storage keys access_token,
 * expiry_time, refresh_time, user and language, mirrored in cookies of the same names.
 * Local storage is read first; the cookies are the copy other tabs and reloads can also see.
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  expiryTime: 'expiry_time',
  refreshTime: 'refresh_time',
  user: 'user',
  language: 'language',
} as const;

export type TLanguage = 'ja' | 'en';
export const LANGUAGES: readonly TLanguage[] = ['ja', 'en'];
export const DEFAULT_LANGUAGE: TLanguage = 'ja';

/** What is kept of the signed-in user between page loads: enough to choose the acting role. */
export interface TStoredUser {
  id: string;
  fullName: string;
  email: string;
  role: string;
  hostName: string;
  meta: { slug: string; level: THostLevel; hostName: string; role: TRole };
  isDefaultRole: boolean;
}

export interface TStoredToken {
  accessToken: string;
  expiresAt: number;
  refreshAt: number;
}

const YEAR_SECONDS = 365 * 24 * 60 * 60;

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Strict${secure}`;
}

function deleteCookie(name: string): void {
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Strict`;
}

function readLocal(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (private mode, policy); the cookie copy still works.
    return null;
  }
}

function writeLocal(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // See readLocal: the cookie copy is written regardless.
  }
}

function read(key: string): string | null {
  return readLocal(key) ?? readCookie(key);
}

function write(key: string, value: string, maxAgeSeconds: number, cookieValue = value): void {
  writeLocal(key, value);
  writeCookie(key, cookieValue, maxAgeSeconds);
}

function remove(key: string): void {
  writeLocal(key, null);
  deleteCookie(key);
}

export function storeToken(token: TAccessToken): void {
  const lifetime = Math.max(1, Math.ceil((token.expiresAt - Date.now()) / 1000));
  write(STORAGE_KEYS.accessToken, token.accessToken, lifetime);
  write(STORAGE_KEYS.expiryTime, String(token.expiresAt), lifetime);
  write(STORAGE_KEYS.refreshTime, String(token.refreshAt), lifetime);
}

export function readToken(): TStoredToken | null {
  const accessToken = read(STORAGE_KEYS.accessToken);
  const expiresAt = Number(read(STORAGE_KEYS.expiryTime));
  const refreshAt = Number(read(STORAGE_KEYS.refreshTime));
  if (!accessToken || !Number.isFinite(expiresAt) || expiresAt <= 0) return null;
  return { accessToken, expiresAt, refreshAt: Number.isFinite(refreshAt) && refreshAt > 0 ? refreshAt : expiresAt };
}

export function isTokenExpired(token: TStoredToken, now = Date.now()): boolean {
  return token.expiresAt <= now;
}

export function toStoredUser(me: TMe): TStoredUser {
  return {
    id: me.id,
    fullName: me.fullName,
    email: me.email,
    role: me.role,
    hostName: me.hostName,
    meta: me.meta,
    isDefaultRole: me.isDefaultRole,
  };
}

/**
 * Local storage keeps the whole profile, entitlements included. The cookie keeps the compact
 * form, because the entitlement map alone would push it past the 4 KB cookie limit.
 */
export function storeUser(user: TMe | TStoredUser): void {
  const compact = 'entitlements' in user ? toStoredUser(user) : user;
  write(STORAGE_KEYS.user, JSON.stringify(user), YEAR_SECONDS, JSON.stringify(compact));
}

export function readUser(): TStoredUser | null {
  const raw = read(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as TStoredUser;
    return parsed && typeof parsed === 'object' && parsed.meta ? parsed : null;
  } catch {
    return null;
  }
}

export function clearUser(): void {
  remove(STORAGE_KEYS.user);
}

/** Sign-out: everything but the language choice goes. */
export function clearSession(): void {
  remove(STORAGE_KEYS.accessToken);
  remove(STORAGE_KEYS.expiryTime);
  remove(STORAGE_KEYS.refreshTime);
  remove(STORAGE_KEYS.user);
}

export function isLanguage(value: unknown): value is TLanguage {
  return value === 'ja' || value === 'en';
}

export function readLanguage(): TLanguage | null {
  const value = read(STORAGE_KEYS.language);
  return isLanguage(value) ? value : null;
}

export function storeLanguage(language: TLanguage): void {
  write(STORAGE_KEYS.language, language, YEAR_SECONDS);
}
