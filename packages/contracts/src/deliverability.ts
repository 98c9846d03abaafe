import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Relay webhooks (issue 25): the brand tells Yado which relay it sends through and the secret its
 * events are signed with; the relay posts its bounce, complaint and delivery events to the
 * brand's own address, `POST /v1/public/relay-webhooks/<provider>/<id>`.
 *
 * - ses: Amazon SES event notifications through an SNS topic (HTTPS subscription to the address;
 *   the subscription is confirmed by itself). No secret: SNS signs with its certificate. `topicArn`
 *   pins the topic (recommended).
 * - sendgrid: the Event Webhook with "Signed Event Webhook" on; `secret` is its verification key
 *   (base64, as SendGrid shows it).
 * - mailgun: the webhooks of the sending domain; `secret` is the HTTP webhook signing key.
 * - postmark: the webhook of the message stream; `secret` is the password of its basic auth
 *   (any user name), or sent in a custom header `X-Yado-Webhook-Secret`.
 *
 * A secret is stored sealed and never returned: the answer shows its last 4 characters.
 */

export const RELAY_PROVIDERS = ['ses', 'sendgrid', 'mailgun', 'postmark'] as const;
export type TRelayProvider = (typeof RELAY_PROVIDERS)[number];

export const ZRelayWebhook = z.object({
  provider: z.enum(RELAY_PROVIDERS),
  /** Null until set up. */
  id: z.string().uuid().nullable(),
  /** The address to paste at the relay (PUBLIC_URL based); null until set up. */
  url: z.string().nullable(),
  /** "…abcd": the secret's last 4 characters; null when none is set. */
  secretHint: z.string().nullable(),
  topicArn: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** When the relay's last verified message arrived (null: none yet). */
  lastEventAt: z.string().nullable(),
  /** SES: whether SNS confirmed the subscription (pending until it posts its confirmation); null for the others. */
  subscription: z.enum(['pending', 'confirmed']).nullable(),
});
export type TRelayWebhook = z.infer<typeof ZRelayWebhook>;

/**
 * Any string is taken here and checked by the server, so that each fault answers 400 with a field
 * code of the catalogue: `secret` webhook_secret_required (empty), webhook_sendgrid_key_invalid (not
 * an ECDSA P-256 public key, base64 SPKI "MFkw…" or PEM), webhook_mailgun_key_invalid (not one word
 * of letters, digits and hyphens), webhook_password_invalid (Postmark: a control character),
 * value_too_long (over 4096); `topicArn` webhook_topic_invalid.
 */
export const ZRelayWebhookInput = z.object({
  /** A new secret (trimmed); left out (or null) keeps the stored one. Not for ses: ignored. */
  secret: z.string().nullish(),
  /** SES: the SNS topic whose notifications are taken (others are refused); null or empty: any. */
  topicArn: z.string().nullish(),
});
export type TRelayWebhookInput = z.infer<typeof ZRelayWebhookInput>;

export const listRelayWebhooks = defineEndpoint({
  method: 'GET',
  path: '/v1/deliverability/relay-webhooks',
  summary:
    "The brand's relay webhooks, one per provider, with the address to paste at the relay (brand context only: 403 webhook_brand_only)",
  response: envelope(z.array(ZRelayWebhook)),
});

export const saveRelayWebhook = defineEndpoint({
  method: 'PUT',
  path: '/v1/deliverability/relay-webhooks/:provider',
  summary:
    "Set up or change a relay webhook: the provider's signing key or password (sealed, never returned), the SES topic; audited without the secret. A malformed field answers 400 with its code: webhook_secret_required, webhook_sendgrid_key_invalid, webhook_mailgun_key_invalid, webhook_password_invalid, value_too_long, webhook_topic_invalid",
  body: ZRelayWebhookInput,
  response: envelope(ZRelayWebhook),
});

export const deleteRelayWebhook = defineEndpoint({
  method: 'DELETE',
  path: '/v1/deliverability/relay-webhooks/:provider',
  summary: 'Remove a relay webhook: its address answers 404 from then on',
  response: envelope(z.object({ deleted: z.boolean() })),
});

export const ZRelayWebhookResult = z.object({
  /** Events in the request. */
  received: z.number().int().nonnegative(),
  /**
   * Newly stored events that name a delivery of the brand and mean something (bounce, complaint,
   * delivered...): the request is answered once they are stored; their rules apply a moment later, once.
   */
  applied: z.number().int().nonnegative(),
  /** Events whose provider id was taken before: changed nothing. */
  duplicates: z.number().int().nonnegative(),
  /** Stored, of no interest (opens, clicks, SES's test notice) or naming no delivery of ours. */
  ignored: z.number().int().nonnegative(),
  /** An SNS subscription confirmed. */
  confirmed: z.boolean(),
});

export const publicRelayWebhook = defineEndpoint({
  method: 'POST',
  path: '/v1/public/relay-webhooks/:provider/:id',
  summary:
    "A relay's signed events (no session: the provider's signature under the brand's secret). ses: an SNS message (signature versions 1 and 2, certificate only from the SNS host; subscription confirmed). sendgrid: X-Twilio-Email-Event-Webhook-Signature / -Timestamp (ECDSA P-256). mailgun: signature.timestamp, token, signature (HMAC-SHA256). postmark: basic auth password or X-Yado-Webhook-Secret. Each event stored once per provider event id and applied once. Refused, changing nothing: 401 webhook_unverified, 401 webhook_too_old, 409 webhook_replayed, 400 webhook_certificate_url, 403 webhook_topic, 403 webhook_foreign_delivery, 404 webhook_unknown, 400 webhook_body_invalid, 413 over 1 MB",
  response: envelope(ZRelayWebhookResult),
});

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
  /** The acting host's time zone (`hosts.timezone`): the console shows the entries' times in it. */
  timeZone: z.string(),
});

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/suppressions',
  summary:
    "The brand's active suppressions (not lifted, not expired), newest first, with the acting host's time zone; search by address, filter by reason (brand level only)",
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

