/**
 * Where a reservation came from: the hotel's own channels and the online travel agencies
 * Japanese hotels sell through. `code` is stable and machine-readable; `name` is the label the
 * booking system shows.
 */
export const BOOKING_SOURCES = [
  { code: 'direct_web', name: '公式サイト', domesticWeight: 28, foreignWeight: 18 },
  { code: 'phone', name: '電話', domesticWeight: 9, foreignWeight: 1 },
  { code: 'walk_in', name: '当日来館', domesticWeight: 1, foreignWeight: 1 },
  { code: 'rakuten_travel', name: '楽天トラベル', domesticWeight: 24, foreignWeight: 2 },
  { code: 'jalan', name: 'じゃらんnet', domesticWeight: 20, foreignWeight: 1 },
  { code: 'ikyu', name: '一休.com', domesticWeight: 6, foreignWeight: 0 },
  { code: 'booking_com', name: 'Booking.com', domesticWeight: 5, foreignWeight: 34 },
  { code: 'expedia', name: 'Expedia', domesticWeight: 4, foreignWeight: 26 },
  { code: 'agoda', name: 'Agoda', domesticWeight: 3, foreignWeight: 16 },
] as const;

export type TBookingSourceCode = (typeof BOOKING_SOURCES)[number]['code'];
