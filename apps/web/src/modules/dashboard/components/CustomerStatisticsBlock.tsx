import { Alert, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { EmptyState } from '../../ui/components/EmptyState';
import { customerStatisticsQuery } from '../api/dashboardCalls';
import { changeOf, formatCount } from '../utils/figures';
import { FigureCard } from './FigureCard';

/**
 * Customers, active customers (those a campaign can mail: active, with an email address not on the
 * suppression list) and unsubscribed customers, and when the booking system last synced.
 */
export function CustomerStatisticsBlock({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const stats = useQuery(customerStatisticsQuery);
  // Times in the window's zone, as its dates and the blocks beside (not the browser's).
  const when = (value: string) =>
    formatDate(value, language, { withTime: true, timeZone: stats.data?.window.timezone });
  return (
    <Stack gap="sm" data-testid="customer-statistics">
      <Group justify="space-between" align="baseline">
        <Title order={2} size="h4">
          {t('dashboard.customers.title')}
        </Title>
        {stats.data && (
          <Text size="xs" c="dimmed" data-testid="customers-counted-at">
            {t('dashboard.customers.counted_at', {
              at: when(stats.data.countedAt),
            })}
          </Text>
        )}
      </Group>
      {stats.isPending && <Skeleton h={96} radius="md" />}
      {stats.isError && <Alert color="red">{t('dashboard.load_failed')}</Alert>}
      {stats.data &&
        (stats.data.customers.current === 0 ? (
          <Paper withBorder radius="md" p="md">
            <EmptyState
              title={t('dashboard.customers.empty_title')}
              description={t(readOnly ? 'dashboard.customers.empty_viewer' : 'dashboard.customers.empty')}
              readOnly={readOnly}
            />
          </Paper>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <FigureCard
              testId="figure-customers"
              label={t('dashboard.customers.customers')}
              value={formatCount(stats.data.customers.current ?? 0, language)}
              change={changeOf(stats.data.customers, 'count', language)}
            />
            <FigureCard
              testId="figure-active"
              label={t('dashboard.customers.active')}
              hint={t('dashboard.customers.active_hint')}
              value={formatCount(stats.data.activeCustomers.current ?? 0, language)}
              change={changeOf(stats.data.activeCustomers, 'count', language)}
            />
            <FigureCard
              testId="figure-unsubscribed"
              label={t('dashboard.customers.unsubscribed')}
              value={formatCount(stats.data.unsubscribedCustomers.current ?? 0, language)}
              change={changeOf(stats.data.unsubscribedCustomers, 'count', language)}
              lowerIsBetter
            />
          </SimpleGrid>
        ))}
      {stats.data && (
        <Paper withBorder radius="md" p="md" data-testid="last-sync">
          <Text size="xs" c="dimmed">
            {t('dashboard.customers.last_sync')}
          </Text>
          <Text size="sm" fw={600}>
            {!stats.data.bookingConnected
              ? t('dashboard.customers.not_connected')
              : !stats.data.lastSync
                ? t('dashboard.customers.never_synced')
                : stats.data.lastSync.status === 'failed'
                  ? t('dashboard.customers.last_sync_failed', {
                      at: when(stats.data.lastSync.finishedAt),
                    })
                  : when(stats.data.lastSync.finishedAt)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('dashboard.customers.sync_schedule')}
          </Text>
        </Paper>
      )}
    </Stack>
  );
}