/**
 * Protection (issue 25), the brand's thresholds: once a campaign has handed `minSent` mails to the
 * relay, a hard-bounce rate (of the mails handed) at `hardBouncePct` or a complaint rate (of
 * delivered) at `complaintPct` pauses it. At half the bounce threshold and a third of the complaint
 * one (2.5% and 0.1% by default) its statistics and the brand admins' banner warn, without pausing.
 * The bounds keep a brand from switching protection off: SES reviews an account at 5% bounces and
 * pauses it at 10%; Gmail wants complaints below 0.3%, SES pauses at 0.5%.
 */
export const PROTECTION_DEFAULTS = { minSent: 1000, hardBouncePct: 5, complaintPct: 0.3 } as const;
export const PROTECTION_BOUNDS = {
  minSent: { min: 100, max: 100_000 },
  hardBouncePct: { min: 1, max: 10 },
  complaintPct: { min: 0.05, max: 0.5 },
} as const;
export const PROTECTION_FIELDS = ['minSent', 'hardBouncePct', 'complaintPct'] as const;
/** The warning's share of the pause threshold, per rate. */
export const PROTECTION_WARN_SHARE = { hard_bounce: 1 / 2, complaint: 1 / 3 } as const;

export const ZProtection = z.object({
  minSent: z.number().int(),
  hardBouncePct: z.number(),
  complaintPct: z.number(),
});
export type TProtection = z.infer<typeof ZProtection>;

/** Out of bounds answers 400 with the field's code `protection_out_of_range` (the console names the bounds). */
export const ZProtectionInput = z.object({
  minSent: z.number().int(),
  hardBouncePct: z.number(),
  complaintPct: z.number(),
});

export const getProtection = defineEndpoint({
  method: 'GET',
  path: '/v1/deliverability/protection',
  summary: "The brand's protection thresholds (brand context only: 403 protection_brand_only)",
  response: envelope(ZProtection),
});

export const saveProtection = defineEndpoint({
  method: 'PUT',
  path: '/v1/deliverability/protection',
  summary:
    "Set the brand's protection thresholds within PROTECTION_BOUNDS (400 protection_out_of_range per field otherwise; percentages kept to 2 decimals); audited",
  body: ZProtectionInput,
  response: envelope(ZProtection),
});

/** A campaign's rate at or past its warning level: which, how high (a fraction), and where it pauses (percent). */
export const ZProtectionWarning = z.object({
  kind: z.enum(['hard_bounce', 'complaint']),
  rate: z.number(),
  /** The brand's pause threshold for that rate, in percent. */
  pausePct: z.number(),
});
export type TProtectionWarning = z.infer<typeof ZProtectionWarning>;

/**
 * The warning a campaign's counters earn under the brand's thresholds: none before `minSent` mails
 * were handed to the relay; the hard-bounce rate first, as the pause checks it.
 */
export function protectionWarning(
  c: { sent: number; failed: number; delivered: number; hardBounces: number; complaints: number },
  p: TProtection,
): TProtectionWarning | null {
  const handed = c.sent + c.failed;
  if (handed === 0 || handed < p.minSent) return null;
  const hard = c.hardBounces / handed;
  if (hard * 100 >= p.hardBouncePct * PROTECTION_WARN_SHARE.hard_bounce)
    return { kind: 'hard_bounce', rate: hard, pausePct: p.hardBouncePct };
  const complaint = c.delivered > 0 ? c.complaints / c.delivered : 0;
  if (c.delivered > 0 && complaint * 100 >= p.complaintPct * PROTECTION_WARN_SHARE.complaint)
    return { kind: 'complaint', rate: complaint, pausePct: p.complaintPct };
  return null;
}

/** A campaign of the brand, sending or sent within a day, that paused itself or is past its warning level (the brand admins' banner). */
export const ZProtectionAlert = z.object({
  campaignId: z.string(),
  name: z.string(),
  kind: z.enum(['hard_bounce', 'complaint']),
  rate: z.number(),
  /** The brand's pause threshold for that rate, in percent. */
  pausePct: z.number(),
  /** True: it paused itself and waits for an admin; false: a warning. */
  paused: z.boolean(),
  /**
   * True: it has finished sending (nothing left that a pause could hold): the warning is about its
   * list, for the next campaign to the same guests, whether or not its rate reached the pause threshold.
   */
  finished: z.boolean(),
});
export type TProtectionAlert = z.infer<typeof ZProtectionAlert>;

export const protectionAlerts = defineEndpoint({
  method: 'GET',
  path: '/v1/deliverability/protection/alerts',
  summary:
    "The brand's campaigns sending or sent within a day that paused themselves (protection) or are past a warning level, for the brand admins' banner (brand context only: 403 protection_brand_only)",
  response: envelope(z.array(ZProtectionAlert)),
});
