import { Badge } from '@mantine/core';
import type { TCampaignHold, TCampaignStatus } from '@yado/contracts/campaigns';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TCampaignStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  pending: 'yellow',
  sent: 'green',
  failed: 'red',
  cancelled: 'dark',
};

/**
 * The campaign's status; a sending campaign whose every remaining delivery waits for quiet hours
 * says "Waiting" rather than sending (the hold note beside it says until when).
 */
export function CampaignStatusBadge({ status, hold }: { status: TCampaignStatus; hold?: TCampaignHold | null }) {
  const { t } = useTranslation();
  const waiting = status === 'pending' && hold?.whole === true;
  return (
    <Badge
      color={waiting ? 'orange' : COLORS[status]}
      variant="light"
      data-testid="campaign-status"
      data-status={status}
      data-held={hold ? hold.reason : undefined}
    >
      {waiting ? t('campaign.hold.badge') : t(`campaign.status.${status}`)}
    </Badge>
  );
}
