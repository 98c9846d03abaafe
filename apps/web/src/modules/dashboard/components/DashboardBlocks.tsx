import { SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TMe } from '@yado/contracts/auth';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { PageHeader } from '../../ui/components/PageHeader';
import { customerStatisticsQuery } from '../api/dashboardCalls';
import { CampaignPerformanceBlock } from './CampaignPerformanceBlock';
import { CustomerStatisticsBlock } from './CustomerStatisticsBlock';
import { HostChildrenPanel, LevelInfoPanel } from './LevelInfoPanel';
import { QuickActions } from './QuickActions';

/**
 * The dashboard's header and blocks, each block only with its entitlement and loading on its own
 * (the page loads this file as its own chunk).
 */
export function DashboardBlocks({ me }: { me: TMe }) {
  const can = me.entitlements;
  const readOnly = !can['dashboard.read_quick_actions'];
  return (
    <>
      <DashboardHeader showRange={can['dashboard.read_customer_statistics']} />
      <Stack gap="xl">
        <SimpleGrid cols={{ base: 1, md: can['dashboard.read_quick_actions'] ? 3 : 1 }} spacing="md">
          {can['dashboard.read_level_info'] && (
            <div style={{ gridColumn: can['dashboard.read_quick_actions'] ? 'span 2' : undefined }}>
              <LevelInfoPanel me={me} />
            </div>
          )}
          {can['dashboard.read_quick_actions'] && <QuickActions can={can} />}
        </SimpleGrid>
        {can['dashboard.read_customer_statistics'] && <CustomerStatisticsBlock readOnly={readOnly} />}
        {can['dashboard.read_campaign_performance'] && (
          <CampaignPerformanceBlock readOnly={readOnly} showScenarios={showsRunningScenarios(me)} />
        )}
        {can['dashboard.read_level_info'] && <HostChildrenPanel />}
      </Stack>
    </>
  );
}

/** "Last 7 days", and once known, which days in which time zone (its call is the customer block's). */
function DashboardHeader({ showRange }: { showRange: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const stats = useQuery({ ...customerStatisticsQuery, enabled: showRange });
  const window = stats.data?.window;
  const day = (d: string) => formatDate(`${d}T12:00:00Z`, language, { noOffset: true });
  return (
    <PageHeader
      title={t('nav.dashboard')}
      description={
        window
          ? `${t('dashboard.window')}: ${t('dashboard.window_range', { from: day(window.from), to: day(window.to), timezone: window.timezone })}`
          : t('dashboard.window')
      }
    />
  );
}

/** The running scenarios show with the campaign block, where automation is on and the role reads scenarios. */
export function showsRunningScenarios(me: TMe): boolean {
  return (
    Boolean(me.features.automation) &&
    me.entitlements['dashboard.read_campaign_performance'] &&
    me.entitlements['scenarios.read_scenario']
  );
}
