import {
  BLOCK_ALIGNS,
  DIVIDER_THICKNESSES,
  PALETTE_ITEMS,
  PERSONAL_TAG_KEYS,
  PREVIEW_WARNINGS,
  TEMPLATE_LANGUAGES,
  TEMPLATE_SORTS,
} from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../i18n/allTexts';

/** Keys the console builds from the contract's lists: a value added there needs its texts here. */
const keys = [
  ...PERSONAL_TAG_KEYS.map((key) => `tags.names.${key}`),
  ...PREVIEW_WARNINGS.map((code) => `warnings.${code}`),
  ...DIVIDER_THICKNESSES.map((thickness) => `divider.${thickness}`),
  ...PALETTE_ITEMS.map((item) => `blocks.${item}`),
  ...BLOCK_ALIGNS.map((align) => `align.${align}`),
  ...TEMPLATE_LANGUAGES.flatMap((language) => [`languages.${language}`, `languages.short_${language}`]),
  ...TEMPLATE_SORTS.map((sort) => `sorts.${sort.replace('-', 'desc_')}`),
];

function lookup(tree: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('template texts', () => {
  it.each(['ja', 'en'] as const)(
    'name every tag, warning, block, thickness, alignment, language and sort in %s',
    (language) => {
      const missing = keys.filter((key) => typeof lookup(ALL_TEXTS[language].templates, key) !== 'string');
      expect(missing).toEqual([]);
    },
  );
});
