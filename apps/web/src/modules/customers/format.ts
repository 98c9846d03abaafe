import type { TLanguage } from '../../lib/session/storage';

/** An amount of yen in the console's language ("￥12,000" / "¥12,000"). */
export function formatYen(amount: number, language: TLanguage): string {
  return new Intl.NumberFormat(language === 'ja' ? 'ja-JP' : 'en-US', {
    style: 'currency',
    currency: 'JPY',
    maximumFractionDigits: 0,
  }).format(amount);
}
