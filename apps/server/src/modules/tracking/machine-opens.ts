/**
 * Opens that no person made: Apple Mail Privacy Protection fetches every image of every mail through
 * its proxies as soon as the mail arrives, and security scanners and link previewers fetch them too.
 * Counted as machine opens, apart from opens, so the open rate stays honest. Gmail's and Yahoo's
 * image proxies fetch when the person opens the mail, so those are opens.
 */

export type TMachineReason = 'no_user_agent' | 'apple_privacy_proxy' | 'scanner' | 'too_soon';

/** Apple's proxies announce themselves with this bare user agent. */
const APPLE_PROXY_UA = /^Mozilla\/5\.0$/;
const SCANNERS =
  /bot\b|crawler|spider|preview|scanner|python-requests|python-urllib|curl\/|wget\/|go-http-client|okhttp|headlesschrome|phantomjs|barracuda|mimecast|proofpoint|symantec|trendmicro|fireeye|forcepoint|cisco|sophos|messagelabs|linkchecker/i;

/** 17.0.0.0/8 is Apple's; its privacy proxies also egress there. */
function isAppleAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return /^17\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Why a pixel fetch is a machine's, from what the request shows; null when a person's. */
export function machineOpenReason(userAgent: string | undefined, ip: string): TMachineReason | null {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'no_user_agent';
  if (APPLE_PROXY_UA.test(ua) || isAppleAddress(ip)) return 'apple_privacy_proxy';
  if (SCANNERS.test(ua)) return 'scanner';
  return null;
}

/** A fetch this soon after the send is the receiving system's prefetch, not a reader. */
export const PREFETCH_SECONDS = 2;

export function isTooSoon(sentAt: Date | null, at: Date): boolean {
  return sentAt !== null && at.getTime() - sentAt.getTime() < PREFETCH_SECONDS * 1000;
}
