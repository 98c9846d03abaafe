import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/**
 * The booking system (DBK) connection of a brand and its customer sync (specification sections
 * 1, 6 and 9): only a brand connects, one account per brand and one brand per account, and the
 * sync runs daily at 01:00 in the brand's time zone and on demand.
 */

/** Daily sync time, local to the brand (specification section 9: "daily at 1 AM"). */
export const DAILY_SYNC_TIME = '01:00';

export const SYNC_TRIGGERS = ['cron', 'manual', 'connect'] as const;
export const SYNC_STATUSES = ['running', 'succeeded', 'failed'] as const;

export const ZBookingConnectInput = z.object({
  accountId: z.string().trim().min(1).max(40),
  apiKey: z.string().trim().min(1).max(200),
});

export const ZBookingConnection = z.object({
  accountId: z.string(),
  accountName: z.string(),
  /** `refused`: the booking system stopped accepting the key; connect again with a new one. */
  status: z.enum(['active', 'refused']),
  connectedAt: z.string(),
  connectedByName: z.string().nullable(),
  /**
   * The `as_of` of the last complete sync, or null before the first one. A hotel's code change,
   * which makes the next sync read everything again, leaves it as it is.
   */
  syncedUpTo: z.string().nullable(),
  /** The booking system's hotels and the brand's hotel each maps to (null: not mapped). */
  hotels: z.array(z.object({ code: z.string(), hotelName: z.string().nullable() })),
});

/** One entry of a run's error list: a reason code, how often, and a few external ids (never personal data). */
export const ZSyncError = z.object({ code: z.string(), count: z.number(), examples: z.array(z.string()) });

export const ZSyncRun = z.object({
  id: z.string(),
  trigger: z.enum(SYNC_TRIGGERS),
  status: z.enum(SYNC_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  guestsRead: z.number(),
  reservationsRead: z.number(),
  customersCreated: z.number(),
  customersUpdated: z.number(),
  bookingsCreated: z.number(),
  bookingsUpdated: z.number(),
  bookingsCancelled: z.number(),
  skipped: z.number(),
  errors: z.array(ZSyncError),
  /** Started by itself after the worker running the previous run stopped. */
  resumed: z.boolean(),
});
export type TSyncRun = z.infer<typeof ZSyncRun>;

export const ZBookingStatus = z.object({
  connection: ZBookingConnection.nullable(),
  runs: z.array(ZSyncRun),
  /** A sync has been asked for and not finished yet. */
  syncPending: z.boolean(),
  schedule: z.object({ time: z.string(), timeZone: z.string() }),
});
export type TBookingStatus = z.infer<typeof ZBookingStatus>;

export const status = defineEndpoint({
  method: 'GET',
  path: '/v1/booking/connection',
  summary: "The brand's booking-system connection and its latest sync runs",
  response: envelope(ZBookingStatus),
});
export const connect = defineEndpoint({
  method: 'POST',
  path: '/v1/booking/connection',
  summary:
    'Verify an account of the booking system with its API key and connect the brand to it; starts the first sync',
  body: ZBookingConnectInput,
  response: envelope(ZBookingStatus),
});
export const disconnect = defineEndpoint({
  method: 'DELETE',
  path: '/v1/booking/connection',
  summary: 'Disconnect the brand from the booking system (synced customers and bookings stay)',
  response: envelope(ZBookingStatus),
});
export const syncNow = defineEndpoint({
  method: 'POST',
  path: '/v1/booking/sync',
  summary: 'Sync customers and bookings now',
  response: envelope(ZBookingStatus),
});
