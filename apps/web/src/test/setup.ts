import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { initI18n } from '../i18n/i18n';
import { ALL_TEXTS } from '../i18n/allTexts';
import { currentSnackbars, hideSnackbar } from '../modules/ui/components/snackbarStore';

// jsdom lacks what Mantine measures with.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
// Mantine's autosizing Textarea (the scenario settings' description) listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });
}
Element.prototype.scrollTo ??= function scrollTo() {};
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

beforeAll(async () => {
  await initI18n('en', { en: ALL_TEXTS.en, ja: ALL_TEXTS.ja });
});

// The web layer runs its files in one module graph per worker (vitest.config.ts, isolate: false):
// what a module keeps between renders is emptied after each test, so no file sees another's.
afterEach(() => {
  cleanup();
  for (const left of currentSnackbars()) hideSnackbar(left.id);
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});
