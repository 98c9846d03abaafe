import { Anchor, Button, Checkbox, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TSegment } from '@yado/contracts/segments';
import { IconChevronLeft, IconChevronRight, IconUserMinus } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { countriesQuery, prefecturesQuery } from '../../customers/api/locationsCalls';
import { EmailStatusBadge } from '../../customers/components/EmailStatusBadge';
import { findCountry, localName, placeName } from '../../customers/locationNames';
import { EmailAddress } from '../../ui/components/EmailAddress';
import { EmptyState } from '../../ui/components/EmptyState';
import { HeaderText } from '../../ui/components/HeaderText';
import { SearchInput } from '../../ui/components/SearchInput';
import { MEMBER_PAGE_SIZES, memberPageQuery } from '../api/segmentsCalls';

/**
 * A segment's members now, in the customer list's columns and keyset pages ("previous" walks
 * back along the cursors seen). Static segments the user may change can have members selected
 * for removal; every row asks "Why is this guest in?".
 */
export function MemberPreview({
  segment,
  selectable,
  selected,
  onSelect,
  onRemove,
  onWhy,
}: {
  segment: TSegment;
  selectable: boolean;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onRemove: () => void;
  onWhy: (customer: { id: string; fullName: string }) => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState<number>(MEMBER_PAGE_SIZES[0]);
  const [trail, setTrail] = useState<(string | undefined)[]>([undefined]);
  const cursor = trail[trail.length - 1];
  const members = useQuery(memberPageQuery(segment.id, search, cursor, pageSize));
  const countries = useQuery(countriesQuery());
  const prefectures = useQuery(prefecturesQuery());
  const data = members.data;
  const items = data?.items ?? [];
  // The acting host's time zone, as on the customer list: a guest registered at 00:30 in Tokyo is
  // registered on that day, whatever zone the browser is in. Named under the table.
  const pageTimeZone = data?.timeZone;
  const pageIds = items.map((c) => c.id);
  const pageSelected = pageIds.filter((id) => selected.includes(id)).length;
  const from = (trail.length - 1) * pageSize + 1;

  const location = (country: string | null, prefecture: string | null) => {
    const found = findCountry(countries.data, country);
    const parts = [found ? localName(found, language) : country, placeName(prefectures.data, prefecture, language)];
    const named = parts.filter((part): part is string => Boolean(part));
    if (named.length === 0) return '-';
    // A line may break between the country and the prefecture, never inside a name ("埼玉" / "県").
    return named.map((part, i) => (
      <Fragment key={part}>
        {i > 0 && ' / '}
        <span style={{ whiteSpace: 'nowrap' }}>{part}</span>
      </Fragment>
    ));
  };
  const togglePage = () =>
    onSelect(
      pageSelected === pageIds.length
        ? selected.filter((id) => !pageIds.includes(id))
        : [...selected, ...pageIds.filter((id) => !selected.includes(id))],
    );

  return (
    <Stack gap="md" data-testid="member-preview">
      <Group gap="sm" align="flex-end">
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchInput
            onSearch={(text) => {
              setSearch(text);
              setTrail([undefined]);
            }}
            placeholder={t('segmentation.members.search')}
          />
        </div>
        {selectable && selected.length > 0 && (
          <Group gap="sm" data-testid="member-selection-bar">
            <Text size="sm" fw={600}>
              {t('segmentation.members.selected', { count: selected.length })}
            </Text>
            <Button size="xs" variant="light" color="red" leftSection={<IconUserMinus size={14} />} onClick={onRemove}>
              {t('segmentation.actions.remove_members')}
            </Button>
          </Group>
        )}
      </Group>
      {members.isError ? (
        <Text c="red" role="alert">
          {errorText(members.error, t)}
        </Text>
      ) : data && items.length === 0 ? (
        <EmptyState
          description={t(
            segment.type === 'dynamic' ? 'segmentation.members.empty_dynamic' : 'segmentation.members.empty_static',
          )}
        />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table highlightOnHover data-testid="member-table">
            <Table.Thead>
              <Table.Tr>
                {selectable && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('segmentation.members.select_page')}
                      checked={pageIds.length > 0 && pageSelected === pageIds.length}
                      indeterminate={pageSelected > 0 && pageSelected < pageIds.length}
                      onChange={togglePage}
                    />
                  </Table.Th>
                )}
                {['full_name', 'phone', 'email', 'email_status', 'location', 'total_bookings', 'created_at'].map(
                  (key) => (
                    <Table.Th key={key}>
                      <HeaderText text={t(`customers.fields.${key}`)} />
                    </Table.Th>
                  ),
                )}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((customer) => (
                <Table.Tr key={customer.id} data-testid="member-row" data-phone={customer.phone}>
                  {selectable && (
                    <Table.Td>
                      <Checkbox
                        aria-label={t('segmentation.members.select_row', { name: customer.fullName })}
                        checked={selected.includes(customer.id)}
                        onChange={() =>
                          onSelect(
                            selected.includes(customer.id)
                              ? selected.filter((id) => id !== customer.id)
                              : [...selected, customer.id],
                          )
                        }
                      />
                    </Table.Td>
                  )}
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor component={Link} to={`/customer-list/${customer.id}`}>
                      {customer.fullName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{customer.phone}</Table.Td>
                  <Table.Td>{customer.email ? <EmailAddress email={customer.email} /> : '-'}</Table.Td>
                  <Table.Td>
                    <EmailStatusBadge status={customer.emailStatus} />
                  </Table.Td>
                  <Table.Td>{location(customer.country, customer.prefecture)}</Table.Td>
                  <Table.Td>{customer.totalBookings}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDate(customer.createdAt, language, { timeZone: pageTimeZone })}
                  </Table.Td>
                  <Table.Td>
                    {/* Its word alone, without an icon: with one, the table was 8 px too wide for a 1280 px
                        window in English and scrolled sideways. */}
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      aria-label={t('segmentation.members.why_row', { name: customer.fullName })}
                      onClick={() => onWhy(customer)}
                      data-testid="member-why"
                    >
                      {t('segmentation.actions.why')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pageTimeZone && items.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="member-time-zone">
          {t('segmentation.members.time_zone_note', { timeZone: pageTimeZone })}
        </Text>
      )}
      <Group justify="space-between" data-testid="member-pager">
        <Text size="sm" c="dimmed" data-testid="member-range">
          {data && items.length > 0
            ? t(data.totalCapped ? 'customers.list.range_capped' : 'customers.list.range', {
                from,
                to: from + items.length - 1,
                total: data.total.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
              })
            : ''}
        </Text>
        <Group gap="sm">
          <NativeSelect
            aria-label={t('customers.list.page_size')}
            name="memberPageSize"
            value={String(pageSize)}
            onChange={(e) => {
              setPageSize(Number(e.currentTarget.value));
              setTrail([undefined]);
            }}
            data={MEMBER_PAGE_SIZES.map(String)}
          />
          <Button
            variant="default"
            leftSection={<IconChevronLeft size={16} />}
            disabled={trail.length === 1}
            onClick={() => setTrail(trail.slice(0, -1))}
            data-testid="member-previous"
          >
            {t('customers.list.previous')}
          </Button>
          <Text size="sm" data-testid="member-page">
            {t('customers.list.page', { page: trail.length })}
          </Text>
          <Button
            variant="default"
            rightSection={<IconChevronRight size={16} />}
            disabled={!data?.nextCursor || members.isPlaceholderData}
            onClick={() => data?.nextCursor && setTrail([...trail, data.nextCursor])}
            data-testid="member-next"
          >
            {t('customers.list.next')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
