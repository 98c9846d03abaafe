import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TEmptyStateProps {
  title?: string;
  description?: string;
  /** Viewers get the read-only texts: nothing here yet, and they cannot add anything. */
  readOnly?: boolean;
  action?: ReactNode;
}

export function EmptyState({ title, description, readOnly = false, action }: TEmptyStateProps) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        {readOnly ? <IconLock size={24} /> : <IconInbox size={24} />}
      </ThemeIcon>
      <Text fw={600}>{title ?? t('ui.empty.no_data')}</Text>
      <Text size="sm" c="dimmed" ta="center" maw={420}>
        {description ?? t(readOnly ? 'ui.empty.viewer_read_only' : 'ui.empty.nothing_yet')}
      </Text>
      {!readOnly && action}
    </Stack>
  );
}
