import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { statementName } from './pipeline.ts';

const hashed = (text: string) => `y${createHash('sha1').update(text).digest('base64url')}`;

describe('statementName', () => {
  it("is the text's hash, the same however often and however long the texts asked before", () => {
    const text = 'select $1::int';
    expect(statementName(text)).toBe(hashed(text));
    expect(statementName(text)).toBe(hashed(text));
    expect(statementName('select $1::text')).not.toBe(statementName(text));
    // Past what the memory holds (a long bulk text), it starts afresh and answers the same.
    const long = `select ${'1, '.repeat(2_100_000)}1`;
    expect(statementName(long)).toBe(hashed(long));
    expect(statementName(long)).toBe(hashed(long));
    expect(statementName(text)).toBe(hashed(text));
  });
});
