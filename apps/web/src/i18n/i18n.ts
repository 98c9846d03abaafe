import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, readLanguage, storeLanguage, type TLanguage } from '../lib/session/storage';

type TCatalogue = Record<string, unknown>;

// One language is downloaded at start, the other only if the user switches to it.
const catalogues: Record<TLanguage, () => Promise<{ default: TCatalogue }>> = {
  ja: () => import('./ja.json'),
  en: () => import('./en.json'),
};

export async function loadLanguage(language: TLanguage): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  const catalogue = await catalogues[language]();
  i18next.addResourceBundle(language, 'translation', catalogue.default);
}

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

/** Starts i18next; tests pass both catalogues in `preloaded` to skip the downloads. */
export async function initI18n(
  language: TLanguage = resolveInitialLanguage(),
  preloaded?: Partial<Record<TLanguage, TCatalogue>>,
) {
  await i18next.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(preloaded ?? {}).map(([lng, t]) => [lng, { translation: t }])),
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['ja', 'en'],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  await loadLanguage(language);
  document.documentElement.lang = language;
  return i18next;
}

export function currentLanguage(): TLanguage {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

/** Switches the console's language now and remembers it in this browser. */
export async function applyLanguage(language: TLanguage): Promise<void> {
  storeLanguage(language);
  await loadLanguage(language);
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}
