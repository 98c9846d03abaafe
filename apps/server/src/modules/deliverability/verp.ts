import type { TRuntime } from '../../runtime.ts';
import { keysOf, openReturnPath, signReturnPath } from '../tracking/links.ts';

/**
 * VERP (issue 25): every delivery's envelope MAIL FROM is `b-<token>@yado.<sending domain>`, the
 * host name domain authentication already has the brand publish (check-records.ts: `yado.<d>`).
 * The token names the delivery, signed like the tracking links (tracking/links.ts, a key derived
 * from JWT_SECRET), so a bounce or a complaint names its delivery even when the report dropped
 * every header we wrote, and nobody can make one up for a delivery of theirs to name.
 */

export const RETURN_PATH_PREFIX = 'b-';
export const RETURN_PATH_SUBDOMAIN = 'yado.';

/** The return path of a delivery sent From `fromAddress` (its domain is the brand's sending domain). */
export function returnPathFor(rt: Pick<TRuntime, 'config'>, deliveryId: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  return `${RETURN_PATH_PREFIX}${signReturnPath(keysOf(rt), deliveryId)}@${RETURN_PATH_SUBDOMAIN}${domain}`;
}

export interface TReturnPath {
  deliveryId: string;
  /** The sending domain the return path is under (`yado.` taken off). */
  sendingDomain: string;
}

/**
 * What a return path names: null when it is not one of ours or its signature does not hold. The
 * delivery's brand is checked against the domain by the receiver (feedback-receiver.ts).
 */
export function openReturnPathAddress(rt: Pick<TRuntime, 'config'>, address: string): TReturnPath | null {
  if (typeof address !== 'string' || address.length > 320) return null;
  const at = address.lastIndexOf('@');
  if (at < 0) return null;
  const local = address.slice(0, at).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  if (!local.startsWith(RETURN_PATH_PREFIX) || !domain.startsWith(RETURN_PATH_SUBDOMAIN)) return null;
  const deliveryId = openReturnPath(keysOf(rt), local.slice(RETURN_PATH_PREFIX.length));
  const sendingDomain = domain.slice(RETURN_PATH_SUBDOMAIN.length);
  return deliveryId && sendingDomain ? { deliveryId, sendingDomain } : null;
}

/** The sending domain under a mail's envelope return path (for the synchronous answer's record). */
export function sendingDomainOfReturnPath(envelope: unknown): string | null {
  const from = (envelope as { from?: unknown } | undefined)?.from;
  if (typeof from !== 'string') return null;
  const domain = from.slice(from.lastIndexOf('@') + 1).toLowerCase();
  return domain.startsWith(RETURN_PATH_SUBDOMAIN) ? domain.slice(RETURN_PATH_SUBDOMAIN.length) : domain || null;
}
