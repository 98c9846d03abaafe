import { fullName, type TTemplateLanguage } from '@yado/contracts';
import type { TPersonalValues } from './compile.ts';

/** What a guest's mail can be personalised with: their names, a hotel and a stay. */
export interface TGuestData {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  hotelName?: string | null;
  brandName?: string | null;
  /** YYYY-MM-DD */
  checkIn?: string | null;
  checkOut?: string | null;
  roomName?: string | null;
  numberOfGuests?: number | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A stay date as a guest reads it: 2026年12月24日 / 24 Dec 2026. */
export function formatStayDate(date: string | null | undefined, language: TTemplateLanguage): string | null {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return null;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  return language === 'ja' ? `${y}年${Number(mo)}月${Number(d)}日` : `${Number(d)} ${MONTHS[Number(mo) - 1]} ${y}`;
}

/**
 * The tag values of one guest in one language. The full name is in the guest's order (family name
 * first for a Japanese name) and, in the Japanese version, followed by 様; a guest without a name
 * gets the tag's fallback instead (お客様 by default), never a lone 様.
 */
export function personalValues(guest: TGuestData, language: TTemplateLanguage): TPersonalValues {
  const first = guest.firstName?.trim() ?? '';
  const last = guest.lastName?.trim() ?? '';
  const name = fullName(first, last);
  return {
    first_name: first || null,
    last_name: last || null,
    full_name: name ? (language === 'ja' ? `${name} 様` : name) : null,
    email: guest.email || null,
    hotel_name: guest.hotelName || null,
    brand_name: guest.brandName || null,
    check_in_date: formatStayDate(guest.checkIn, language),
    check_out_date: formatStayDate(guest.checkOut, language),
    room_name: guest.roomName || null,
    number_of_guests: guest.numberOfGuests ? String(guest.numberOfGuests) : null,
  };
}
