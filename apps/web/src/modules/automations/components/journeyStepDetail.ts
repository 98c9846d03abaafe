import type { TFunction } from 'i18next';
import type { TLanguage } from '../../../lib/session/storage';
import { formatDate } from '../../../lib/dates/formatDate';

/**
 * The detail of a step of a customer's path, in the reader's language: a moved wait from when to
 * when and a wait's end in the scenario's time zone, a reason code (a skip, a departure) as its
 * catalogue text; an error text the server wrote as it is.
 */
export function journeyStepDetail(
  step: { event: string; detail: string | null },
  t: TFunction,
  language: TLanguage,
  timeZone: string,
): string | null {
  const { event, detail } = step;
  if (!detail) return null;
  const when = (iso: string) => formatDate(iso, language, { withTime: true, timeZone });
  const isInstant = (text: string) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text));
  if (event === 'moved') {
    const [from, to] = detail.split('/');
    if (from && to && isInstant(from) && isInstant(to))
      return t('automations.journey_detail.moved', { from: when(from), to: when(to) });
  }
  if (event === 'waiting' && isInstant(detail)) return t('automations.journey_detail.until', { until: when(detail) });
  // A reason of the scenario's own, else an error code of the catalogue (a failed step), else the server's text as it is.
  return t([`automations.journey_reason.${detail}`, `errors.${detail}`], { defaultValue: detail });
}
