import { Badge, Button, Group, Loader } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TSaveState } from '../hooks/useAutosave';

/** The visible saved state of autosave; a failed save can be retried, a stale one reloaded. */
export function SaveStatus({
  state,
  onRetry,
  onReload,
}: {
  state: TSaveState;
  onRetry: () => void;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const look = {
    saved: { color: 'green', icon: <IconCheck size={12} /> },
    unsaved: { color: 'gray', icon: <IconPencil size={12} /> },
    saving: { color: 'blue', icon: <Loader size={10} /> },
    failed: { color: 'red', icon: <IconAlertTriangle size={12} /> },
    stale: { color: 'orange', icon: <IconAlertTriangle size={12} /> },
  }[state];
  return (
    <Group gap={6} wrap="nowrap">
      <Badge
        variant="light"
        color={look.color}
        leftSection={look.icon}
        data-testid="save-status"
        data-state={state}
        aria-live="polite"
      >
        {t(`ui.save_state.${state}`)}
      </Badge>
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
