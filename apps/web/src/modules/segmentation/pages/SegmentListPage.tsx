import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SEGMENT_SORTS, SEGMENT_TYPES, type TSegment, type TSegmentType } from '@yado/contracts/segments';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { useProfile } from '../../shell/hooks/useProfile';
import { BrandDataAction } from '../../ui/components/BrandDataAction';
import { FilterSelect } from '../../ui/components/ListControls';
import { ListPage, type TListColumn } from '../../ui/components/ListPage';
import { listMemory, useListFilters } from '../../ui/hooks/useListFilters';
import { segmentListQuery, type TSegmentFilters, type TSegmentSort } from '../api/segmentsCalls';
import { AudienceText } from '../components/AudienceText';
import { SegmentTypeBadge } from '../components/SegmentTypeBadge';
import { useHotelChoices } from '../hooks/useChoiceOptions';

const PAGE_SIZE = 20;
// The list as last left, so coming back from a segment finds the same search, filters and page.
const remembered = listMemory<TSegmentFilters>({ search: '', type: '', hotelId: '', sort: '-created_at' });

const pathOf = (segment: TSegment) => `/segmentation/${segment.id}`;

/** Spec section 2, "Segmentation": the segments in reach, searched, sorted and paged. */
export function SegmentListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const list = useListFilters(remembered);
  const { filters, change } = list;
  const filterHotel = can['segmentation.filter_hotel'] && me.meta.level !== 'hotel';
  const segments = useQuery(segmentListQuery(filters, list.page, PAGE_SIZE));
  const hotels = useHotelChoices(filterHotel);
  // The acting host's zone, as the segment's own page and the customer list show times in: a
  // segment made at 00:30 in Tokyo was made that day, whatever zone the browser is in.
  const pageTimeZone = segments.data?.timeZone;

  const createButton = (
    <Button component={Link} to="/segmentation/new" leftSection={<IconPlus size={16} />}>
      {t('segmentation.actions.create')}
    </Button>
  );

  const columns: TListColumn<TSegment>[] = [
    {
      key: 'name',
      header: t('segmentation.list.columns.name'),
      cell: (segment) => (
        <>
          <Anchor component={Link} to={pathOf(segment)} onClick={(e) => e.stopPropagation()} fw={600}>
            {segment.name}
          </Anchor>
          {segment.description && (
            <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
              {segment.description}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'type',
      header: t('segmentation.list.columns.type'),
      nowrap: true,
      cell: (segment) => <SegmentTypeBadge type={segment.type} />,
    },
    {
      key: 'audience',
      header: t('segmentation.list.columns.audience'),
      // "counted" and its date on one line (at 1280 px it wrapped, the date split over two).
      nowrap: true,
      cell: (segment) => (
        <AudienceText audience={segment.audience} countedAt={segment.audienceCountedAt} timeZone={pageTimeZone} />
      ),
    },
    {
      key: 'owner',
      header: t('segmentation.list.columns.owner'),
      cell: (segment) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{segment.hostName}</Text>
          {!segment.editable && (
            <Badge size="xs" variant="outline" color="gray" style={{ flexShrink: 0 }}>
              {t(`segmentation.levels.${segment.hostLevel}`)}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'created_at',
      header: t('segmentation.list.columns.created_at'),
      nowrap: true,
      cell: (segment) => formatDate(segment.createdAt, language, { timeZone: pageTimeZone }),
    },
  ];

  return (
    <ListPage<TSegment, never, TSegmentFilters>
      title={t('nav.segmentation')}
      description={t('segmentation.description')}
      headerActions={can['segmentation.create'] && <BrandDataAction>{createButton}</BrandDataAction>}
      list={list}
      searchPlaceholder={t('segmentation.list.search')}
      filters={
        <>
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
        </>
      }
      query={segments}
      columns={columns}
      rowKey={(segment) => segment.id}
      rowProps={(segment) => ({
        'data-testid': 'segment-row',
        'data-name': segment.name,
        style: { cursor: 'pointer' },
        onClick: () => void navigate(pathOf(segment)),
      })}
      empty={{
        title: t('segmentation.list.empty_title'),
        next: t('segmentation.list.empty_next'),
        action: can['segmentation.create'] && <BrandDataAction repeated>{createButton}</BrandDataAction>,
        readOnly: !can['segmentation.create'],
      }}
      texts="segmentation.list"
      testId="segment"
      pageSize={PAGE_SIZE}
      minWidth={820}
    >
      {pageTimeZone && (
        <Text size="xs" c="dimmed" mt="xs" data-testid="segment-time-zone">
          {t('segmentation.list.time_zone_note', { timeZone: pageTimeZone })}
        </Text>
      )}
    </ListPage>
  );
}
