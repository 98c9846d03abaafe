import type { TCheckResult, TRecordKind } from '@yado/contracts';

/** What DNS answered for one name and type: its values (TXT strings joined), nothing, or no answer at all. */
export type TLookup = { kind: 'found'; values: string[] } | { kind: 'none' } | { kind: 'unavailable' };

export interface TExpectedRecord {
  kind: TRecordKind;
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
}

export interface TCheckOutcome {
  result: TCheckResult;
  found: string[];
  problem: string | null;
  /** For an SPF record without our include: the brand's own record with ours added, to publish instead. */
  suggestion?: string;
}

export interface TSendingNames {
  spfInclude: string;
  trackingHost: string;
  dmarcReportAddress: string;
}

/** The five records a domain publishes (specification section 3: SPF, DKIM, DMARC, CNAME, TXT). */
export function expectedRecords(
  domain: { domain: string; dkimSelector: string; dkimPublicKey: string; ownershipToken: string },
  names: TSendingNames,
): TExpectedRecord[] {
  const d = domain.domain;
  return [
    { kind: 'spf', type: 'TXT', name: d, value: `v=spf1 include:${names.spfInclude} ~all` },
    {
      kind: 'dkim',
      type: 'TXT',
      name: `${domain.dkimSelector}._domainkey.${d}`,
      value: `v=DKIM1; k=rsa; p=${domain.dkimPublicKey}`,
    },
    {
      kind: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${d}`,
      value: `v=DMARC1; p=none; rua=mailto:${names.dmarcReportAddress}`,
    },
    { kind: 'cname', type: 'CNAME', name: `yado.${d}`, value: names.trackingHost },
    {
      kind: 'ownership',
      type: 'TXT',
      name: `_yado-verification.${d}`,
      value: `yado-verification=${domain.ownershipToken}`,
    },
  ];
}

/**
 * Quotes or spaces pasted around a value end up inside the record (DNS panels add their own
 * quotes): receivers then fail to read it, so it is "Incorrect format", never quietly accepted.
 */
const hasStrayCharacters = (value: string) => value !== value.trim() || /^["'“”]|["'“”]$|\\"/.test(value);

/** `k=v; k=v` tags (DKIM, DMARC); null when a part is not a tag. */
export function parseTags(value: string): Map<string, string> | null {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    if (eq < 1) return null;
    tags.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
  }
  return tags;
}

const outcome = (result: TCheckResult, found: string[], problem: string | null = null): TCheckOutcome => ({
  result,
  found,
  problem,
});

/** An SPF record with our include added before its final `all` (or at its end), keeping everything it had. */
export function mergeSpf(existing: string, include: string): string {
  const terms = existing.trim().split(/\s+/);
  const all = terms.findIndex((t) => /^[+~?-]?all$/i.test(t) || /^redirect=/i.test(t));
  const at = all === -1 ? terms.length : all;
  return [...terms.slice(0, at), `include:${include}`, ...terms.slice(at)].join(' ');
}

function checkSpf(values: string[], expected: TExpectedRecord, names: TSendingNames): TCheckOutcome {
  const spf = values.filter((v) => /^\s*["'“]?v=spf1(\s|["'”]?$)/i.test(v));
  if (spf.length === 0) return outcome('missing', values, 'dns_record_missing');
  if (spf.length > 1) return outcome('malformed', spf, 'dns_two_spf_records');
  const record = spf[0] as string;
  if (hasStrayCharacters(record)) return outcome('malformed', spf, 'dns_incorrect_format');
  const ours = `include:${names.spfInclude}`.toLowerCase();
  if (record.toLowerCase().split(/\s+/).includes(ours)) return outcome('correct', spf);
  return {
    ...outcome('wrong', spf, 'dns_spf_without_include'),
    suggestion: mergeSpf(record, names.spfInclude) || expected.value,
  };
}

function checkDkim(values: string[], expected: TExpectedRecord): TCheckOutcome {
  const keys = values.filter((v) => /v=DKIM1|(^|;)\s*p=/i.test(v));
  if (keys.length === 0)
    return outcome(
      values.length ? 'wrong' : 'missing',
      values,
      values.length ? 'dns_record_wrong' : 'dns_record_missing',
    );
  if (keys.length > 1) return outcome('malformed', keys, 'dns_incorrect_format');
  const record = keys[0] as string;
  const tags = parseTags(record);
  if (hasStrayCharacters(record) || !tags || !tags.has('p')) return outcome('malformed', keys, 'dns_incorrect_format');
  const expectedKey = parseTags(expected.value)?.get('p');
  // Folding whitespace inside a tag value is allowed (RFC 6376 3.2), so spaces in p= are not a difference.
  const key = (tags.get('p') ?? '').replace(/\s+/g, '');
  if ((tags.get('v') ?? 'DKIM1') !== 'DKIM1') return outcome('malformed', keys, 'dns_incorrect_format');
  return key === expectedKey ? outcome('correct', keys) : outcome('wrong', keys, 'dns_record_wrong');
}

function checkDmarc(values: string[]): TCheckOutcome {
  const dmarc = values.filter((v) => /v\s*=\s*DMARC1/i.test(v));
  if (dmarc.length === 0)
    return outcome(
      values.length ? 'wrong' : 'missing',
      values,
      values.length ? 'dns_record_wrong' : 'dns_record_missing',
    );
  if (dmarc.length > 1) return outcome('malformed', dmarc, 'dns_incorrect_format');
  const record = dmarc[0] as string;
  const tags = parseTags(record);
  // Any valid DMARC policy of the brand's own is kept: ours is suggested only when none exists.
  const valid =
    !hasStrayCharacters(record) &&
    tags &&
    /^v\s*=\s*DMARC1\s*(;|$)/.test(record.trim()) &&
    ['none', 'quarantine', 'reject'].includes((tags.get('p') ?? '').toLowerCase());
  return valid ? outcome('correct', dmarc) : outcome('malformed', dmarc, 'dns_incorrect_format');
}

const hostName = (value: string) => value.trim().toLowerCase().replace(/\.$/, '');

function checkCname(values: string[], expected: TExpectedRecord): TCheckOutcome {
  if (values.length === 0) return outcome('missing', values, 'dns_record_missing');
  return values.some((v) => hostName(v) === hostName(expected.value))
    ? outcome('correct', values)
    : outcome('wrong', values, 'dns_record_wrong');
}

function checkOwnership(values: string[], expected: TExpectedRecord): TCheckOutcome {
  const tokens = values.filter((v) => v.includes('yado-verification'));
  if (tokens.length === 0) return outcome('missing', values, 'dns_record_missing');
  if (tokens.includes(expected.value)) return outcome('correct', [expected.value]);
  if (tokens.some((t) => t.replace(/^[\s"'“]+|[\s"'”]+$/g, '') === expected.value))
    return outcome('malformed', tokens, 'dns_incorrect_format');
  return outcome('wrong', tokens, 'dns_record_wrong');
}

/** Judges one record from what DNS answered at its name. */
export function checkRecord(expected: TExpectedRecord, lookup: TLookup, names: TSendingNames): TCheckOutcome {
  if (lookup.kind === 'unavailable') return outcome('unavailable', [], 'dns_unavailable');
  const values = lookup.kind === 'found' ? lookup.values : [];
  const judges: Record<TRecordKind, () => TCheckOutcome> = {
    spf: () => checkSpf(values, expected, names),
    dkim: () => checkDkim(values, expected),
    dmarc: () => checkDmarc(values),
    cname: () => checkCname(values, expected),
    ownership: () => checkOwnership(values, expected),
  };
  return judges[expected.kind]();
}
