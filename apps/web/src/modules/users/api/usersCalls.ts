import * as authApi from '@yado/contracts/auth';
import type { TRole } from '@yado/contracts/tenancy';
import * as usersApi from '@yado/contracts/users';
import type { TUser } from '@yado/contracts/users';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';

export interface TUserFilters {
  search: string;
  role: TRole | '';
  status: 'active' | 'inactive' | '';
  page: number;
}

export const USERS_QUERY_KEY = ['users'] as const;
export const USERS_PAGE_SIZE = 20;

export const userListQuery = (filters: TUserFilters) =>
  queryOptions({
    queryKey: [...USERS_QUERY_KEY, 'list', filters],
    queryFn: ({ signal }) =>
      request(usersApi.list, {
        query: {
          search: filters.search || undefined,
          role: filters.role || undefined,
          status: filters.status || undefined,
          page: filters.page,
          pageSize: USERS_PAGE_SIZE,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const userQuery = (id: string) =>
  queryOptions({
    queryKey: [...USERS_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(usersApi.get, { params: { id }, signal }),
  });

export interface TNewUser {
  fullName: string;
  nickName: string;
  email: string;
  phoneNumber: string;
  role: string;
  language: 'ja' | 'en';
}

export function createUser(user: TNewUser): Promise<TUser> {
  return request(usersApi.create, { body: user });
}

export function updateUser(id: string, user: Omit<TNewUser, 'email' | 'language'>): Promise<TUser> {
  return request(usersApi.update, { params: { id }, body: user });
}

export function setUserStatus(id: string, status: 'active' | 'inactive'): Promise<TUser> {
  return request(usersApi.setStatus, { params: { id }, body: { status } });
}

export function removeUserRole(id: string) {
  return request(usersApi.remove, { params: { id } });
}

export function inviteUsers(emails: string[], role: string) {
  return request(usersApi.invite, { body: { emails, role } });
}

export async function emailExists(email: string, signal?: AbortSignal): Promise<boolean> {
  return (await request(authApi.exist, { query: { email }, signal })).exist;
}
