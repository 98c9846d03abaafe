import * as authApi from '@yado/contracts/auth';
import { request } from '../../../lib/http/request';
import { clearSession, clearUser, storeToken, type TLanguage } from '../../../lib/session/storage';

/** Signs in and keeps the new token; the previous user's role selection is forgotten. */
export async function signIn(email: string, password: string): Promise<void> {
  const token = await request(authApi.login, { body: { email, password }, refreshOn401: false, roleSelector: null });
  clearUser();
  storeToken(token);
}

/** Revokes the refresh cookie when the server can be reached; the local session goes either way. */
export async function signOut(): Promise<void> {
  try {
    await request(authApi.logout, { refreshOn401: false });
  } catch (error) {
    console.warn('Sign-out could not reach the server', error);
  }
  clearSession();
}

export function requestPasswordReset(email: string, language: TLanguage) {
  return request(authApi.forgotPassword, { body: { email, language }, refreshOn401: false, roleSelector: null });
}

export async function isResetTokenValid(token: string): Promise<boolean> {
  const result = await request(authApi.checkResetToken, { query: { token }, refreshOn401: false, roleSelector: null });
  return result.valid;
}

export function resetPassword(token: string, password: string) {
  return request(authApi.resetPassword, { body: { token, password }, refreshOn401: false, roleSelector: null });
}
