import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { TBookingStatus, TSyncRun } from '@yado/contracts/booking';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { formatDate } from '../../../lib/dates/formatDate';
import { bookingStatusQuery, disconnectBookingSystem, syncNow } from '../../booking-sync/api/bookingCalls';
import { setPendingConnection } from '../../booking-sync/pendingConnection';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { LockButton } from '../../ui/components/LockButton';
import { PasswordField } from '../../ui/components/PasswordField';
import { showSnackbar } from '../../ui/components/Snackbar';
import { useProfile } from '../../shell/hooks/useProfile';
import { LEVELS } from '../../management/levels';

const STATUS_COLOR = { running: 'blue', succeeded: 'green', failed: 'red' } as const;

/**
 * The brand's booking system (DBK): connect with an account ID and API key (verified on
 * /yoyaku-verification), the daily 1 AM sync notice, "sync now", disconnect, and the sync log.
 * Its times are on the brand's clock (the zone the daily sync runs in), not the browser's: the
 * 1 AM sync reads as 1 AM in the log wherever the reader is.
 * Other contexts read the server's refusal ("only brand can connect to DBK") without asking it
 * (the server refuses them all the same).
 */
export function BookingSystemSection() {
  const { t } = useTranslation();
  const brand = useProfile().meta.level === 'brand';
  const status = useQuery({ ...bookingStatusQuery, enabled: brand });
  if (!brand) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="booking-unavailable">
        {t('errors.booking_brand_only')}
      </Alert>
    );
  }
  if (status.isPending) return <Loader size="sm" />;
  if (status.isError) {
    return (
      <Alert color="gray" icon={<IconInfoCircle size={18} />} data-testid="booking-unavailable">
        {errorText(status.error, t)}
      </Alert>
    );
  }
  const data = status.data;
  return (
    <Stack gap="md">
      <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="booking-daily-notice">
        {t('booking_sync.settings.daily_notice', { timeZone: data.schedule.timeZone })}
      </Alert>
      {data.connection ? <Connected status={data} /> : <ConnectForm />}
      {data.runs.length > 0 && <SyncLog runs={data.runs} timeZone={data.schedule.timeZone} />}
      {(data.connection || data.runs.length > 0) && (
        <Text size="xs" c="dimmed" data-testid="booking-time-zone">
          {t('booking_sync.settings.times_in', { timeZone: data.schedule.timeZone })}
        </Text>
      )}
    </Stack>
  );
}

function ConnectForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [accountId, setAccountId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [errors, setErrors] = useState<{ accountId?: string; apiKey?: string }>({});

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const found = {
      accountId: accountId.trim() ? undefined : 'validation.required',
      apiKey: apiKey.trim() ? undefined : 'validation.required',
    };
    setErrors(found);
    if (found.accountId || found.apiKey) return;
    setPendingConnection({ accountId: accountId.trim(), apiKey: apiKey.trim() });
    navigate('/yoyaku-verification');
  };

  return (
    <form onSubmit={submit} noValidate data-testid="booking-connect-form">
      <Stack gap="sm" maw={420}>
        <Text size="sm">{t('booking_sync.settings.not_connected')}</Text>
        <TextInput
          label={t('booking_sync.settings.account_id')}
          name="accountId"
          placeholder={t('booking_sync.settings.account_id_placeholder')}
          autoComplete="off"
          required
          value={accountId}
          onChange={(event) => setAccountId(event.currentTarget.value)}
          error={errors.accountId ? t(errors.accountId) : null}
        />
        <PasswordField
          label={t('booking_sync.settings.api_key')}
          name="apiKey"
          autoComplete="off"
          required
          value={apiKey}
          onChange={(event) => setApiKey(event.currentTarget.value)}
          error={errors.apiKey ? t(errors.apiKey) : null}
        />
        <Group>
          <Button type="submit">{t('booking_sync.settings.connect')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

function Connected({ status }: { status: TBookingStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const connection = status.connection!;
  const language = currentLanguage();
  const timeZone = status.schedule.timeZone;

  const act = async (call: () => Promise<TBookingStatus>, done: string) => {
    setBusy(true);
    try {
      queryClient.setQueryData(bookingStatusQuery.queryKey, await call());
      showSnackbar({ status: 'success', message: t(done) });
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const row = (label: string, value: string) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={180}>
        {t(label)}
      </Text>
      <Text size="sm">{value}</Text>
    </Group>
  );

  return (
    <Stack gap="xs" data-testid="booking-connection">
      <Group gap="xs">
        <Text fw={600}>{connection.accountName}</Text>
        <Badge color={connection.status === 'active' ? 'green' : 'red'} variant="light">
          {t(`booking_sync.settings.connection_status.${connection.status}`)}
        </Badge>
      </Group>
      {row('booking_sync.settings.account_id', connection.accountId)}
      {row(
        'booking_sync.settings.connected_at',
        formatDate(connection.connectedAt, language, { withTime: true, timeZone }),
      )}
      {connection.connectedByName && row('booking_sync.settings.connected_by', connection.connectedByName)}
      {row(
        'booking_sync.settings.synced_up_to',
        connection.syncedUpTo
          ? formatDate(connection.syncedUpTo, language, { withTime: true, timeZone })
          : t('booking_sync.settings.never'),
      )}
      {row(
        'booking_sync.settings.hotels',
        connection.hotels
          .map((h) => `${h.code} → ${h.hotelName ?? t('booking_sync.settings.hotel_unmapped')}`)
          .join(', ') || '-',
      )}
      <Group mt="xs">
        <LockButton
          onClick={() => act(syncNow, 'booking_sync.settings.sync_requested')}
          loading={busy || status.syncPending}
          lockOnClick
        >
          {status.syncPending ? t('booking_sync.settings.syncing') : t('booking_sync.settings.sync_now')}
        </LockButton>
        <Button variant="default" color="red" onClick={() => setConfirming(true)} disabled={busy}>
          {t('booking_sync.settings.disconnect')}
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title={t('booking_sync.settings.disconnect_title')}
        message={t('booking_sync.settings.disconnect_message', { account: connection.accountName })}
        confirmLabel={t('booking_sync.settings.disconnect')}
        danger
        loading={busy}
        onConfirm={() => void act(disconnectBookingSystem, 'booking_sync.settings.disconnected')}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

function SyncLog({ runs, timeZone }: { runs: TSyncRun[]; timeZone: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Stack gap="xs">
      <Text fw={600} size="sm">
        {t('booking_sync.log.title')}
      </Text>
      <Table.ScrollContainer minWidth={900}>
        <Table data-testid="booking-sync-log" verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('booking_sync.log.started')}</Table.Th>
              <Table.Th miw={90}>{t('booking_sync.log.trigger')}</Table.Th>
              <Table.Th miw={110}>{t('booking_sync.log.status')}</Table.Th>
              <Table.Th>{t('booking_sync.log.customers')}</Table.Th>
              <Table.Th>{t('booking_sync.log.bookings')}</Table.Th>
              <Table.Th>{t('booking_sync.log.skipped')}</Table.Th>
              <Table.Th>{t('booking_sync.log.errors')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((run) => (
              <Table.Tr key={run.id} data-testid="booking-sync-run" data-status={run.status}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(run.startedAt, language, { withTime: true, timeZone })}
                </Table.Td>
                <Table.Td>
                  {t(`booking_sync.log.triggers.${run.trigger}`)}
                  {run.resumed && (
                    <Text size="xs" c="dimmed" data-testid="booking-sync-resumed">
                      {t('booking_sync.log.resumed')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLOR[run.status]} variant="light" style={{ overflow: 'visible' }}>
                    {t(`booking_sync.log.statuses.${run.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {t('booking_sync.log.customer_counts', {
                    created: run.customersCreated,
                    updated: run.customersUpdated,
                  })}
                </Table.Td>
                <Table.Td>
                  {t('booking_sync.log.booking_counts', {
                    created: run.bookingsCreated,
                    updated: run.bookingsUpdated,
                    cancelled: run.bookingsCancelled,
                  })}
                </Table.Td>
                <Table.Td>{run.skipped}</Table.Td>
                <Table.Td>
                  {run.errors.length === 0
                    ? '-'
                    : run.errors.map((e) =>
                        e.code === 'unknown_hotel_code' ? (
                          <UnknownHotelCodes key={e.code} count={e.count} codes={e.examples} />
                        ) : (
                          <Text key={e.code} size="xs" title={e.examples.join(', ')}>
                            {t(`booking_sync.log.reasons.${reasonKey(e.code)}`, { count: e.count })}
                          </Text>
                        ),
                      )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/**
 * Reservations at hotel codes no hotel has: the codes (the booking system's, no personal data)
 * and the way to the hotel list, where a hotel's code is set.
 */
function UnknownHotelCodes({ count, codes }: { count: number; codes: string[] }) {
  const { t } = useTranslation();
  const canOpenHotels = useProfile().entitlements['manage_hotel.read_hotel_at_hotel_list'];
  return (
    <Stack gap={0} data-testid="booking-unknown-hotel-codes">
      <Text size="xs">{t('booking_sync.log.reasons.unknown_hotel_code', { count })}</Text>
      {codes.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('booking_sync.log.unknown_codes', { codes: codes.join(', ') })}
        </Text>
      )}
      {canOpenHotels && (
        <Anchor component={Link} to={LEVELS.hotel.listPath} size="xs">
          {t('booking_sync.log.set_hotel_codes')}
        </Anchor>
      )}
    </Stack>
  );
}

const KNOWN_REASONS = new Set([
  'guest_without_phone',
  'guest_not_synced',
  'unknown_hotel_code',
  'phone_in_use',
  'country_invalid',
  'credentials_refused',
  'account_suspended',
  'unreachable',
  'interrupted',
  'not_configured',
]);
/** The sync's reason codes; a booking system's HTTP status (booking_system_503) reads as "the booking system failed". */
const reasonKey = (code: string) =>
  KNOWN_REASONS.has(code) ? code : code.startsWith('booking_system_') ? 'booking_system_error' : 'other';
