import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { IconPlus, IconSitemap, IconTrash } from '@tabler/icons-react';
import {
  FILTER_FIELD_NAMES,
  FILTER_MAX_CONDITIONS,
  isBookingField,
  type TFilter,
  type TFilterCondition,
  type TFilterFaultCode,
  type TFilterField,
  type TFilterGroup,
  type TFilterJoin,
  type TOperator,
} from '@yado/contracts/segments';
import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import {
  canAddCondition,
  canAddSubgroup,
  conditionCount,
  hasField,
  hasBookingConditions,
  levelOf,
  operatorsFor,
  type TDraftAction,
} from '../filterDraft';
import { fieldKey } from '../../../lib/i18n/fieldKey';
import { sourcesOf, useChoiceOptions, type TChoice } from '../hooks/useChoiceOptions';
import type { TLiveCount } from '../hooks/useLiveCount';
import { TwoOptionToggle } from '../../ui/components/TwoOptionToggle';
import { ValueInput } from './ValueInput';

export interface TFilterBuilderProps {
  filter: TFilter;
  dispatch: Dispatch<TDraftAction>;
  /** Faults to show, by place (`groups.0.items.1`, `groups.0`, `filter`). */
  marks: Map<string, TFilterFaultCode[]>;
  live?: TLiveCount;
  readOnly?: boolean;
}

type TChoicesOf = (field: TFilterField) => TChoice[];

const customerFields = FILTER_FIELD_NAMES.filter((f) => !isBookingField(f));
const bookingFields = FILTER_FIELD_NAMES.filter((f) => isBookingField(f));

function fieldsIn(filter: TFilter): string[] {
  const out: string[] = [];
  const walk = (items: (TFilterCondition | TFilterGroup)[]) =>
    items.forEach((item) => (item.kind === 'group' ? walk(item.items) : hasField(item) && out.push(item.field)));
  filter.groups.forEach((g) => walk(g.items));
  return out;
}

/**
 * The filter builder: groups joined by and/or, each holding conditions joined by and/or and
 * nested groups (3 levels, 50 conditions), with the live audience of the whole and of each group.
 */
export function FilterBuilder({ filter, dispatch, marks, live, readOnly = false }: TFilterBuilderProps) {
  const { t } = useTranslation();
  const choicesOf = useChoiceOptions(sourcesOf(fieldsIn(filter)));
  const used = conditionCount(filter);
  const docFaults = marks.get('filter');

  return (
    <Stack gap="sm" data-testid="filter-builder">
      {filter.groups.length > 1 && (
        <JoinControl
          label={t('segmentation.builder.groups_joined_by')}
          value={filter.join}
          readOnly={readOnly}
          onChange={(join) => dispatch({ type: 'set_join', join })}
          testId="filter-join"
        />
      )}
      {docFaults && docFaults.length > 0 && <FaultText codes={docFaults} />}
      {filter.groups.map((group, index) => (
        <Box key={group.id ?? index}>
          {index > 0 && (
            <Divider
              my={4}
              label={
                <Badge variant="light" color="grape">
                  {t(`segmentation.builder.join.${filter.join}`)}
                </Badge>
              }
              labelPosition="center"
            />
          )}
          <GroupCard
            group={group}
            path={`groups.${index}`}
            title={t('segmentation.builder.group', { number: index + 1 })}
            filter={filter}
            dispatch={dispatch}
            marks={marks}
            choicesOf={choicesOf}
            readOnly={readOnly}
            live={live}
            removable={filter.groups.length > 1}
          />
        </Box>
      ))}
      {!readOnly && (
        <Group justify="space-between">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={!canAddCondition(filter)}
            onClick={() => dispatch({ type: 'add_group' })}
            data-testid="add-group"
          >
            {t('segmentation.builder.add_group')}
          </Button>
          <Text size="xs" c={used >= FILTER_MAX_CONDITIONS ? 'red' : 'dimmed'} data-testid="condition-limit">
            {t('segmentation.builder.limits', { count: used, max: FILTER_MAX_CONDITIONS })}
          </Text>
        </Group>
      )}
    </Stack>
  );
}

