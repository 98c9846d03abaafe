import { describe, expect, it } from 'vitest';
import { checkRecord, expectedRecords, mergeSpf, type TExpectedRecord } from './check-records.ts';

const names = {
  spfInclude: '_spf.yado-mail.net',
  trackingHost: 'track.yado-mail.net',
  dmarcReportAddress: 'dmarc@yado-mail.net',
};
const records = expectedRecords(
  {
    domain: 'hotel.jp',
    dkimSelector: 'yado202611',
    dkimPublicKey: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA',
    ownershipToken: 'tok',
  },
  names,
);
const record = (kind: string) => records.find((r) => r.kind === kind) as TExpectedRecord;
const found = (...values: string[]) => ({ kind: 'found' as const, values });

describe('checkRecord', () => {
  it('keeps an SPF record that includes ours among others, and offers the merge when ours is absent', () => {
    expect(
      checkRecord(
        record('spf'),
        found('v=spf1 include:_spf.google.com include:_spf.yado-mail.net ~all', 'other=1'),
        names,
      ).result,
    ).toBe('correct');
    const wrong = checkRecord(record('spf'), found('v=spf1 include:_spf.google.com -all'), names);
    expect(wrong).toMatchObject({ result: 'wrong', problem: 'dns_spf_without_include' });
    expect(wrong.suggestion).toBe('v=spf1 include:_spf.google.com include:_spf.yado-mail.net -all');
  });

  it('calls two SPF records, stray quotes and spaces a format error', () => {
    expect(
      checkRecord(record('spf'), found('v=spf1 include:_spf.yado-mail.net ~all', 'v=spf1 -all'), names).problem,
    ).toBe('dns_two_spf_records');
    expect(checkRecord(record('spf'), found('"v=spf1 include:_spf.yado-mail.net ~all"'), names).problem).toBe(
      'dns_incorrect_format',
    );
    expect(checkRecord(record('spf'), found(' v=spf1 include:_spf.yado-mail.net ~all'), names).problem).toBe(
      'dns_incorrect_format',
    );
    expect(checkRecord(record('ownership'), found('"yado-verification=tok"'), names).result).toBe('malformed');
  });

  it('reads a DKIM key with folding spaces in p= as the same key, and a different key as wrong', () => {
    expect(
      checkRecord(record('dkim'), found('v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0B AQEFAAOCAQ8AMIIBCgKCAQEA'), names)
        .result,
    ).toBe('correct');
    expect(checkRecord(record('dkim'), found('v=DKIM1; k=rsa; p=AAAA'), names).result).toBe('wrong');
    expect(checkRecord(record('dkim'), found('v=DKIM1; k=rsa; garbage'), names).result).toBe('malformed');
  });

  it('tells missing from unavailable: only a DNS answer can say a record is missing', () => {
    expect(checkRecord(record('cname'), { kind: 'none' }, names)).toMatchObject({
      result: 'missing',
      problem: 'dns_record_missing',
    });
    expect(checkRecord(record('cname'), { kind: 'unavailable' }, names)).toMatchObject({
      result: 'unavailable',
      problem: 'dns_unavailable',
    });
    expect(checkRecord(record('cname'), found('TRACK.yado-mail.net.'), names).result).toBe('correct');
  });

  it('accepts any valid DMARC policy and refuses one without p=', () => {
    expect(checkRecord(record('dmarc'), found('v=DMARC1; p=quarantine'), names).result).toBe('correct');
    expect(checkRecord(record('dmarc'), found('v=DMARC1; rua=mailto:x@hotel.jp'), names).result).toBe('malformed');
  });
});

describe('mergeSpf', () => {
  it('adds ours before the final all or redirect, or at the end', () => {
    expect(mergeSpf('v=spf1 mx ?all', 'x.net')).toBe('v=spf1 mx include:x.net ?all');
    expect(mergeSpf('v=spf1 redirect=_spf.example.com', 'x.net')).toBe(
      'v=spf1 include:x.net redirect=_spf.example.com',
    );
    expect(mergeSpf('v=spf1 mx', 'x.net')).toBe('v=spf1 mx include:x.net');
  });
});
