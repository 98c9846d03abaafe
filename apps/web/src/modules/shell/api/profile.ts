import * as authApi from '@yado/contracts/auth';
import type { TMe } from '@yado/contracts/auth';
import { queryOptions } from '@tanstack/react-query';
import { isApiError } from '../../../lib/http/ApiError';
import { request } from '../../../lib/http/request';
import { storedRoleSelector } from '../../../lib/session/roleSelector';
import { storeUser } from '../../../lib/session/storage';

/**
 * The signed-in user in the stored role. When the server refuses that role, the profile is
 * fetched again for the default role (spec section 7); a second failure is the caller's to handle.
 */
export async function fetchProfile(): Promise<TMe> {
  const selector = storedRoleSelector();
  let me: TMe;
  try {
    me = await request(authApi.me, { roleSelector: selector });
  } catch (error) {
    if (selector === null || !isApiError(error) || error.status === 0 || error.status === 401) throw error;
    console.warn('The stored role was refused; using the default role', error);
    me = await request(authApi.me, { roleSelector: null });
  }
  storeUser(me);
  return me;
}

export const PROFILE_QUERY_KEY = ['profile'] as const;

export const profileQuery = queryOptions({
  queryKey: PROFILE_QUERY_KEY,
  queryFn: fetchProfile,
  staleTime: 5 * 60_000,
  retry: false,
});
