import { createHash } from 'node:crypto';
import { LOGO_MAX_BYTES } from '@yado/contracts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { TLogoStore } from './logo-store.ts';

export const LOGO_URL_PREFIX = '/files/logos/';
const LOGO_NAME = /^[a-f0-9]{64}\.(png|jpg)$/;

/** The image type by its first bytes, never by the file name. */
export function sniffImage(bytes: Buffer): 'png' | 'jpg' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  return null;
}

export function isLogoName(name: string): boolean {
  return LOGO_NAME.test(name);
}

export function isOurLogoUrl(url: string): boolean {
  return url.startsWith(LOGO_URL_PREFIX) && isLogoName(url.slice(LOGO_URL_PREFIX.length));
}

/**
 * Stores a logo in the configured store (the data directory or an S3-compatible bucket), named by
 * its content hash: the same image uploaded twice is one object, and its URL can be cached forever.
 */
export async function storeLogo(
  store: TLogoStore,
  bytes: Buffer,
  truncated: boolean,
  log?: { warn: (obj: object, msg: string) => void },
): Promise<{ logoUrl: string }> {
  if (truncated || bytes.length >= LOGO_MAX_BYTES)
    throw new AppError(413, 'logo_too_big', { file: fieldError('logo_too_big') });
  if (bytes.length === 0) throw new AppError(400, 'logo_wrong_type', { file: fieldError('logo_wrong_type') });
  const kind = sniffImage(bytes);
  if (!kind) throw new AppError(400, 'logo_wrong_type', { file: fieldError('logo_wrong_type') });
  const name = `${createHash('sha256').update(bytes).digest('hex')}.${kind}`;
  try {
    await store.put(name, bytes, logoContentType(name));
  } catch (error) {
    // The disk or the bucket refused (full, read-only, wrong credentials): the user is told to try
    // again, nothing half-written is referenced. The message holds a status, never a secret.
    log?.warn({ store: store.kind, reason: (error as Error).message }, 'logo store refused a logo');
    throw new AppError(500, 'upload_failed', { file: fieldError('upload_failed') });
  }
  return { logoUrl: `${LOGO_URL_PREFIX}${name}` };
}

export const logoContentType = (name: string) => (name.endsWith('.png') ? 'image/png' : 'image/jpeg');
