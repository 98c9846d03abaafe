import * as authApi from '@yado/contracts/auth';
import type { THost } from '@yado/contracts/management';
import * as settingsApi from '@yado/contracts/settings';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import { storeToken } from '../../../lib/session/storage';
import { hostInput, type THostFormValues } from '../../management/hostForm';

export const hostInfoQuery = queryOptions({
  queryKey: ['settings', 'host'],
  queryFn: ({ signal }) => request(settingsApi.getHostInfo, { signal }),
});

export function updateHostInfo(values: THostFormValues): Promise<THost> {
  return request(settingsApi.updateHostInfo, { body: hostInput(values) });
}

/** The server ends the user's other sessions and answers with a new token for this one. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const token = await request(authApi.changePassword, { body: { currentPassword, newPassword } });
  storeToken(token);
}
