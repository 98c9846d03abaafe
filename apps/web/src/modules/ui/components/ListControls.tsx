import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { SearchInput } from './SearchInput';

/** The row above a list: the search box, then the list's filter and sort selects. */
export function ListToolbar({
  search,
  onSearch,
  searchPlaceholder,
  searchResetKey,
  children,
}: {
  /** The search already applied. */
  search: string;
  onSearch: (text: string) => void;
  searchPlaceholder: string;
  /** Changing it empties the search box (the list's filters were cleared). */
  searchResetKey?: unknown;
  children: ReactNode;
}) {
  return (
    <Group gap="sm" align="flex-end">
      <div style={{ flex: 1, minWidth: 240 }}>
        <SearchInput
          initialText={search}
          onSearch={onSearch}
          placeholder={searchPlaceholder}
          resetKey={searchResetKey}
        />
      </div>
      {children}
    </Group>
  );
}

export interface TFilterOption<V extends string> {
  value: V;
  label: string;
  /** How many the list holds with this value, shown after the label when known. */
  count?: number;
}

/**
 * One filter or sort of a list. With `allLabel`, a first option '' stands for no filter (then `V`
 * includes ''); a value's count, when given, shows after its label ("Sent (12)").
 */
export function FilterSelect<V extends string>({
  label,
  name,
  value,
  options,
  allLabel,
  onChange,
}: {
  label: string;
  name: string;
  value: V;
  options: TFilterOption<V>[];
  allLabel?: string;
  onChange: (value: V) => void;
}) {
  return (
    <NativeSelect
      label={label}
      name={name}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value as V)}
      data={[
        ...(allLabel === undefined ? [] : [{ value: '', label: allLabel }]),
        ...options.map((option) => ({
          value: option.value,
          label: option.count === undefined ? option.label : `${option.label} (${option.count})`,
        })),
      ]}
    />
  );
}

/**
 * The line under a list: which rows show of how many, and the previous and next page buttons.
 * Its texts are the catalogue's `<texts>.range`, `.previous`, `.page` and `.next`.
 */
export function ListPager({
  texts,
  testId,
  page,
  pageSize,
  query,
  onPage,
}: {
  texts: string;
  /** Names `<testId>-pager` and `<testId>-range` for tests. */
  testId: string;
  page: number;
  pageSize: number;
  /** The list's query: its page (undefined while the first loads), and whether that is still the previous page. */
  query: { data?: { items: readonly unknown[]; total: number }; isPlaceholderData: boolean };
  onPage: (page: number) => void;
}) {
  const shown = query.data?.items.length ?? 0;
  const total = query.data?.total;
  const { t } = useTranslation();
  const language = currentLanguage();
  const from = (page - 1) * pageSize + 1;
  const lastPage = total === undefined ? 1 : Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" data-testid={`${testId}-pager`}>
      <Text size="sm" c="dimmed" data-testid={`${testId}-range`}>
        {total !== undefined && shown > 0
          ? t(`${texts}.range`, {
              from,
              to: from + shown - 1,
              total: total.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
            })
          : ''}
      </Text>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconChevronLeft size={16} />}
          disabled={page === 1}
          onClick={() => onPage(page - 1)}
        >
          {t(`${texts}.previous`)}
        </Button>
        <Text size="sm">{t(`${texts}.page`, { page })}</Text>
        <Button
          variant="default"
          rightSection={<IconChevronRight size={16} />}
          disabled={page >= lastPage || query.isPlaceholderData}
          onClick={() => onPage(page + 1)}
        >
          {t(`${texts}.next`)}
        </Button>
      </Group>
    </Group>
  );
}
