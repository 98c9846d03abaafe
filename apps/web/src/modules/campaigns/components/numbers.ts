import i18next, { type TFunction } from 'i18next';
import type { TLanguage } from '../../../lib/session/storage';

const locale = (language: TLanguage) => (language === 'ja' ? 'ja-JP' : 'en-US');

export function formatCount(value: number, language: TLanguage): string {
  return value.toLocaleString(locale(language));
}

/** A rate (0..1) as a percentage with one decimal; "-" when there is nothing to divide by yet. */
export function formatRate(value: number | null | undefined, language: TLanguage): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString(locale(language), {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
}

export function formatMoney(value: number, currency: string, language: TLanguage): string {
  return value.toLocaleString(locale(language), { style: 'currency', currency, maximumFractionDigits: 0 });
}

/** Whether the server stored an error code the catalogue has a text for (not a relay's raw reply). */
export const hasCodeText = (code: string): boolean => i18next.exists(`errors.${code}`);

/** The text of an error code the server stored on a campaign or a delivery (not a failed call). */
export function codeText(code: string, t: TFunction = i18next.t): string {
  return hasCodeText(code) ? t(`errors.${code}`) : t('errors.general');
}
