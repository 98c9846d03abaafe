import type { TCampaign } from '@yado/contracts/campaigns';
import type { TFunction } from 'i18next';
import { formatDate } from '../../lib/dates/formatDate';
import type { TLanguage } from '../../lib/session/storage';

/**
 * What a paused campaign says on its statistics page and in the list: who paused it and when, or,
 * when it paused itself (issue 25, protection), why: "Paused automatically: hard-bounce rate 5.2% …".
 */
export function pausedText(
  paused: NonNullable<TCampaign['paused']>,
  t: TFunction,
  language: TLanguage,
  timeZone?: string,
): string {
  const time = formatDate(paused.at, language, { withTime: true, timeZone });
  if (paused.reason) {
    const rate = (paused.reason.rate * 100).toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US', {
      maximumFractionDigits: 1,
    });
    return t(`campaign.statistics.paused_automatically.${paused.reason.kind}`, { rate, time });
  }
  return t('campaign.statistics.paused', {
    name: paused.by?.name ?? t('campaign.statistics.paused_someone'),
    time,
  });
}
