import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { THoldoutGroup, THoldoutReport } from '@yado/contracts/experiments';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatCount, formatMoney } from '../../campaigns/components/numbers';
import { holdoutResultText, plusMinus } from '../experimentTexts';

/**
 * The holdout comparison of a campaign or a scenario: bookings and revenue per guest, mailed against
 * held out, for the attribution window and 30 days, and what the mail caused (or that the holdout is
 * too small to say).
 */
export function HoldoutReport({ holdout, subject }: { holdout: THoldoutReport; subject: 'campaign' | 'scenario' }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  if (!holdout) return null;
  const perGuest = (value: number, yen: boolean) =>
    yen
      ? formatMoney(value, 'JPY', language)
      : value.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US', { maximumFractionDigits: 4 });
  const row = (label: string, group: THoldoutGroup, testId: string) => (
    <Table.Tr data-testid={testId}>
      <Table.Td>{label}</Table.Td>
      <Table.Td ta="right">{formatCount(group.guests, language)}</Table.Td>
      <Table.Td ta="right">{formatCount(group.bookings, language)}</Table.Td>
      <Table.Td ta="right">{formatMoney(group.revenue, 'JPY', language)}</Table.Td>
      <Table.Td ta="right">{perGuest(group.bookingsPerGuest, false)}</Table.Td>
      <Table.Td ta="right">{perGuest(group.revenuePerGuest, true)}</Table.Td>
    </Table.Tr>
  );
  return (
    <Paper withBorder radius="md" p="md" data-testid="holdout-report">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('experiments.holdout.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(`experiments.holdout.intro_${subject}`, { percent: holdout.percent })}
        </Text>
        {holdout.windows.map((window) => (
          <Stack key={window.window} gap={6} data-testid={`holdout-${window.window}`}>
            <Text fw={600} size="sm">
              {t(`experiments.holdout.windows.${window.window}`, { days: window.days })}
            </Text>
            <Table.ScrollContainer minWidth={640}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th />
                    <Table.Th ta="right">{t('experiments.holdout.guests')}</Table.Th>
                    <Table.Th ta="right">{t('experiments.holdout.bookings')}</Table.Th>
                    <Table.Th ta="right">{t('experiments.holdout.revenue')}</Table.Th>
                    <Table.Th ta="right">{t('experiments.holdout.bookings_per_guest')}</Table.Th>
                    <Table.Th ta="right">{t('experiments.holdout.revenue_per_guest')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {row(t('experiments.holdout.mailed'), window.mailed, 'holdout-mailed')}
                  {row(t('experiments.holdout.held_out'), window.holdout, 'holdout-held-out')}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {window.result.kind === 'measured' ? (
              <>
                <Text size="sm" data-testid="holdout-incremental">
                  {t('experiments.holdout.incremental_bookings')}:{' '}
                  {plusMinus(window.result.incrementalBookings, 'count', language)} ·{' '}
                  {t('experiments.holdout.incremental_revenue')}:{' '}
                  {plusMinus(window.result.incrementalRevenue, 'yen', language)}
                </Text>
                <Alert color={window.result.significant ? 'green' : 'gray'} data-testid="holdout-result">
                  {holdoutResultText(window, subject, t, language)}
                </Alert>
              </>
            ) : (
              <Alert color="gray" data-testid="holdout-result">
                {holdoutResultText(window, subject, t, language)}
              </Alert>
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
