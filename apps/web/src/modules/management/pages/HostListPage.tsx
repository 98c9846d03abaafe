import { Avatar, Button, Group, NativeSelect, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HOST_SORTS } from '@yado/contracts/management';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';
import { SearchInput } from '../../ui/components/SearchInput';
import {
  hostChoicesQuery,
  hostListQuery,
  HOSTS_PAGE_SIZE,
  HOSTS_QUERY_KEY,
  type THostFilters,
  type THostSort,
} from '../api/hostsCalls';
import { HostFormDialog } from '../components/HostFormDialog';
import { LEVELS, type TManagedLevel } from '../levels';

/** Spec section 2, "Management": the brand, hotel group or hotel list. */
export function HostListPage({ level }: { level: TManagedLevel }) {
  const { t } = useTranslation();
  const me = useProfile();
  const can = me.entitlements;
  const config = LEVELS[level];
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<THostFilters>({
    search: '',
    brandId: '',
    hotelGroupId: '',
    sort: 'name',
    page: 1,
  });
  const [creating, setCreating] = useState(false);
  const filterBrand = config.filterBrand !== undefined && can[config.filterBrand];
  const filterGroup = config.filterHotelGroup !== undefined && can[config.filterHotelGroup];
  const hosts = useQuery(hostListQuery(level, filters));
  const brands = useQuery(hostChoicesQuery('brand', null, filterBrand));
  const groups = useQuery(hostChoicesQuery('hotel_group', filters.brandId || null, filterGroup));
  const filter = (next: Partial<THostFilters>) => setFilters((f) => ({ ...f, ...next, page: 1 }));
  const [searchResetKey, setSearchResetKey] = useState(0);
  const clearFilters = () => {
    filter({ search: '', brandId: '', hotelGroupId: '' });
    setSearchResetKey((key) => key + 1);
  };
  const data = hosts.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / HOSTS_PAGE_SIZE)) : 1;
  const detailPath = (id: string) => `${config.listPath}/${id}`;

  return (
    <>
      <PageHeader
        title={t(`nav.${config.areaId}`)}
        actions={
          can[config.create] && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t(`management.form.create.${level}`)}
            </Button>
          )
        }
      />
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end">
            <div style={{ flex: 1, minWidth: 220 }}>
              <SearchInput
                onSearch={(search) => filter({ search })}
                placeholder={t('management.list.search')}
                resetKey={searchResetKey}
              />
            </div>
            {filterBrand && (
              <NativeSelect
                label={t('management.fields.brand')}
                value={filters.brandId}
                onChange={(event) => filter({ brandId: event.currentTarget.value, hotelGroupId: '' })}
                data={[
                  { value: '', label: t('management.list.all_brands') },
                  ...(brands.data ?? []).map((b) => ({ value: b.id, label: b.name })),
                ]}
              />
            )}
            {filterGroup && (
              <NativeSelect
                label={t('management.fields.hotel_group')}
                value={filters.hotelGroupId}
                onChange={(event) => filter({ hotelGroupId: event.currentTarget.value })}
                data={[
                  { value: '', label: t('management.list.all_groups') },
                  ...(groups.data ?? []).map((g) => ({ value: g.id, label: g.name })),
                ]}
              />
            )}
            <NativeSelect
              label={t('management.list.sort')}
              value={filters.sort}
              onChange={(event) => filter({ sort: event.currentTarget.value as THostSort })}
              data={HOST_SORTS.map((sort) => ({
                value: sort,
                label: t(`management.sorts.${sort.replace('-', 'desc_')}`),
              }))}
            />
          </Group>
          {hosts.isError ? (
            <Text c="red" role="alert">
              {errorText(hosts.error, t)}
            </Text>
          ) : data && data.items.length === 0 ? (
            <EmptyState
              readOnly={!can[config.create]}
              filtered={Boolean(filters.search || filters.brandId || filters.hotelGroupId)}
              onClear={clearFilters}
            />
          ) : (
            <Table.ScrollContainer minWidth={800}>
              <Table highlightOnHover data-testid="host-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('hosts.fields.name')}</Table.Th>
                    {level !== 'brand' && <Table.Th>{t('management.fields.brand')}</Table.Th>}
                    {level === 'hotel' && <Table.Th>{t('management.fields.hotel_group')}</Table.Th>}
                    {level === 'hotel' && <Table.Th>{t('hosts.fields.booking_hotel_code')}</Table.Th>}
                    {level === 'brand' && <Table.Th>{t('management.fields.hotel_groups')}</Table.Th>}
                    {level !== 'hotel' && <Table.Th>{t('management.fields.hotels')}</Table.Th>}
                    <Table.Th>{t('management.fields.users')}</Table.Th>
                    <Table.Th>{t('hosts.fields.address')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data?.items.map((host) => (
                    <Table.Tr
                      key={host.id}
                      data-testid="host-row"
                      data-name={host.name}
                      style={{ cursor: 'pointer' }}
                      onClick={() => void navigate(detailPath(host.id))}
                    >
                      <Table.Td>
                        <Group gap="sm" wrap="nowrap">
                          <Avatar src={host.logoUrl} size={32} radius="sm" alt="">
                            <IconBuilding size={16} />
                          </Avatar>
                          <Link to={detailPath(host.id)} onClick={(event) => event.stopPropagation()}>
                            {host.name}
                          </Link>
                        </Group>
                      </Table.Td>
                      {level !== 'brand' && <Table.Td>{host.brandName ?? '-'}</Table.Td>}
                      {level === 'hotel' && <Table.Td>{host.hotelGroupName ?? '-'}</Table.Td>}
                      {level === 'hotel' && (
                        <Table.Td data-testid="host-booking-code">{host.bookingHotelCode ?? '-'}</Table.Td>
                      )}
                      {level === 'brand' && <Table.Td>{host.hotelGroupCount}</Table.Td>}
                      {level !== 'hotel' && <Table.Td>{host.hotelCount}</Table.Td>}
                      <Table.Td>{host.userCount}</Table.Td>
                      <Table.Td>{host.address ?? '-'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="flex-end">
              <Pagination total={pages} value={filters.page} onChange={(page) => setFilters((f) => ({ ...f, page }))} />
            </Group>
          )}
        </Stack>
      </Paper>
      <HostFormDialog
        level={level}
        opened={creating}
        onClose={() => setCreating(false)}
        onSaved={(host) => {
          setCreating(false);
          void queryClient.invalidateQueries({ queryKey: HOSTS_QUERY_KEY });
          void navigate(detailPath(host.id));
        }}
      />
    </>
  );
}
