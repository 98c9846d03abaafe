import { describe, expect, it } from 'vitest';
import serverEn from './en.json' with { type: 'json' };
import serverJa from './ja.json' with { type: 'json' };
import mailEn from '../mail/messages/en.json' with { type: 'json' };
import mailJa from '../mail/messages/ja.json' with { type: 'json' };

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('server catalogues', () => {
  it.each([
    ['csv and labels', serverJa, serverEn],
    ['mail', mailJa, mailEn],
  ])('%s hold the same keys in Japanese and English, none empty', (_name, ja, en) => {
    expect(keys(ja).sort()).toEqual(keys(en).sort());
    for (const k of keys(ja)) {
      const read = (o: object) =>
        k.split('.').reduce<unknown>((acc, part) => (acc as Record<string, unknown>)[part], o);
      expect(String(read(ja)).length, k).toBeGreaterThan(0);
      expect(String(read(en)).length, k).toBeGreaterThan(0);
    }
  });
});
