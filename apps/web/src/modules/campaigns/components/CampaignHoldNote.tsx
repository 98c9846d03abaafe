import { Text } from '@mantine/core';
import type { TCampaignHold } from '@yado/contracts/campaigns';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../i18n/i18n';
import { formatCount } from './numbers';

/**
 * Why a sending campaign waits: "Waiting for quiet hours to end: 08:00 (さくら旅館 箱根)", and how
 * many deliveries wait. The time is the held hotel's own wall clock (the quiet hours are its own);
 * where that hotel's zone is not the page's, the zone is named with it. `texts` is the catalogue
 * the page has (the campaigns area's, or the dashboard's).
 */
export function CampaignHoldNote({
  hold,
  pageTimeZone,
  texts = 'campaign.hold',
  maw = 320,
}: {
  hold: TCampaignHold;
  pageTimeZone: string;
  texts?: 'campaign.hold' | 'dashboard.upcoming.hold';
  /** Narrow in a list's cell; a page's header gives it more room. */
  maw?: number;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const time = hold.timeZone === pageTimeZone ? hold.localTime : `${hold.localTime} ${hold.timeZone}`;
  return (
    <>
      <Text size="xs" c="orange.8" maw={maw} data-testid="campaign-hold" data-until={hold.until}>
        {hold.otherHosts > 0
          ? t(`${texts}.quiet_hours_more`, { time, host: hold.hostName, count: hold.otherHosts })
          : t(`${texts}.quiet_hours`, { time, host: hold.hostName })}
      </Text>
      <Text size="xs" c="dimmed" data-testid="campaign-hold-waiting">
        {t(`${texts}.waiting`, { count: formatCount(hold.waiting, language) })}
      </Text>
    </>
  );
}

/** The viewer's own time zone: the list shows its times in it. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
