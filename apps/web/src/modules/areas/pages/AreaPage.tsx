import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, hiddenAtLevel, type TAreaId } from '../../shell/navigation';
import { EmptyState } from '../../ui/components/EmptyState';
import { PageHeader } from '../../ui/components/PageHeader';

/**
 * An area whose issue has not landed yet: its title and a plain "not available yet", never
 * made-up data. An area the role may not use says so instead, and so does a page of an area the
 * role may see but not use (`forbidden`: creating a campaign for a viewer).
 */
export function AreaPage({ areaId, forbidden = false }: { areaId: TAreaId; forbidden?: boolean }) {
  const { t } = useTranslation();
  const me = useProfile();
  const allowed =
    !forbidden && canSeeArea(AREAS[areaId], me.entitlements) && !hiddenAtLevel(me.meta.level).includes(areaId);
  return (
    <>
      <PageHeader title={t(`nav.${areaId}`)} />
      <Paper withBorder radius="md" p="xl" data-testid={allowed ? 'area-not-available' : 'area-forbidden'}>
        {allowed ? (
          <EmptyState title={t('areas.not_available.title')} description={t('areas.not_available.message')} />
        ) : (
          <EmptyState readOnly title={t('areas.forbidden.title')} description={t('errors.forbidden')} />
        )}
      </Paper>
    </>
  );
}
