import { Resolver } from 'node:dns/promises';
import type { TConfig } from '../../config.ts';
import type { TLookup } from './check-records.ts';

/** Answers that mean "nothing is published here"; anything else means DNS did not answer. */
const NOTHING = new Set(['ENODATA', 'ENOTFOUND']);

export interface TDnsLookup {
  txt(name: string): Promise<TLookup>;
  cname(name: string): Promise<TLookup>;
}

/**
 * The verifier's resolver: DNS_SERVERS, else the embedded DNS server in embedded mode, else the
 * system's. A timeout, SERVFAIL or refusal is `unavailable`, never "missing".
 */
export function createDnsLookup(config: TConfig): TDnsLookup {
  const resolver = new Resolver({ timeout: config.dns.timeoutMs, tries: 2 });
  if (config.dns.servers) resolver.setServers(config.dns.servers);
  const ask = async (fn: () => Promise<string[]>): Promise<TLookup> => {
    try {
      const values = await fn();
      return values.length ? { kind: 'found', values } : { kind: 'none' };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      return NOTHING.has(code) ? { kind: 'none' } : { kind: 'unavailable' };
    }
  };
  return {
    // A TXT record split into 255-character strings is one value: the strings joined.
    txt: (name) => ask(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) => ask(() => resolver.resolveCname(name)),
  };
}
