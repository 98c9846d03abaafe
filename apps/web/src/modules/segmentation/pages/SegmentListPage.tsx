import { Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SEGMENT_SORTS, SEGMENT_TYPES, type TSegmentType } from '@yado/contracts/segments';
import { IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { SearchInput } from '../../ui/components/SearchInput';
import { segmentListQuery, type TSegmentFilters, type TSegmentSort } from '../api/segmentsCalls';
import { AudienceText } from '../components/AudienceText';
import { SegmentTypeBadge } from '../components/SegmentTypeBadge';
import { useHotelChoices } from '../hooks/useChoiceOptions';

const PAGE_SIZE = 20;
const INITIAL: TSegmentFilters = { search: '', type: '', hotelId: '', sort: '-created_at' };
// The list as last left, so coming back from a segment finds the same search, filters and page.
let remembered: { filters: TSegmentFilters; page: number } = { filters: INITIAL, page: 1 };

/** Spec section 2, "Segmentation": the segments in reach, searched, sorted and paged. */
export function SegmentListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const [filters, setFilters] = useState(remembered.filters);
  const [page, setPage] = useState(remembered.page);
  remembered = { filters, page };
  const filterHotel = can['segmentation.filter_hotel'] && me.meta.level !== 'hotel';
  const segments = useQuery(segmentListQuery(filters, page, PAGE_SIZE));
  const hotels = useHotelChoices(filterHotel);
  const data = segments.data;
  const items = data?.items ?? [];
  const change = (next: Partial<TSegmentFilters>) => {
    setFilters({ ...filters, ...next });
    setPage(1);
  };
  const from = (page - 1) * PAGE_SIZE + 1;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <>
      <PageHeader
        title={t('nav.segmentation')}
        description={t('segmentation.description')}
        actions={
          can['segmentation.create'] && (
            <Button component={Link} to="/segmentation/new" leftSection={<IconPlus size={16} />}>
              {t('segmentation.actions.create')}
            </Button>
          )
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end">
            <div style={{ flex: 1, minWidth: 240 }}>
              <SearchInput
                initialText={filters.search}
                onSearch={(search) => change({ search })}
                placeholder={t('segmentation.list.search')}
              />
            </div>
            <NativeSelect
              label={t('segmentation.list.type')}
              name="type"
              value={filters.type}
              onChange={(e) => change({ type: e.currentTarget.value as TSegmentType | '' })}
              data={[
                { value: '', label: t('segmentation.list.all_types') },
                ...SEGMENT_TYPES.map((type) => ({ value: type, label: t(`segmentation.types.${type}`) })),
              ]}
            />
            {filterHotel && (
              <NativeSelect
                label={t('segmentation.list.hotel')}
                name="hotelId"
                value={filters.hotelId}
                onChange={(e) => change({ hotelId: e.currentTarget.value })}
                data={[{ value: '', label: t('segmentation.list.all_hotels') }, ...hotels]}
              />
            )}
            <NativeSelect
              label={t('segmentation.list.sort')}
              name="sort"
              value={filters.sort}
              onChange={(e) => change({ sort: e.currentTarget.value as TSegmentSort })}
              data={SEGMENT_SORTS.map((sort) => ({
                value: sort,
                label: t(`segmentation.list.sorts.${sort.replace('-', 'desc_')}`),
              }))}
            />
          </Group>
          {segments.isError ? (
            <Text c="red" role="alert">
              {errorText(segments.error, t)}
            </Text>
          ) : data && items.length === 0 ? (
            <EmptyState readOnly={!can['segmentation.create']} />
          ) : (
            <Table.ScrollContainer minWidth={820}>
              <Table highlightOnHover data-testid="segment-table">
                <Table.Thead>
                  <Table.Tr>
                    {(['name', 'type', 'audience', 'owner', 'created_at'] as const).map((key) => (
                      <Table.Th key={key}>{t(`segmentation.list.columns.${key}`)}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((segment) => {
                    const path = `/segmentation/${segment.id}`;
                    return (
                      <Table.Tr
                        key={segment.id}
                        data-testid="segment-row"
                        data-name={segment.name}
                        style={{ cursor: 'pointer' }}
                        onClick={() => void navigate(path)}
                      >
                        <Table.Td>
                          <Anchor component={Link} to={path} onClick={(e) => e.stopPropagation()} fw={600}>
                            {segment.name}
                          </Anchor>
                          {segment.description && (
                            <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
                              {segment.description}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <SegmentTypeBadge type={segment.type} />
                        </Table.Td>
                        <Table.Td>
                          <AudienceText audience={segment.audience} countedAt={segment.audienceCountedAt} />
                        </Table.Td>
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <Text size="sm">{segment.hostName}</Text>
                            {!segment.editable && (
                              <Badge size="xs" variant="outline" color="gray">
                                {t(`segmentation.levels.${segment.hostLevel}`)}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>{formatDate(segment.createdAt, language)}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" data-testid="segment-pager">
            <Text size="sm" c="dimmed" data-testid="segment-range">
              {data && items.length > 0
                ? t('segmentation.list.range', {
                    from,
                    to: from + items.length - 1,
                    total: data.total.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
                  })
                : ''}
            </Text>
            <Group gap="sm">
              <Button
                variant="default"
                leftSection={<IconChevronLeft size={16} />}
                disabled={page === 1}
                onClick={() => setPage(page - 1)}
              >
                {t('segmentation.list.previous')}
              </Button>
              <Text size="sm">{t('segmentation.list.page', { page })}</Text>
              <Button
                variant="default"
                rightSection={<IconChevronRight size={16} />}
                disabled={page >= lastPage || segments.isPlaceholderData}
                onClick={() => setPage(page + 1)}
              >
                {t('segmentation.list.next')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}
