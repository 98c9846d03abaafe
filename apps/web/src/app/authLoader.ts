import { redirect } from 'react-router';
import { isApiError } from '../lib/http/ApiError';
import { refreshSession } from '../lib/session/refresh';
import { clearSession, isTokenExpired, readToken } from '../lib/session/storage';
import { profileQuery } from '../modules/shell/api/profile';
import { queryClient } from './queryClient';

/**
 * Runs before any signed-in page: no token means /login; an expired token gets one refresh try;
 * then the profile is fetched, and failing that the user goes to /login (spec section 8).
 */
export async function requireSession(): Promise<null> {
  const token = readToken();
  if (!token) throw redirect('/login');
  if (isTokenExpired(token) && !(await refreshSession())) {
    clearSession();
    throw redirect('/login');
  }
  try {
    await queryClient.ensureQueryData(profileQuery);
  } catch (error) {
    console.warn('Profile fetch failed', error);
    if (isApiError(error) && error.status !== 0) clearSession();
    queryClient.removeQueries();
    throw redirect('/login');
  }
  return null;
}
