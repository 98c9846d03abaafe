import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SEGMENT_SORTS, SEGMENT_TYPES, type TSegmentType } from '@yado/contracts/segments';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { FilterSelect, ListPager, ListToolbar } from '../../ui/components/ListControls';
import { PageHeader } from '../../ui/components/PageHeader';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import { segmentListQuery, type TSegmentFilters, type TSegmentSort } from '../api/segmentsCalls';
import { AudienceText } from '../components/AudienceText';
import { SegmentTypeBadge } from '../components/SegmentTypeBadge';
import { useHotelChoices } from '../hooks/useChoiceOptions';

const PAGE_SIZE = 20;
// The list as last left, so coming back from a segment finds the same search, filters and page.
const remembered = listMemory<TSegmentFilters>({ search: '', type: '', hotelId: '', sort: '-created_at' });

/** Spec section 2, "Segmentation": the segments in reach, searched, sorted and paged. */
export function SegmentListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const { filters, page, setPage, change } = useListFilters(remembered);
  const filterHotel = can['segmentation.filter_hotel'] && me.meta.level !== 'hotel';
  const segments = useQuery(segmentListQuery(filters, page, PAGE_SIZE));
  const hotels = useHotelChoices(filterHotel);
  const data = segments.data;
  const items = data?.items ?? [];

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
          <ListToolbar
            search={filters.search}
            onSearch={(search) => change({ search })}
            searchPlaceholder={t('segmentation.list.search')}
          >
            <FilterSelect<TSegmentType | ''>
              label={t('segmentation.list.type')}
              name="type"
              value={filters.type}
              allLabel={t('segmentation.list.all_types')}
              options={SEGMENT_TYPES.map((type) => ({ value: type, label: t(`segmentation.types.${type}`) }))}
              onChange={(type) => change({ type })}
            />
            {filterHotel && (
              <FilterSelect
                label={t('segmentation.list.hotel')}
                name="hotelId"
                value={filters.hotelId}
                allLabel={t('segmentation.list.all_hotels')}
                options={hotels}
                onChange={(hotelId) => change({ hotelId })}
              />
            )}
            <FilterSelect<TSegmentSort>
              label={t('segmentation.list.sort')}
              name="sort"
              value={filters.sort}
              options={SEGMENT_SORTS.map((sort) => ({
                value: sort,
                label: t(`segmentation.list.sorts.${sort.replace('-', 'desc_')}`),
              }))}
              onChange={(sort) => change({ sort })}
            />
          </ListToolbar>
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
          <ListPager
            texts="segmentation.list"
            testId="segment"
            page={page}
            pageSize={PAGE_SIZE}
            query={segments}
            onPage={setPage}
          />
        </Stack>
      </Paper>
    </>
  );
}
