import i18next from 'i18next';
import { isApiError } from './ApiError';

/**
 * The catalogue keys of a refused call's field errors (`errors.<code>`), for the fields whose
 * code has a text; a form shows them beside its inputs. Unknown codes are left to the caller.
 */
export function fieldErrorKeys(error: unknown): Record<string, string> {
  if (!isApiError(error) || !error.fields) return {};
  const keys: Record<string, string> = {};
  for (const [field, { code }] of Object.entries(error.fields)) {
    const key = `errors.${code}`;
    if (i18next.exists(key)) keys[field] = key;
  }
  return keys;
}
