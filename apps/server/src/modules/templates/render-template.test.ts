import { emptyDocument } from '@yado/contracts';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, compiledTemplate, guestLanguage, imageUrlResolver } from './render-template.ts';

const version = (subject: string) => ({ subject, preheader: '', document: emptyDocument() });

describe('choosing the version a guest receives', () => {
  it("gives the guest's language where the template has it, else the default", () => {
    const both = { defaultLanguage: 'ja' as const, contents: { ja: version('ja'), en: version('en') } };
    const japaneseOnly = { defaultLanguage: 'ja' as const, contents: { ja: version('ja'), en: null } };
    expect(chooseLanguage(both, 'en')).toBe('en');
    expect(chooseLanguage(japaneseOnly, 'en')).toBe('ja');
    expect(chooseLanguage(both, null)).toBe('ja');
  });

  it('takes a guest from Japan, or of no known country, as Japanese', () => {
    expect(guestLanguage('JP')).toBe('ja');
    expect(guestLanguage(null)).toBe('ja');
    expect(guestLanguage('US')).toBe('en');
  });
});

describe('compiled templates', () => {
  it('are compiled once per version and language, and again after a change', async () => {
    const template = {
      id: 't1',
      version: 1,
      defaultLanguage: 'ja' as const,
      contents: { ja: version('一'), en: version('one') },
    };
    const url = (s: string) => s;
    const first = compiledTemplate(template, 'ja', url);
    expect(compiledTemplate(template, 'ja', url)).toBe(first);
    expect(compiledTemplate(template, 'en', url)).not.toBe(first);
    const changed = compiledTemplate(
      { ...template, version: 2, contents: { ...template.contents, ja: version('二') } },
      'ja',
      url,
    );
    expect(changed).not.toBe(first);
    expect((await changed).subject.statics).toEqual(['二']);
  });
});

describe('image addresses in mail', () => {
  it('are absolute: the public bucket when there is one, else PUBLIC_URL', () => {
    const src = `/files/logos/${'a'.repeat(64)}.png`;
    expect(imageUrlResolver({ publicUrl: 'https://yado.example' }, { publicUrl: () => null })(src)).toBe(
      `https://yado.example${src}`,
    );
    expect(
      imageUrlResolver(
        { publicUrl: 'https://yado.example' },
        { publicUrl: (n) => `https://cdn.example/logos/${n}` },
      )(src),
    ).toBe(`https://cdn.example/logos/${'a'.repeat(64)}.png`);
    expect(
      imageUrlResolver(
        { publicUrl: 'https://yado.example' },
        { publicUrl: () => null },
      )('https://elsewhere.example/a.png'),
    ).toBe('https://elsewhere.example/a.png');
  });
});
