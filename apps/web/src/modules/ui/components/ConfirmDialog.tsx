import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
  /** When set, the user must type this sentence before confirming (spec sections 4 and 5). */
  typedSentence?: string;
  loading?: boolean;
  /**
   * The action. Confirmed once: further presses are ignored until the promise it returns settles,
   * or, when it returns none, until `loading` has been true and is false again (a refusal that
   * stays in the dialog), or until the dialog is opened again.
   */
  onConfirm: () => unknown;
  onClose: () => void;
}

export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger = false,
  typedSentence,
  loading = false,
  onConfirm,
  onClose,
}: TConfirmDialogProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  // A double click lands before the caller's `loading` shows (a mutation reports it a moment
  // later): the dialog locks itself at the first press, so the action runs once.
  const locked = useRef(false);
  const [busy, setBusy] = useState(false);
  const unlock = () => {
    locked.current = false;
    setBusy(false);
  };
  // Layout effects: the lock ends in the commit that shows the refusal, so a press that follows
  // what the user (or a test) sees is never swallowed by a lock released a moment later.
  useLayoutEffect(() => {
    if (opened) {
      setTyped('');
      locked.current = false;
      setBusy(false);
    }
  }, [opened]);
  const wasLoading = useRef(loading);
  useLayoutEffect(() => {
    if (wasLoading.current && !loading) {
      locked.current = false;
      setBusy(false);
    }
    wasLoading.current = loading;
  }, [loading]);
  const sentenceMatches = typedSentence === undefined || typed.trim() === typedSentence;
  const confirm = () => {
    if (locked.current) return;
    locked.current = true;
    setBusy(true);
    const result = onConfirm();
    // Its failure is the caller's to report: here it only ends the lock.
    if (result instanceof Promise) void result.then(unlock, unlock);
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        {typedSentence !== undefined && (
          <TextInput
            label={t('ui.confirm.type_sentence', { sentence: typedSentence })}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
          <Button
            color={danger ? 'red' : undefined}
            disabled={!sentenceMatches}
            loading={loading || busy}
            onClick={confirm}
          >
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
