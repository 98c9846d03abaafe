import type { TFigure } from '@yado/contracts/dashboard';
import type { TLanguage } from '../../../lib/session/storage';

/** Yen as the rest of the console writes them ("￥12,000" / "¥12,000", never "JP¥"). */
export { formatYen } from '../../customers/format';

const locale = (language: TLanguage) => (language === 'ja' ? 'ja-JP' : 'en-GB');

export const formatCount = (value: number, language: TLanguage): string =>
  new Intl.NumberFormat(locale(language)).format(value);

/** A rate (0.253) as a percentage with one decimal ("25.3%"). */
export const formatRate = (value: number, language: TLanguage): string =>
  new Intl.NumberFormat(locale(language), {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(value);

/** What the line under a figure says: which way it moved against the 7 days before, and by how much. */
export type TChange =
  | { kind: 'unknown' }
  | { kind: 'same' }
  | { kind: 'up' | 'down'; value: string }
  | { kind: 'points_up' | 'points_down'; value: string };

/**
 * The change of a count, or of a rate in percentage points. Unknown when either week has no
 * figure (never a guess: a rate of a week without mail is not 0 %).
 */
export function changeOf(figure: TFigure, kind: 'count' | 'rate', language: TLanguage): TChange {
  if (figure.current === null || figure.previous === null) return { kind: 'unknown' };
  if (kind === 'count') {
    const diff = figure.current - figure.previous;
    if (diff === 0) return { kind: 'same' };
    return { kind: diff > 0 ? 'up' : 'down', value: formatCount(diff, language) };
  }
  const points = Math.round((figure.current - figure.previous) * 1000) / 10;
  if (points === 0) return { kind: 'same' };
  const value = new Intl.NumberFormat(locale(language), { maximumFractionDigits: 1 }).format(points);
  return { kind: points > 0 ? 'points_up' : 'points_down', value };
}
