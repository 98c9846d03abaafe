import { Group, Loader, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TCustomer } from '@yado/contracts/customers';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { errorText } from '../../../lib/http/errorText';
import { bookingHistoryQuery } from '../api/customersCalls';
import { formatYen } from '../format';
import { roomTypeText } from '../../ui/text/roomTypeText';
import { bookingSourceText } from '../../ui/text/bookingSourceText';

function Total({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Paper>
  );
}

/** Spec section 3: the customer's bookings in reach, newest stay first, with their totals. */
export function BookingHistory({ customer }: { customer: TCustomer }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const bookings = useQuery(bookingHistoryQuery(customer.id, true));
  // Booking and stay dates are calendar days: shown as stored, in no time zone.
  const day = (value: string) => formatDate(value, language, { noOffset: true });
  const columns = [
    'hotel',
    'hotel_group',
    'brand',
    'booking_date',
    'check_in',
    'check_out',
    'status',
    'nights',
    'guests',
    'room',
    'room_type',
    'source',
    'amount',
  ];

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} mb="md">
        <Total
          label={t('customers.fields.total_bookings')}
          value={String(customer.totalBookings)}
          testId="total-bookings"
        />
        <Total
          label={t('customers.fields.total_payments')}
          value={formatYen(customer.totalPayments, language)}
          testId="total-payments"
        />
      </SimpleGrid>
      {bookings.isPending ? (
        <Group justify="center" py="lg">
          <Loader size="sm" />
        </Group>
      ) : bookings.isError ? (
        <Text c="red" role="alert">
          {errorText(bookings.error, t)}
        </Text>
      ) : bookings.data.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="bookings-empty">
          {t('customers.bookings.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={1200} type="native">
          <Table
            striped
            // One line per booking; the container scrolls sideways instead.
            styles={{ th: { whiteSpace: 'nowrap' }, td: { whiteSpace: 'nowrap' } }}
            data-testid="booking-table"
          >
            <Table.Thead>
              <Table.Tr>
                {columns.map((key) => (
                  <Table.Th key={key}>{t(`customers.bookings.${key}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {bookings.data.map((b) => (
                <Table.Tr key={b.id} data-testid="booking-row">
                  <Table.Td>{b.hotelName}</Table.Td>
                  <Table.Td>{b.hotelGroupName ?? '-'}</Table.Td>
                  <Table.Td>{b.brandName}</Table.Td>
                  <Table.Td>{day(b.bookingDate)}</Table.Td>
                  <Table.Td>{day(b.checkIn)}</Table.Td>
                  <Table.Td>{day(b.checkOut)}</Table.Td>
                  <Table.Td>{t(`customers.booking_status.${b.status}`, { defaultValue: b.status })}</Table.Td>
                  <Table.Td>{b.nights}</Table.Td>
                  <Table.Td>{b.guests}</Table.Td>
                  <Table.Td>{b.roomName ?? '-'}</Table.Td>
                  <Table.Td>{roomTypeText(b.roomType, t)}</Table.Td>
                  <Table.Td>{bookingSourceText(b.source, t)}</Table.Td>
                  <Table.Td>{formatYen(b.amount, language)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
