import type { TFunction } from 'i18next';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/http/errorText';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { showSnackbar } from '../components/Snackbar';

/** What the confirmation of one action on one item says. */
export interface TConfirmText {
  title: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  typedSentence?: string;
}

export interface TConfirmedActionOptions<A extends string, I> {
  /** The change itself (a refusal throws). */
  perform: (action: A, item: I) => Promise<unknown>;
  /** The success notification's text. */
  doneText: (action: A, item: I) => string;
  /** What the dialog says before the change. */
  confirmText: (action: A, item: I) => TConfirmText;
  /** After the success notification: refresh the lists, navigate away. */
  onDone?: (action: A, item: I) => void | Promise<void>;
  /** After a refusal, which stays in the dialog. */
  onRefused?: (error: unknown) => void;
  /** The refusal's test id (`campaign-refusal`). */
  refusalTestId: string;
}

/**
 * The list pages' row actions that change something: a confirmation first, then the change, a
 * success notification and a refresh; a refusal (another user's change meanwhile, a rule the server
 * keeps) stays in the dialog in the user's language. `ask` opens the dialog; render `dialog`.
 */
export function useConfirmedAction<A extends string, I>(
  options: TConfirmedActionOptions<A, I>,
): { ask: (action: A, item: I) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const [pending, setPending] = useState<{ action: A; item: I } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = (action: A, item: I) => {
    setRefusal(null);
    setPending({ action, item });
  };

  const confirm = async () => {
    if (!pending) return;
    const { action, item } = pending;
    setBusy(true);
    try {
      await options.perform(action, item);
      showSnackbar({ status: 'success', message: options.doneText(action, item) });
      setPending(null);
      await options.onDone?.(action, item);
    } catch (error) {
      setRefusal(errorText(error, t));
      options.onRefused?.(error);
    } finally {
      setBusy(false);
    }
  };

  const text = pending ? options.confirmText(pending.action, pending.item) : null;
  const dialog = (
    <ConfirmDialog
      opened={pending !== null}
      title={text?.title ?? ''}
      message={
        refusal ? (
          <span role="alert" style={{ color: 'var(--mantine-color-red-7)' }} data-testid={options.refusalTestId}>
            {refusal}
          </span>
        ) : (
          (text?.message ?? '')
        )
      }
      typedSentence={text?.typedSentence}
      confirmLabel={text?.confirmLabel}
      cancelLabel={text?.cancelLabel}
      danger={text?.danger ?? false}
      loading={busy}
      onClose={() => setPending(null)}
      onConfirm={confirm}
    />
  );
  return { ask, dialog };
}

/**
 * An action that goes at once (a copy, pause and resume): the change, then a success notification
 * and `then`; a refusal as a failure notification in the user's language.
 */
export async function actAtOnce(
  work: () => Promise<string>,
  t: TFunction,
  then?: () => void | Promise<void>,
): Promise<void> {
  try {
    const message = await work();
    showSnackbar({ status: 'success', message });
    await then?.();
  } catch (error) {
    showSnackbar({ status: 'failed', message: errorText(error, t) });
  }
}
