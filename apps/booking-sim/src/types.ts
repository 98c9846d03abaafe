import type { TBookingSourceCode } from './data/booking-sources.ts';
import type { THotelKind, TRoomType } from './data/rooms.ts';

/**
 * Records exactly as the booking system's API serves them. Field names are snake_case and
 * values are the booking system's own vocabulary: mapping them to Yado's model is the sync's job.
 */
export type TGuestGender = 'male' | 'female' | 'unspecified';

export interface TGuest {
  /** Stable external id, unique within the booking system. */
  id: string;
  family_name: string;
  given_name: string;
  /** Katakana readings; null for guests whose names are not Japanese. */
  family_name_kana: string | null;
  given_name_kana: string | null;
  gender: TGuestGender;
  /** `YYYY-MM-DD`, or null when the guest did not give it. */
  birth_date: string | null;
  /** As typed at booking time: mixed case or surrounding spaces happen; null when not given. */
  email: string | null;
  /** As typed at booking time: hyphens, full-width digits, +81 and brackets all occur; null when not given. */
  phone: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  postal_code: string | null;
  /** Japanese prefecture in kanji (`東京都`); null outside Japan. */
  prefecture: string | null;
  city: string | null;
  address: string | null;
  /** Preferred language for correspondence. */
  language: 'ja' | 'en' | 'zh' | 'ko';
  /** Whether the guest agreed to receive the hotel's newsletter (メルマガ) when booking. */
  newsletter_opt_in: boolean;
  created_at: string;
  updated_at: string;
}

export type TReservationStatus = 'confirmed' | 'cancelled' | 'checked_in' | 'checked_out' | 'no_show';

export interface TReservation {
  id: string;
  guest_id: string;
  hotel_code: string;
  status: TReservationStatus;
  /** When the reservation was made (the booking date). */
  booked_at: string;
  /** Local dates at the hotel, `YYYY-MM-DD`. */
  check_in: string;
  check_out: string;
  nights: number;
  adults: number;
  children: number;
  /** adults + children. */
  guests: number;
  room_name: string;
  room_type: TRoomType;
  source: TBookingSourceCode;
  source_name: string;
  /** Total for the stay, tax included, in `currency`. */
  amount: number;
  currency: 'JPY';
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TSimHotelConfig {
  /** The booking system's hotel code, which Yado maps to one of its hotels. */
  code: string;
  name: string;
  kind?: THotelKind;
  /** Language of room names. Default 'ja'. */
  language?: 'ja' | 'en';
}

export interface TFaultConfig {
  /** Share of authenticated requests answered with a server error, 0..1. */
  failureRate?: number;
  /** Statuses to answer with, picked in turn. Default [500, 503]. */
  statuses?: readonly (500 | 502 | 503 | 504)[];
}

export interface TSimAccountConfig {
  /** The booking system's account (contract) id. */
  id: string;
  name: string;
  apiKey: string;
  hotels: readonly TSimHotelConfig[];
  /** Guests on file at the origin; overrides the simulator's guestsPerAccount. */
  guests?: number;
  /** Share of guests from abroad, 0..1. Default 0.08. */
  foreignGuestShare?: number;
  /** A suspended contract: every call answers 403 account_suspended. */
  suspended?: boolean;
  /** Intermittent server errors for this account only. */
  faults?: TFaultConfig;
}

/** How busy each simulated day is, per account; defaults scale with the number of guests. */
export interface TActivityConfig {
  newReservationsPerDay?: number;
  /** Share of new reservations made by first-time guests. Default 0.45. */
  newGuestShare?: number;
  changesPerDay?: number;
  cancellationsPerDay?: number;
  guestUpdatesPerDay?: number;
}
