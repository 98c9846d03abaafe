import type { TQuietHoursCheck } from '@yado/contracts/campaigns';
import { currentLanguage } from '../../i18n/i18n';
import { formatDate } from '../../lib/dates/formatDate';

/**
 * When mails held by the quiet hours go out, in the quiet hours' zone (as the schedule step says
 * it), or null when the check holds nothing: for "Send now" in the editor and in the list.
 */
export const heldUntilText = (check: TQuietHoursCheck | undefined) =>
  check?.inQuietHours && check.deferredTo
    ? `${formatDate(check.deferredTo, currentLanguage(), { withTime: true, timeZone: check.quietHours.timeZone })} (${check.quietHours.timeZone})`
    : null;
