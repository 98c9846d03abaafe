import { Badge } from '@mantine/core';
import {
  listStatusOf,
  type TCampaignHold,
  type TCampaignListStatus,
  type TCampaignStatus,
} from '@yado/contracts/campaigns';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TCampaignListStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  pending: 'yellow',
  waiting: 'orange',
  paused: 'grape',
  sent: 'green',
  failed: 'red',
  cancelled: 'dark',
};

/**
 * The campaign's status as the list filters by it (CAMPAIGN_LIST_STATUSES): a sending campaign
 * whose every remaining delivery waits for quiet hours says "Waiting" rather than sending (the hold
 * note beside it says until when), and a paused one says "Paused" whatever else would hold it: it
 * waits for a person to resume it, not for a time.
 */
export function CampaignStatusBadge({
  status,
  hold,
  paused = false,
}: {
  status: TCampaignStatus;
  hold?: TCampaignHold | null;
  paused?: boolean;
}) {
  const { t } = useTranslation();
  const shown = listStatusOf({ status, paused, hold });
  return (
    <Badge
      color={COLORS[shown]}
      variant="light"
      data-testid="campaign-status"
      data-status={status}
      data-paused={shown === 'paused' ? true : undefined}
      data-held={hold ? hold.reason : undefined}
    >
      {t(`campaign.status.${shown}`)}
    </Badge>
  );
}
