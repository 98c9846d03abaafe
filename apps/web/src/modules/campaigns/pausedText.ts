import type { TCampaign } from '@yado/contracts/campaigns';
import type { TProtectionWarning } from '@yado/contracts/deliverability';
import type { TFunction } from 'i18next';
import { formatDate } from '../../lib/dates/formatDate';
import type { TLanguage } from '../../lib/session/storage';

/** A percentage as the thresholds are set: up to two decimals (0.15), none when whole. */
const percent = (value: number, language: TLanguage) =>
  value.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-US', { maximumFractionDigits: value < 1 ? 2 : 1 });

/**
 * What a campaign near its pause says on its statistics page and in the brand admins' banner
 * (issue 25): "Hard-bounce rate 3.1%: this campaign pauses itself at 5%." A `finished` one (nothing
 * left to send) will not pause: its rate, past the threshold or near it, is about its list, to
 * check before the next campaign to the same guests.
 */
export function warningText(warning: TProtectionWarning, t: TFunction, language: TLanguage, finished = false): string {
  const values = { rate: percent(warning.rate * 100, language), threshold: percent(warning.pausePct, language) };
  if (!finished) return t(`campaign.statistics.protection_warning.${warning.kind}`, values);
  const over = warning.rate * 100 >= warning.pausePct;
  return t(`campaign.statistics.protection_finished.${over ? 'over' : 'near'}.${warning.kind}`, values);
}

/** A protection pause's rate as its texts show it ("5.2"). */
export const pausedRate = (rate: number, language: TLanguage) => percent(rate * 100, language);

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
    const rate = percent(paused.reason.rate * 100, language);
    return t(`campaign.statistics.paused_automatically.${paused.reason.kind}`, { rate, time });
  }
  return t('campaign.statistics.paused', {
    name: paused.by?.name ?? t('campaign.statistics.paused_someone'),
    time,
  });
}
