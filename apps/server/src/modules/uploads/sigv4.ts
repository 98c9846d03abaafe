import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4 for S3-compatible stores (AWS, MinIO, Cloudflare R2, ...): the few
 * dozen lines the logo store needs instead of an SDK. The secret only ever enters an HMAC.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
 */
export interface TSigV4Key {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export const EMPTY_PAYLOAD_SHA256 = sha256Hex('');

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 percent-encoding as SigV4 wants it: only A-Z a-z 0-9 - _ . ~ stay (and '/' in a path). */
export function uriEncode(value: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(char) || (keepSlash && char === '/')) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `20130524T000000Z`: the request time as x-amz-date carries it. */
export function amzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface TCanonicalInput {
  method: string;
  /** The path as sent (percent-encoded or not) and the query string. */
  url: URL;
  /** The headers to sign, any case; values as sent. */
  headers: Record<string, string>;
  payloadHash: string;
}

/** The canonical request and the list of signed headers (step 1 of the specification). */
export function canonicalRequest(input: TCanonicalInput): { text: string; signedHeaders: string } {
  const path = input.url.pathname
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment), false))
    .join('/');
  const query = [...input.url.searchParams]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = Object.entries(input.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([name]) => name).join(';');
  const text = [
    input.method.toUpperCase(),
    path || '/',
    query,
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  return { text, signedHeaders };
}

/** The hex signature of a canonical request at `date` (`20130524T000000Z`). */
export function signatureOf(key: TSigV4Key, date: string, canonical: string): string {
  const day = date.slice(0, 8);
  const scope = `${day}/${key.region}/${key.service}/aws4_request`;
  const stringToSign = [ALGORITHM, date, scope, sha256Hex(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secretAccessKey}`, day), key.region), key.service), 'aws4_request');
  return createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
}

/**
 * The headers to send: the given ones plus host, x-amz-date, x-amz-content-sha256 and the
 * Authorization header that signs them all.
 */
export function signRequest(
  key: TSigV4Key,
  request: { method: string; url: URL; headers?: Record<string, string>; payloadHash: string; now?: Date },
): Record<string, string> {
  const date = amzDate(request.now ?? new Date());
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.url.host,
    'x-amz-date': date,
    'x-amz-content-sha256': request.payloadHash,
  };
  const { text, signedHeaders } = canonicalRequest({
    method: request.method,
    url: request.url,
    headers,
    payloadHash: request.payloadHash,
  });
  const day = date.slice(0, 8);
  const credential = `${key.accessKeyId}/${day}/${key.region}/${key.service}/aws4_request`;
  const signature = signatureOf(key, date, text);
  return {
    ...headers,
    authorization: `${ALGORITHM} Credential=${credential}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** Compares two hex signatures in constant time. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
