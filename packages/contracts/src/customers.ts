import { z } from 'zod';
import { SUPPRESSION_REASONS } from './deliverability.ts';
import { defineEndpoint, envelope } from './http.ts';

/** Customers and their booking history (specification sections 2 and 3). */

export const GENDERS = ['male', 'female', 'prefer_not_to_say'] as const;
export const EMAIL_STATUSES = ['active', 'unsubscribed'] as const;
export const CONSENT_SOURCES = ['import', 'booking_system', 'manual'] as const;

/**
 * A phone number as digits only: full-width digits become half-width, hyphens, spaces, dots and
 * brackets go, and +81 becomes a leading 0. Null when what is left is not 6 to 15 digits.
 */
export function normalizePhone(input: string): string | null {
  let s = input.normalize('NFKC').replace(/[\s\-‐‑‒–—―ー().]/g, '');
  if (s.startsWith('+81')) s = `0${s.slice(3)}`;
  else if (s.startsWith('+')) s = s.slice(1);
  return /^[0-9]{6,15}$/.test(s) ? s : null;
}

/** Whole years between a birth date (YYYY-MM-DD) and today (YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export const ZCustomer = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  idNumber: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  dateOfBirth: z.string().nullable(),
  age: z.number().nullable(),
  country: z.string().nullable(),
  prefecture: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  emailStatus: z.enum(EMAIL_STATUSES),
  emailStatusChangedAt: z.string().nullable(),
  /** When a campaign mail to this address hard-bounced (5xx): no campaign mails it any more. */
  emailBouncedAt: z.string().nullable().optional(),
  unsubscribeReason: z.string().nullable(),
  consentSource: z.enum(CONSENT_SOURCES),
  consentAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  totalBookings: z.number(),
  totalPayments: z.number(),
});
export type TCustomer = z.infer<typeof ZCustomer>;

export const CUSTOMER_SORTS = ['name', '-created_at', 'created_at'] as const;

