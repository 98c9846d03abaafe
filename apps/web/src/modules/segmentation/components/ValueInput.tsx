import { Group, MultiSelect, NativeSelect, NumberInput, Text, TextInput } from '@mantine/core';
import { FILTER_FIELDS, type TFilterCondition, type TFilterValue } from '@yado/contracts/segments';
import { useTranslation } from 'react-i18next';
import type { TChoice } from '../hooks/useChoiceOptions';

const numberOrBlank = (value: string | number) => (typeof value === 'number' ? value : '');
const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

/** The value part of a condition, shaped by its field's type and its operator. */
export function ValueInput({
  condition,
  choices,
  invalid,
  readOnly,
  onChange,
}: {
  condition: TFilterCondition;
  choices: TChoice[];
  invalid: boolean;
  readOnly: boolean;
  onChange: (value: TFilterValue) => void;
}) {
  const { t } = useTranslation();
  const { field, operator, value } = condition;
  const type = FILTER_FIELDS[field].type;
  const label = t('segmentation.builder.value');
  const error = invalid ? true : undefined;
  const common = { 'aria-label': label, error, readOnly, size: 'sm' as const };

  if (operator === 'all') {
    return (
      <Text size="sm" c="dimmed" py={6}>
        {t('segmentation.builder.any_value')}
      </Text>
    );
  }
  if (type === 'choice') {
    return (
      <MultiSelect
        {...common}
        data={choices}
        value={Array.isArray(value) ? value.map(String) : []}
        onChange={(next) => onChange(next)}
        placeholder={Array.isArray(value) && value.length > 0 ? undefined : t('segmentation.builder.choose_many')}
        nothingFoundMessage={t('segmentation.builder.no_match')}
        searchable
        clearable={!readOnly}
        maxDropdownHeight={260}
        comboboxProps={{ withinPortal: true }}
        data-testid="value-choices"
        miw={240}
      />
    );
  }
  if (operator === 'between') {
    const [from, to] = Array.isArray(value) ? value : ['', ''];
    const set = (index: 0 | 1, next: string | number) => {
      const pair: (string | number)[] = [from ?? '', to ?? ''];
      pair[index] = next;
      onChange(pair);
    };
    return (
      <Group gap={6} wrap="nowrap" data-testid="value-between">
        {type === 'date' ? (
          <>
            <TextInput
              {...common}
              type="date"
              aria-label={t('segmentation.builder.from')}
              value={String(from ?? '')}
              onChange={(e) => set(0, e.currentTarget.value)}
            />
            <Text size="sm">–</Text>
            <TextInput
              {...common}
              type="date"
              aria-label={t('segmentation.builder.to')}
              value={String(to ?? '')}
              onChange={(e) => set(1, e.currentTarget.value)}
            />
          </>
        ) : (
          <>
            <NumberInput
              {...common}
              aria-label={t('segmentation.builder.from')}
              value={numberOrBlank(from ?? '')}
              onChange={(v) => set(0, v)}
              thousandSeparator=","
              w={130}
            />
            <Text size="sm">–</Text>
            <NumberInput
              {...common}
              aria-label={t('segmentation.builder.to')}
              value={numberOrBlank(to ?? '')}
              onChange={(v) => set(1, v)}
              thousandSeparator=","
              w={130}
            />
          </>
        )}
      </Group>
    );
  }
  if (type === 'date' && operator === 'is') {
    return (
      <TextInput
        {...common}
        type="date"
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  if (operator === 'month_is') {
    return (
      <NativeSelect
        {...common}
        value={typeof value === 'number' ? String(value) : ''}
        onChange={(e) => onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        data={[
          { value: '', label: t('segmentation.builder.choose') },
          ...MONTHS.map((m) => ({ value: String(m), label: String(m) })),
        ]}
        w={130}
      />
    );
  }
  if (type === 'text') {
    return (
      <TextInput
        {...common}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.currentTarget.value)}
        miw={200}
      />
    );
  }
  // Numbers: a number field's value, a day, a year, or a count of days.
  const days = operator === 'in_last_days' || operator === 'in_next_days';
  return (
    <NumberInput
      {...common}
      aria-label={days ? t('segmentation.builder.days') : label}
      value={typeof value === 'number' ? value : ''}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
      thousandSeparator={operator === 'year_is' ? undefined : ','}
      allowDecimal={false}
      w={days || operator === 'day_is' || operator === 'year_is' ? 130 : 180}
      rightSection={
        field === 'amount' ? (
          <Text size="xs" c="dimmed">
            ¥
          </Text>
        ) : undefined
      }
    />
  );
}
