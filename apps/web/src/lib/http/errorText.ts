import { nameList, type TNameListWords } from '@yado/contracts/errors';
import i18next, { type TFunction } from 'i18next';
import { isApiError, type ApiError } from './ApiError';

/**
 * The catalogue text for a failed call, in the user's language. The server's English message is
 * never shown: the code picks the text; unknown codes and exceptions (000000) get the general one.
 */
export function errorText(error: unknown, t: TFunction = i18next.t): string {
  const code = isApiError(error) ? error.code : 'general';
  const key = `errors.${code}`;
  return i18next.exists(key)
    ? t(key, isApiError(error) ? textParams(error.params, t) : undefined)
    : t('errors.general');
}

/**
 * The error's params as its text reads them: a list of names written in the language's words and
 * counted (`count`), so the text takes its plural form when the list names more than one.
 */
function textParams(params: ApiError['params'], t: TFunction): Record<string, string | number> | undefined {
  if (!params) return undefined;
  const words: TNameListWords = {
    quoted: (name) => t('common.name_list.quoted', { name }),
    separator: t('common.name_list.separator'),
    last: t('common.name_list.last'),
    more: (names, count) => t('common.name_list.more', { names, count }),
  };
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') {
      values[name] = value;
    } else {
      values[name] = nameList(value, words);
      values.count = value.length;
    }
  }
  return values;
}
