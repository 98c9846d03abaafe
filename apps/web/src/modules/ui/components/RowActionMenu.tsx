import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A list row's "…" menu: the actions its state allows, each with its icon; the ones that stop or
 * remove something in red. Nothing shows when no action is allowed.
 */
export function RowActionMenu<A extends string>({
  actions,
  icons,
  danger,
  label,
  textOf,
  onRun,
  testId,
}: {
  actions: readonly A[];
  icons: Record<A, ReactNode>;
  danger: readonly A[];
  /** The menu button's accessible name. */
  label: string;
  textOf: (action: A) => string;
  onRun: (action: A) => void;
  /** Names `<testId>-menu` and `<testId>-action-<action>` for tests. */
  testId: string;
}) {
  if (actions.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label} data-testid={`${testId}-menu`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action) => (
          <Menu.Item
            key={action}
            leftSection={icons[action]}
            color={danger.includes(action) ? 'red' : undefined}
            onClick={() => onRun(action)}
            data-testid={`${testId}-action-${action}`}
          >
            {textOf(action)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
