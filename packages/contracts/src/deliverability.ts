import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/**
 * The brand's suppression list (issue 25): addresses no campaign or journey mails, with why. Kept
 * per brand: read at the brand level with the customer list's entitlement; lifted and added by a
 * brand admin (customer.change_email_status).
 */

export const SUPPRESSION_REASONS = ['hard_bounce', 'soft_bounces', 'complaint', 'manual'] as const;
export type TSuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const ZSuppression = z.object({
  id: z.string(),
  email: z.string(),
  /** The customer with this address when the entry was made, if still there. */
  customer: z.object({ id: z.string(), name: z.string() }).nullable(),
  reason: z.enum(SUPPRESSION_REASONS),
  /** The relay's or the report's diagnostic text, as received. */
  diagnostic: z.string().nullable(),
  /** The campaign, or the scenario when it was a journey's mail, the entry came from. */
  campaign: z.object({ id: z.string(), name: z.string() }).nullable(),
  scenario: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  /** Soft bounces: suppressed until then. Null: until lifted. */
  until: z.string().nullable(),
});
export type TSuppression = z.infer<typeof ZSuppression>;

export const ZSuppressionListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  reason: z.enum(SUPPRESSION_REASONS).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type TSuppressionListQuery = z.infer<typeof ZSuppressionListQuery>;

export const ZSuppressionPage = z.object({
  items: z.array(ZSuppression),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/suppressions',
  summary:
    "The brand's active suppressions (not lifted, not expired), newest first; search by address, filter by reason (brand level only)",
  query: ZSuppressionListQuery,
  response: envelope(ZSuppressionPage),
});

export const lift = defineEndpoint({
  method: 'POST',
  path: '/v1/suppressions/:id/lift',
  summary:
    "Lift a suppression (brand admin; audited). Lifting a hard bounce also clears the customer's bounce mark; lifting a complaint does not re-subscribe the guest",
  body: z.object({}).optional(),
  response: envelope(z.object({ id: z.string() })),
});

export const add = defineEndpoint({
  method: 'POST',
  path: '/v1/suppressions',
  summary: "Add an address to the brand's suppression list by hand (brand admin; audited)",
  body: z.object({ email: z.string().trim().max(254) }),
  response: envelope(ZSuppression),
});
