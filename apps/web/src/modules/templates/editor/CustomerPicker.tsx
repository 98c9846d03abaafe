import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import * as customersApi from '@yado/contracts/customers';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../lib/http/request';
import { SEARCH_DEBOUNCE_MS } from '../../ui/components/SearchInput';

/** A customer whose data fills the personal tags of a preview or test (none: the fallbacks). */
export function CustomerPicker({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const customers = useQuery({
    queryKey: ['customers', 'template-preview', debounced],
    queryFn: ({ signal }) =>
      request(customersApi.list, { query: { search: debounced || undefined, sort: 'name', limit: 20 }, signal }),
    staleTime: 30_000,
  });
  const options = (customers.data?.items ?? []).map((c) => ({
    value: c.id,
    label: c.email ? `${c.fullName} <${c.email}>` : c.fullName,
  }));
  const data = chosen && !options.some((o) => o.value === chosen.value) ? [chosen, ...options] : options;
  return (
    <Select
      label={t('templates.preview.customer')}
      placeholder={t('templates.preview.no_customer')}
      searchable
      clearable
      nothingFoundMessage={t('ui.empty.no_data')}
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      onChange={(id, option) => {
        setChosen(option ?? null);
        onChange(id);
      }}
      data-testid="preview-customer"
      w={300}
    />
  );
}
