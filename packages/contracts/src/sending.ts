import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZHostLevel } from './tenancy.ts';

/**
 * The sending identity (specification sections 2, 3, 4, 5, 8 and 9): campaign email settings,
 * domain authentication in two steps, and the Setup area's checklist.
 */

/** "Verify DNS setup" unlocks this long after the records are shown and after each try (section 9). */
export const DOMAIN_VERIFY_COUNTDOWN_SECONDS = 120;

export const DOMAIN_MAX_LENGTH = 253;

/**
 * A domain as typed (Unicode or punycode, any case, one trailing dot allowed), in punycode and
 * lower case; null for anything that is not a registrable host name: an IP address, a bare TLD,
 * a URL, a label over 63 characters or a name over 253.
 */
export function normalizeDomain(input: string): string | null {
  let value = input.trim().normalize('NFKC');
  if (value.endsWith('.')) value = value.slice(0, -1);
  if (!value || value.length > DOMAIN_MAX_LENGTH * 4 || /[\s/:@?#\\[\]%"'<>*,;]/.test(value)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${value}`).hostname;
  } catch {
    return null;
  }
  if (ascii.length > DOMAIN_MAX_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!labels.every((l) => label.test(l))) return null;
  // A numeric last label is an IPv4 address (or a mistyped one), never a domain.
  const tld = labels[labels.length - 1] as string;
  if (/^[0-9]+$/.test(tld) || (!/^[a-z]{2,63}$/.test(tld) && !tld.startsWith('xn--'))) return null;
  return ascii;
}

/** The domain part of an address, normalised as normalizeDomain does; null if the address has none. */
export function senderDomainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  return normalizeDomain(email.slice(at + 1));
}

/** A sender or reply-to address: a plain local part and a domain as normalizeDomain accepts. */
export function isSenderEmail(email: string): boolean {
  const at = email.lastIndexOf('@');
  return (
    at > 0 &&
    email.length <= 254 &&
    /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/.test(email.slice(0, at)) &&
    senderDomainOf(email) !== null
  );
}

export const DOMAIN_STATES = ['unverified', 'in_verification', 'verified'] as const;
export type TDomainState = (typeof DOMAIN_STATES)[number];
export const RECORD_KINDS = ['spf', 'dkim', 'dmarc', 'cname', 'ownership'] as const;
export type TRecordKind = (typeof RECORD_KINDS)[number];
/** What a lookup found for one record. `unavailable`: DNS did not answer (timeout, SERVFAIL); try again later. */
export const CHECK_RESULTS = ['correct', 'missing', 'wrong', 'malformed', 'unavailable'] as const;
export type TCheckResult = (typeof CHECK_RESULTS)[number];

export const ZRecordCheck = z.object({
  result: z.enum(CHECK_RESULTS),
  /** What DNS holds at the record's name (TXT strings joined), for showing beside the expected value. */
  found: z.array(z.string()),
  /** Why, when not correct: an error code of the catalogue (e.g. dns_two_spf_records). */
  problem: z.string().nullable(),
  checkedAt: z.string(),
});
export type TRecordCheck = z.infer<typeof ZRecordCheck>;

export const ZDnsRecord = z.object({
  kind: z.enum(RECORD_KINDS),
  type: z.enum(['TXT', 'CNAME']),
  /** The full name to publish at (FQDN without the final dot). */
  name: z.string(),
  value: z.string(),
  state: z.enum(DOMAIN_STATES),
  check: ZRecordCheck.nullable(),
});
export type TDnsRecord = z.infer<typeof ZDnsRecord>;

