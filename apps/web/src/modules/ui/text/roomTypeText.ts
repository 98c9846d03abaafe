import type { TFunction } from 'i18next';

/**
 * A booking's room type in the reader's language ("twin" → ツイン). The booking system's own
 * codes are translated; a code it adds later shows as it came rather than not at all.
 */
export function roomTypeText(value: string | null | undefined, t: TFunction): string {
  if (!value) return '-';
  return /^[a-z_]+$/.test(value) ? t(`room_types.${value}`, { defaultValue: value }) : value;
}
