import { Navigate } from 'react-router';
import { useProfile } from '../../shell/hooks/useProfile';
import { AREAS, canSeeArea, type TAreaId } from '../../shell/navigation';
import { AreaPage } from './AreaPage';

/** `/management` and `/automations` open their first child the role may see. */
export function SectionIndexPage({ areaIds }: { areaIds: readonly TAreaId[] }) {
  const me = useProfile();
  const first = areaIds.find((id) => canSeeArea(AREAS[id], me.entitlements));
  const fallback = areaIds[0];
  if (first) return <Navigate to={AREAS[first].path} replace />;
  return fallback ? <AreaPage areaId={fallback} /> : null;
}
