import { Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDraggable } from '@dnd-kit/core';
import { PALETTE_ITEMS, type TPaletteItem } from '@yado/contracts/templates';
import {
  IconClick,
  IconCode,
  IconColumns1,
  IconColumns2,
  IconColumns3,
  IconLayoutGrid,
  IconLink,
  IconLetterT,
  IconPhoto,
  IconSeparatorHorizontal,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TDragSource } from './dragTargets';

export const PALETTE_ICONS: Record<TPaletteItem, Icon> = {
  template: IconLayoutGrid,
  text: IconLetterT,
  divider: IconSeparatorHorizontal,
  image: IconPhoto,
  button: IconClick,
  code: IconCode,
  link: IconLink,
};
const SECTION_ICONS = { 1: IconColumns1, 2: IconColumns2, 3: IconColumns3 } as const;

function PaletteTile({
  id,
  source,
  label,
  icon: TileIcon,
  onAdd,
}: {
  id: string;
  source: TDragSource;
  label: string;
  icon: Icon;
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const draggable = useDraggable({ id, data: { source } });
  return (
    <UnstyledButton
      ref={draggable.setNodeRef}
      {...draggable.listeners}
      {...draggable.attributes}
      // The click adds at the selection; the keyboard's Enter does the same.
      onClick={onAdd}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          onAdd();
        } else {
          draggable.listeners?.onKeyDown?.(event);
        }
      }}
      aria-label={t('templates.palette.add', { name: label })}
      data-testid="palette-item"
      data-item={id}
      style={{
        opacity: draggable.isDragging ? 0.5 : 1,
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 6,
        padding: '10px 4px',
        background: 'var(--mantine-color-white)',
        cursor: 'grab',
        touchAction: 'none',
      }}
    >
      <Stack gap={4} align="center">
        <TileIcon size={22} stroke={1.5} />
        <Text size="xs" ta="center">
          {label}
        </Text>
      </Stack>
    </UnstyledButton>
  );
}

export interface TPaletteProps {
  onAddItem: (item: TPaletteItem) => void;
  onAddSection: (columns: 1 | 2 | 3) => void;
}

/** Blocks and section layouts: drag one onto the canvas, or press it to add it at the selection. */
export function Palette({ onAddItem, onAddSection }: TPaletteProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="sm" data-testid="palette">
      <Stack gap="sm">
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {t('templates.palette.blocks')}
        </Text>
        <SimpleGrid cols={2} spacing={6}>
          {PALETTE_ITEMS.map((item) => (
            <PaletteTile
              key={item}
              id={`palette:${item}`}
              source={{ kind: 'palette', item }}
              label={t(`templates.blocks.${item}`)}
              icon={PALETTE_ICONS[item]}
              onAdd={() => onAddItem(item)}
            />
          ))}
        </SimpleGrid>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {t('templates.palette.sections')}
        </Text>
        <SimpleGrid cols={3} spacing={6}>
          {([1, 2, 3] as const).map((columns) => (
            <PaletteTile
              key={columns}
              id={`palette:section-${columns}`}
              source={{ kind: 'new_section', columns }}
              label={t('templates.palette.columns', { count: columns })}
              icon={SECTION_ICONS[columns]}
              onAdd={() => onAddSection(columns)}
            />
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('templates.palette.hint')}
        </Text>
      </Stack>
    </Paper>
  );
}
