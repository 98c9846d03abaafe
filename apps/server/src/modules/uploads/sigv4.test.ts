import { describe, expect, it } from 'vitest';
import {
  amzDate,
  canonicalRequest,
  EMPTY_PAYLOAD_SHA256,
  sha256Hex,
  signatureOf,
  signRequest,
  uriEncode,
} from './sigv4.ts';

// The worked examples of the S3 documentation ("Signature calculations for the Authorization
// header", example credentials), so the signer is checked against AWS's own answers.
const KEY = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
};
const NOW = new Date('2013-05-24T00:00:00Z');

describe('AWS Signature Version 4', () => {
  it('signs the documentation’s GET Object example to its published signature', () => {
    const headers = signRequest(KEY, {
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: EMPTY_PAYLOAD_SHA256,
      now: NOW,
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
  });

  it('signs the documentation’s PUT Object example (an encoded key, extra headers) to its published signature', () => {
    const body = 'Welcome to Amazon S3.';
    expect(sha256Hex(body)).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const url = new URL('https://examplebucket.s3.amazonaws.com/test$file.text');
    const headers = {
      Date: 'Fri, 24 May 2013 00:00:00 GMT',
      host: url.host,
      'x-amz-date': amzDate(NOW),
      'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      'x-amz-content-sha256': sha256Hex(body),
    };
    const canonical = canonicalRequest({ method: 'PUT', url, headers, payloadHash: sha256Hex(body) });
    expect(canonical.text.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(canonical.signedHeaders).toBe('date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class');
    expect(signatureOf(KEY, '20130524T000000Z', canonical.text)).toBe(
      '98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });

  it('sorts and encodes the query string, and encodes paths byte by byte', () => {
    const { text } = canonicalRequest({
      method: 'get',
      url: new URL('https://h.example/b/ロゴ a.png?prefix=x y&list-type=2&a=2&a=1'),
      headers: { Host: 'h.example', 'X-Amz-Date': '  20130524T000000Z  ' },
      payloadHash: EMPTY_PAYLOAD_SHA256,
    });
    const [method, path, query, host, date] = text.split('\n');
    expect(method).toBe('GET');
    expect(path).toBe('/b/%E3%83%AD%E3%82%B4%20a.png');
    expect(query).toBe('a=1&a=2&list-type=2&prefix=x%20y');
    expect([host, date]).toEqual(['host:h.example', 'x-amz-date:20130524T000000Z']);
    expect(uriEncode('a/b~c*', true)).toBe('a/b~c%2A');
    expect(uriEncode('a/b', false)).toBe('a%2Fb');
  });
});
