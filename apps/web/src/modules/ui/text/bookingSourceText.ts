import type { TFunction } from 'i18next';

/**
 * Where a booking came from, in the reader's language ("rakuten_travel" → 楽天トラベル, Rakuten
 * Travel): the one place the booking system's source codes are named (`booking_sources` in the
 * core catalogue). A code without a label, one the booking system adds later, shows as it came.
 */
export function bookingSourceText(value: string | null | undefined, t: TFunction): string {
  if (!value) return '-';
  return /^[a-z0-9_]+$/.test(value) ? t(`booking_sources.${value}`, { defaultValue: value }) : value;
}
