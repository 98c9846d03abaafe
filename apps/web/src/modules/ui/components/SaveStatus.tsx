import { Badge, Button, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconFilePlus, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TSaveState } from '../hooks/useAutosave';

/**
 * The visible saved state of autosave; a failed save can be retried, a stale one reloaded. `fresh`:
 * the work was never saved (a new campaign before its first save), so nothing unchanged is called
 * saved. `waiting`: why a change is not saved yet (it needs a name first), shown beside it.
 */
export function SaveStatus({
  state,
  onRetry,
  onReload,
  fresh = false,
  waiting,
}: {
  state: TSaveState;
  onRetry: () => void;
  onReload: () => void;
  fresh?: boolean;
  waiting?: string | null;
}) {
  const { t } = useTranslation();
  const shown = fresh && state === 'saved' ? 'new' : state;
  const look = {
    new: { color: 'gray', icon: <IconFilePlus size={12} /> },
    saved: { color: 'green', icon: <IconCheck size={12} /> },
    unsaved: { color: 'gray', icon: <IconPencil size={12} /> },
    saving: { color: 'blue', icon: <Loader size={10} /> },
    failed: { color: 'red', icon: <IconAlertTriangle size={12} /> },
    stale: { color: 'orange', icon: <IconAlertTriangle size={12} /> },
  }[shown];
  return (
    <Group gap={6} wrap="nowrap">
      <Badge
        variant="light"
        color={look.color}
        leftSection={look.icon}
        data-testid="save-status"
        data-state={shown}
        aria-live="polite"
      >
        {t(`ui.save_state.${shown}`)}
      </Badge>
      {waiting && state === 'unsaved' && (
        <Text size="xs" c="dimmed" data-testid="save-status-waiting">
          {waiting}
        </Text>
      )}
      {state === 'failed' && (
        <Button size="compact-xs" variant="subtle" onClick={onRetry}>
          {t('ui.save_state.retry')}
        </Button>
      )}
      {state === 'stale' && (
        <Button size="compact-xs" variant="subtle" color="orange" onClick={onReload}>
          {t('ui.save_state.reload')}
        </Button>
      )}
    </Group>
  );
}
