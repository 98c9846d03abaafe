import type { TCity, TCountry, TPrefecture } from '@yado/contracts/locations';
import type { TLanguage } from '../../lib/session/storage';

type TNamed = { name: { ja: string; en: string } };

/** The name of a list entry in the console's language. */
export const localName = (entry: TNamed, language: TLanguage) => entry.name[language];

export function findCountry(countries: TCountry[] | undefined, code: string | null): TCountry | undefined {
  return code ? countries?.find((c) => c.code === code.toUpperCase()) : undefined;
}

/** Customers store Japanese names for prefecture and city; the lists find them by that name. */
export function findByStoredName<T extends TPrefecture | TCity>(
  list: T[] | undefined,
  stored: string | null,
): T | undefined {
  return stored ? list?.find((entry) => entry.name.ja === stored) : undefined;
}

/**
 * A stored prefecture or city as the reader should see it: the English name in the English
 * console when the list knows the place, otherwise what is stored.
 */
export function placeName(
  list: (TPrefecture | TCity)[] | undefined,
  stored: string | null,
  language: TLanguage,
): string | null {
  if (!stored) return null;
  const entry = findByStoredName(list, stored);
  return entry ? localName(entry, language) : stored;
}

/**
 * Select choices for a prefecture or city: value is the stored (Japanese) name, label the name in
 * the console's language. A stored value the list does not know stays a choice, so an edit keeps it.
 */
export function placeChoices(
  list: (TPrefecture | TCity)[] | undefined,
  stored: string,
  language: TLanguage,
): { value: string; label: string }[] {
  const choices: { value: string; label: string }[] = [];
  const seen = new Set<string>();
  // Two places may share a name (Hokkaido has two 泊村); the stored name cannot tell them apart.
  for (const entry of list ?? []) {
    if (seen.has(entry.name.ja)) continue;
    seen.add(entry.name.ja);
    choices.push({ value: entry.name.ja, label: localName(entry, language) });
  }
  if (stored && !choices.some((c) => c.value === stored)) choices.unshift({ value: stored, label: stored });
  return choices;
}
