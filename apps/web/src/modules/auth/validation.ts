import { isAccountEmail, passwordProblem } from '@yado/contracts/validation';

/** i18n keys of the problems a sign-in form can show before calling the server (spec section 5). */
export function accountEmailProblem(value: string): string | null {
  const email = value.trim();
  if (email === '') return 'validation.required';
  return isAccountEmail(email) ? null : 'validation.invalid_email';
}

export function requiredProblem(value: string): string | null {
  return value === '' ? 'validation.required' : null;
}

export function newPasswordProblem(value: string): string | null {
  const problem = passwordProblem(value);
  return problem === null ? null : `validation.password_${problem}`;
}

export function confirmationProblem(password: string, confirmation: string): string | null {
  if (confirmation === '') return 'validation.required';
  return confirmation === password ? null : 'validation.password_mismatch';
}
