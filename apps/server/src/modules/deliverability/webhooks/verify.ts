import {
  createHmac,
  createPublicKey,
  createVerify,
  timingSafeEqual,
  verify as verifySignature,
  type KeyObject,
} from 'node:crypto';
import { get } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { TConfig } from '../../../config.ts';

/**
 * The signature checks of the relay webhooks (issue 25). Each answers true only when the body is
 * what the provider signed (and, where the provider signs a time, recent); nothing here trusts a
 * field it has not verified.
 */

export type TRefusal = 'signature' | 'old' | 'replay' | 'certificate' | 'topic' | 'brand' | 'unknown' | 'body';

export class WebhookRefusal extends Error {
  constructor(readonly reason: TRefusal) {
    super(`webhook refused: ${reason}`);
  }
}

const refuse = (reason: TRefusal): never => {
  throw new WebhookRefusal(reason);
};

/** Whether a unix time in seconds lies within maxAge of now (and not more than a minute ahead). */
export function isRecent(seconds: number, maxAgeSeconds: number, now = Date.now()): boolean {
  if (!Number.isFinite(seconds)) return false;
  const age = now / 1000 - seconds;
  return age <= maxAgeSeconds && age >= -60;
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  // timingSafeEqual needs equal lengths: compare digests so a length says nothing either.
  return timingSafeEqual(
    createHmac('sha256', 'compare').update(x).digest(),
    createHmac('sha256', 'compare').update(y).digest(),
  );
};

// ---- Mailgun: HMAC-SHA256 of timestamp + token under the signing key ----

/**
 * A subaccount's events carry a second signature, `parent-signature`, made the same way under the
 * primary account's key, so a brand whose relay is a Mailgun subaccount may paste either key: the
 * request is verified when either signature is the one its key makes.
 */
export function verifyMailgun(
  signingKey: string,
  signature: { timestamp?: unknown; token?: unknown; signature?: unknown; 'parent-signature'?: unknown },
  maxAgeSeconds: number,
): { token: string } {
  const { timestamp, token } = signature;
  const given = [signature.signature, signature['parent-signature']].filter(
    (value): value is string => typeof value === 'string' && value.length <= 200,
  );
  if (typeof timestamp !== 'string' && typeof timestamp !== 'number') return refuse('signature');
  if (typeof token !== 'string' || token.length > 200 || given.length === 0) return refuse('signature');
  const expected = createHmac('sha256', signingKey).update(`${timestamp}${token}`).digest('hex');
  // Both compared, whichever matches: the time taken says nothing of which did.
  const matches = given.map((value) => sameText(expected, value.toLowerCase()));
  if (!matches.includes(true)) return refuse('signature');
  if (!isRecent(Number(timestamp), maxAgeSeconds)) return refuse('old');
  return { token };
}

// ---- SendGrid: ECDSA P-256 (SHA-256) over timestamp + payload, the key given as base64 SPKI ----

/** Parsed keys by their text: a relay posts many events a second. */
const sendgridKeys = new Map<string, KeyObject>();
function sendgridKeyOf(publicKey: string): KeyObject {
  let key = sendgridKeys.get(publicKey);
  if (!key) {
    key = publicKey.includes('BEGIN')
      ? createPublicKey(publicKey)
      : createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (sendgridKeys.size > 100) sendgridKeys.clear();
    sendgridKeys.set(publicKey, key);
  }
  return key;
}

export function verifySendgrid(
  publicKey: string,
  headers: { signature?: string; timestamp?: string },
  body: Buffer,
  maxAgeSeconds: number,
): void {
  if (!headers.signature || !headers.timestamp || headers.timestamp.length > 20) return refuse('signature');
  let ok: boolean;
  try {
    const key = sendgridKeyOf(publicKey);
    ok = verifySignature(
      'sha256',
      Buffer.concat([Buffer.from(headers.timestamp, 'utf8'), body]),
      { key, dsaEncoding: 'der' },
      Buffer.from(headers.signature, 'base64'),
    );
  } catch {
    ok = false;
  }
  if (!ok) return refuse('signature');
  if (!isRecent(Number(headers.timestamp), maxAgeSeconds)) return refuse('old');
}

