import { Anchor, Button, Checkbox, Group, NativeSelect, Paper, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CUSTOMER_SORTS } from '@yado/contracts/customers';
import {
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconInfoCircle,
  IconPlus,
  IconUpload,
  IconUsersPlus,
} from '@tabler/icons-react';
import { useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { downloadThroughLink } from '../../../lib/browser/downloadThroughLink';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { AddToSegmentsDialog } from '../../segmentation/components/AddToSegmentsDialog';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { EmptyState } from '../../ui/components/EmptyState';
import { HeaderText } from '../../ui/components/HeaderText';
import { LockButton } from '../../ui/components/LockButton';
import { PageHeader } from '../../ui/components/PageHeader';
import { SearchInput } from '../../ui/components/SearchInput';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  CUSTOMERS_QUERY_KEY,
  customerListQuery,
  exportLink,
  hotelChoicesQuery,
  setEmailStatus,
  type TCustomerSort,
  type TEmailStatus,
} from '../api/customersCalls';
import { countriesQuery, prefecturesQuery } from '../api/locationsCalls';
import { CustomerFormDialog } from '../components/CustomerFormDialog';
import { EmailStatusBadge } from '../components/EmailStatusBadge';
import {
  currentCursor,
  customerListReducer,
  pageNumber,
  pageRange,
  PAGE_SIZES,
  recallListState,
  rememberListState,
  type TPageSize,
} from '../customerListState';
import { findCountry, localName, placeName } from '../locationNames';
import { EmailAddress } from '../../ui/components/EmailAddress';

