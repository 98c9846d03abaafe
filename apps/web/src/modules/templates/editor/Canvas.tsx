import { Box, Center, Group, Stack, Text } from '@mantine/core';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, type SortingStrategy } from '@dnd-kit/sortable';
import type { TBlockDocument, TSection } from '@yado/contracts/templates';
import { EMAIL_WIDTH } from '@yado/contracts/templates';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BlockView } from './BlockView';
import { useBuilder } from './builderContext';
import type { TDragSource, TDropZone } from './dragTargets';
import { DragHandle, ElementActions } from './CanvasTools';

/**
 * Nothing shifts while dragging: one insertion line shows where the drop lands, the same way
 * within a column, across columns and between sections.
 */
const noShift: SortingStrategy = () => null;

function Column({ section, columnIndex }: { section: TSection; columnIndex: number }) {
  const { t } = useTranslation();
  const { indicator, dragging } = useBuilder();
  const column = section.columns[columnIndex]!;
  const zone: TDropZone = { kind: 'column', sectionId: section.id, columnIndex, length: column.blocks.length };
  const droppable = useDroppable({ id: `column:${section.id}:${columnIndex}`, data: { zone } });
  const lit =
    indicator?.kind === 'column' && indicator.sectionId === section.id && indicator.columnIndex === columnIndex;
  return (
    <Box
      ref={droppable.setNodeRef}
      data-dnd-id={`column:${section.id}:${columnIndex}`}
      style={{
        flex: 1,
        minWidth: 0,
        minHeight: 48,
        outline: lit ? '2px dashed var(--mantine-color-blue-5)' : undefined,
      }}
      data-testid="canvas-column"
    >
      <SortableContext items={column.blocks.map((b) => `block:${b.id}`)} strategy={noShift}>
        {column.blocks.map((block, index) => (
          <BlockView key={block.id} block={block} sectionId={section.id} columnIndex={columnIndex} index={index} />
        ))}
      </SortableContext>
      {column.blocks.length === 0 && (
        <Center
          mih={64}
          c="dimmed"
          style={{
            border: dragging ? '1px dashed var(--mantine-color-gray-5)' : '1px dashed var(--mantine-color-gray-3)',
          }}
        >
          <Text size="xs">{t('templates.canvas.empty_column')}</Text>
        </Center>
      )}
    </Box>
  );
}

function SectionView({ section, index, count }: { section: TSection; index: number; count: number }) {
  const { t } = useTranslation();
  const { dispatch, language, selectedId, select, readOnly, indicator } = useBuilder();
  const zone: TDropZone = { kind: 'section', sectionId: section.id, index };
  const source: TDragSource = { kind: 'section', sectionId: section.id };
  const sortable = useSortable({ id: `section:${section.id}`, data: { zone, source }, disabled: readOnly });
  const selected = selectedId === section.id;
  const line =
    indicator?.kind === 'section' && indicator.sectionId === section.id ? (indicator.below ? 'bottom' : 'top') : null;
  const label = t('templates.canvas.section', { count: section.columns.length });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (readOnly || event.target !== event.currentTarget) return;
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      const to = event.key === 'ArrowUp' ? index - 1 : index + 2;
      if (to >= 0 && to <= count) dispatch({ type: 'move_section', language, id: section.id, index: to });
    } else if (event.key === 'Delete') {
      event.preventDefault();
      dispatch({ type: 'delete', language, id: section.id });
      select(null);
    }
  };

  return (
    <Box
      ref={sortable.setNodeRef}
      data-dnd-id={`section:${section.id}`}
      pos="relative"
      tabIndex={0}
      role="group"
      aria-label={label}
      data-testid="canvas-section"
      data-section-id={section.id}
      data-selected={selected || undefined}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        event.stopPropagation();
        select(section.id);
      }}
      style={{
        background: section.backgroundColor ?? undefined,
        paddingTop: section.paddingTop,
        paddingBottom: section.paddingBottom,
        paddingLeft: 16,
        paddingRight: 16,
        opacity: sortable.isDragging ? 0.35 : 1,
        outline: selected ? '2px solid var(--mantine-color-violet-5)' : '1px dashed var(--mantine-color-gray-3)',
        outlineOffset: -1,
      }}
    >
      {line && (
        <Box
          pos="absolute"
          left={0}
          right={0}
          h={4}
          bg="violet.6"
          style={{ [line]: -2, zIndex: 3 }}
          data-testid="drop-indicator"
        />
      )}
      {!readOnly && (
        <Group
          gap={2}
          pos="absolute"
          top={0}
          left={-34}
          style={{ flexDirection: 'column' }}
          data-testid="section-tools"
        >
          <DragHandle sortable={sortable} name={label} activator color="violet" testId="section-handle" />
          {selected && (
            <ElementActions
              id={section.id}
              first={index === 0}
              last={index === count - 1}
              move={(delta) =>
                dispatch({ type: 'move_section', language, id: section.id, index: delta < 0 ? index - 1 : index + 2 })
              }
            />
          )}
        </Group>
      )}
      <Group gap="md" align="stretch" wrap="nowrap">
        {section.columns.map((column, columnIndex) => (
          <Column key={column.id} section={section} columnIndex={columnIndex} />
        ))}
      </Group>
    </Box>
  );
}

