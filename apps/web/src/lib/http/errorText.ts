import i18next, { type TFunction } from 'i18next';
import { isApiError } from './ApiError';

/**
 * The catalogue text for a failed call, in the user's language. The server's English message is
 * never shown: the code picks the text; unknown codes and exceptions (000000) get the general one.
 */
export function errorText(error: unknown, t: TFunction = i18next.t): string {
  const code = isApiError(error) ? error.code : 'general';
  const key = `errors.${code}`;
  return i18next.exists(key) ? t(key, isApiError(error) ? error.params : undefined) : t('errors.general');
}
