import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { TEMPLATE_IMAGE_MAX_BYTES } from '@yado/contracts';
import { AppError, fieldError } from '../../http/errors.ts';

/**
 * Fetches an image a user gave by address, for the server to keep a copy. Only http(s), only to
 * public addresses: the name is resolved first and every address it gives is checked (no loopback,
 * private, link-local, carrier-grade NAT, multicast or reserved ranges, IPv4 inside IPv6 included),
 * and the connection goes to the address that was checked, so a second lookup cannot point it
 * elsewhere. Redirects are followed (at most 3) under the same rules; the whole fetch has a time
 * limit and stops reading past the size limit.
 */

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Whether the server may connect to this address for a user-given URL. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4 address inside IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1, 0:0:0:0:0:ffff:...) is judged
    // as the IPv4 address; the URL parser writes every spelling the same way.
    const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(canonical);
    if (mapped) {
      const high = parseInt(mapped[1] as string, 16);
      const low = parseInt(mapped[2] as string, 16);
      return isPublicAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
    }
    return !BLOCKED.check(canonical, 'ipv6');
  }
  return !BLOCKED.check(address, 'ipv4');
}

export interface TFetchImageOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /** Tests serve images on loopback; the product never passes this. */
  allowAddress?: (address: string) => boolean;
}

export interface TFetchedImage {
  bytes: Buffer;
  /** True when the body went past the limit and was cut. */
  truncated: boolean;
}

const MAX_REDIRECTS = 3;
const fetchFailed = () => new AppError(422, 'image_fetch_failed', { url: fieldError('image_fetch_failed') });

export async function fetchPublicImage(address: string, options: TFetchImageOptions = {}): Promise<TFetchedImage> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? TEMPLATE_IMAGE_MAX_BYTES;
  const allowed = options.allowAddress ?? isPublicAddress;
  const signal = AbortSignal.timeout(timeoutMs);
  let url = parseUrl(address);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = await resolveAllowed(url.hostname, allowed);
    const response = await get(url, target, signal, maxBytes);
    if (response.redirect) {
      url = parseUrl(new URL(response.redirect, url).toString());
      continue;
    }
    return { bytes: response.bytes, truncated: response.truncated };
  }
  throw fetchFailed();
}

function parseUrl(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw fetchFailed();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw fetchFailed();
  return url;
}

async function resolveAllowed(
  hostname: string,
  allowed: (address: string) => boolean,
): Promise<{ address: string; family: number }> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch {
      throw fetchFailed();
    }
  }
  // Every address must be allowed: a name that also resolves inward is refused outright.
  if (addresses.length === 0 || !addresses.every((a) => allowed(a.address))) throw fetchFailed();
  return addresses[0] as { address: string; family: number };
}

interface TResponse {
  redirect: string | null;
  bytes: Buffer;
  truncated: boolean;
}

function get(
  url: URL,
  target: { address: string; family: number },
  signal: AbortSignal,
  maxBytes: number,
): Promise<TResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        signal,
        headers: { accept: 'image/png,image/jpeg;q=0.9,*/*;q=0.1', 'user-agent': 'Yado-image-fetch/1' },
        // Connect to the address that was checked; TLS still verifies the certificate for the name.
        lookup: (_hostname, _options, callback) => {
          (callback as (error: Error | null, address: string, family: number) => void)(
            null,
            target.address,
            target.family,
          );
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          resolve({ redirect: response.headers.location, bytes: Buffer.alloc(0), truncated: false });
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(fetchFailed());
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared >= maxBytes) {
          response.destroy();
          resolve({ redirect: null, bytes: Buffer.alloc(0), truncated: true });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size >= maxBytes) {
            response.destroy();
            resolve({ redirect: null, bytes: Buffer.alloc(0), truncated: true });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ redirect: null, bytes: Buffer.concat(chunks), truncated: false }));
        response.on('error', () => reject(fetchFailed()));
      },
    );
    request.on('error', () => reject(fetchFailed()));
  });
}
