import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, startAddressFor } from '../../shell/navigation';
import { PageHeader } from '../../ui/components/PageHeader';

// The dashboard's header and blocks (with their calls) are one chunk of their own, so the
// signed-in shell's first download stays small (docs/benchmarks.md, "bundle"); the page shows
// its title at once and a loader until that chunk arrives.
const DashboardBlocks = lazy(async () => ({
  default: (await import('../components/DashboardBlocks')).DashboardBlocks,
}));

/**
 * The last 7 days of the acting brand, hotel group or hotel (specification sections 2, 6, 9).
 * Each block shows only with its entitlement and loads on its own; the granduser has no
 * dashboard and is sent on. A viewer (no quick actions) reads the read-only empty texts.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const me = useProfile();
  if (!canSeeArea(AREAS.dashboard, me.entitlements)) {
    return <Navigate to={startAddressFor(me.entitlements, me.features)} replace />;
  }
  return (
    <Suspense
      fallback={
        <>
          <PageHeader title={t('nav.dashboard')} description={t('dashboard.window')} />
          <Center py="xl" data-testid="dashboard-loading">
            <Loader />
          </Center>
        </>
      }
    >
      <DashboardBlocks me={me} />
    </Suspense>
  );
}