// ---- Postmark: the webhook password (basic auth) or the same secret in a header ----

export function verifyPostmark(secret: string, headers: { authorization?: string; secretHeader?: string }): void {
  if (headers.secretHeader && sameText(headers.secretHeader, secret)) return;
  const auth = headers.authorization ?? '';
  if (auth.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0 && sameText(decoded.slice(colon + 1), secret)) return;
  }
  refuse('signature');
}

// ---- Amazon SNS: signature versions 1 (SHA1withRSA) and 2 (SHA256withRSA) ----

export interface TSnsMessage {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

const SNS_TTL_MS = 60 * 60 * 1000;
const MAX_CERT_BYTES = 64 * 1024;
const certificates = new Map<string, { key: KeyObject; at: number }>();

/** An SNS URL we may fetch: https, on the SNS host pattern (SNS_HOST_PATTERN), no credentials. */
export function isSnsUrl(config: Pick<TConfig, 'webhooks'>, value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password && config.webhooks.snsHostPattern.test(url.host);
  } catch {
    return false;
  }
}

/** GET over https with the trusted authorities (plus SNS_EXTRA_CA_FILE), at most `limit` bytes. */
export function fetchSns(config: Pick<TConfig, 'webhooks'>, url: string, limit = MAX_CERT_BYTES): Promise<string> {
  const ca = config.webhooks.snsExtraCa ? [...rootCertificates, config.webhooks.snsExtraCa] : undefined;
  return new Promise((resolve, reject) => {
    const request = get(url, { ca, timeout: 5000 }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`SNS answered ${response.statusCode}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limit) request.destroy(new Error('SNS answer too large'));
        else chunks.push(c);
      });
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error('SNS timed out')));
    request.on('error', reject);
  });
}

async function certificateOf(config: Pick<TConfig, 'webhooks'>, url: string): Promise<KeyObject> {
  const cached = certificates.get(url);
  if (cached && Date.now() - cached.at < SNS_TTL_MS) return cached.key;
  let key: KeyObject;
  try {
    key = createPublicKey(await fetchSns(config, url));
  } catch {
    // Unreachable, or not a certificate: the message cannot be verified.
    return refuse('signature');
  }
  if (certificates.size > 100) certificates.clear();
  certificates.set(url, { key, at: Date.now() });
  return key;
}

const SIGNED_FIELDS: Record<string, (keyof TSnsMessage)[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The text SNS signs: each present field's name and value, one per line, in this order. */
export function snsStringToSign(message: TSnsMessage): string {
  const fields = SIGNED_FIELDS[message.Type];
  if (!fields) return refuse('body');
  let text = '';
  for (const field of fields) {
    const value = message[field];
    if (value === undefined || value === null) {
      if (field === 'Subject') continue;
      return refuse('body');
    }
    if (typeof value !== 'string') return refuse('body');
    text += `${field}\n${value}\n`;
  }
  return text;
}

const SNS_MAX_AGE_SECONDS = 60 * 60;

export async function verifySns(config: Pick<TConfig, 'webhooks'>, message: TSnsMessage): Promise<void> {
  const algorithm =
    message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
  if (!algorithm || typeof message.Signature !== 'string') return refuse('signature');
  if (!isSnsUrl(config, message.SigningCertURL)) return refuse('certificate');
  const text = snsStringToSign(message);
  const key = await certificateOf(config, message.SigningCertURL);
  let ok: boolean;
  try {
    ok = createVerify(algorithm).update(text, 'utf8').verify(key, message.Signature, 'base64');
  } catch {
    ok = false;
  }
  if (!ok) return refuse('signature');
  if (!isRecent(Date.parse(message.Timestamp) / 1000, SNS_MAX_AGE_SECONDS)) return refuse('old');
}
