import { useQuery } from '@tanstack/react-query';
import { FILTER_FIELDS, type TChoiceSource, type TFilterField } from '@yado/contracts/segments';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { fieldKey } from '../../../lib/i18n/fieldKey';
import { countriesQuery, prefecturesQuery } from '../../customers/api/locationsCalls';
import { useProfile } from '../../shell/hooks/useProfile';
import { localName, placeChoices } from '../../customers/locationNames';
import { fieldValuesQuery } from '../api/segmentsCalls';
import { roomTypeText } from '../../ui/text/roomTypeText';
import { bookingSourceText } from '../../ui/text/bookingSourceText';

export interface TChoice {
  value: string;
  label: string;
}

type TFieldDef = { type: string; source?: TChoiceSource; options?: readonly string[] };
const defOf = (field: TFilterField) => FILTER_FIELDS[field] as TFieldDef;

/** The acting host's hotels as choices: to pick them in a filter, or to name them in its summary. */
export function useHotelChoices(enabled: boolean): TChoice[] {
  const can = useProfile().entitlements;
  const hotels = useQuery(fieldValuesQuery('hotels', enabled && can['segmentation.read']));
  return hotels.data ?? [];
}

/**
 * The choices of every choice field, each list fetched only once something needs it: the host's
 * hotels, room types and booking sources seen in its bookings, the location lists, and the
 * fixed options in the console's language.
 */
export function useChoiceOptions(sources: ReadonlySet<TChoiceSource>) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const can = useProfile().entitlements;
  // Room types and booking sources are their own labels: a reader needs no list to read them.
  const builds = can['segmentation.create'] || can['segmentation.update'];
  const hotels = useHotelChoices(sources.has('hotels'));
  const roomTypes = useQuery(fieldValuesQuery('room_types', builds && sources.has('room_types')));
  const bookingSources = useQuery(fieldValuesQuery('booking_sources', builds && sources.has('booking_sources')));
  const prefectures = useQuery(prefecturesQuery(sources.has('prefectures')));
  const countries = useQuery({ ...countriesQuery(), enabled: sources.has('countries') });

  return (field: TFilterField): TChoice[] => {
    const def = defOf(field);
    switch (def.source) {
      case 'options':
        return (def.options ?? []).map((value) => ({
          value,
          label: t(`segmentation.options.${fieldKey(field)}.${value}`),
        }));
      case 'hotels':
        return hotels;
      case 'room_types':
        return (roomTypes.data ?? []).map((choice) => ({ ...choice, label: roomTypeText(choice.value, t) }));
      case 'booking_sources':
        return (bookingSources.data ?? []).map((choice) => ({ ...choice, label: bookingSourceText(choice.value, t) }));
      case 'prefectures':
        return placeChoices(prefectures.data, '', language);
      case 'countries':
        return (countries.data ?? []).map((c) => ({ value: c.code, label: localName(c, language) }));
      default:
        return [];
    }
  };
}

/** The choice sources the fields of a filter read. */
export function sourcesOf(fields: Iterable<string>): Set<TChoiceSource> {
  const sources = new Set<TChoiceSource>();
  for (const field of fields) {
    const source = (FILTER_FIELDS as Record<string, TFieldDef>)[field]?.source;
    if (source) sources.add(source);
  }
  return sources;
}
