import { Box, Center, Group, Text } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { DIVIDER_WIDTH_PX, type TBlock, type TRichText } from '@yado/contracts/templates';
import { IconPhoto } from '@tabler/icons-react';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PreviewFrame } from '../components/PreviewFrame';
import { useBuilder } from './builderContext';
import type { TDragSource, TDropZone } from './dragTargets';
import { DragHandle, ElementActions } from './CanvasTools';
import { RichTextEditor } from './RichTextEditor';

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

function ImageBody({ block }: { block: Extract<TBlock, { type: 'image' }> }) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  useEffect(() => setBroken(false), [block.src]);
  if (!block.src) {
    return (
      <Center h={120} bg="gray.1" c="dimmed" style={{ flexDirection: 'column', gap: 4 }}>
        <IconPhoto size={28} />
        <Text size="sm">{t('templates.blocks.image_empty')}</Text>
      </Center>
    );
  }
  if (broken) {
    return (
      <Text size="sm" c="red" role="alert" ta="center" p="sm">
        {t('errors.image_fetch_failed')}
      </Text>
    );
  }
  return (
    <Group justify={JUSTIFY[block.align]}>
      <img
        src={block.src}
        alt={block.alt}
        style={{ display: 'block', width: `${block.width}%`, maxWidth: '100%', height: 'auto' }}
        onError={() => setBroken(true)}
      />
    </Group>
  );
}

/**
 * A button or link without a label: the mail leaves it out, so the canvas shows a dashed, dimmed
 * placeholder that reads as missing, never something that looks like a finished button.
 */
function Unlabelled({ block }: { block: Extract<TBlock, { type: 'button' | 'link' }> }) {
  const { t } = useTranslation();
  return (
    <Group justify={JUSTIFY[block.align]}>
      <Box
        px="lg"
        py={8}
        c="dimmed"
        ta="center"
        style={{ border: '1px dashed var(--mantine-color-gray-5)', borderRadius: 4 }}
        data-testid="block-unlabelled"
      >
        <Text size="sm">{t(`templates.blocks.${block.type}_empty`)}</Text>
      </Box>
    </Group>
  );
}

/** What the block looks like while editing. The mail itself is always the server's rendering (preview). */
function BlockBody({ block, selected }: { block: TBlock; selected: boolean }) {
  const { t } = useTranslation();
  const { dispatch, language, readOnly } = useBuilder();
  switch (block.type) {
    case 'text':
      return (
        <RichTextEditor
          content={block.content as TRichText}
          editable={!readOnly}
          toolbar={selected}
          label={t('templates.blocks.text')}
          onChange={(content) => dispatch({ type: 'update_block', language, id: block.id, patch: { content } })}
        />
      );
    case 'divider':
      return (
        <div
          style={{ borderTop: `${DIVIDER_WIDTH_PX[block.thickness]}px solid ${block.color}` }}
          data-thickness={block.thickness}
        />
      );
    case 'image':
      return <ImageBody block={block} />;
    case 'button':
      if (!block.label.trim()) return <Unlabelled block={block} />;
      return (
        <Group justify={JUSTIFY[block.align]}>
          <Box
            px="lg"
            py={10}
            w={block.fullWidth ? '100%' : undefined}
            ta="center"
            style={{ background: block.backgroundColor, color: block.textColor, borderRadius: 4, fontWeight: 600 }}
          >
            {block.label}
          </Box>
        </Group>
      );
    case 'code':
      return block.html.trim() ? (
        <PreviewFrame html={block.html} width={560} height={120} title={t('templates.blocks.code')} thumbnail />
      ) : (
        <Text size="sm" c="dimmed" ff="monospace" p="sm" bg="gray.0">
          {t('templates.blocks.code_empty')}
        </Text>
      );
    case 'link':
      if (!block.label.trim()) return <Unlabelled block={block} />;
      return (
        <Text ta={block.align} style={{ color: block.color, fontSize: block.fontSize, textDecoration: 'underline' }}>
          {block.label}
        </Text>
      );
  }
}

export interface TBlockViewProps {
  block: TBlock;
  sectionId: string;
  columnIndex: number;
  index: number;
}

/** A block on the canvas: select, drag by its handle (pointer or keyboard), move, duplicate, delete. */
export function BlockView({ block, sectionId, columnIndex, index }: TBlockViewProps) {
  const { t } = useTranslation();
  const { dispatch, language, selectedId, select, readOnly, indicator } = useBuilder();
  const zone: TDropZone = { kind: 'block', blockId: block.id, sectionId, columnIndex, index };
  const source: TDragSource = { kind: 'block', blockId: block.id, blockType: block.type };
  const sortable = useSortable({ id: `block:${block.id}`, data: { zone, source }, disabled: readOnly });
  const selected = selectedId === block.id;
  const name = t(`templates.blocks.${block.type}`);
  const line =
    indicator?.kind === 'block' && indicator.blockId === block.id ? (indicator.below ? 'bottom' : 'top') : null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (readOnly || event.target !== event.currentTarget) return;
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      dispatch({ type: 'move_block_by', language, id: block.id, delta: event.key === 'ArrowUp' ? -1 : 1 });
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      dispatch({ type: 'delete', language, id: block.id });
      select(null);
    }
  };

  return (
    <Box
      ref={sortable.setNodeRef}
      data-dnd-id={`block:${block.id}`}
      pos="relative"
      py={block.padding}
      px={4}
      tabIndex={0}
      role="group"
      aria-label={name}
      aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown Delete"
      data-testid="canvas-block"
      data-block-type={block.type}
      data-block-id={block.id}
      data-selected={selected || undefined}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        event.stopPropagation();
        if (!selected) select(block.id);
      }}
      style={{
        opacity: sortable.isDragging ? 0.35 : 1,
        outline: selected ? '2px solid var(--mantine-color-blue-5)' : '1px dashed transparent',
        outlineOffset: -1,
        cursor: 'default',
      }}
      className="yado-canvas-block"
    >
      {line && (
        <Box
          pos="absolute"
          left={0}
          right={0}
          h={3}
          bg="blue.6"
          style={{ [line]: -2, zIndex: 3 }}
          data-testid="drop-indicator"
        />
      )}
      {selected && !readOnly && (
        <Group
          gap={2}
          pos="absolute"
          right={0}
          top={-30}
          bg="white"
          p={2}
          style={{ zIndex: 4, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}
          data-testid="block-actions"
        >
          <Text size="xs" c="dimmed" px={4}>
            {name}
          </Text>
          <DragHandle sortable={sortable} name={name} activator testId="block-handle" />
          <ElementActions
            id={block.id}
            move={(delta) => dispatch({ type: 'move_block_by', language, id: block.id, delta })}
          />
        </Group>
      )}
      {/* A handle off the selection too, so any block can be dragged without selecting it first. */}
      {!selected && !readOnly && (
        <DragHandle
          sortable={sortable}
          name={name}
          testId="block-grip"
          className="yado-block-grip"
          pos="absolute"
          left={-26}
          top={4}
        />
      )}
      <BlockBody block={block} selected={selected} />
    </Box>
  );
}
