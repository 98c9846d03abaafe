import { Divider, Paper, SimpleGrid, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
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
  compact,
  wide = false,
}: {
  id: string;
  source: TDragSource;
  label: string;
  icon: Icon;
  onAdd: () => void;
  compact: boolean;
  /** Spans both columns of the labelled palette. */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const draggable = useDraggable({ id, data: { source } });
  const tile = (
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
        padding: compact ? '8px 4px' : '10px 4px',
        background: 'var(--mantine-color-white)',
        cursor: 'grab',
        touchAction: 'none',
        gridColumn: wide && !compact ? 'span 2' : undefined,
      }}
    >
      <Stack gap={4} align="center">
        <TileIcon size={22} stroke={1.5} />
        {!compact && (
          // Breaks between words only: a Japanese label stays whole (テンプレート, not テンプレ／ート).
          <Text size="xs" ta="center" style={{ wordBreak: 'keep-all' }}>
            {label}
          </Text>
        )}
      </Stack>
    </UnstyledButton>
  );
  // Icons only: the name and the hint on hover (the button's own name says what it adds).
  return compact ? (
    <Tooltip
      label={
        <>
          <Text size="sm" fw={600}>
            {label}
          </Text>
          <Text size="xs">{t('templates.palette.hint')}</Text>
        </>
      }
      position="right"
      multiline
      w={220}
      withArrow
      openDelay={300}
    >
      {tile}
    </Tooltip>
  ) : (
    tile
  );
}

export interface TPaletteProps {
  onAddItem: (item: TPaletteItem) => void;
  onAddSection: (columns: 1 | 2 | 3) => void;
  /**
   * One column of icons, each named on hover: where the window is too narrow for the labelled
   * palette beside the whole mail (a 1280 px laptop with the sidebar open).
   */
  compact?: boolean;
}

/** The palette's width, labelled and compact (FlexBuilder's grid). */
export const PALETTE_WIDTH = { full: 160, compact: 56 } as const;

/** Blocks and section layouts: drag one onto the canvas, or press it to add it at the selection. */
export function Palette({ onAddItem, onAddSection, compact = false }: TPaletteProps) {
  const { t } = useTranslation();
  const heading = (text: string) =>
    compact ? (
      <Divider aria-hidden />
    ) : (
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {text}
      </Text>
    );
  return (
    <Paper withBorder radius="md" p={compact ? 6 : 'sm'} data-testid="palette" data-compact={compact || undefined}>
      <Stack gap={compact ? 6 : 'sm'}>
        {!compact && heading(t('templates.palette.blocks'))}
        <SimpleGrid cols={compact ? 1 : 2} spacing={6}>
          {PALETTE_ITEMS.map((item) => (
            <PaletteTile
              key={item}
              id={`palette:${item}`}
              source={{ kind: 'palette', item }}
              label={t(`templates.blocks.${item}`)}
              icon={PALETTE_ICONS[item]}
              onAdd={() => onAddItem(item)}
              compact={compact}
              // A whole template, the widest label: a row of its own, and the six blocks pair up below.
              wide={item === 'template'}
            />
          ))}
        </SimpleGrid>
        {heading(t('templates.palette.sections'))}
        <SimpleGrid cols={compact ? 1 : 3} spacing={6}>
          {([1, 2, 3] as const).map((columns) => (
            <PaletteTile
              key={columns}
              id={`palette:section-${columns}`}
              source={{ kind: 'new_section', columns }}
              label={t('templates.palette.columns', { count: columns })}
              icon={SECTION_ICONS[columns]}
              onAdd={() => onAddSection(columns)}
              compact={compact}
            />
          ))}
        </SimpleGrid>
        {!compact && (
          <Text size="xs" c="dimmed">
            {t('templates.palette.hint')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
