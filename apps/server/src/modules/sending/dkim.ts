import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { openSecret, sealSecret } from '../../crypto/secret-box.ts';

const generate = promisify(generateKeyPair);

export interface TDkimKeys {
  selector: string;
  /** base64 DER SubjectPublicKeyInfo, the DKIM record's p= */
  publicKey: string;
  privateKeyEncrypted: string;
}

/** A DKIM key pair (RSA 2048) under a dated selector; the private key leaves this function sealed. */
export async function createDkimKeys(dataEncryptionKey: string, now = new Date()): Promise<TDkimKeys> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const month = `${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return {
    selector: `yado${month}`,
    publicKey: (publicKey as unknown as Buffer).toString('base64'),
    privateKeyEncrypted: sealSecret(privateKey as unknown as string, dataEncryptionKey),
  };
}

export const ownershipToken = () => randomBytes(18).toString('base64url');

/** nodemailer's `dkim` option: signs with the domain's key, d= the From domain (DMARC alignment). */
export interface TDkimOptions {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export function dkimOptionsOf(
  domain: { domain: string; dkimSelector: string; dkimPrivateKeyEncrypted: string },
  dataEncryptionKey: string,
): TDkimOptions {
  return {
    domainName: domain.domain,
    keySelector: domain.dkimSelector,
    privateKey: openSecret(domain.dkimPrivateKeyEncrypted, dataEncryptionKey),
  };
}
