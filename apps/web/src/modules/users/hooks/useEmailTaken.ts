import { useEffect, useState } from 'react';
import { isValidEmail } from '@yado/contracts/validation';
import { emailExists } from '../api/usersCalls';

export const EMAIL_CHECK_DEBOUNCE_MS = 500;

/**
 * Whether the typed email already belongs to a registered user, asked of GET /v1/auth/exist once
 * typing pauses; null while unknown (empty, invalid, or the answer not back yet).
 */
export function useEmailTaken(email: string, enabled: boolean): boolean | null {
  const [taken, setTaken] = useState<{ email: string; exist: boolean } | null>(null);
  const value = email.trim();
  useEffect(() => {
    if (!enabled || !isValidEmail(value)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      emailExists(value, controller.signal)
        .then((exist) => setTaken({ email: value, exist }))
        .catch((error: unknown) => {
          // The server checks again on submit; a failed check only loses the early hint.
          if (!controller.signal.aborted) console.warn('The email check failed', error);
        });
    }, EMAIL_CHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, enabled]);
  return enabled && taken?.email === value ? taken.exist : null;
}
