import { Badge } from '@mantine/core';
import type { TSegmentType } from '@yado/contracts/segments';
import { useTranslation } from 'react-i18next';

export function SegmentTypeBadge({ type }: { type: TSegmentType }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={type === 'dynamic' ? 'violet' : 'teal'} data-testid="segment-type">
      {t(`segmentation.types.${type}`)}
    </Badge>
  );
}
