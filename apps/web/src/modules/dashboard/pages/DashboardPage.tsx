import { SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { formatDate } from '../../../lib/dates/formatDate';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, startAddressFor } from '../../shell/navigation';
import { PageHeader } from '../../ui/components/PageHeader';
import { customerStatisticsQuery } from '../api/dashboardCalls';
import { CampaignPerformanceBlock } from '../components/CampaignPerformanceBlock';
import { CustomerStatisticsBlock } from '../components/CustomerStatisticsBlock';
import { HostChildrenPanel, LevelInfoPanel } from '../components/LevelInfoPanel';
import { QuickActions } from '../components/QuickActions';

/**
 * The last 7 days of the acting brand, hotel group or hotel (specification sections 2, 6, 9).
 * Each block shows only with its entitlement and loads on its own; the granduser has no
 * dashboard and is sent on. A viewer (no quick actions) reads the read-only empty texts.
 */
export function DashboardPage() {
  const me = useProfile();
  if (!canSeeArea(AREAS.dashboard, me.entitlements)) {
    return <Navigate to={startAddressFor(me.entitlements, me.features)} replace />;
  }
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
        {can['dashboard.read_campaign_performance'] && <CampaignPerformanceBlock readOnly={readOnly} />}
        {can['dashboard.read_level_info'] && <HostChildrenPanel />}
      </Stack>
    </>
  );
}

/** "Last 7 days", and once known, which days in which time zone. */
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
