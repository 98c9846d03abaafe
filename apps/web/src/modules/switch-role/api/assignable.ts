import * as authApi from '@yado/contracts/auth';
import type { TMe } from '@yado/contracts/auth';
import { request } from '../../../lib/http/request';
import type { TRoleSelector } from '../../../lib/session/roleSelector';

export function fetchAssignableRoles(search: string, signal?: AbortSignal) {
  return request(authApi.assignable, { query: search ? { search } : {}, signal });
}

/** The profile as the chosen role; refused (403) when the role is not the user's to take. */
export function fetchProfileAs(selector: TRoleSelector | null): Promise<TMe> {
  return request(authApi.me, { roleSelector: selector });
}
