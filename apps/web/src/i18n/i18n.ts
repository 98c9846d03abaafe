import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, readLanguage, storeLanguage, type TLanguage } from '../lib/session/storage';

type TCatalogue = Record<string, unknown>;

// One language is downloaded at start, the other only if the user switches to it.
const catalogues: Record<TLanguage, () => Promise<{ default: TCatalogue }>> = {
  ja: () => import('./ja.json'),
  en: () => import('./en.json'),
};

/**
 * The console's error texts of the email-marketing areas (console/<language>.json, under `errors`):
 * needed only once signed in, so the shell downloads them and the first page does not.
 */
const consoleCatalogues: Record<TLanguage, () => Promise<{ default: TCatalogue }>> = {
  ja: () => import('./console/ja.json'),
  en: () => import('./console/en.json'),
};
let consoleLoaded = false;

async function addConsole(language: TLanguage): Promise<void> {
  const catalogue = await consoleCatalogues[language]();
  i18next.addResourceBundle(language, 'translation', catalogue.default, true, false);
}

/** Makes the signed-in console's texts available in the current language (and any later one). */
export async function loadConsoleTexts(): Promise<void> {
  if (consoleLoaded) return;
  await addConsole(currentLanguage());
  consoleLoaded = true;
}

/**
 * The texts of each area (areas/<area>/<language>.json, one top-level key named after the area)
 * are separate chunks, downloaded when a page of the area is first opened: the first page loads
 * only the core catalogue.
 */
const areaCatalogues = import.meta.glob<{ default: TCatalogue }>('./areas/*/*.json');
const loadedAreas = new Set<string>();

async function addArea(language: TLanguage, area: string): Promise<void> {
  const load = areaCatalogues[`./areas/${area}/${language}.json`];
  if (!load) throw new Error(`No texts for area ${area} in ${language}`);
  const catalogue = await load();
  i18next.addResourceBundle(language, 'translation', catalogue.default, true, false);
}

/** Makes the texts of these areas available in the current language (and any later one). */
export async function loadAreaTexts(...areas: string[]): Promise<void> {
  const missing = areas.filter((area) => !loadedAreas.has(area));
  if (missing.length === 0) return;
  await Promise.all(missing.map((area) => addArea(currentLanguage(), area)));
  for (const area of missing) loadedAreas.add(area);
}

export async function loadLanguage(language: TLanguage): Promise<void> {
  if (!i18next.hasResourceBundle(language, 'translation')) {
    const catalogue = await catalogues[language]();
    i18next.addResourceBundle(language, 'translation', catalogue.default, true, false);
  }
  await Promise.all([
    ...(consoleLoaded ? [addConsole(language)] : []),
    ...[...loadedAreas].map((area) => addArea(language, area)),
  ]);
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
