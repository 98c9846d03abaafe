import { ERROR_MESSAGES, type TErrorCode } from '@yado/contracts';

/** A zod issue as fastify-type-provider-zod hands it over: its code, zod's English text and the rest. */
export interface TZodIssue {
  code?: string;
  message?: string;
  path?: PropertyKey[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  format?: string;
  discriminator?: string;
  errors?: TZodIssue[][];
}

/** The codes `issueCode` answers besides the ones schemas name themselves (the OpenAPI document lists them). */
export const SCHEMA_FAULT_CODES = [
  'field_required',
  'value_wrong_type',
  'value_not_integer',
  'value_too_long',
  'value_too_short',
  'value_out_of_range',
  'too_many_values',
  'value_not_allowed',
  'invalid_email',
  'invalid_date',
  'value_invalid_format',
  'value_invalid',
] as const satisfies readonly TErrorCode[];

/**
 * The catalogue code of a field that failed its request schema, so the console shows the fault
 * in the user's language: zod's own text is English and never reaches the answer. A schema that
 * names a catalogue code as its message (`{ message: 'invalid_time_zone' }`) gets that code.
 */
export function issueCode(issue: TZodIssue): TErrorCode {
  const message = issue.message ?? '';
  if (Object.hasOwn(ERROR_MESSAGES, message)) return message as TErrorCode;
  switch (issue.code) {
    case 'invalid_type':
      // A field left out or sent as null is a field the user did not fill in.
      if (/received (undefined|null)$/.test(message)) return 'field_required';
      return issue.expected === 'int' ? 'value_not_integer' : 'value_wrong_type';
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') {
        if (Number(issue.minimum) <= 1) return 'field_required';
        if (issue.origin === 'string') return 'value_too_short';
      }
      return 'value_out_of_range';
    case 'too_big':
      if (issue.origin === 'string') return 'value_too_long';
      if (issue.origin === 'array' || issue.origin === 'set') return 'too_many_values';
      return 'value_out_of_range';
    case 'invalid_value':
      return 'value_not_allowed';
    case 'invalid_format':
      if (issue.format === 'email') return 'invalid_email';
      if (issue.format === 'date' || issue.format === 'datetime') return 'invalid_date';
      return 'value_invalid_format';
    case 'invalid_union':
      return unionCode(issue);
    default:
      return 'value_invalid';
  }
}

/**
 * A discriminated union's unknown kind is a choice outside the list; a value that fits none of
 * the union's types the same way (`true` for a text or a number) answers as each type would.
 */
function unionCode(issue: TZodIssue): TErrorCode {
  if (issue.discriminator !== undefined) return 'value_not_allowed';
  const codes = new Set(
    (issue.errors ?? []).map((branch) =>
      branch.length === 1 && (branch[0]!.path ?? []).length === 0 ? issueCode(branch[0]!) : 'value_invalid',
    ),
  );
  return codes.size === 1 ? [...codes][0]! : 'value_invalid';
}
