import { describe, expect, it } from 'vitest';
import { readLanguage, storeLanguage } from '../lib/session/storage';
import { resolveInitialLanguage } from './i18n';

describe('starting language', () => {
  it('is Japanese when nothing is chosen', () => {
    expect(resolveInitialLanguage('')).toBe('ja');
  });

  it('is the stored choice otherwise', () => {
    storeLanguage('en');
    expect(resolveInitialLanguage('')).toBe('en');
  });

  it('follows lang in the query over the stored choice, and stores it', () => {
    storeLanguage('ja');
    expect(resolveInitialLanguage('?lang=en')).toBe('en');
    expect(readLanguage()).toBe('en');
    expect(document.cookie).toContain('language=en');
  });

  it('ignores a lang value it does not know', () => {
    expect(resolveInitialLanguage('?lang=fr')).toBe('ja');
  });
});
