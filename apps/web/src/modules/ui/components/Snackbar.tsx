import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import i18next from 'i18next';
import { requestSnackbarHost } from './SnackbarHost';

export const SNACKBAR_DURATION_MS = 5000;

export interface TSnackbarAction {
  label: string;
  onClick: () => void;
}

export interface TSnackbarOptions {
  status: 'success' | 'failed';
  /** Without a message a failure shows the general error text. */
  message?: string;
  action?: TSnackbarAction;
  durationMs?: number;
}

let counter = 0;

/**
 * The console's snackbar (spec section 4): a success or failed badge and a message; it hides
 * after 5,000 ms or on close, and its action link runs the action and closes it.
 */
export function showSnackbar({ status, message, action, durationMs = SNACKBAR_DURATION_MS }: TSnackbarOptions): string {
  counter += 1;
  const id = `snackbar-${counter}`;
  const text = message ?? (status === 'failed' ? i18next.t('errors.general') : '');
  requestSnackbarHost();
  void import('@mantine/notifications').then(({ notifications }) =>
    show(notifications, id, status, text, durationMs, action),
  );
  return id;
}

type TNotifications = (typeof import('@mantine/notifications'))['notifications'];

function show(
  notifications: TNotifications,
  id: string,
  status: TSnackbarOptions['status'],
  text: string,
  durationMs: number,
  action: TSnackbarAction | undefined,
): void {
  notifications.show({
    id,
    autoClose: durationMs,
    withCloseButton: true,
    color: status === 'success' ? 'teal' : 'red',
    closeButtonProps: { 'aria-label': i18next.t('common.close') },
    message: (
      <Stack gap={4} data-testid="snackbar" data-status={status}>
        <Group gap="xs" wrap="nowrap">
          <Badge size="sm" color={status === 'success' ? 'teal' : 'red'} variant="light">
            {i18next.t(status === 'success' ? 'ui.snackbar.success' : 'ui.snackbar.failed')}
          </Badge>
          <Text size="sm">{text}</Text>
        </Group>
        {action && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              action.onClick();
              notifications.hide(id);
            }}
          >
            {action.label}
          </Anchor>
        )}
      </Stack>
    ),
  });
}
