/**
 * Room catalogues by kind of hotel. `type` is the booking system's room type code; `name` is
 * what the front desk sees, in the hotel's language. Rates are a typical weekday night in JPY.
 */
export type THotelKind = 'city' | 'resort' | 'ryokan';
export type TRoomType = 'single' | 'double' | 'twin' | 'triple' | 'suite' | 'japanese_style';

export interface TRoom {
  type: TRoomType;
  nameJa: string;
  nameEn: string;
  capacity: number;
  nightlyRate: number;
  /** Relative share of bookings. */
  weight: number;
}

export const ROOMS: Readonly<Record<THotelKind, readonly TRoom[]>> = {
  city: [
    { type: 'single', nameJa: '禁煙スタンダードシングル', nameEn: 'Standard Single (non-smoking)', capacity: 1, nightlyRate: 11_000, weight: 30 },
    { type: 'double', nameJa: 'スタンダードダブル', nameEn: 'Standard Double', capacity: 2, nightlyRate: 15_000, weight: 25 },
    { type: 'twin', nameJa: 'デラックスツイン', nameEn: 'Deluxe Twin', capacity: 2, nightlyRate: 19_000, weight: 25 },
    { type: 'triple', nameJa: 'トリプルルーム', nameEn: 'Triple Room', capacity: 3, nightlyRate: 24_000, weight: 8 },
    { type: 'suite', nameJa: 'エグゼクティブスイート', nameEn: 'Executive Suite', capacity: 3, nightlyRate: 52_000, weight: 3 },
  ],
  resort: [
    { type: 'double', nameJa: 'オーシャンビュー ダブル', nameEn: 'Ocean View Double', capacity: 2, nightlyRate: 26_000, weight: 25 },
    { type: 'twin', nameJa: 'オーシャンビュー ツイン', nameEn: 'Ocean View Twin', capacity: 2, nightlyRate: 28_000, weight: 30 },
    { type: 'triple', nameJa: 'ファミリールーム', nameEn: 'Family Room', capacity: 4, nightlyRate: 38_000, weight: 20 },
    { type: 'suite', nameJa: 'プレミアスイート', nameEn: 'Premier Suite', capacity: 4, nightlyRate: 85_000, weight: 5 },
  ],
  ryokan: [
    { type: 'japanese_style', nameJa: '和室 10畳', nameEn: 'Japanese-style Room (10 tatami)', capacity: 4, nightlyRate: 32_000, weight: 40 },
    { type: 'japanese_style', nameJa: '露天風呂付き客室', nameEn: 'Room with Private Open-air Bath', capacity: 3, nightlyRate: 58_000, weight: 20 },
    { type: 'twin', nameJa: '和洋室', nameEn: 'Japanese-Western Room', capacity: 3, nightlyRate: 38_000, weight: 25 },
    { type: 'suite', nameJa: '特別室「月見」', nameEn: 'Special Suite "Tsukimi"', capacity: 5, nightlyRate: 120_000, weight: 3 },
  ],
};
