import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import ja from './ja.json';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  readLanguage,
  storeLanguage,
  type TLanguage,
} from '../lib/session/storage';

export const resources = { ja: { translation: ja }, en: { translation: en } } as const;

/**
 * The language to start in: `lang=en|ja` in the query wins and is stored, then the stored
 * choice, then Japanese (spec section 1).
 */
export function resolveInitialLanguage(search: string = window.location.search): TLanguage {
  const fromQuery = new URLSearchParams(search).get('lang');
  if (isLanguage(fromQuery)) {
    storeLanguage(fromQuery);
    return fromQuery;
  }
  return readLanguage() ?? DEFAULT_LANGUAGE;
}

export function initI18n(language: TLanguage = resolveInitialLanguage()) {
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['ja', 'en'],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  document.documentElement.lang = language;
  return i18next;
}

export function currentLanguage(): TLanguage {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/** Switches the console's language now and remembers it in this browser. */
export async function applyLanguage(language: TLanguage): Promise<void> {
  storeLanguage(language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}
