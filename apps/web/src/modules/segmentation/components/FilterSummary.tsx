import { Badge, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import type { TFilter, TFilterCondition, TFilterGroup } from '@yado/contracts/segments';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { conditionText } from '../conditionText';
import { hasBookingConditions } from '../filterDraft';
import { sourcesOf, useChoiceOptions } from '../hooks/useChoiceOptions';

function fieldsOf(filter: TFilter): string[] {
  const out: string[] = [];
  const walk = (items: (TFilterCondition | TFilterGroup)[]) =>
    items.forEach((i) => (i.kind === 'group' ? walk(i.items) : out.push(i.field)));
  filter.groups.forEach((g) => walk(g.items));
  return out;
}

/**
 * A saved filter as sentences: each group's conditions with their join, groups with theirs, and
 * each group's audience at any level when a count gave it (`groupCount` by path, `groups.0.items.1`).
 */
export function FilterSummary({
  filter,
  groupCount,
}: {
  filter: TFilter;
  groupCount?: (path: string) => number | undefined;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const choicesOf = useChoiceOptions(sourcesOf(fieldsOf(filter)));

  const renderGroup = (group: TFilterGroup, title: string, path: string): ReactNode => {
    const count = groupCount?.(path);
    return (
      <Paper withBorder radius="md" p="sm" data-testid="summary-group">
        <Stack gap={4}>
          <Group justify="space-between">
            <Text fw={600} size="sm">
              {title}
            </Text>
            {count !== undefined && (
              <Badge variant="light" tt="none" data-testid="summary-group-count">
                {t('segmentation.count.group', {
                  audience: count.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
                })}
              </Badge>
            )}
          </Group>
          {group.items.map((item, index) => (
            <Fragment key={item.id ?? index}>
              {index > 0 && (
                <Text size="xs" c="grape" fw={700}>
                  {t(`segmentation.builder.join.${group.join}`)}
                </Text>
              )}
              {item.kind === 'group' ? (
                renderGroup(item, t('segmentation.builder.subgroup'), `${path}.items.${index}`)
              ) : (
                <Text size="sm">{conditionText(item, t, language, choicesOf)}</Text>
              )}
            </Fragment>
          ))}
          {hasBookingConditions(group) && (
            <Text size="xs" c="dimmed">
              {group.bookings?.quantifier === 'none'
                ? t('segmentation.summary.none')
                : t('segmentation.summary.at_least', { count: group.bookings?.count ?? 1 })}
            </Text>
          )}
        </Stack>
      </Paper>
    );
  };

  return (
    <Stack gap={6} data-testid="filter-summary">
      {filter.groups.map((group, index) => (
        <Fragment key={group.id ?? index}>
          {index > 0 && (
            <Divider
              label={
                <Badge variant="light" color="grape">
                  {t(`segmentation.builder.join.${filter.join}`)}
                </Badge>
              }
              labelPosition="center"
            />
          )}
          {renderGroup(group, t('segmentation.builder.group', { number: index + 1 }), `groups.${index}`)}
        </Fragment>
      ))}
    </Stack>
  );
}
