import {
  STORED_IMAGE_PATTERN,
  type TPreviewWarning,
  type TTemplateContent,
  type TTemplateContents,
  type TTemplateLanguage,
} from '@yado/contracts';
import type { TConfig } from '../../config.ts';
import type { TLogoStore } from '../uploads/logo-store.ts';
import { compileMessage, type TCompiledMessage } from './render/compile.ts';

/**
 * The entry point for sending a template: choose the guest's language version, compile it once
 * per template version (kept in a small cache), then `personalise` (render/compile.ts) per
 * recipient with `personalValues` (render/personal-values.ts). The campaigns module calls these.
 */
export {
  personalise,
  type TCompiledMessage,
  type TPersonalValues,
  type TPersonalisedMessage,
} from './render/compile.ts';
export { personalValues, type TGuestData } from './render/personal-values.ts';

/**
 * A guest's language, as far as we know it: customers carry no language, so their country stands
 * for it (Japan, or none recorded: Japanese; elsewhere: English).
 */
export function guestLanguage(country: string | null | undefined): TTemplateLanguage {
  return !country || country.toUpperCase() === 'JP' ? 'ja' : 'en';
}

/** The version a guest of `language` receives: theirs if the template has it, else the default. */
export function chooseLanguage(
  template: { contents: TTemplateContents; defaultLanguage: TTemplateLanguage },
  language: TTemplateLanguage | null | undefined,
): TTemplateLanguage {
  return language && template.contents[language] ? language : template.defaultLanguage;
}

/** Stored images (`/files/logos/<name>`) by absolute address: the public bucket's, else ours. */
export function imageUrlResolver(
  config: Pick<TConfig, 'publicUrl'>,
  store: Pick<TLogoStore, 'publicUrl'>,
): (src: string) => string {
  return (src) => {
    if (!STORED_IMAGE_PATTERN.test(src)) return src;
    const name = src.slice(src.lastIndexOf('/') + 1);
    return store.publicUrl(name) ?? `${config.publicUrl}${src}`;
  };
}

const CACHE_SIZE = 200;
const cache = new Map<string, Promise<TCompiledMessage>>();

export interface TVersionedTemplate {
  id: string;
  version: number;
  defaultLanguage: TTemplateLanguage;
  contents: TTemplateContents;
}

/**
 * A template version compiled for a language; compiled once and remembered (the version changes
 * with every saved edit, so a remembered one is never stale).
 */
export function compiledTemplate(
  template: TVersionedTemplate,
  language: TTemplateLanguage,
  imageUrl: (src: string) => string,
): Promise<TCompiledMessage> {
  const chosen = chooseLanguage(template, language);
  const key = `${template.id}:${template.version}:${chosen}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const content = template.contents[chosen] as TTemplateContent;
  const compiled = compileMessage(content, chosen, imageUrl);
  cache.set(key, compiled);
  compiled.catch(() => cache.delete(key));
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return compiled;
}

/** Warnings of a compiled message for the language asked for (its absence is one). */
export function warningsFor(compiled: TCompiledMessage, asked: TTemplateLanguage): TPreviewWarning[] {
  return compiled.language === asked ? compiled.warnings : [{ code: 'language_missing' }, ...compiled.warnings];
}
