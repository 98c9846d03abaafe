import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox, IconLock, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface TEmptyStateProps {
  title?: string;
  /** What to do next; null for none (a title that says it all, e.g. no permission). */
  description?: string | null;
  /** Viewers get the read-only texts: nothing here yet, and they cannot add anything. */
  readOnly?: boolean;
  action?: ReactNode;
  /**
   * The list is empty because a search or filter narrows it, not for lack of data: it says that
   * nothing matches, with a button that clears them when `onClear` is given.
   */
  filtered?: boolean;
  onClear?: () => void;
}

export function EmptyState({ title, description, readOnly = false, action, filtered, onClear }: TEmptyStateProps) {
  const { t } = useTranslation();
  if (filtered) {
    return (
      <Stack align="center" gap="xs" py="xl" data-testid="empty-state" data-filtered>
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconSearch size={24} />
        </ThemeIcon>
        <Text fw={600}>{t('ui.empty.no_match')}</Text>
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {t('ui.empty.no_match_next')}
        </Text>
        {onClear && (
          <Button variant="default" onClick={onClear}>
            {t('ui.empty.clear_filters')}
          </Button>
        )}
      </Stack>
    );
  }
  const text =
    description === undefined ? t(readOnly ? 'ui.empty.viewer_read_only' : 'ui.empty.nothing_yet') : description;
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        {readOnly ? <IconLock size={24} /> : <IconInbox size={24} />}
      </ThemeIcon>
      <Text fw={600}>{title ?? t('ui.empty.no_data')}</Text>
      {text && (
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {text}
        </Text>
      )}
      {!readOnly && action}
    </Stack>
  );
}
