import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
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
  onConfirm: () => void;
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
  useEffect(() => {
    if (opened) setTyped('');
  }, [opened]);
  const sentenceMatches = typedSentence === undefined || typed.trim() === typedSentence;

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
          <Button color={danger ? 'red' : undefined} disabled={!sentenceMatches} loading={loading} onClick={onConfirm}>
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
