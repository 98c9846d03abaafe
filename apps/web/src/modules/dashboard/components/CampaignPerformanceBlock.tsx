import { Alert, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TCampaignPerformance } from '@yado/contracts/dashboard';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { CampaignHoldNote } from '../../campaigns/components/CampaignHoldNote';
import { EmptyState } from '../../ui/components/EmptyState';
import { campaignPerformanceQuery } from '../api/dashboardCalls';
import { changeOf, formatCount, formatRate, formatYen } from '../utils/figures';
import { FigureCard } from './FigureCard';
import { RunningScenariosPanel } from './RunningScenariosPanel';

// The chart library is its own chunk, downloaded only when there is something to draw; so is the
// per-hotel table (Mantine's table with its scroll area, which shares a chunk with the popovers).
const PerformanceChart = lazy(async () => ({ default: (await import('./PerformanceChart')).PerformanceChart }));
const HotelBreakdown = lazy(async () => ({ default: (await import('./HotelBreakdown')).HotelBreakdown }));

/** Open and click rates, campaigns sent and failed, the daily chart and the per-hotel figures. */
export function CampaignPerformanceBlock({ readOnly, showScenarios }: { readOnly: boolean; showScenarios: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const perf = useQuery(campaignPerformanceQuery);
  const data = perf.data;
  const rateText = (value: number | null) => (value === null ? null : formatRate(value, language));
  const mailed = data ? data.daily.some((d) => d.sent + d.opened + d.clicked + d.bookings > 0) : false;
  return (
    <Stack gap="sm" data-testid="campaign-performance">
      <Title order={2} size="h4">
        {t('dashboard.campaigns.title')}
      </Title>
      {perf.isPending && <Skeleton h={96} radius="md" />}
      {perf.isError && <Alert color="red">{t('dashboard.load_failed')}</Alert>}
      {data && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
            <FigureCard
              testId="figure-open-rate"
              label={t('dashboard.campaigns.open_rate')}
              value={rateText(data.openRate.current)}
              note={t('dashboard.campaigns.no_rate')}
              change={changeOf(data.openRate, 'rate', language)}
            />
            <FigureCard
              testId="figure-click-rate"
              label={t('dashboard.campaigns.click_rate')}
              value={rateText(data.clickRate.current)}
              note={t('dashboard.campaigns.no_rate')}
              change={changeOf(data.clickRate, 'rate', language)}
            />
            <FigureCard
              testId="figure-bounce-rate"
              label={t('dashboard.campaigns.bounce_rate')}
              value={rateText(data.bounceRate.current)}
              note={t('dashboard.campaigns.no_send')}
              change={changeOf(data.bounceRate, 'rate', language)}
              lowerIsBetter
            />
            <FigureCard
              testId="figure-complaint-rate"
              label={t('dashboard.campaigns.complaint_rate')}
              value={rateText(data.complaintRate.current)}
              note={t('dashboard.campaigns.no_rate')}
              change={changeOf(data.complaintRate, 'rate', language)}
              lowerIsBetter
            />
            <FigureCard
              testId="figure-campaigns-sent"
              label={t('dashboard.campaigns.campaigns_sent')}
              value={formatCount(data.campaignsSent.current ?? 0, language)}
              change={changeOf(data.campaignsSent, 'count', language)}
            />
            <FigureCard
              testId="figure-campaigns-failed"
              label={t('dashboard.campaigns.campaigns_failed')}
              value={formatCount(data.campaignsFailed.current ?? 0, language)}
              change={changeOf(data.campaignsFailed, 'count', language)}
              lowerIsBetter
            />
          </SimpleGrid>
          {mailed ? (
            <>
              <Text size="sm" data-testid="revenue-total">
                {t('dashboard.campaigns.revenue_title')}:{' '}
                {t('dashboard.campaigns.revenue_total', {
                  amount: formatYen(data.revenue.current ?? 0, language),
                  count: data.bookings.current ?? 0,
                })}
              </Text>
              {data.incrementalRevenue && (
                <div data-testid="revenue-incremental">
                  <Text size="sm">
                    {t('dashboard.campaigns.incremental', {
                      amount: formatYen(Math.round(data.incrementalRevenue.value), language),
                      margin: formatYen(
                        Math.round((data.incrementalRevenue.high - data.incrementalRevenue.low) / 2),
                        language,
                      ),
                    })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('dashboard.campaigns.incremental_hint')}
                  </Text>
                </div>
              )}
              <Suspense fallback={<Skeleton h={280} radius="md" aria-label={t('dashboard.campaigns.chart_loading')} />}>
                <PerformanceChart daily={data.daily} />
              </Suspense>
              {data.hotels && (
                <Suspense fallback={<Skeleton h={160} radius="md" />}>
                  <HotelBreakdown hotels={data.hotels} />
                </Suspense>
              )}
              <Text size="xs" c="dimmed" data-testid="campaign-scope-note">
                {t('dashboard.campaigns.scope_note')}
              </Text>
            </>
          ) : (
            <Paper withBorder radius="md" p="md" data-testid="campaign-empty">
              <EmptyState
                title={t('dashboard.campaigns.empty_title')}
                description={t(readOnly ? 'dashboard.campaigns.empty_viewer' : 'dashboard.campaigns.empty')}
                readOnly={readOnly}
              />
            </Paper>
          )}
          <Upcoming data={data} showScenarios={showScenarios} />
        </>
      )}
    </Stack>
  );
}

/**
 * The next scheduled campaigns (and those held by quiet hours, saying so), in the window's time zone,
 * and the running scenarios where the role may read scenarios.
 */
function Upcoming({ data, showScenarios }: { data: TCampaignPerformance; showScenarios: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  // The page's one zone, the window's, which the header names.
  const timeZone = data.window.timezone;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Paper withBorder radius="md" p="md" data-testid="next-scheduled">
        <Text fw={600} size="sm" mb="xs">
          {t('dashboard.upcoming.scheduled_title')}
        </Text>
        {data.nextScheduled.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('dashboard.upcoming.no_scheduled')}
          </Text>
        ) : (
          <Stack gap={6}>
            {data.nextScheduled.map((c) => (
              <div key={c.id} data-testid="next-scheduled-row" data-held={c.hold ? c.hold.reason : undefined}>
                <Text size="sm">{c.name}</Text>
                {c.hold ? (
                  <CampaignHoldNote hold={c.hold} pageTimeZone={timeZone} texts="dashboard.upcoming.hold" />
                ) : (
                  <Text size="xs" c="dimmed">
                    {formatDate(c.sendAt, language, { withTime: true, timeZone })} ·{' '}
                    {t('dashboard.upcoming.scheduled_by', { host: c.hostName })}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        )}
      </Paper>
      {showScenarios && <RunningScenariosPanel timeZone={timeZone} />}
    </SimpleGrid>
  );
}