export const ZSendingDomain = z.object({
  id: z.string(),
  /** In punycode, as DNS knows it. */
  domain: z.string(),
  /** In Unicode, as people read it (equal to `domain` for an ASCII name). */
  displayName: z.string(),
  state: z.enum(DOMAIN_STATES),
  records: z.array(ZDnsRecord),
  /** Seconds until "Verify DNS setup" unlocks (0: now), counted by the server. */
  verifyInSeconds: z.number(),
  verifyAvailableAt: z.string(),
  lastCheckedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  /** Set when the domain was verified and failed a later re-check. */
  lapsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TSendingDomain = z.infer<typeof ZSendingDomain>;

export const ZDomainInput = z.object({ domain: z.string().max(1000) });

const idParams = '/v1/sending/domains/:id';

export const listDomains = defineEndpoint({
  method: 'GET',
  path: '/v1/sending/domains',
  summary: "The brand's sending domains with their DNS records and verification state",
  response: envelope(z.object({ domains: z.array(ZSendingDomain), canManage: z.boolean() })),
});
export const addDomain = defineEndpoint({
  method: 'POST',
  path: '/v1/sending/domains',
  summary: 'Step 1 of domain authentication: add a domain (Unicode or punycode); its DKIM key and records are made',
  body: ZDomainInput,
  response: envelope(ZSendingDomain),
});
export const getDomain = defineEndpoint({
  method: 'GET',
  path: idParams,
  summary: 'One sending domain',
  response: envelope(ZSendingDomain),
});
export const verifyDomain = defineEndpoint({
  method: 'POST',
  path: `${idParams}/verify`,
  summary: 'Step 2: look the records up in DNS and report each (locked behind the countdown)',
  response: envelope(ZSendingDomain),
});
export const removeDomain = defineEndpoint({
  method: 'DELETE',
  path: idParams,
  summary: 'Remove a sending domain and its DKIM key',
  response: envelope(z.object({ id: z.string() })),
});

/** Frequency cap and quiet hours the campaigns issue enforces; defaults when no host sets them. */
export const SENDING_DEFAULTS = {
  defaultLanguage: 'ja',
  frequencyCapCount: 3,
  frequencyCapDays: 7,
  quietHoursStart: '21:00',
  quietHoursEnd: '08:00',
} as const;

export const SETTINGS_FIELDS = [
  'senderEmail',
  'senderName',
  'replyTo',
  'unsubscribedMessage',
  'unsubscribedMessageEn',
  'footerSenderName',
  'footerPostalAddress',
  'defaultLanguage',
  'frequencyCapCount',
  'frequencyCapDays',
  'quietHoursStart',
  'quietHoursEnd',
] as const;
export type TSettingsField = (typeof SETTINGS_FIELDS)[number];

/** A wall-clock time HH:MM (00:00 to 23:59), as the quiet hours are set. */
export const QUIET_HOURS_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
/**
 * The frequency cap's bounds. A value outside them (or a quiet hours' time not HH:MM) answers 400
 * with the field's code (`frequency_cap_out_of_range`, `quiet_hours_time_invalid`), never a value
 * changed to fit: the console shows the bounds beside the fields.
 */
export const FREQUENCY_CAP_BOUNDS = {
  frequencyCapCount: { min: 1, max: 100 },
  frequencyCapDays: { min: 1, max: 365 },
} as const;
/** A frequency cap's value is a whole number within its FREQUENCY_CAP_BOUNDS (the server's and the form's one rule). */
export function frequencyCapFits(field: keyof typeof FREQUENCY_CAP_BOUNDS, value: number): boolean {
  const { min, max } = FREQUENCY_CAP_BOUNDS[field];
  return Number.isInteger(value) && value >= min && value <= max;
}
const text = (max: number) => z.string().max(max).nullable();

/** One host's own values; null inherits. */
export const ZCampaignEmailValues = z.object({
  senderEmail: text(254),
  senderName: text(100),
  replyTo: text(254),
  /** The unsubscribed message in Japanese: required here or above. */
  unsubscribedMessage: text(2000),
  /** The same in English: optional; when none is set here or above, English pages show the Japanese one. */
  unsubscribedMessageEn: text(2000),
  footerSenderName: text(200),
  footerPostalAddress: text(500),
  defaultLanguage: z.enum(['ja', 'en']).nullable(),
  /** Within FREQUENCY_CAP_BOUNDS, checked by the operation so that the answer names the field's fault. */
  frequencyCapCount: z.number().nullable(),
  frequencyCapDays: z.number().nullable(),
  /** HH:MM; an equal start and end mean no quiet hours. */
  quietHoursStart: text(100),
  quietHoursEnd: text(100),
});
export type TCampaignEmailValues = z.infer<typeof ZCampaignEmailValues>;

/** Where an empty field's value would come from: a host above (named), the product default, or nowhere. */
export const ZValueSource = z.object({
  level: z.enum(['brand', 'hotel_group', 'default', 'none']),
  hostName: z.string().nullable(),
});

export const ZCampaignEmailSettings = z.object({
  hostLevel: ZHostLevel,
  hostName: z.string(),
  timeZone: z.string(),
  own: ZCampaignEmailValues,
  /** What the hosts above would give for each field (null: nothing above sets it). */
  inherited: ZCampaignEmailValues,
  inheritedFrom: z.record(z.string(), ZValueSource),
  effective: ZCampaignEmailValues,
  /** The effective sender's domain and its state among the brand's domains (null: not a domain of the brand). */
  senderDomain: z.object({ domain: z.string(), state: z.enum(DOMAIN_STATES).nullable() }).nullable(),
  canSend: z.boolean(),
  /** Why this host cannot send yet: catalogue codes. */
  problems: z.array(z.string()),
});
export type TCampaignEmailSettings = z.infer<typeof ZCampaignEmailSettings>;

export const getSettings = defineEndpoint({
  method: 'GET',
  path: '/v1/sending/settings',
  summary: "The acting host's campaign email settings: its own values, what it inherits, and whether it can send",
  response: envelope(ZCampaignEmailSettings),
});
export const updateSettings = defineEndpoint({
  method: 'PUT',
  path: '/v1/sending/settings',
  summary:
    "Set the acting host's campaign email settings (null inherits from above); a frequency cap outside FREQUENCY_CAP_BOUNDS or a quiet hours' time not HH:MM answers 400 (frequency_cap_out_of_range, quiet_hours_time_invalid per field)",
  body: ZCampaignEmailValues,
  response: envelope(ZCampaignEmailSettings),
});

export const CHECKLIST_ITEMS = ['sender', 'verified_domain', 'segment', 'template'] as const;
/** `unavailable`: the area it depends on is not built in this product yet. */
export const ZChecklistItem = z.object({
  item: z.enum(CHECKLIST_ITEMS),
  status: z.enum(['done', 'todo', 'unavailable']),
});

export const ZSetupOverview = z.object({
  settings: ZCampaignEmailSettings.nullable(),
  domains: z.array(ZSendingDomain),
  checklist: z.array(ZChecklistItem),
});
export type TSetupOverview = z.infer<typeof ZSetupOverview>;

export const setupOverview = defineEndpoint({
  method: 'GET',
  path: '/v1/sending/setup',
  summary: 'The Setup area: sender settings, domains and the first-campaign checklist',
  response: envelope(ZSetupOverview),
});
