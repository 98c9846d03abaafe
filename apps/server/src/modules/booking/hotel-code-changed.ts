import type { TTx } from '../../db/client.ts';
import { rewindWatermark } from './queries.ts';

/**
 * A hotel's booking-system code was set or changed. Reservations at a code no hotel had were
 * skipped (`unknown_hotel_code`) and the watermark has moved past them, so the brand's next sync
 * (daily, or "sync now") reads the account again from the start. Writes change only what
 * differs, so the re-read adds the missing bookings and moves the ones whose code moved.
 */
export async function hotelCodeChanged(tx: TTx, brandId: string): Promise<void> {
  await rewindWatermark(tx, brandId);
}
