import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { expect } from 'vitest';
import { apiCall } from './api';
import { baseUrl } from './browser';

/** A message as the embedded sink's outbox gives it (GET /v1/dev/outbox). */
export interface TOutboxMail {
  id: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string;
  headers: { key: string; value: string }[];
}

/** The messages the embedded sink received for `to`, newest first, read as the granduser. */
export async function outboxOf(grandToken: string, to: string, limit = 50): Promise<TOutboxMail[]> {
  const res = await apiCall<TOutboxMail[]>('GET', `/v1/dev/outbox?to=${encodeURIComponent(to)}&limit=${limit}`, {
    token: grandToken,
  });
  if (res.status !== 200) throw new Error(`outbox answered ${res.status}`);
  return res.data;
}

/** DKIM as an independent verifier sees it, with the keys the embedded DNS server publishes. */
export async function dkimResult(grandToken: string, mail: TOutboxMail) {
  const raw = await fetch(`${baseUrl()}/v1/dev/outbox/${mail.id}/raw`, {
    headers: { authorization: `Bearer ${grandToken}` },
  });
  expect(raw.status).toBe(200);
  const source = Buffer.from(await raw.arrayBuffer());
  const dns = await apiCall<{ name: string; type: string; values: string[] }[]>('GET', '/v1/dev/dns', {
    token: grandToken,
  });
  const resolver = async (name: string, type: string) => {
    const set = dns.data.find((r) => r.name.toLowerCase() === name.toLowerCase() && r.type === type);
    if (!set) throw Object.assign(new Error(`no ${type} at ${name}`), { code: 'ENOTFOUND' });
    return type === 'TXT' ? set.values.map((v) => v.match(/.{1,255}/g) ?? ['']) : set.values;
  };
  const result = await dkimVerify(source, { resolver });
  return result.results[0];
}
