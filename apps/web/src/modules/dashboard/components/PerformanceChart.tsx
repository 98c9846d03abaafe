import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { TDailyPerformance } from '@yado/contracts/dashboard';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatCount, formatYen } from '../utils/figures';

/**
 * The daily chart: sends, opens, clicks and bookings as bars, the bookings' revenue as a line of
 * its own (yen would flatten the counts on one axis). Its own chunk with the chart library,
 * loaded after the dashboard's figures, so the first page stays small.
 */
export function PerformanceChart({ daily }: { daily: TDailyPerformance[] }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const data = daily.map((d) => ({ ...d, label: d.day.slice(5).replace('-', '/') }));
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <Paper withBorder radius="md" p="md" data-testid="chart-daily">
        <Text fw={600} size="sm" mb="sm">
          {t('dashboard.campaigns.chart_title')}
        </Text>
        <BarChart
          h={240}
          data={data}
          dataKey="label"
          withLegend
          valueFormatter={(v) => formatCount(v, language)}
          series={[
            { name: 'sent', label: t('dashboard.campaigns.series.sent'), color: 'blue.6' },
            { name: 'opened', label: t('dashboard.campaigns.series.opened'), color: 'teal.6' },
            { name: 'clicked', label: t('dashboard.campaigns.series.clicked'), color: 'orange.6' },
            { name: 'bookings', label: t('dashboard.campaigns.series.bookings'), color: 'grape.6' },
          ]}
        />
      </Paper>
      <Paper withBorder radius="md" p="md" data-testid="chart-revenue">
        <Text fw={600} size="sm" mb="sm">
          {t('dashboard.campaigns.revenue_title')}
        </Text>
        <LineChart
          h={240}
          data={data}
          dataKey="label"
          withLegend
          valueFormatter={(v) => formatYen(v, language)}
          series={[{ name: 'revenue', label: t('dashboard.campaigns.series.revenue'), color: 'grape.6' }]}
        />
      </Paper>
    </SimpleGrid>
  );
}
