import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { TConfig, TLogoStoreConfig } from '../../config.ts';
import { EMPTY_PAYLOAD_SHA256, sha256Hex, signRequest, type TSigV4Key } from './sigv4.ts';

/** Logos never change under a name (the name is their content hash), so they are cached for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Where logos are kept, by name (`<sha256>.png|jpg`). The console always links
 * `/files/logos/<name>`; the store decides whether that is served from here or redirected.
 */
export interface TLogoStore {
  kind: 'file' | 's3';
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such logo. */
  get(name: string): Promise<Readable | null>;
  /** Where to redirect a browser instead of serving the bytes, when the store is public. */
  publicUrl(name: string): string | null;
}

export const logoDirectory = (dataDir: string) => join(dataDir, 'uploads', 'logos');

/** Files under DATA_DIR/uploads/logos: the default, nothing to configure. */
export function fileLogoStore(dataDir: string): TLogoStore {
  const directory = logoDirectory(dataDir);
  return {
    kind: 'file',
    async put(name, bytes) {
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, name), bytes);
    },
    async get(name) {
      const path = join(directory, name);
      return (await stat(path).catch(() => null)) ? createReadStream(path) : null;
    },
    publicUrl: () => null,
  };
}

/** The objects live under this prefix of the bucket, so the bucket can hold other things. */
const KEY_PREFIX = 'logos/';

/** An S3-compatible bucket (AWS S3, MinIO, R2, ...), spoken to with SigV4-signed fetches. */
export function s3LogoStore(config: Extract<TLogoStoreConfig, { kind: 's3' }>): TLogoStore {
  const key: TSigV4Key = {
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region,
    service: 's3',
  };
  const endpoint = new URL(config.endpoint);
  const objectUrl = (name: string) =>
    config.pathStyle
      ? new URL(`${endpoint.pathname.replace(/\/$/, '')}/${config.bucket}/${KEY_PREFIX}${name}`, endpoint)
      : new URL(`/${KEY_PREFIX}${name}`, `${endpoint.protocol}//${config.bucket}.${endpoint.host}`);
  return {
    kind: 's3',
    async put(name, bytes, contentType) {
      const url = objectUrl(name);
      const headers = signRequest(key, {
        method: 'PUT',
        url,
        headers: { 'content-type': contentType, 'cache-control': IMMUTABLE },
        payloadHash: sha256Hex(bytes),
      });
      const { host: _host, ...sent } = headers;
      const response = await fetch(url, { method: 'PUT', headers: sent, body: new Uint8Array(bytes) });
      await response.body?.cancel();
      // The status only: the store's answer may echo request details.
      if (!response.ok) throw new Error(`S3 PUT answered ${response.status}`);
    },
    async get(name) {
      const url = objectUrl(name);
      const { host: _host, ...sent } = signRequest(key, { method: 'GET', url, payloadHash: EMPTY_PAYLOAD_SHA256 });
      const response = await fetch(url, { headers: sent });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new Error(`S3 GET answered ${response.status}`);
      }
      return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
    },
    publicUrl: (name) => (config.publicUrl ? `${config.publicUrl}/${KEY_PREFIX}${name}` : null),
  };
}

export function createLogoStore(config: Pick<TConfig, 'dataDir' | 'logoStore'>): TLogoStore {
  return config.logoStore.kind === 's3' ? s3LogoStore(config.logoStore) : fileLogoStore(config.dataDir);
}
