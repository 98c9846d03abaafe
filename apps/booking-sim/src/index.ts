export {
  createBookingSim,
  DEFAULT_GUESTS_PER_ACCOUNT,
  DEFAULT_HISTORY_DAYS,
  DEFAULT_ORIGIN,
  DEFAULT_RATE_LIMIT,
  DEFAULT_SEED,
  type TBookingSim,
  type TBookingSimOptions,
  type TListeningSim,
  type TSimAccountInfo,
} from './create-booking-sim.ts';
export { DEMO_BOOKING_ACCOUNTS } from './demo-accounts.ts';
export { createManualClock, type TManualClock } from './manual-clock.ts';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type TErrorCode } from './http-handler.ts';
export type { TRateLimitConfig } from './rate-limiter.ts';
export type { TServerErrorStatus } from './fault-injector.ts';
export { BOOKING_SOURCES, type TBookingSourceCode } from './data/booking-sources.ts';
export type { THotelKind, TRoomType } from './data/rooms.ts';
export type {
  TActivityConfig,
  TFaultConfig,
  TGuest,
  TGuestGender,
  TReservation,
  TReservationStatus,
  TSimAccountConfig,
  TSimHotelConfig,
} from './types.ts';
