import { Box, Paper, Table, Text } from '@mantine/core';
import type { TCampaignPerformance } from '@yado/contracts/dashboard';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatCount, formatYen } from '../utils/figures';

/** Each hotel's sends, opens, clicks, bookings and revenue over the window (a brand or group). */
export function HotelBreakdown({ hotels }: { hotels: NonNullable<TCampaignPerformance['hotels']> }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Paper withBorder radius="md" p="md" data-testid="hotel-breakdown">
      <Text fw={600} size="sm" mb="sm">
        {t('dashboard.campaigns.hotels_title')}
      </Text>
      <Box style={{ overflowX: 'auto' }}>
        <Table striped miw={560}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('dashboard.campaigns.hotel')}</Table.Th>
              <Table.Th ta="right">{t('dashboard.campaigns.series.sent')}</Table.Th>
              <Table.Th ta="right">{t('dashboard.campaigns.series.opened')}</Table.Th>
              <Table.Th ta="right">{t('dashboard.campaigns.series.clicked')}</Table.Th>
              <Table.Th ta="right">{t('dashboard.campaigns.series.bookings')}</Table.Th>
              <Table.Th ta="right">{t('dashboard.campaigns.series.revenue')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {hotels.map((h) => (
              <Table.Tr key={h.hotelId} data-testid="hotel-breakdown-row" data-name={h.name}>
                <Table.Td>{h.name}</Table.Td>
                <Table.Td ta="right">{formatCount(h.sent, language)}</Table.Td>
                <Table.Td ta="right">{formatCount(h.opened, language)}</Table.Td>
                <Table.Td ta="right">{formatCount(h.clicked, language)}</Table.Td>
                <Table.Td ta="right">{formatCount(h.bookings, language)}</Table.Td>
                <Table.Td ta="right">{formatYen(h.revenue, language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
    </Paper>
  );
}
