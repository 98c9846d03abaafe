import { Badge } from '@mantine/core';
import type { TCampaignStatus } from '@yado/contracts/campaigns';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TCampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  pending: 'yellow',
  sent: 'green',
  failed: 'red',
  cancelled: 'dark',
};

export function CampaignStatusBadge({ status }: { status: TCampaignStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="campaign-status" data-status={status}>
      {t(`campaign.status.${status}`)}
    </Badge>
  );
}
