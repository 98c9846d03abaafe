import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueCode } from './issue-code.ts';

/** The code of the first fault zod finds in `value`. */
function codeOf(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected a fault');
  return issueCode(result.error.issues[0]!);
}

describe('a request field that fails its schema', () => {
  it('answers a catalogue code for each kind of fault, never zod’s text', () => {
    expect(codeOf(z.string(), undefined)).toBe('field_required');
    expect(codeOf(z.string(), null)).toBe('field_required');
    expect(codeOf(z.string().trim().min(1), '')).toBe('field_required');
    expect(codeOf(z.array(z.string()).min(1), [])).toBe('field_required');
    expect(codeOf(z.string(), 123)).toBe('value_wrong_type');
    expect(codeOf(z.number(), '12')).toBe('value_wrong_type');
    expect(codeOf(z.coerce.number(), 'abc')).toBe('value_wrong_type');
    expect(codeOf(z.object({}), 'x')).toBe('value_wrong_type');
    expect(codeOf(z.number().int(), 1.5)).toBe('value_not_integer');
    expect(codeOf(z.number().min(1), 0)).toBe('value_out_of_range');
    expect(codeOf(z.number().max(10), 11)).toBe('value_out_of_range');
    expect(codeOf(z.string().max(3), 'abcd')).toBe('value_too_long');
    expect(codeOf(z.string().min(8), 'abc')).toBe('value_too_short');
    expect(codeOf(z.array(z.string()).max(1), ['a', 'b'])).toBe('too_many_values');
    expect(codeOf(z.enum(['a', 'b']), 'c')).toBe('value_not_allowed');
    expect(codeOf(z.literal('a'), 'c')).toBe('value_not_allowed');
    expect(codeOf(z.email(), 'nope')).toBe('invalid_email');
    expect(codeOf(z.iso.datetime(), 'yesterday')).toBe('invalid_date');
    expect(codeOf(z.uuid(), 'u-1')).toBe('value_invalid_format');
    expect(codeOf(z.string().regex(/^\d+$/), 'x')).toBe('value_invalid_format');
    expect(codeOf(z.strictObject({ a: z.string() }), { a: 'x', b: 1 })).toBe('value_invalid');
    expect(
      codeOf(
        z.string().refine(() => false),
        'x',
      ),
    ).toBe('value_invalid');
  });

  it('keeps the catalogue code a schema names as its message', () => {
    expect(
      codeOf(
        z.string().refine(() => false, { message: 'invalid_time_zone' }),
        'x',
      ),
    ).toBe('invalid_time_zone');
    expect(codeOf(z.string().regex(/^\d{4}$/, { message: 'invalid_date' }), 'x')).toBe('invalid_date');
    // A message that is not a code (zod's own, or a name like toString) is not taken for one.
    expect(
      codeOf(
        z.string().refine(() => false, { message: 'toString' }),
        'x',
      ),
    ).toBe('value_invalid');
  });

  it('reads a union as the types it joins', () => {
    const textOrNumber = z.union([z.string(), z.number()]);
    expect(codeOf(textOrNumber, true)).toBe('value_wrong_type');
    expect(codeOf(textOrNumber, undefined)).toBe('field_required');
    expect(codeOf(z.union([z.literal('a'), z.number()]), 'b')).toBe('value_invalid');
    const kinds = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a') }),
      z.object({ kind: z.literal('b') }),
    ]);
    expect(codeOf(kinds, { kind: 'c' })).toBe('value_not_allowed');
  });
});
