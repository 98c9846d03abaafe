import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TRuntime } from '../../runtime.ts';

/**
 * Signed addresses of one delivery: the open pixel, each link's click redirect, the one-click
 * unsubscribe (RFC 8058) and the footer's unsubscribe page.
 *
 * A token names the delivery (its UUID as 16 bytes) and, for a click, the link's position in the
 * mail and its address; a 128-bit HMAC-SHA256 over exactly those, under a key derived from
 * JWT_SECRET with a label per purpose, closes it. So an open token is no unsubscribe token, no
 * token can be altered or cut short, and the click redirect goes only to an address we signed:
 * there is no open redirect. The address rides in the token, so a click needs no database read
 * before its redirect. Tokens hold no personal data (a delivery id and the campaign's own link).
 */

export type TTokenPurpose = 'open' | 'click' | 'unsubscribe' | 'return_path';

export interface TTrackingKeys {
  open: Buffer;
  click: Buffer;
  unsubscribe: Buffer;
  /** The VERP return path of a delivery (deliverability/verp.ts). */
  return_path: Buffer;
}

/** Keys per purpose, derived from the server secret (HMAC as a KDF: the secret is long and random). */
export function trackingKeys(secret: string): TTrackingKeys {
  const derive = (purpose: TTokenPurpose) =>
    createHmac('sha256', secret).update(`yado-tracking-v1\0${purpose}`).digest();
  return {
    open: derive('open'),
    click: derive('click'),
    unsubscribe: derive('unsubscribe'),
    return_path: derive('return_path'),
  };
}

const keysBySecret = new Map<string, TTrackingKeys>();
export function keysOf(rt: Pick<TRuntime, 'config'>): TTrackingKeys {
  let keys = keysBySecret.get(rt.config.jwtSecret);
  if (!keys) {
    keys = trackingKeys(rt.config.jwtSecret);
    keysBySecret.set(rt.config.jwtSecret, keys);
  }
  return keys;
}

/** A token longer than this is refused before any work (a URL of a mail link is far shorter). */
export const MAX_TOKEN_LENGTH = 4096;
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const B64URL = /^[A-Za-z0-9_-]+$/;

function idBytes(deliveryId: string): Buffer {
  if (!UUID.test(deliveryId)) throw new Error('A delivery id must be a UUID');
  return Buffer.from(deliveryId.replace(/-/g, ''), 'hex');
}

function idOf(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Scratch for the length prefixes: `update` copies what it is given at once, so one buffer serves every call. */
const LENGTH = Buffer.alloc(4);

function mac(key: Buffer, parts: (Buffer | string)[]): Buffer {
  const h = createHmac('sha256', key);
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    // Length-prefixed, so no two different part lists hash the same bytes.
    LENGTH.writeUInt32BE(bytes.length);
    h.update(LENGTH).update(bytes);
  }
  return h.digest().subarray(0, MAC_BYTES);
}

function macMatches(expected: Buffer, given: string): boolean {
  if (given.length !== 22 || !B64URL.test(given)) return false;
  const bytes = Buffer.from(given, 'base64url');
  // The last character carries 4 unused bits: only the one canonical spelling is accepted.
  return bytes.length === MAC_BYTES && bytes.toString('base64url') === given && timingSafeEqual(bytes, expected);
}

/** `<delivery>.<mac>`, for the pixel and the unsubscribe. */
export function signDelivery(keys: TTrackingKeys, purpose: 'open' | 'unsubscribe', deliveryId: string): string {
  const id = idBytes(deliveryId);
  return `${id.toString('base64url')}.${mac(keys[purpose], [purpose, id]).toString('base64url')}`;
}

/** The delivery a pixel or unsubscribe token names, or null when it is not one we signed. */
export function openDeliveryToken(keys: TTrackingKeys, purpose: 'open' | 'unsubscribe', token: string): string | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [idText, macText] = parts as [string, string];
  const id = idFrom(idText);
  if (!id) return null;
  return macMatches(mac(keys[purpose], [purpose, id]), macText) ? idOf(id) : null;
}

export interface TUnsubscribeToken {
  deliveryId: string;
  /** The guest, so the link still works after its campaign (and delivery) was deleted; null in older links. */
  customerId: string | null;
}

/** `<delivery>.<customer>.<mac>`: an unsubscribe that outlives its campaign. */
export function signUnsubscribe(keys: TTrackingKeys, deliveryId: string, customerId: string): string {
  const d = idBytes(deliveryId);
  const c = idBytes(customerId);
  return `${d.toString('base64url')}.${c.toString('base64url')}.${mac(keys.unsubscribe, ['unsubscribe', d, c]).toString('base64url')}`;
}

