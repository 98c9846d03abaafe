/** Customer data syncs from the booking system daily at 1 AM, in each brand's time zone. */
export const BOOKING_SYNC_HOUR = 1;