export const ZCustomerFilter = z.object({
  search: z.string().trim().max(200).optional(),
  emailStatus: z.enum(EMAIL_STATUSES).optional(),
  hotelId: z.uuid().optional(),
  sort: z.enum(CUSTOMER_SORTS).default('-created_at'),
});
export const ZCustomerListQuery = ZCustomerFilter.extend({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const ZCustomerPage = z.object({
  items: z.array(ZCustomer),
  nextCursor: z.string().nullable(),
  /** Exact up to the cap; beyond it the total is shown as "cap+". */
  total: z.number(),
  totalCapped: z.boolean(),
  /** The acting host's time zone (`hosts.timezone`): the console shows the page's dates in it. */
  timeZone: z.string(),
});

/**
 * The active entry of the brand's suppression list for a customer's address (issue 25; the rule
 * the send paths read: not lifted, `until` not passed): no campaign or journey mails it, whatever
 * the email status says.
 */
export const ZCustomerSuppression = z.object({
  reason: z.enum(SUPPRESSION_REASONS),
  createdAt: z.string(),
  /** Soft bounces: suppressed until then. Null: until lifted. */
  until: z.string().nullable(),
});
export type TCustomerSuppression = z.infer<typeof ZCustomerSuppression>;

/**
 * One customer, with the acting host's time zone the console shows its times in, and the active
 * suppression of their address (null: none).
 */
export const ZCustomerDetail = ZCustomer.extend({ timeZone: z.string(), suppression: ZCustomerSuppression.nullable() });

export const ZCustomerInput = z.object({
  firstName: z.string().trim().max(100),
  lastName: z.string().trim().max(100),
  phone: z.string().trim().max(40),
  email: z.string().trim().max(254).optional().nullable(),
  idNumber: z.string().trim().max(50).optional().nullable(),
  gender: z.enum(GENDERS).optional().nullable(),
  dateOfBirth: z.string().max(10).optional().nullable(),
  country: z
    .string()
    .max(2)
    .optional()
    .nullable()
    .describe(
      'ISO 3166-1 alpha-2, any case (COUNTRY_CODES); another code answers 400 with the field code country_invalid, except the one the customer already has',
    ),
  prefecture: z.string().max(100).optional().nullable(),
  city: z.string().max(100).optional().nullable(),
  address: z.string().trim().max(500),
  /** Required on create at a brand or hotel group: which hotel the customer belongs to. */
  hotelId: z.uuid().optional(),
});

export const ZBooking = z.object({
  id: z.string(),
  hotelName: z.string(),
  hotelGroupName: z.string().nullable(),
  brandName: z.string(),
  bookingDate: z.string(),
  checkIn: z.string(),
  checkOut: z.string(),
  nights: z.number(),
  guests: z.number(),
  roomName: z.string().nullable(),
  roomType: z.string().nullable(),
  source: z.string().nullable(),
  amount: z.number(),
  status: z.string(),
});

export const ZAllocationSummary = z.object({
  brand: z.object({ name: z.string(), bookingCount: z.number() }),
  hotelGroups: z.array(z.object({ id: z.string(), name: z.string(), bookingCount: z.number() })),
  hotels: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      hotelGroupName: z.string().nullable(),
      bookingCount: z.number(),
      source: z.string(),
    }),
  ),
});

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/customers',
  summary: 'Customers in reach, keyset-paginated',
  query: ZCustomerListQuery,
  response: envelope(ZCustomerPage),
});
export const get = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/:id',
  summary:
    "One customer, with the acting host's time zone and the active entry of the brand's suppression list for their address (reason, since, until; null when none)",
  response: envelope(ZCustomerDetail),
});
export const create = defineEndpoint({
  method: 'POST',
  path: '/v1/customers',
  summary: 'Add a customer',
  body: ZCustomerInput,
  response: envelope(ZCustomer),
});
export const update = defineEndpoint({
  method: 'PUT',
  path: '/v1/customers/:id',
  summary: 'Edit a customer',
  body: ZCustomerInput.omit({ hotelId: true }),
  response: envelope(ZCustomer),
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: '/v1/customers/:id',
  summary: 'Delete a customer and their bookings',
  response: envelope(z.object({ id: z.string() })),
});
export const setEmailStatus = defineEndpoint({
  method: 'PUT',
  path: '/v1/customers/email-status',
  summary: 'Set active or unsubscribed for one customer or a selection',
  body: z.object({
    ids: z.array(z.uuid()).min(1).max(1000),
    emailStatus: z.enum(EMAIL_STATUSES),
    reason: z.string().max(200).optional(),
  }),
  response: envelope(z.object({ updated: z.number() })),
});
export const bookingHistory = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/:id/bookings',
  summary: "A customer's bookings in reach, newest stay first",
  response: envelope(z.array(ZBooking)),
});
export const allocationSummary = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/:id/allocations',
  summary:
    "The brand, hotel groups and hotels a customer is allocated to, those in the acting context's reach only, with their bookings in reach",
  response: envelope(ZAllocationSummary),
});

export const ZCustomerExport = ZCustomerFilter.extend({ lang: z.enum(['ja', 'en']).optional() });

export const exportCsv = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/export.csv',
  summary: 'The customers the filters show, as CSV (UTF-8 with BOM), streamed (bearer token; for API clients)',
  query: ZCustomerExport,
  response: z.string(),
});

/** How long a download link works, in seconds. */
export const EXPORT_LINK_TTL_SECONDS = 60;

export const createExportLink = defineEndpoint({
  method: 'POST',
  path: '/v1/customers/export-downloads',
  summary:
    'A download link for the CSV export of the customers the filters show, for the browser to navigate to: it works for one minute, for this user in this role, in the browser that asked (a cookie set with it), and holds no personal data',
  body: ZCustomerExport,
  response: envelope(z.object({ url: z.string(), expiresAt: z.string() })),
});

export const downloadExport = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/export-downloads',
  summary:
    'The CSV export (UTF-8 with BOM), streamed, through a link from POST /v1/customers/export-downloads; no bearer token: the user, role and customer.export_csv are checked again when it is used',
  // In the query, which request logs leave out. A missing link is refused like an invalid one.
  query: z.object({ link: z.string().max(4000).default('') }),
  response: z.string(),
});
