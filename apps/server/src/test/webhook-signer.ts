import { execFileSync } from 'node:child_process';
import { createHmac, createSign, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { snsStringToSign, type TSnsMessage } from '../modules/deliverability/webhooks/verify.ts';

/**
 * Signs relay webhooks as the providers do, with keys and secrets of the caller's own: what the
 * relay webhook integration test and `npm run bench -- bounces` post (one signer, so both sign
 * exactly as modules/deliverability/webhooks/verify.ts checks).
 */

/**
 * A self-signed certificate for `localhost` (made by openssl) in `dir`: the local stand-in for SNS
 * serves it over HTTPS as its TLS certificate and as the signing certificate it hands out.
 */
export function snsCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** An SNS message signed with `key` (version 1: SHA1withRSA; 2: SHA256withRSA). */
export function signSns(
  fields: Omit<TSnsMessage, 'Signature' | 'SignatureVersion' | 'SigningCertURL'>,
  options: { key: string; certUrl: string; version?: '1' | '2' },
): TSnsMessage {
  const version = options.version ?? '2';
  const message = {
    ...fields,
    SignatureVersion: version,
    SigningCertURL: options.certUrl,
    Signature: '',
  } as TSnsMessage;
  message.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(snsStringToSign(message))
    .sign(options.key, 'base64');
  return message;
}

/** SendGrid's signed event webhook: an ECDSA P-256 pair; `verificationKey` is what SendGrid shows (base64 DER). */
export function sendgridKeyPair(): { privateKey: KeyObject; verificationKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, verificationKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') };
}

/** The headers of a SendGrid post: ECDSA over timestamp + body, as sent. */
export function sendgridHeaders(body: string, key: KeyObject, at = Math.floor(Date.now() / 1000)) {
  const signature = sign('sha256', Buffer.from(`${at}${body}`, 'utf8'), { key, dsaEncoding: 'der' }).toString('base64');
  return {
    'content-type': 'application/json',
    'x-twilio-email-event-webhook-signature': signature,
    'x-twilio-email-event-webhook-timestamp': String(at),
  };
}

/** Mailgun's `signature` object: HMAC-SHA256 of timestamp and token under the signing key. */
export function mailgunSignature(
  key: string,
  options: { at?: number; token?: string } = {},
): { timestamp: string; token: string; signature: string } {
  const timestamp = String(options.at ?? Math.floor(Date.now() / 1000));
  const token = options.token ?? randomBytes(25).toString('hex');
  return { timestamp, token, signature: createHmac('sha256', key).update(`${timestamp}${token}`).digest('hex') };
}

/** Postmark's basic auth: any user name, the webhook secret as the password. */
export const postmarkAuthorization = (secret: string) => `Basic ${Buffer.from(`yado:${secret}`).toString('base64')}`;
