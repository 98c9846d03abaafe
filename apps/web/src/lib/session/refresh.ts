import * as authApi from '@yado/contracts/auth';
import { request, setTokenRefresher } from '../http/request';
import { readToken, storeToken } from './storage';

let inFlight: Promise<boolean> | null = null;

async function refreshNow(tokenBefore: string | undefined): Promise<boolean> {
  // Another tab may have refreshed already: the refresh cookie rotates on each use and reusing
  // an old one revokes the whole family, so adopt its token instead of refreshing again.
  const current = readToken();
  if (current && current.accessToken !== tokenBefore && current.refreshAt > Date.now()) return true;
  try {
    const token = await request(authApi.refresh, { refreshOn401: false, roleSelector: null });
    storeToken(token);
    return true;
  } catch (error) {
    console.warn('Token refresh failed', error);
    return false;
  }
}

/**
 * Gets a new access token through the refresh cookie. One refresh at a time in this tab, and
 * one at a time across tabs where the browser has Web Locks.
 */
export function refreshSession(): Promise<boolean> {
  if (inFlight) return inFlight;
  const tokenBefore = readToken()?.accessToken;
  const run = () => refreshNow(tokenBefore);
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  inFlight = (locks ? locks.request('yado-token-refresh', run) : run()).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

setTokenRefresher(refreshSession);

const MAX_TIMEOUT = 2 ** 31 - 1;

/**
 * Refreshes 50 minutes after the last refresh (the stored refresh_time), and again when the tab
 * becomes visible if that time has passed while it was hidden (timers are throttled there).
 * `onEnded` runs when the access token has expired and cannot be renewed.
 */
export function startRefreshTimer(onEnded: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const refreshIfDue = async () => {
    const token = readToken();
    if (!token) return onEnded();
    if (token.refreshAt > Date.now()) return schedule();
    const ok = await refreshSession();
    if (stopped) return;
    const after = readToken();
    if (!ok && (!after || after.expiresAt <= Date.now())) return onEnded();
    schedule(ok ? 0 : 60_000);
  };

  function schedule(retryInMs = 0) {
    clearTimeout(timer);
    const token = readToken();
    if (!token || stopped) return;
    const wait = Math.max(retryInMs, token.refreshAt - Date.now());
    timer = setTimeout(() => void refreshIfDue(), Math.min(Math.max(wait, 0), MAX_TIMEOUT));
  }

  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    const token = readToken();
    if (!token || token.refreshAt <= Date.now()) void refreshIfDue();
  };

  document.addEventListener('visibilitychange', onVisible);
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