/** The delivery and guest an unsubscribe token names (both forms), or null when it is not one we signed. */
export function openUnsubscribeToken(keys: TTrackingKeys, token: string): TUnsubscribeToken | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length === 2) {
    const deliveryId = openDeliveryToken(keys, 'unsubscribe', token);
    return deliveryId ? { deliveryId, customerId: null } : null;
  }
  if (parts.length !== 3) return null;
  const [dText, cText, macText] = parts as [string, string, string];
  const d = idFrom(dText);
  const c = idFrom(cText);
  if (!d || !c) return null;
  return macMatches(mac(keys.unsubscribe, ['unsubscribe', d, c]), macText)
    ? { deliveryId: idOf(d), customerId: idOf(c) }
    : null;
}

/**
 * The return path's token (VERP, issue 25): the delivery and a 80-bit MAC in lower-case base32,
 * because a local part may come back in another case (some relays fold it): 42 characters.
 */
const RETURN_MAC_BYTES = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = BASE32.indexOf(ch);
    if (v < 0) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export function signReturnPath(keys: TTrackingKeys, deliveryId: string): string {
  const id = idBytes(deliveryId);
  return base32(Buffer.concat([id, mac(keys.return_path, ['return_path', id]).subarray(0, RETURN_MAC_BYTES)]));
}

/** The delivery a return path's token names, or null when it is not one we signed (any case). */
export function openReturnPath(keys: TTrackingKeys, token: string): string | null {
  if (typeof token !== 'string' || token.length !== 42) return null;
  const text = token.toLowerCase();
  const bytes = fromBase32(text);
  if (!bytes || bytes.length !== 16 + RETURN_MAC_BYTES || base32(bytes) !== text) return null;
  const id = bytes.subarray(0, 16);
  const expected = mac(keys.return_path, ['return_path', id]).subarray(0, RETURN_MAC_BYTES);
  return timingSafeEqual(bytes.subarray(16), expected) ? idOf(id) : null;
}

function idFrom(text: string): Buffer | null {
  if (text.length !== 22 || !B64URL.test(text)) return null;
  const id = Buffer.from(text, 'base64url');
  // Re-encoding must give the same text: no second spelling of one id.
  return id.length === 16 && id.toString('base64url') === text ? id : null;
}

/** `<delivery>.<link index>.<url>.<mac>`: the address rides in the token, signed with the rest. */
export function signClick(keys: TTrackingKeys, deliveryId: string, linkIndex: number, url: string): string {
  const id = idBytes(deliveryId);
  const index = String(linkIndex);
  return `${id.toString('base64url')}.${index}.${Buffer.from(url, 'utf8').toString('base64url')}.${mac(keys.click, ['click', id, index, url]).toString('base64url')}`;
}

export interface TClick {
  deliveryId: string;
  linkIndex: number;
  url: string;
}

/** What a click token says, or null when it is not one we signed (or names no http(s) address). */
export function openClickToken(keys: TTrackingKeys, token: string): TClick | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [idText, index, urlText, macText] = parts as [string, string, string, string];
  const id = idFrom(idText);
  if (!id || !LINK_INDEX.test(index) || !B64URL.test(urlText)) return null;
  const urlBytes = Buffer.from(urlText, 'base64url');
  const url = urlBytes.toString('utf8');
  // One spelling only: the text must be the canonical base64url of the address's UTF-8 (so the
  // bytes signed below are exactly those of the address).
  if (Buffer.from(url, 'utf8').toString('base64url') !== urlText) return null;
  if (!macMatches(mac(keys.click, ['click', id, index, urlBytes]), macText)) return null;
  // Signed addresses are always http(s); checked again so a key leak cannot make a javascript: link.
  if (!isTrackableUrl(url)) return null;
  return { deliveryId: idOf(id), linkIndex: Number(index), url };
}

const LINK_INDEX = /^(0|[1-9][0-9]{0,3})$/;

/**
 * Addresses already judged: a campaign's mails carry a handful of links, clicked over and over,
 * so the redirect need not parse the same address each time. Bounded: emptied when full.
 */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 1000;

export function isTrackableUrl(url: string): boolean {
  let ok = judged.get(url);
  if (ok === undefined) {
    ok = judgeUrl(url);
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(url, ok);
  }
  return ok;
}

