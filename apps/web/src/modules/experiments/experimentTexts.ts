import type {
  TExperimentMetric,
  TExperimentReport,
  THoldoutWindow,
  TInterval,
  TRate,
  TVariantReport,
} from '@yado/contracts/experiments';
import type { TFunction } from 'i18next';
import { formatDate } from '../../lib/dates/formatDate';
import type { TLanguage } from '../../lib/session/storage';
import { formatCount, formatMoney, formatRate } from '../campaigns/components/numbers';

/** The fewest sends per variant the server decides on (below: inconclusive, too few). */
export const MIN_PER_VARIANT = 500;

const RATE_OF = { clicks: 'clickRate', bookings: 'bookingRate', opens: 'openRate' } as const;

export function rateOf(variant: TVariantReport, metric: TExperimentMetric): TRate {
  return variant[RATE_OF[metric]];
}

/** "4.1% (3.5–4.8%)": a rate with its 95 % interval; "-" with nothing sent. */
export function rateWithInterval(rate: TRate, language: TLanguage): string {
  if (!rate) return '-';
  return `${formatRate(rate.value, language)} (${formatRate(rate.low, language)}–${formatRate(rate.high, language)})`;
}

/** Half the width of a 95 % interval: what "±" says. */
const margin = (interval: TInterval) => Math.max(0, (interval.high - interval.low) / 2);

/** "38 (±12)" bookings, "¥2,100,000 (±¥400,000)": a difference and its 95 % margin. */
export function plusMinus(interval: TInterval, kind: 'count' | 'yen', language: TLanguage): string {
  const show = (value: number) =>
    kind === 'yen' ? formatMoney(Math.round(value), 'JPY', language) : formatCount(Math.round(value), language);
  return `${show(interval.value)} (±${show(margin(interval))})`;
}

/** Where the test stands, in the page's named zone. */
export function phaseText(
  report: Pick<TExperimentReport, 'phase' | 'decideAt'>,
  t: TFunction,
  language: TLanguage,
  timeZone: string,
  /** The campaign is paused: a decided winner reaches the rest once it is resumed. */
  paused = false,
): string {
  if (report.phase === 'decided' && paused) return t('experiments.report.phase.decided_paused');
  if (report.phase === 'waiting' && report.decideAt) {
    return t(`experiments.report.phase.${paused ? 'waiting_paused' : 'waiting'}`, {
      time: formatDate(report.decideAt, language, { withTime: true, timeZone }),
      timeZone,
    });
  }
  return t(`experiments.report.phase.${report.phase}`);
}

/**
 * The winner and why, in words a marketer reads: "B won on clicks: 4.1% against 3.2%, 95%
 * confidence", "Inconclusive: ...", "too few recipients per variant", or who picked it by hand.
 * null while the test has not been decided. `paused`: the campaign is paused, so the winner goes
 * to the rest once it is resumed (not "went to the rest").
 */
export function decisionText(
  report: TExperimentReport,
  t: TFunction,
  language: TLanguage,
  paused = false,
): string | null {
  const { decision } = report;
  if (!decision) return null;
  const texts = paused ? 'experiments.report.decision_paused' : 'experiments.report.decision';
  if (decision.kind === 'manual') {
    return decision.by
      ? t(`${texts}.manual_by`, { key: decision.key, name: decision.by.name })
      : t(`${texts}.manual`, { key: decision.key });
  }
  if (decision.kind === 'inconclusive') {
    return t(`${texts}.${decision.reason}`, { min: formatCount(MIN_PER_VARIANT, language) });
  }
  const rate = (v: TVariantReport | undefined) => (v ? rateOf(v, decision.metric)?.value : undefined);
  const winner = report.variants.find((v) => v.key === decision.key);
  // Against the best of the others: the one it had to beat.
  const others = report.variants.filter((v) => v.key !== decision.key);
  const best = others.reduce<TVariantReport | undefined>(
    (top, v) => ((rate(v) ?? -1) > (rate(top) ?? -1) ? v : top),
    undefined,
  );
  return t(`${texts}.winner`, {
    key: decision.key,
    metric: t(`experiments.report.won_on.${decision.metric}`),
    rate: formatRate(rate(winner), language),
    other: formatRate(rate(best), language),
  });
}

/** What a holdout window says: what the mail caused, or that the holdout is too small to say. */
export function holdoutResultText(
  window: THoldoutWindow,
  subject: 'campaign' | 'scenario',
  t: TFunction,
  language: TLanguage,
): string {
  const { result } = window;
  if (result.kind === 'too_small') {
    return t('experiments.holdout.too_small', { count: result.holdout, guests: formatCount(result.holdout, language) });
  }
  const values = {
    bookings: plusMinus(result.incrementalBookings, 'count', language),
    revenue: plusMinus(result.incrementalRevenue, 'yen', language),
  };
  return result.significant
    ? t(`experiments.holdout.caused_${subject}`, values)
    : t('experiments.holdout.not_significant', values);
}
