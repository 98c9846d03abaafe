import { ERROR_MESSAGES, ERROR_MESSAGES_MANY } from '@yado/contracts/errors';
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ALL_TEXTS, AREA_TEXTS } from './allTexts';
import coreEn from './en.json';
import coreJa from './ja.json';
import consoleEn from './console/en.json';
import consoleJa from './console/ja.json';

const { en, ja } = ALL_TEXTS;

function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (tree && typeof tree === 'object' && !Array.isArray(tree)) {
    for (const [key, value] of Object.entries(tree)) {
      for (const [k, v] of leaves(value, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
    }
  } else {
    out.set(prefix, tree);
  }
  return out;
}

describe('language catalogues', () => {
  const enLeaves = leaves(en);
  const jaLeaves = leaves(ja);

  it('give each area its own top-level key, taken by no other catalogue, and list every area in allTexts', () => {
    const onDisk = readdirSync(join(import.meta.dirname, 'areas')).sort();
    expect(Object.keys(AREA_TEXTS).sort()).toEqual(onDisk);
    for (const [area, texts] of Object.entries(AREA_TEXTS)) {
      expect(Object.keys(texts.en), area).toEqual([area]);
      expect(Object.keys(texts.ja), area).toEqual([area]);
      expect(Object.keys(coreEn), area).not.toContain(area);
      expect(Object.keys(coreJa), area).not.toContain(area);
    }
  });

  it('hold exactly the same keys in ja.json and en.json', () => {
    const onlyEn = [...enLeaves.keys()].filter((k) => !jaLeaves.has(k));
    const onlyJa = [...jaLeaves.keys()].filter((k) => !enLeaves.has(k));
    expect({ onlyEn, onlyJa }).toEqual({ onlyEn: [], onlyJa: [] });
  });

  it('have a non-empty text for every key, with the same placeholders in both languages', () => {
    for (const [key, value] of enLeaves) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
      const ja = jaLeaves.get(key) as string;
      expect(typeof ja, key).toBe('string');
      expect(ja.trim(), key).not.toBe('');
      const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(placeholders(ja), key).toEqual(placeholders(value as string));
    }
  });

  it('keep the signed-in console error texts apart from the first page, each error in one place', () => {
    for (const [core, console] of [
      [coreEn, consoleEn],
      [coreJa, consoleJa],
    ] as const) {
      expect(Object.keys(console)).toEqual(['errors']);
      for (const code of Object.keys(console.errors)) expect(Object.keys(core.errors), code).not.toContain(code);
    }
    expect(Object.keys(consoleJa.errors).sort()).toEqual(Object.keys(consoleEn.errors).sort());
  });

  it('use snake_case keys nested by area', () => {
    for (const key of enLeaves.keys()) expect(key).toMatch(/^[a-z_]+(\.[a-z0-9_]+)+$/);
  });

  it('translate every error code of the contracts, with the specification English verbatim', () => {
    for (const [code, message] of Object.entries(ERROR_MESSAGES)) {
      expect(enLeaves.get(`errors.${code}`), code).toBe(message);
      expect(jaLeaves.has(`errors.${code}`), code).toBe(true);
    }
    // The text naming more than one (a list param) is the code's plural form.
    for (const [code, message] of Object.entries(ERROR_MESSAGES_MANY)) {
      expect(enLeaves.get(`errors.${code}_other`), code).toBe(message);
      expect(jaLeaves.has(`errors.${code}_other`), code).toBe(true);
    }
  });

  it('carry the specification texts the shell shows', () => {
    expect(en.shell.toast.logged_in).toBe('logged in successfully');
    expect(en.shell.toast.switched_role).toBe('successfully switched role');
    expect(en.shell.menu.switch_to_english).toBe('Switch to English');
    expect(en.shell.menu.switch_to_japanese).toBe('Switch to Japanese');
    expect(en.validation.required).toBe('Please fill out this field.');
    expect(en.validation.password_mismatch).toBe('Please enter the matched password.');
  });
});
