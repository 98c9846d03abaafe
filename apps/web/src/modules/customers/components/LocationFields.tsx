import { Group, Image, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { citiesQuery, countriesQuery, prefecturesQuery } from '../api/locationsCalls';
import { usesJapaneseLists, type TCustomerFormErrors, type TCustomerFormValues } from '../customerForm';
import { findByStoredName, localName, placeChoices } from '../locationNames';

type TLocationField = 'country' | 'prefecture' | 'city';

export interface TLocationFieldsProps {
  values: Pick<TCustomerFormValues, TLocationField>;
  errors: TCustomerFormErrors;
  onChange: (field: TLocationField, value: string) => void;
}

function Flag({ url }: { url: string }) {
  return <Image src={url} alt="" w={20} h={14} fit="cover" radius={2} loading="lazy" />;
}

/**
 * Country (flag, name in the console's language, calling code), then prefecture and city from
 * Japan's lists for Japanese addresses, free text for other countries. Stored values are the
 * ISO code and the Japanese place names.
 */
export function LocationFields({ values, errors, onChange }: TLocationFieldsProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const japanese = usesJapaneseLists(values.country);
  const countries = useQuery(countriesQuery());
  const prefectures = useQuery(prefecturesQuery(japanese));
  const prefecture = findByStoredName(prefectures.data, values.prefecture || null);
  const cities = useQuery(citiesQuery(japanese && prefecture ? prefecture.code : null));

  const countryChoices = useMemo(
    () => (countries.data ?? []).map((c) => ({ value: c.code, label: `${localName(c, language)} +${c.callingCode}` })),
    [countries.data, language],
  );
  const flagOf = (code: string) => countries.data?.find((c) => c.code === code)?.flagUrl;
  const selectedFlag = flagOf(values.country);
  const error = (field: TLocationField) => (errors[field] ? t(errors[field]) : null);
  const common = {
    searchable: true,
    clearable: true,
    nothingFoundMessage: t('customers.form.no_match'),
    placeholder: t('customers.form.choose'),
    comboboxProps: { withinPortal: true },
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        {...common}
        label={t('customers.fields.country')}
        name="country"
        data={countryChoices}
        value={values.country || null}
        onChange={(value) => onChange('country', value ?? '')}
        leftSection={selectedFlag ? <Flag url={selectedFlag} /> : undefined}
        renderOption={({ option }) => {
          const flag = flagOf(option.value);
          return (
            <Group gap="xs" wrap="nowrap">
              {flag && <Flag url={flag} />}
              <Text size="sm">{option.label}</Text>
            </Group>
          );
        }}
        error={error('country')}
        data-testid="country-select"
      />
      {japanese ? (
        <>
          <Select
            {...common}
            label={t('customers.fields.prefecture')}
            name="prefecture"
            data={placeChoices(prefectures.data, values.prefecture, language)}
            value={values.prefecture || null}
            onChange={(value) => onChange('prefecture', value ?? '')}
            error={error('prefecture')}
          />
          <Select
            {...common}
            label={t('customers.fields.city')}
            name="city"
            data={placeChoices(cities.data, values.city, language)}
            value={values.city || null}
            onChange={(value) => onChange('city', value ?? '')}
            disabled={!values.prefecture}
            error={error('city')}
          />
        </>
      ) : (
        <>
          <TextInput
            label={t('customers.fields.prefecture')}
            name="prefecture"
            value={values.prefecture}
            onChange={(event) => onChange('prefecture', event.currentTarget.value)}
            error={error('prefecture')}
          />
          <TextInput
            label={t('customers.fields.city')}
            name="city"
            value={values.city}
            onChange={(event) => onChange('city', event.currentTarget.value)}
            error={error('city')}
          />
        </>
      )}
    </SimpleGrid>
  );
}
