import { Anchor, Badge, Button, Group, Image, Loader, Paper, Stack, Table, Tabs, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconBellOff, IconBell, IconEdit, IconSitemap, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { TCustomerSuppression } from '@yado/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { CustomerSegments } from '../../segmentation/components/CustomerSegments';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, hiddenAtLevel } from '../../shell/navigation';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { PageHeader } from '../../ui/components/PageHeader';
import { showSnackbar } from '../../ui/components/Snackbar';
import { CUSTOMERS_QUERY_KEY, customerQuery, deleteCustomer, setEmailStatus } from '../api/customersCalls';
import { citiesQuery, countriesQuery, prefecturesQuery } from '../api/locationsCalls';
import { AllocationSummaryDialog } from '../components/AllocationSummaryDialog';
import { BookingHistory } from '../components/BookingHistory';
import { CustomerFormDialog } from '../components/CustomerFormDialog';
import { EmailStatusBadge } from '../components/EmailStatusBadge';
import { formatYen } from '../format';
import { findByStoredName, findCountry, localName, placeName } from '../locationNames';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_PATH = '/customer-list';

type TDialog = 'edit' | 'status' | 'delete' | 'allocations' | null;

/** Spec sections 2 and 3: one customer, with personal information and booking history tabs. */
export function CustomerDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  if (UUID.test(id)) return <CustomerDetail id={id} />;
  return (
    <Text c="red" role="alert">
      {t('errors.not_found')}
    </Text>
  );
}

function CustomerDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const me = useProfile();
  const can = me.entitlements;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const customer = useQuery(customerQuery(id));
  const [dialog, setDialog] = useState<TDialog>(null);
  const [busy, setBusy] = useState(false);
  const countries = useQuery(countriesQuery());
  const prefectures = useQuery(prefecturesQuery());
  const prefecture = findByStoredName(prefectures.data, customer.data?.prefecture ?? null);
  const cities = useQuery(citiesQuery(customer.data?.city && prefecture ? prefecture.code : null));

  if (customer.isPending) return <Loader size="sm" />;
  if (customer.isError) {
    return (
      <Text c="red" role="alert">
        {errorText(customer.error, t)}
      </Text>
    );
  }
  const data = customer.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: CUSTOMERS_QUERY_KEY });
  const close = () => setDialog(null);
  const unsubscribing = data.emailStatus === 'active';

  const changeStatus = async () => {
    setBusy(true);
    try {
      await setEmailStatus([data.id], unsubscribing ? 'unsubscribed' : 'active');
      showSnackbar({ status: 'success', message: t('customers.done.status_changed', { count: 1 }) });
      close();
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      await deleteCustomer(data.id);
      showSnackbar({ status: 'success', message: t('customers.done.deleted') });
      queryClient.removeQueries({ queryKey: [...CUSTOMERS_QUERY_KEY, 'one', data.id] });
      await refresh();
      void navigate(LIST_PATH, { replace: true });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      setBusy(false);
    }
  };

  const country = findCountry(countries.data, data.country);
  // Instants in the acting host's time zone, as the lists and the CSV export show them (named under
  // the table); the birth date is a calendar date.
  const at = (value: string) => formatDate(value, language, { withTime: true, timeZone: data.timeZone });
  const newFields = me.features.customer_new_fields;
  const rows: [string, ReactNode][] = [
    ['last_name', data.lastName],
    ['first_name', data.firstName],
    ['phone', data.phone],
    ['email', data.email],
    ['email_status', <EmailStatusBadge key="status" status={data.emailStatus} />],
    ...(newFields
      ? ([
          ['id_number', data.idNumber],
          ['gender', data.gender && t(`customers.gender.${data.gender}`)],
          ['date_of_birth', data.dateOfBirth && formatDate(data.dateOfBirth, language, { noOffset: true })],
          ['age', data.age === null ? null : String(data.age)],
          [
            'country',
            country ? (
              <Group gap="xs" wrap="nowrap" key="country">
                <Image src={country.flagUrl} alt="" w={20} h={14} fit="cover" radius={2} />
                <span>{`${localName(country, language)} (+${country.callingCode})`}</span>
              </Group>
            ) : (
              data.country
            ),
          ],
          ['prefecture', placeName(prefectures.data, data.prefecture, language)],
          ['city', placeName(cities.data, data.city, language)],
        ] as [string, ReactNode][])
      : []),
    ['address', data.address],
    ['total_bookings', String(data.totalBookings)],
    ['total_payments', formatYen(data.totalPayments, language)],
    ['created_at', at(data.createdAt)],
    ...(data.emailStatusChangedAt
      ? ([['email_status_changed_at', at(data.emailStatusChangedAt)]] as [string, ReactNode][])
      : []),
    // A hard bounce (issue 13): campaigns no longer mail this address.
    ...(data.emailBouncedAt ? ([['email_bounced_at', at(data.emailBouncedAt)]] as [string, ReactNode][]) : []),
    // On the brand's suppression list (issue 25): mailed nothing, whatever the email status says.
    ...(data.suppression
      ? ([
          [
            'suppression',
            <SuppressionNote
              key="suppression"
              entry={data.suppression}
              at={at}
              listLink={!hiddenAtLevel(me.meta.level).includes('suppression_list')}
            />,
          ],
        ] as [string, ReactNode][])
      : []),
    // Who unsubscribed: the guest (one-click or the page), staff, the booking system or an import.
    ...(data.emailStatus === 'unsubscribed' && data.unsubscribeReason
      ? ([
          [
            'unsubscribe_reason',
            t(`customers.unsubscribe_reasons.${data.unsubscribeReason}`, { defaultValue: data.unsubscribeReason }),
          ],
        ] as [string, ReactNode][])
      : []),
  ];

  return (
    <>
      <Anchor component={Link} to={LIST_PATH} size="sm">
        {t('customers.actions.back_to_list')}
      </Anchor>
      <PageHeader
        title={data.fullName}
        actions={
          <Group gap="sm">
            {me.features.allocation_summary && (
              <Button
                variant="default"
                leftSection={<IconSitemap size={16} />}
                onClick={() => setDialog('allocations')}
              >
                {t('customers.actions.allocation_summary')}
              </Button>
            )}
            {can['customer.change_email_status'] && (
              <Button
                variant="light"
                color={unsubscribing ? 'red' : 'teal'}
                leftSection={unsubscribing ? <IconBellOff size={16} /> : <IconBell size={16} />}
                onClick={() => setDialog('status')}
              >
                {t(unsubscribing ? 'customers.actions.set_unsubscribed' : 'customers.actions.set_active')}
              </Button>
            )}
            {can['customer.update'] && (
              <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => setDialog('edit')}>
                {t('customers.actions.edit')}
              </Button>
            )}
            {can['customer.delete'] && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDialog('delete')}
              >
                {t('customers.actions.delete')}
              </Button>
            )}
          </Group>
        }
      />
      <Paper withBorder radius="md" p="md">
        <Tabs defaultValue="personal" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="personal">{t('customers.tabs.personal_information')}</Tabs.Tab>
            {me.features.booking_history && <Tabs.Tab value="bookings">{t('customers.tabs.booking_history')}</Tabs.Tab>}
            {can['segmentation.read_segment'] && <Tabs.Tab value="segments">{t('segmentation.customer.tab')}</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="personal">
            <Table variant="vertical" withTableBorder data-testid="customer-info">
              <Table.Tbody>
                {rows.map(([key, value]) => (
                  <Table.Tr key={key} data-field={key}>
                    <Table.Th w={220}>{t(`customers.fields.${key}`)}</Table.Th>
                    <Table.Td>{value || '-'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text size="xs" c="dimmed" mt="xs" data-testid="customer-time-zone">
              {t('customers.time_zone_note', { timeZone: data.timeZone })}
            </Text>
          </Tabs.Panel>
          {me.features.booking_history && (
            <Tabs.Panel value="bookings">
              <BookingHistory customer={data} />
            </Tabs.Panel>
          )}
          {can['segmentation.read_segment'] && (
            <Tabs.Panel value="segments">
              <CustomerSegments customer={data} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>

      <CustomerFormDialog
        opened={dialog === 'edit'}
        customer={data}
        onClose={close}
        onSaved={() => {
          close();
          void refresh();
        }}
      />
      {me.features.allocation_summary && (
        <AllocationSummaryDialog customerId={data.id} opened={dialog === 'allocations'} onClose={close} />
      )}
      <ConfirmDialog
        opened={dialog === 'status'}
        title={t(unsubscribing ? 'customers.actions.set_unsubscribed' : 'customers.actions.set_active')}
        message={t(unsubscribing ? 'customers.confirm.set_unsubscribed_one' : 'customers.confirm.set_active_one', {
          name: data.fullName,
        })}
        danger={unsubscribing}
        loading={busy}
        onClose={close}
        onConfirm={() => void changeStatus()}
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={t('customers.confirm.delete_title')}
        message={t('customers.confirm.delete', { name: data.fullName })}
        confirmLabel={t('customers.actions.delete')}
        danger
        loading={busy}
        onClose={close}
        onConfirm={() => void remove()}
      />
    </>
  );
}

/** Why, since when and until when the guest's address is held back, with the list to lift it from. */
function SuppressionNote({
  entry,
  at,
  listLink,
}: {
  entry: TCustomerSuppression;
  at: (value: string) => string;
  /** The list is the brand's: offered where the sidebar offers it. */
  listLink: boolean;
}) {
  const { t } = useTranslation();
  const since = at(entry.createdAt);
  return (
    <Stack gap={4} align="flex-start">
      <Badge color="orange" variant="light">
        {t(`customers.suppressions.reasons.${entry.reason}`)}
      </Badge>
      <Text size="sm">
        {entry.until
          ? t('customers.suppressions.on_customer', { since, until: at(entry.until) })
          : t('customers.suppressions.on_customer_until_lifted', { since })}
      </Text>
      {listLink && (
        <Anchor component={Link} to={AREAS.suppression_list.path} size="sm">
          {t('customers.suppressions.open_list')}
        </Anchor>
      )}
    </Stack>
  );
}
