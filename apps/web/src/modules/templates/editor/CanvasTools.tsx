import { ActionIcon, type ActionIconProps } from '@mantine/core';
import type { useSortable } from '@dnd-kit/sortable';
import { IconArrowDown, IconArrowUp, IconCopy, IconGripVertical, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuilder } from './builderContext';

/** One small icon button of a canvas toolbar, named for screen readers by `label`. */
function ToolButton({
  label,
  onClick,
  disabled,
  color = 'gray',
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  color?: string;
  children: ReactNode;
}) {
  return (
    <ActionIcon variant="subtle" color={color} size="sm" aria-label={label} disabled={disabled} onClick={onClick}>
      {children}
    </ActionIcon>
  );
}

/**
 * The grip a block or section is dragged by (pointer or keyboard). The one given `activator`
 * is the one dnd-kit returns focus to, and says how to drag in its tooltip.
 */
export function DragHandle({
  sortable,
  name,
  activator,
  color = 'gray',
  testId,
  ...position
}: {
  sortable: ReturnType<typeof useSortable>;
  /** What it drags, for its accessible name. */
  name: string;
  activator?: boolean;
  color?: string;
  testId: string;
} & Pick<ActionIconProps, 'className' | 'pos' | 'left' | 'top'>) {
  const { t } = useTranslation();
  return (
    <ActionIcon
      {...position}
      title={activator ? t('templates.actions.drag_hint') : undefined}
      ref={activator ? sortable.setActivatorNodeRef : undefined}
      variant="subtle"
      color={color}
      size="sm"
      style={{ cursor: 'grab', touchAction: 'none' }}
      {...sortable.attributes}
      {...sortable.listeners}
      aria-label={t('templates.actions.drag', { name })}
      data-testid={testId}
    >
      <IconGripVertical size={14} />
    </ActionIcon>
  );
}

/**
 * The selected block's or section's buttons: move up, move down, duplicate and delete (which
 * also clears the selection). `move` moves it by one place; `first`/`last` disable the way out.
 */
export function ElementActions({
  id,
  move,
  first,
  last,
}: {
  id: string;
  move: (delta: -1 | 1) => void;
  first?: boolean;
  last?: boolean;
}) {
  const { t } = useTranslation();
  const { dispatch, language, select } = useBuilder();
  return (
    <>
      <ToolButton label={t('templates.actions.move_up')} disabled={first} onClick={() => move(-1)}>
        <IconArrowUp size={14} />
      </ToolButton>
      <ToolButton label={t('templates.actions.move_down')} disabled={last} onClick={() => move(1)}>
        <IconArrowDown size={14} />
      </ToolButton>
      <ToolButton
        label={t('templates.actions.duplicate')}
        onClick={() => dispatch({ type: 'duplicate', language, id })}
      >
        <IconCopy size={14} />
      </ToolButton>
      <ToolButton
        label={t('templates.actions.delete')}
        color="red"
        onClick={() => {
          dispatch({ type: 'delete', language, id });
          select(null);
        }}
      >
        <IconTrash size={14} />
      </ToolButton>
    </>
  );
}