/** Spec section 2, "Customer list": search, filters, keyset pages, bulk email status, export. */
export function CustomerListPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(customerListReducer, undefined, recallListState);
  useEffect(() => rememberListState(state), [state]);
  const [adding, setAdding] = useState(false);
  const [bulk, setBulk] = useState<TEmailStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const filterHotel = me.meta.level !== 'hotel' && can['manage_hotel.read_hotel_at_hotel_list'];
  const canChangeStatus = can['customer.change_email_status'];
  // "Add to segments" needs a selection too (static segments' members).
  const canAddToSegments = can['segmentation.update'];
  const canSelect = canChangeStatus || canAddToSegments;
  const [addingToSegments, setAddingToSegments] = useState(false);
  // A search or filter that leaves no one says so, with a way back to the whole list (the sort stays).
  const filtered = Boolean(state.filters.search || state.filters.emailStatus || state.filters.hotelId);
  const [searchResetKey, setSearchResetKey] = useState(0);
  const clearFilters = () => {
    dispatch({ type: 'filter', filters: { search: '', emailStatus: '', hotelId: '' } });
    setSearchResetKey((key) => key + 1);
  };

  const customers = useQuery(customerListQuery(state.filters, currentCursor(state), state.pageSize));
  const hotels = useQuery(hotelChoicesQuery(filterHotel));
  const countries = useQuery(countriesQuery());
  const prefectures = useQuery(prefecturesQuery());
  const data = customers.data;
  const items = data?.items ?? [];
  // The acting host's time zone, as on the other lists and in the CSV export: a guest registered
  // at 00:30 in Tokyo is registered on that day, whatever zone the browser is in. Named under the table.
  const pageTimeZone = data?.timeZone;
  const pageIds = items.map((c) => c.id);
  const pageSelected = pageIds.filter((id) => state.selected.includes(id)).length;
  const range = pageRange(state, items.length);

  const location = (country: string | null, prefecture: string | null) => {
    const found = findCountry(countries.data, country);
    const parts = [found ? localName(found, language) : country, placeName(prefectures.data, prefecture, language)];
    const shown = parts.filter(Boolean).join(' / ');
    return shown || '-';
  };

  const applyBulk = async () => {
    if (!bulk) return;
    setBusy(true);
    try {
      const { updated } = await setEmailStatus(state.selected, bulk);
      showSnackbar({ status: 'success', message: t('customers.done.status_changed', { count: updated }) });
      setBulk(null);
      dispatch({ type: 'clear_selection' });
      await queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    const refused = (error: unknown) => showSnackbar({ status: 'failed', message: errorText(error, t) });
    try {
      downloadThroughLink(await exportLink(state.filters, language), refused);
    } catch (error) {
      refused(error);
    }
  };

  return (
    <>
      <PageHeader
        title={t('nav.customer_list')}
        actions={
          <Group gap="sm">
            {can['customer.import'] && (
              <Button
                component={Link}
                to="/customer-list/import"
                variant="default"
                leftSection={<IconUpload size={16} />}
              >
                {t('customers.actions.import')}
              </Button>
            )}
            {can['customer.export_csv'] && (
              <LockButton variant="light" lockOnClick leftSection={<IconDownload size={16} />} onClick={download}>
                {t('customers.actions.export')}
              </LockButton>
            )}
            {can['customer.create'] && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
                {t('customers.actions.add')}
              </Button>
            )}
          </Group>
        }
      />
      <Paper radius="md" p="sm" mb="md" bg="blue.0" data-testid="sync-notice">
        <Group gap="xs" wrap="nowrap">
          <IconInfoCircle size={18} color="var(--mantine-color-blue-6)" />
          <Text size="sm">{t('customers.sync_notice')}</Text>
        </Group>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Stack gap="md">
          <Group gap="sm" align="flex-end">
            <div style={{ flex: 1, minWidth: 240 }}>
              <SearchInput
                initialText={state.filters.search}
                onSearch={(search) => dispatch({ type: 'filter', filters: { search } })}
                placeholder={t('customers.list.search')}
                resetKey={searchResetKey}
              />
            </div>
            <NativeSelect
              label={t('customers.fields.email_status')}
              name="emailStatus"
              value={state.filters.emailStatus}
              onChange={(event) =>
                dispatch({ type: 'filter', filters: { emailStatus: event.currentTarget.value as TEmailStatus | '' } })
              }
              data={[
                { value: '', label: t('customers.list.all_statuses') },
                { value: 'active', label: t('customers.email_status.active') },
                { value: 'unsubscribed', label: t('customers.email_status.unsubscribed') },
              ]}
            />
            {filterHotel && (
              <NativeSelect
                label={t('customers.fields.hotel')}
                name="hotelId"
                value={state.filters.hotelId}
                onChange={(event) => dispatch({ type: 'filter', filters: { hotelId: event.currentTarget.value } })}
                data={[
                  { value: '', label: t('customers.list.all_hotels') },
                  ...(hotels.data ?? []).map((h) => ({ value: h.id, label: h.name })),
                ]}
              />
            )}
            <NativeSelect
              label={t('customers.list.sort')}
              name="sort"
              value={state.filters.sort}
              onChange={(event) =>
                dispatch({ type: 'filter', filters: { sort: event.currentTarget.value as TCustomerSort } })
              }
              data={CUSTOMER_SORTS.map((sort) => ({
                value: sort,
                label: t(`customers.list.sorts.${sort.replace('-', 'desc_')}`),
              }))}
            />
          </Group>
          {canSelect && state.selected.length > 0 && (
            <Group gap="sm" data-testid="selection-bar">
              <Text size="sm" fw={600}>
                {t('customers.list.selected', { count: state.selected.length })}
              </Text>
              {canAddToSegments && (
                <Button
                  size="xs"
                  variant="light"
                  color="violet"
                  leftSection={<IconUsersPlus size={14} />}
                  onClick={() => setAddingToSegments(true)}
                  data-testid="add-to-segments-open"
                >
                  {t('segmentation.actions.add_to_segments')}
                </Button>
              )}
              {canChangeStatus && (
                <>
                  <Button size="xs" variant="light" onClick={() => setBulk('active')}>
                    {t('customers.actions.set_active')}
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={() => setBulk('unsubscribed')}>
                    {t('customers.actions.set_unsubscribed')}
                  </Button>
                </>
              )}
              <Button size="xs" variant="subtle" color="gray" onClick={() => dispatch({ type: 'clear_selection' })}>
                {t('customers.list.clear_selection')}
              </Button>
            </Group>
          )}
          {customers.isError ? (
            <Text c="red" role="alert">
              {errorText(customers.error, t)}
            </Text>
          ) : data && items.length === 0 ? (
            <EmptyState readOnly={!can['customer.create']} filtered={filtered} onClear={clearFilters} />
          ) : (
            <Table.ScrollContainer minWidth={900} type="native">
              <Table highlightOnHover data-testid="customer-table">
                <Table.Thead>
                  <Table.Tr>
                    {canSelect && (
                      <Table.Th w={40}>
                        <Checkbox
                          aria-label={t('customers.list.select_page')}
                          checked={pageIds.length > 0 && pageSelected === pageIds.length}
                          indeterminate={pageSelected > 0 && pageSelected < pageIds.length}
                          onChange={() => dispatch({ type: 'toggle_page', ids: pageIds })}
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
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {items.map((customer) => {
                    const path = `/customer-list/${customer.id}`;
                    return (
                      <Table.Tr
                        key={customer.id}
                        data-testid="customer-row"
                        data-phone={customer.phone}
                        style={{ cursor: 'pointer' }}
                        onClick={() => void navigate(path)}
                      >
                        {canSelect && (
                          <Table.Td onClick={(event) => event.stopPropagation()}>
                            <Checkbox
                              aria-label={t('customers.list.select_row', { name: customer.fullName })}
                              checked={state.selected.includes(customer.id)}
                              onChange={() => dispatch({ type: 'toggle', id: customer.id })}
                            />
                          </Table.Td>
                        )}
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          <Anchor component={Link} to={path} onClick={(event) => event.stopPropagation()}>
                            {customer.fullName}
                          </Anchor>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{customer.phone}</Table.Td>
                        <Table.Td>{customer.email ? <EmailAddress email={customer.email} /> : '-'}</Table.Td>
                        <Table.Td>
                          <EmailStatusBadge status={customer.emailStatus} />
                        </Table.Td>
                        {/* Breaks between the country and the prefecture, never inside a name (アメリカ合衆／国). */}
                        <Table.Td style={{ wordBreak: 'keep-all', overflowWrap: 'break-word' }}>
                          {location(customer.country, customer.prefecture)}
                        </Table.Td>
                        <Table.Td>{customer.totalBookings}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>
                          {formatDate(customer.createdAt, language, { timeZone: pageTimeZone })}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pageTimeZone && items.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="customer-time-zone">
              {t('customers.list.time_zone_note', { timeZone: pageTimeZone })}
            </Text>
          )}
          <Group justify="space-between" data-testid="customer-pager">
            <Text size="sm" c="dimmed" data-testid="customer-range">
              {range && data
                ? t(data.totalCapped ? 'customers.list.range_capped' : 'customers.list.range', {
                    ...range,
                    total: data.total.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US'),
                  })
                : ''}
            </Text>
            <Group gap="sm">
              <NativeSelect
                aria-label={t('customers.list.page_size')}
                name="pageSize"
                value={String(state.pageSize)}
                onChange={(event) =>
                  dispatch({ type: 'page_size', pageSize: Number(event.currentTarget.value) as TPageSize })
                }
                data={PAGE_SIZES.map((size) => String(size))}
              />
              <Button
                variant="default"
                leftSection={<IconChevronLeft size={16} />}
                disabled={pageNumber(state) === 1}
                onClick={() => dispatch({ type: 'previous' })}
              >
                {t('customers.list.previous')}
              </Button>
              <Text size="sm" data-testid="customer-page">
                {t('customers.list.page', { page: pageNumber(state) })}
              </Text>
              <Button
                variant="default"
                rightSection={<IconChevronRight size={16} />}
                disabled={!data?.nextCursor || customers.isPlaceholderData}
                onClick={() => data?.nextCursor && dispatch({ type: 'next', cursor: data.nextCursor })}
              >
                {t('customers.list.next')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Paper>

      <CustomerFormDialog
        opened={adding}
        onClose={() => setAdding(false)}
        onSaved={(customer) => {
          setAdding(false);
          void queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
          void navigate(`/customer-list/${customer.id}`);
        }}
      />
      {canAddToSegments && (
        <AddToSegmentsDialog
          opened={addingToSegments}
          onClose={() => setAddingToSegments(false)}
          customerIds={state.selected}
        />
      )}
      <ConfirmDialog
        opened={bulk !== null}
        title={t(bulk === 'active' ? 'customers.actions.set_active' : 'customers.actions.set_unsubscribed')}
        message={t(
          bulk === 'active' ? 'customers.confirm.set_active_many' : 'customers.confirm.set_unsubscribed_many',
          {
            count: state.selected.length,
          },
        )}
        danger={bulk === 'unsubscribed'}
        loading={busy}
        onClose={() => setBulk(null)}
        onConfirm={() => void applyBulk()}
      />
    </>
  );
}
