import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { EncodingSniffer, textDecoder } from './encoding.ts';

function sniff(bytes: Buffer, chunk = 3) {
  const s = new EncodingSniffer();
  for (let i = 0; i < bytes.length; i += chunk) s.write(bytes.subarray(i, i + chunk));
  return s.result();
}

describe('encoding detection', () => {
  const text = '姓,名,電話番号\r\n山田,太郎,090-1234-5678\r\n';
  it('reads UTF-8 with and without a byte-order mark, even when chunks split characters', () => {
    expect(sniff(Buffer.from(text))).toBe('utf-8');
    expect(sniff(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toBe('utf-8');
  });
  it('tells CP932 (Shift_JIS as Excel writes it) and decodes it, ① and ～ included', () => {
    const cp932 = iconv.encode(`${text}髙橋,①～\r\n`, 'cp932');
    expect(sniff(cp932)).toBe('cp932');
    const d = textDecoder('cp932');
    expect(d.write(cp932.subarray(0, 5)) + d.write(cp932.subarray(5)) + d.end()).toBe(`${text}髙橋,①～\r\n`);
  });
  it('drops the UTF-8 byte-order mark when decoding', () => {
    const d = textDecoder('utf-8');
    expect(d.write(Buffer.from([0xef, 0xbb, 0xbf, 0x61])) + d.end()).toBe('a');
  });
  it('refuses UTF-16 and binary files', () => {
    expect(sniff(Buffer.from([0xff, 0xfe, 0x61, 0x00]))).toBeNull();
    expect(sniff(Buffer.from('PK\u0003\u0004\u0000\u0000binary'))).toBeNull();
  });
});
