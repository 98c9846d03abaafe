import { isAccountEmail, passwordProblem, type TErrorCode } from '@yado/contracts';
import { badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';

const PASSWORD_CODES: Record<NonNullable<ReturnType<typeof passwordProblem>>, TErrorCode> = {
  required: 'field_required',
  too_short: 'password_too_short',
  too_long: 'password_too_long',
  no_letter: 'password_no_letter',
  no_digit: 'password_no_digit',
};

/** Field errors for an address that must identify an account. */
export function accountEmailErrors(field: string, email: string): TFieldErrors {
  if (!email) return { [field]: fieldError('field_required') };
  if (!isAccountEmail(email)) return { [field]: fieldError('invalid_email') };
  return {};
}

/** Field errors for a new password under the rules of specification section 5. */
export function newPasswordErrors(field: string, password: string): TFieldErrors {
  const problem = passwordProblem(password);
  return problem ? { [field]: fieldError(PASSWORD_CODES[problem]) } : {};
}

export function assertNoFieldErrors(...groups: TFieldErrors[]): void {
  const fields = Object.assign({}, ...groups) as TFieldErrors;
  if (Object.keys(fields).length > 0) throw badRequest(fields);
}