function judgeUrl(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

export interface TDeliveryTracking {
  /** The 1x1 open pixel (GET /t/o/:token). */
  openPixelUrl: string;
  /** The signed click redirect for the link at `index` (GET /t/c/:token). */
  clickUrl(url: string, index: number): string;
  /** RFC 8058 one-click target: a POST here unsubscribes at once. */
  unsubscribeUrl: string;
  /** The footer's link: the public /unsubscribe page in the guest's language. */
  unsubscribePageUrl: string;
  /** Header values; SEND signs both with DKIM (add them before signing). */
  listUnsubscribeHeaders: { 'List-Unsubscribe': string; 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export interface TTrackingOptions {
  /**
   * An address for the List-Unsubscribe mailto (the brand's reply-to or sender): mail clients that
   * cannot POST send an "unsubscribe" mail there. The subject carries the signed token.
   */
  mailto?: string | null;
  /** The guest's language, put on the page link so the page opens in it. */
  language?: 'ja' | 'en';
  /**
   * The guest (customer id): signed into the unsubscribe links so they keep working after the
   * campaign is deleted. Without it the links name the delivery only.
   */
  customerId?: string;
}

/** Tracking addresses of one delivery from a base URL and keys (pure; `trackingFor` is what SEND calls). */
export function deliveryTracking(
  keys: TTrackingKeys,
  baseUrl: string,
  deliveryId: string,
  options: TTrackingOptions = {},
): TDeliveryTracking {
  const base = baseUrl.replace(/\/$/, '');
  const unsubscribeToken = options.customerId
    ? signUnsubscribe(keys, deliveryId, options.customerId)
    : signDelivery(keys, 'unsubscribe', deliveryId);
  const unsubscribeUrl = `${base}/v1/public/unsubscribe?token=${unsubscribeToken}`;
  const lang = options.language ? `&lang=${options.language}` : '';
  const mailto = options.mailto
    ? `, <mailto:${encodeURI(options.mailto)}?subject=unsubscribe%20${unsubscribeToken}>`
    : '';
  return {
    openPixelUrl: `${base}/t/o/${signDelivery(keys, 'open', deliveryId)}`,
    clickUrl: (url, index) => `${base}/t/c/${signClick(keys, deliveryId, index, url)}`,
    unsubscribeUrl,
    unsubscribePageUrl: `${base}/unsubscribe?token=${unsubscribeToken}${lang}`,
    listUnsubscribeHeaders: {
      'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** What SEND calls once per recipient while personalising. */
export function trackingFor(
  rt: Pick<TRuntime, 'config'>,
  deliveryId: string,
  options: TTrackingOptions = {},
): TDeliveryTracking {
  return deliveryTracking(keysOf(rt), rt.config.publicUrl, deliveryId, options);
}

/**
 * The http(s) links of a mail's HTML, found once per compiled message: the pieces between them and
 * each link's address (entities decoded) and position. The position is the link's index in the
 * per-link statistics. Links into our own unsubscribe page, mailto: and tel: are left alone.
 */
export interface TLinkPlan {
  parts: string[];
  links: { url: string; index: number }[];
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])([^"']*)\2/gi;

const NAMED: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** An attribute's value as the browser reads it: named and numeric character references decoded. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|quot|apos|lt|gt);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return NAMED[lower] ?? whole;
  });
}

export function planLinks(html: string, baseUrl: string): TLinkPlan {
  const base = baseUrl.replace(/\/$/, '');
  const parts: string[] = [];
  const links: TLinkPlan['links'] = [];
  let last = 0;
  let index = 0;
  for (const match of html.matchAll(HREF)) {
    const [whole, prefix, quote, raw] = match as unknown as [string, string, string, string];
    const url = decodeEntities(raw.trim());
    if (
      !isTrackableUrl(url) ||
      url.startsWith(`${base}/unsubscribe`) ||
      url.startsWith(`${base}/v1/public/unsubscribe`) ||
      url.startsWith(`${base}/t/`)
    )
      continue;
    const at = match.index ?? 0;
    parts.push(html.slice(last, at) + prefix + quote);
    links.push({ url, index: index++ });
    last = at + whole.length - 1;
  }
  parts.push(html.slice(last));
  return { parts, links };
}

/** The planned HTML with each link through its signed click redirect for one delivery. */
export function applyLinks(plan: TLinkPlan, tracking: Pick<TDeliveryTracking, 'clickUrl'>): string {
  let out = plan.parts[0] ?? '';
  for (let i = 0; i < plan.links.length; i++) {
    const link = plan.links[i] as TLinkPlan['links'][number];
    // Click URLs are base64url and dots: nothing to escape inside the attribute.
    out += tracking.clickUrl(link.url, link.index) + (plan.parts[i + 1] ?? '');
  }
  return out;
}

/** Every http(s) link of a personalised HTML turned into the delivery's signed click URL. */
export function rewriteLinks(rt: Pick<TRuntime, 'config'>, html: string, deliveryId: string): string {
  return applyLinks(planLinks(html, rt.config.publicUrl), trackingFor(rt, deliveryId));
}