/** The space before section `index` (or at the end): a block dropped here starts a new section. */
function Gap({ index, last }: { index: number; last: boolean }) {
  const { t } = useTranslation();
  const { indicator } = useBuilder();
  const droppable = useDroppable({ id: `gap:${index}`, data: { zone: { kind: 'gap', index } satisfies TDropZone } });
  const lit = indicator?.kind === 'gap' && indicator.index === index;
  // One height whether dragging or not: dnd-kit measures the zones when a drag begins.
  return (
    <Box
      ref={droppable.setNodeRef}
      data-dnd-id={`gap:${index}`}
      h={last ? 96 : 14}
      data-testid={last ? 'canvas-end' : 'canvas-gap'}
      style={{
        background: lit ? 'var(--mantine-color-blue-1)' : undefined,
        border: lit
          ? '2px dashed var(--mantine-color-blue-5)'
          : last
            ? '1px dashed var(--mantine-color-gray-4)'
            : undefined,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      {last && (
        <Text size="xs" c="dimmed">
          {t('templates.canvas.drop_here')}
        </Text>
      )}
    </Box>
  );
}

/**
 * The canvas's margins beside the mail: on the left room for each section's tools (drag handle,
 * moves), on the right a narrow one, so the whole mail shows in a 1366 px window.
 */
const GUTTER_LEFT = 40;
const GUTTER_RIGHT = 12;
/** The canvas's width when the mail shows whole (and its 1 px border each side). */
export const CANVAS_WIDTH = EMAIL_WIDTH + GUTTER_LEFT + GUTTER_RIGHT + 2;

/** The mail's 600 px body as blocks to edit. */
export function Canvas({ document }: { document: TBlockDocument }) {
  const { t } = useTranslation();
  const { select, readOnly } = useBuilder();
  const count = document.sections.length;
  return (
    <Box
      bg={document.backgroundColor}
      py="lg"
      pl={GUTTER_LEFT}
      pr={GUTTER_RIGHT}
      onClick={() => select(null)}
      data-testid="canvas"
      style={{ overflowX: 'auto' }}
    >
      <Box
        w={EMAIL_WIDTH}
        mx="auto"
        style={{ background: document.contentBackgroundColor, color: document.textColor, fontSize: document.fontSize }}
      >
        <SortableContext items={document.sections.map((s) => `section:${s.id}`)} strategy={noShift}>
          <Stack gap={0}>
            {document.sections.map((section, index) => (
              <Box key={section.id}>
                {!readOnly && <Gap index={index} last={false} />}
                <SectionView section={section} index={index} count={count} />
              </Box>
            ))}
          </Stack>
        </SortableContext>
        {!readOnly ? (
          <Gap index={count} last />
        ) : (
          count === 0 && (
            <Text c="dimmed" ta="center" p="xl">
              {t('templates.canvas.empty_read_only')}
            </Text>
          )
        )}
      </Box>
    </Box>
  );
}
