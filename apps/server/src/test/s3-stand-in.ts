import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalRequest, sameSignature, sha256Hex, signatureOf } from '../modules/uploads/sigv4.ts';

/**
 * A small S3-compatible server for tests (S3 is an external system): path-style buckets held in
 * memory, PUT and GET of objects, and every request's SigV4 signature checked against the
 * secret it was given, as S3 does. Anything unsigned, mis-signed, stale or for another bucket is
 * refused with S3's error codes.
 */
export interface TS3StandIn {
  endpoint: string;
  objects: Map<string, { body: Buffer; contentType: string | undefined; cacheControl: string | undefined }>;
  /** What came in and how it was answered, oldest first. */
  requests: { method: string; path: string; status: number; code?: string }[];
  /** The secret signatures are checked with; change it to see a wrong one refused. */
  secret: string;
  close(): Promise<void>;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60_000;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startS3StandIn(options: {
  bucket: string;
  accessKeyId: string;
  secret: string;
  region: string;
}): Promise<TS3StandIn> {
  const objects: TS3StandIn['objects'] = new Map();
  const requests: TS3StandIn['requests'] = [];
  const state = { secret: options.secret };

  const fail = (response: ServerResponse, status: number, code: string) => {
    response.writeHead(status, { 'content-type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
    return code;
  };

  /** Null when the request is signed correctly, else the S3 error code. */
  const refusal = (request: IncomingMessage, url: URL, body: Buffer): string | null => {
    const match = AUTH.exec(request.headers.authorization ?? '');
    if (!match) return 'AccessDenied';
    const [, accessKeyId, day, region, service, signedHeaders, signature] = match as unknown as string[];
    if (accessKeyId !== options.accessKeyId) return 'InvalidAccessKeyId';
    if (region !== options.region || service !== 's3') return 'AuthorizationHeaderMalformed';
    const date = String(request.headers['x-amz-date'] ?? '');
    const at = Date.parse(date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (!date.startsWith(day as string) || Number.isNaN(at) || Math.abs(Date.now() - at) > MAX_SKEW_MS)
      return 'RequestTimeTooSkewed';
    const names = (signedHeaders as string).split(';');
    for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256'])
      if (!names.includes(required)) return 'AccessDenied';
    const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
    if (payloadHash !== sha256Hex(body)) return 'XAmzContentSHA256Mismatch';
    const headers = Object.fromEntries(names.map((name) => [name, String(request.headers[name] ?? '')]));
    const { text } = canonicalRequest({ method: request.method ?? 'GET', url, headers, payloadHash });
    const expected = signatureOf(
      { accessKeyId: options.accessKeyId, secretAccessKey: state.secret, region: options.region, service: 's3' },
      date,
      text,
    );
    return sameSignature(expected, signature as string) ? null : 'SignatureDoesNotMatch';
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
      const record = (status: number, code?: string) =>
        requests.push({ method: request.method ?? '', path: url.pathname, status, ...(code ? { code } : {}) });
      const refused = refusal(request, url, body);
      if (refused) return record(403, fail(response, 403, refused));
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (bucket !== options.bucket) return record(404, fail(response, 404, 'NoSuchBucket'));
      if (request.method === 'PUT') {
        objects.set(key, {
          body,
          contentType: request.headers['content-type'],
          cacheControl: request.headers['cache-control'],
        });
        response.writeHead(200, { etag: `"${sha256Hex(body).slice(0, 32)}"` });
        response.end();
        return record(200);
      }
      if (request.method === 'GET') {
        const object = objects.get(key);
        if (!object) return record(404, fail(response, 404, 'NoSuchKey'));
        response.writeHead(200, {
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': object.body.length,
        });
        response.end(object.body);
        return record(200);
      }
      return record(405, fail(response, 405, 'MethodNotAllowed'));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
