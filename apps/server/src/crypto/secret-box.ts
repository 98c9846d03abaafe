import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts a stored credential (AES-256-GCM, a fresh 96-bit nonce each time) under the
 * configured data encryption key. The result is `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export function sealSecret(plain: string, key: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyBytes(key), nonce);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', nonce, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Opens what `sealSecret` sealed; throws when the key is wrong or the text was altered. */
export function openSecret(sealed: string, key: string): string {
  const [version, nonce, tag, body] = sealed.split('.');
  if (version !== 'v1' || !nonce || !tag || body === undefined) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyBytes(key), Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

// The configured key is a long random string; its SHA-256 is the 32-byte AES key.
const keyBytes = (key: string) => createHash('sha256').update(key, 'utf8').digest();
