import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Deliverability per sending domain (issue 25): for each of the brand's sending domains, over the
 * last 7 and 30 days, the mails handed to the relay and what became of them, with the rates the
 * mailbox providers and relays judge a domain by, and the latest policy blocks. Read from a rollup
 * per domain and hour, never from the deliveries. Brand level only (the figures are the brand's).
 */

export const DELIVERABILITY_WINDOW_DAYS = [7, 30] as const;
/** Policy blocks listed with their diagnostic, newest first. */
export const RECENT_POLICY_BLOCKS = 5;

/**
 * The published limits, as data both sides read (fractions, not percent).
 * - Gmail and Yahoo (bulk sender rules): a spam rate below 0.1%, and never 0.3%.
 * - Amazon SES: an account is reviewed at 5% bounces (paused at 10%) and 0.1% complaints
 *   (paused at 0.5%); SES counts hard bounces of the mails sent.
 * The warning levels follow the product's own protection (2.5% hard bounces warn, issue 25).
 */
export const DELIVERABILITY_LIMITS = {
  hardBounce: { warning: 0.025, danger: 0.05, sesReview: 0.05, sesPause: 0.1 },
  complaint: { warning: 0.001, danger: 0.003, sesReview: 0.001, sesPause: 0.005 },
} as const;

export type TRateLevel = 'ok' | 'warning' | 'danger';

/** Where a rate stands against the limits; null (nothing sent yet) is ok. */
export function rateLevel(kind: keyof typeof DELIVERABILITY_LIMITS, rate: number | null): TRateLevel {
  if (rate === null) return 'ok';
  const limits = DELIVERABILITY_LIMITS[kind];
  return rate >= limits.danger ? 'danger' : rate >= limits.warning ? 'warning' : 'ok';
}

export const ZDomainWindow = z.object({
  days: z.number().int(),
  /** Mails handed to the relay (accepted, or refused with a final answer). */
  handed: z.number().int(),
  /** Accepted by the relay, less those that bounced afterwards (a DSN or a relay's event). */
  delivered: z.number().int(),
  hardBounces: z.number().int(),
  softBounces: z.number().int(),
  complaints: z.number().int(),
  /** 5.7.x and the like: the provider refused the domain, not the guest's address. */
  policyBlocks: z.number().int(),
  autoReplies: z.number().int(),
  /** Hard bounces of the mails handed over; null when none was. */
  hardBounceRate: z.number().nullable(),
  /** Complaints of the mails delivered; null when none was. */
  complaintRate: z.number().nullable(),
  /** Policy blocks of the mails handed over; null when none was. */
  policyBlockRate: z.number().nullable(),
});
export type TDomainWindow = z.infer<typeof ZDomainWindow>;

export const ZPolicyBlock = z.object({
  at: z.string(),
  /** The enhanced status code (5.7.1), when the answer had one. */
  status: z.string().nullable(),
  diagnostic: z.string().nullable(),
});
export type TPolicyBlock = z.infer<typeof ZPolicyBlock>;

export const ZDomainDeliverability = z.object({
  domainId: z.string(),
  /** Punycode, as sent. */
  domain: z.string(),
  displayName: z.string(),
  /** The domain's authentication state (domain authentication in Settings). */
  state: z.enum(['unverified', 'in_verification', 'verified']),
  lapsedAt: z.string().nullable(),
  /** The last 7 and the last 30 days, in that order. */
  windows: z.array(ZDomainWindow),
  recentPolicyBlocks: z.array(ZPolicyBlock),
});
export type TDomainDeliverability = z.infer<typeof ZDomainDeliverability>;

export const listDomainDeliverability = defineEndpoint({
  method: 'GET',
  path: '/v1/deliverability/domains',
  summary:
    "Deliverability of each of the brand's sending domains over the last 7 and 30 days: mails handed to the relay, delivered, hard and soft bounces, complaints, policy blocks and auto-replies with rates, and the latest policy blocks' diagnostics (brand level only: 403 domain_deliverability_brand_only)",
  response: envelope(z.object({ domains: z.array(ZDomainDeliverability) })),
});
