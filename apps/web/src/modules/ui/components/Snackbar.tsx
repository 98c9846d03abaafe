import i18next from 'i18next';
import { pushSnackbar, type TSnackbarAction } from './snackbarStore';

export type { TSnackbarAction } from './snackbarStore';

export const SNACKBAR_DURATION_MS = 5000;

export interface TSnackbarOptions {
  status: 'success' | 'failed';
  /** Without a message a failure shows the general error text. */
  message?: string;
  action?: TSnackbarAction;
  durationMs?: number;
}

/**
 * The console's snackbar (spec section 4): a success or failed badge and a message; it hides
 * after 5,000 ms or on close, and its action link runs the action and closes it.
 * SnackbarHost (mounted once in App) shows them.
 */
export function showSnackbar({ status, message, action, durationMs = SNACKBAR_DURATION_MS }: TSnackbarOptions): string {
  const text = message ?? (status === 'failed' ? i18next.t('errors.general') : '');
  return pushSnackbar({ status, text, action, durationMs });
}
