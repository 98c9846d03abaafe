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
 * says "Waiting" rather than sending (the hold note beside it says until when), and a paused one
 * says "Paused" whatever else would hold it: it waits for a person to resume it, not for a time.
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
  const state = status !== 'pending' ? null : paused ? 'paused' : hold?.whole === true ? 'waiting' : null;
  return (
    <Badge
      color={state === 'paused' ? 'grape' : state === 'waiting' ? 'orange' : COLORS[status]}
      variant="light"
      data-testid="campaign-status"
      data-status={status}
      data-paused={state === 'paused' ? true : undefined}
      data-held={hold ? hold.reason : undefined}
    >
      {state === 'paused'
        ? t('campaign.hold.paused_badge')
        : state === 'waiting'
          ? t('campaign.hold.badge')
          : t(`campaign.status.${status}`)}
    </Badge>
  );
}
