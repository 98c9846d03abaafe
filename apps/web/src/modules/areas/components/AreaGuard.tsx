import type { ReactNode } from 'react';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, hiddenAtLevel, type TAreaId } from '../../shell/navigation';
import { AreaPage } from '../pages/AreaPage';

/** Renders an area's page only for a role the sidebar offers it to; others get the no-access state. */
export function AreaGuard({ areaId, children }: { areaId: TAreaId; children: ReactNode }) {
  const me = useProfile();
  return canSeeArea(AREAS[areaId], me.entitlements) && !hiddenAtLevel(me.meta.level).includes(areaId) ? (
    children
  ) : (
    <AreaPage areaId={areaId} />
  );
}
