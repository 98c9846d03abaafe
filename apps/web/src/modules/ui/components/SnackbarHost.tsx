import { Anchor, Badge, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSnackbars, hideSnackbar, subscribeSnackbars } from './snackbarStore';
import classes from './SnackbarHost.module.css';

/** Where snackbars appear: the bottom centre, newest last (nearest the edge). */
export function SnackbarHost() {
  const { t } = useTranslation();
  const items = useSyncExternalStore(subscribeSnackbars, currentSnackbars);
  if (items.length === 0) return null;
  return (
    <div className={classes.host} role="region" aria-live="polite">
      {items.map((item) => (
        <Paper
          key={item.id}
          className={classes.bar}
          data-status={item.status}
          shadow="md"
          radius="md"
          p="sm"
          data-testid="snackbar"
          role={item.status === 'failed' ? 'alert' : 'status'}
        >
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <Stack gap={4} style={{ flex: 1 }}>
              <Group gap="xs" wrap="nowrap">
                <Badge size="sm" color={item.status === 'success' ? 'teal' : 'red'} variant="light" miw="max-content">
                  {t(item.status === 'success' ? 'ui.snackbar.success' : 'ui.snackbar.failed')}
                </Badge>
                <Text size="sm">{item.text}</Text>
              </Group>
              {item.action && (
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  ta="left"
                  onClick={() => {
                    item.action?.onClick();
                    hideSnackbar(item.id);
                  }}
                >
                  {item.action.label}
                </Anchor>
              )}
            </Stack>
            <CloseButton size="sm" aria-label={t('common.close')} onClick={() => hideSnackbar(item.id)} />
          </Group>
        </Paper>
      ))}
    </div>
  );
}