function JoinControl({
  label,
  value,
  readOnly,
  onChange,
  testId,
}: {
  label: string;
  value: TFilterJoin;
  readOnly: boolean;
  onChange: (join: TFilterJoin) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div data-testid={testId}>
        <TwoOptionToggle
          ariaLabel={label}
          value={value}
          disabled={readOnly}
          onChange={onChange}
          options={[
            { value: 'and', label: t('segmentation.builder.join.and') },
            { value: 'or', label: t('segmentation.builder.join.or') },
          ]}
        />
      </div>
    </Group>
  );
}

function FaultText({ codes }: { codes: TFilterFaultCode[] }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="red" data-testid="filter-fault">
      {[...new Set(codes)].map((code) => t(`segmentation.faults.${code}`)).join(' ')}
    </Text>
  );
}

function GroupCard({
  group,
  path,
  title,
  filter,
  dispatch,
  marks,
  choicesOf,
  readOnly,
  live,
  removable,
}: {
  group: TFilterGroup;
  path: string;
  title: string;
  filter: TFilter;
  dispatch: Dispatch<TDraftAction>;
  marks: Map<string, TFilterFaultCode[]>;
  choicesOf: TChoicesOf;
  readOnly: boolean;
  live?: TLiveCount;
  removable: boolean;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const level = levelOf(path);
  const count = live?.waiting ? undefined : live?.groupCount(group.id, path);
  const counting = live?.counting ?? false;
  const faults = marks.get(path);
  const bookings = group.bookings ?? { quantifier: 'at_least' as const, count: 1 };
  const topLevel = level === 1;

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      bg={topLevel ? undefined : 'gray.0'}
      style={faults ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
      data-testid={topLevel ? 'filter-group' : 'filter-subgroup'}
      data-path={path}
      data-invalid={faults ? 'true' : undefined}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm">
            <Text fw={600} size="sm">
              {title}
            </Text>
            {group.items.length > 1 && (
              <JoinControl
                label={t('segmentation.builder.conditions_joined_by')}
                value={group.join}
                readOnly={readOnly}
                onChange={(join) => dispatch({ type: 'set_group_join', path, join })}
                testId="group-join"
              />
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {count !== undefined && (
              <Badge
                variant="light"
                color={counting ? 'gray' : 'blue'}
                size={topLevel ? 'lg' : 'md'}
                tt="none"
                data-testid={topLevel ? 'group-count' : 'subgroup-count'}
                data-count={counting ? undefined : count}
              >
                {t('segmentation.count.group', {
                  audience: count.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
                })}
              </Badge>
            )}
            {!readOnly && removable && (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('segmentation.builder.remove_group')}
                onClick={() => dispatch({ type: 'remove', path })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        </Group>
        {faults && faults.length > 0 && <FaultText codes={faults} />}
        {group.items.map((item, index) => {
          const itemPath = `${path}.items.${index}`;
          return item.kind === 'group' ? (
            <GroupCard
              key={item.id ?? index}
              group={item}
              path={itemPath}
              title={t('segmentation.builder.subgroup')}
              filter={filter}
              dispatch={dispatch}
              marks={marks}
              choicesOf={choicesOf}
              readOnly={readOnly}
              live={live}
              removable
            />
          ) : (
            <ConditionRow
              key={item.id ?? index}
              condition={item}
              path={itemPath}
              dispatch={dispatch}
              faults={marks.get(itemPath)}
              choices={hasField(item) ? choicesOf(item.field) : []}
              readOnly={readOnly}
              removable={group.items.length > 1 || !topLevel}
            />
          );
        })}
        {hasBookingConditions(group) && (
          <Group gap="xs" data-testid="booking-match">
            <Text size="xs" c="dimmed" style={{ flexBasis: '100%' }}>
              {t('segmentation.builder.bookings_note')}
            </Text>
            <NativeSelect
              size="xs"
              aria-label={t('segmentation.builder.quantifier')}
              value={bookings.quantifier}
              disabled={readOnly}
              onChange={(e) =>
                dispatch({
                  type: 'set_bookings',
                  path,
                  bookings: { ...bookings, quantifier: e.currentTarget.value as 'at_least' | 'none' },
                })
              }
              data={(['at_least', 'none'] as const).map((q) => ({
                value: q,
                label: t(`segmentation.builder.quantifiers.${q}`),
              }))}
              data-testid="booking-quantifier"
            />
            {bookings.quantifier === 'at_least' && (
              <>
                <NumberInput
                  size="xs"
                  w={80}
                  min={1}
                  max={1000}
                  allowDecimal={false}
                  readOnly={readOnly}
                  aria-label={t('segmentation.builder.such_bookings', { count: bookings.count })}
                  value={bookings.count}
                  onChange={(v) =>
                    dispatch({
                      type: 'set_bookings',
                      path,
                      bookings: { ...bookings, count: Math.min(1000, Math.max(1, Number(v) || 1)) },
                    })
                  }
                  data-testid="booking-count"
                />
                <Text size="sm">{t('segmentation.builder.such_bookings', { count: bookings.count })}</Text>
              </>
            )}
          </Group>
        )}
        {!readOnly && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconPlus size={14} />}
              disabled={!canAddCondition(filter)}
              onClick={() => dispatch({ type: 'add_condition', path })}
              data-testid="add-condition"
            >
              {t('segmentation.builder.add_condition')}
            </Button>
            {canAddSubgroup(filter, path) && (
              <Button
                size="xs"
                variant="subtle"
                color="gray"
                leftSection={<IconSitemap size={14} />}
                onClick={() => dispatch({ type: 'add_subgroup', path })}
              >
                {t('segmentation.builder.add_subgroup')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ConditionRow({
  condition,
  path,
  dispatch,
  faults,
  choices,
  readOnly,
  removable,
}: {
  condition: TFilterCondition;
  path: string;
  dispatch: Dispatch<TDraftAction>;
  faults: TFilterFaultCode[] | undefined;
  choices: TChoice[];
  readOnly: boolean;
  removable: boolean;
}) {
  const { t } = useTranslation();
  const invalid = Boolean(faults);
  const fieldOption = (field: TFilterField) => ({ value: field, label: t(`segmentation.fields.${fieldKey(field)}`) });
  const chosen = hasField(condition);
  return (
    <Box data-testid="filter-condition" data-path={path} data-invalid={invalid ? 'true' : undefined}>
      <Group gap="xs" align="flex-start" wrap="wrap">
        <NativeSelect
          size="sm"
          aria-label={t('segmentation.builder.field')}
          name="field"
          value={condition.field}
          disabled={readOnly}
          error={faults?.some((c) => c === 'unknown_field') ? true : undefined}
          onChange={(e) => dispatch({ type: 'set_field', path, field: e.currentTarget.value as TFilterField })}
          data={[
            // A new condition has no field until the user picks one: the prompt stands for it.
            ...(chosen ? [] : [{ value: '', label: t('segmentation.builder.choose_field'), disabled: true }]),
            { group: t('segmentation.builder.customer_fields'), items: customerFields.map(fieldOption) },
            { group: t('segmentation.builder.booking_fields'), items: bookingFields.map(fieldOption) },
          ]}
          miw={200}
        />
        {chosen && (
          <>
            <NativeSelect
              size="sm"
              aria-label={t('segmentation.builder.operator')}
              name="operator"
              value={condition.operator}
              disabled={readOnly}
              onChange={(e) => dispatch({ type: 'set_operator', path, operator: e.currentTarget.value as TOperator })}
              data={operatorsFor(condition.field).map((op) => ({
                value: op,
                label: t(`segmentation.operators.${op}`),
              }))}
              // As wide as its longest operator ("in the last N days"), never cut.
              miw={160}
            />
            <Box style={{ flex: 1, minWidth: 200 }}>
              <ValueInput
                condition={condition}
                choices={choices}
                invalid={invalid}
                readOnly={readOnly}
                onChange={(value) => dispatch({ type: 'set_value', path, value })}
              />
            </Box>
          </>
        )}
        {!readOnly && removable && (
          <ActionIcon
            variant="subtle"
            color="gray"
            mt={4}
            aria-label={t('segmentation.builder.remove_condition')}
            onClick={() => dispatch({ type: 'remove', path })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
      {faults && faults.length > 0 && <FaultText codes={faults} />}
    </Box>
  );
}
