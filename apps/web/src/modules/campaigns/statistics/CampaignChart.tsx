import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import type { TCampaignSeries } from '@yado/contracts/tracking';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { CHART_SERIES as SERIES } from './chartSeries';

/** Counters over time (this module's own chunk: recharts loads only with the statistics page). */
export function CampaignChart({ series }: { series: TCampaignSeries }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const data = series.points.map((point) => ({
    at:
      series.interval === 'hour'
        ? formatDate(point.at, language, { withTime: true, timeZone: series.timeZone })
        : formatDate(point.at, language, { timeZone: series.timeZone }),
    ...Object.fromEntries(SERIES.map((s) => [s.key, point[s.key]])),
  }));
  return (
    <LineChart
      h={280}
      data={data}
      dataKey="at"
      withLegend
      curveType="linear"
      series={SERIES.map((s) => ({ name: s.key, color: s.color, label: t(`campaign.statistics.series.${s.text}`) }))}
      valueFormatter={(value) => value.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US')}
      data-testid="campaign-chart"
    />
  );
}
