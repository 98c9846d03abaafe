import { ActionIcon, Alert, Anchor, Box, Button, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type Active,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  type Over,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import type { TPaletteItem, TSection, TTemplate, TTemplateLanguage } from '@yado/contracts/templates';
import { TEMPLATE_LANGUAGES } from '@yado/contracts/templates';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconChevronLeft,
  IconCopy,
  IconEye,
  IconMailForward,
  IconAdjustmentsHorizontal,
  IconTrash,
} from '@tabler/icons-react';
import { useElementSize } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { errorText } from '../../../lib/http/errorText';
import { useProfile } from '../../shell/hooks/useProfile';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { showSnackbar } from '../../ui/components/Snackbar';
import { BuilderContext, type TBuilder, type TIndicator } from './builderContext';
import { Canvas, CANVAS_WIDTH } from './Canvas';
import {
  createHistoryReducer,
  findBlock,
  findSection,
  initialHistory,
  newBlock,
  randomId,
  type TPlace,
} from './documentEditing';
import { accepts, dropPlace, movesSections, ZONE_PRIORITY, type TDragSource, type TDropZone } from './dragTargets';
import { Inspector } from './Inspector';
import { Palette, PALETTE_ICONS, PALETTE_WIDTH } from './Palette';
import { TaggedTextInput } from './TaggedTextInput';
import { duplicateTemplate } from '../api/templatesCalls';
import { useAutosave } from './useAutosave';
import { SaveStatus } from '../../ui/components/SaveStatus';
import { useLeaveGuard } from '../../ui/hooks/useLeaveGuard';
import './flexBuilder.css';

// The dialogs load when first opened, keeping them out of the editor's own download.
const PreviewDialog = lazy(() => import('./PreviewDialog').then((m) => ({ default: m.PreviewDialog })));
const TestSendDialog = lazy(() => import('./TestSendDialog').then((m) => ({ default: m.TestSendDialog })));
const TemplatePickerDialog = lazy(() =>
  import('./TemplatePickerDialog').then((m) => ({ default: m.TemplatePickerDialog })),
);
const TemplateDetailsDialog = lazy(() =>
  import('../components/TemplateDetailsDialog').then((m) => ({ default: m.TemplateDetailsDialog })),
);

const sourceOf = (active: Active | null): TDragSource | undefined =>
  (active?.data.current as { source?: TDragSource } | undefined)?.source;
const zoneOf = (over: Over | null): TDropZone | undefined =>
  (over?.data.current as { zone?: TDropZone } | undefined)?.zone;

/**
 * Where a keyboard drag's last arrow put what is dragged (blockKeyboardCoordinates): the zone and
 * which side of it. Null for a pointer drag and until the first arrow.
 */
let keyboardSlot: { id: UniqueIdentifier; below: boolean } | null = null;

/**
 * Only zones that take what is dragged; of those holding the pointer, the innermost. A keyboard
 * drag is over the zone its last arrow chose.
 */
const collisionDetection: CollisionDetection = (args) => {
  const source = sourceOf(args.active);
  if (!source) return [];
  const droppableContainers = args.droppableContainers.filter((container) => {
    const zone = (container.data.current as { zone?: TDropZone } | undefined)?.zone;
    return container.id !== args.active.id && zone !== undefined && accepts(source, zone);
  });
  const filtered = { ...args, droppableContainers };
  const slot = keyboardSlot;
  if (!args.pointerCoordinates && slot && droppableContainers.some((c) => c.id === slot.id)) return [{ id: slot.id }];
  if (args.pointerCoordinates) {
    const within = pointerWithin(filtered);
    const priority = (id: string | number) => {
      const zone = droppableContainers.find((c) => c.id === id)?.data.current as { zone?: TDropZone } | undefined;
      return zone?.zone ? ZONE_PRIORITY[zone.zone.kind] : 9;
    };
    if (within.length > 0) return [...within].sort((a, b) => priority(a.id) - priority(b.id)).slice(0, 1);
  }
  return closestCenter(filtered);
};

/** Where the pointer is, in the viewport: dnd-kit's own numbers drift when the page scrolls under a drag. */
const pointer = { y: 0 };
if (typeof window !== 'undefined') {
  window.addEventListener('pointermove', (event) => (pointer.y = event.clientY), { passive: true });
}

/**
 * Whether what is dragged goes after the zone it is over: the pointer past the zone's middle, or
 * for a keyboard drag the dragged item's middle.
 */
function isBelow(event: DragMoveEvent | DragEndEvent): boolean {
  const { over, active, activatorEvent } = event;
  if (!over) return false;
  if (!(activatorEvent instanceof KeyboardEvent)) {
    const element = window.document.querySelector(`[data-dnd-id="${String(over.id)}"]`);
    const rect = element?.getBoundingClientRect() ?? over.rect;
    return pointer.y > rect.top + rect.height / 2;
  }
  if (keyboardSlot?.id === over.id) return keyboardSlot.below;
  const dragged = active.rect.current.translated;
  return dragged ? dragged.top + dragged.height / 2 > over.rect.top + over.rect.height / 2 : false;
}

/**
 * A keyboard drag of a block (or a palette item) steps, with each arrow up or down, through every
 * place it can land, in the document's order: above a column's first block, below each block, an
 * empty column, the space between sections (a new section). Each place is one step: dnd-kit's
 * sortable steps went from one zone to the next nearest, so from the last of three blocks one arrow
 * up jumped over the place between the first two. Sections, and arrows left and right, move as
 * dnd-kit's sortable does.
 */
const blockKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { active, collisionRect, droppableRects, droppableContainers, over } = args.context;
  const source = sourceOf(active);
  const up = event.code === 'ArrowUp';
  if (!source || movesSections(source) || !collisionRect || (!up && event.code !== 'ArrowDown')) {
    keyboardSlot = null;
    return sortableKeyboardCoordinates(event, args);
  }
  event.preventDefault();
  const zones = droppableContainers
    .getEnabled()
    .flatMap((container) => {
      const zone = (container.data.current as { zone?: TDropZone } | undefined)?.zone;
      const node = container.node.current;
      return zone && node && container.id !== active?.id && accepts(source, zone) && droppableRects.has(container.id)
        ? [{ id: container.id, zone, node }]
        : [];
    })
    .sort((a, b) => (a.node.compareDocumentPosition(b.node) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  const columnOf = (zone: TDropZone) =>
    zone.kind === 'block' || zone.kind === 'column' ? `${zone.sectionId}:${zone.columnIndex}` : null;
  const slots: { id: UniqueIdentifier; below: boolean }[] = [];
  zones.forEach(({ id, zone }, i) => {
    if (zone.kind === 'block') {
      const previous = zones[i - 1]?.zone;
      if (previous?.kind !== 'block' || columnOf(previous) !== columnOf(zone)) slots.push({ id, below: false });
      slots.push({ id, below: true });
    } else if (zone.kind === 'gap') slots.push({ id, below: false });
    else if (zone.kind === 'column') {
      // A column with no other block to land beside: itself.
      if (!zones.some((z) => z.zone.kind === 'block' && columnOf(z.zone) === columnOf(zone)))
        slots.push({ id, below: false });
    }
  });
  if (slots.length === 0) return undefined;
  const centerOf = (id: UniqueIdentifier) => {
    const rect = droppableRects.get(id);
    return rect ? rect.top + rect.height / 2 : 0;
  };
  const draggedCenter = collisionRect.top + collisionRect.height / 2;
  const current =
    keyboardSlot ??
    (over ? { id: over.id, below: draggedCenter > centerOf(over.id) } : { id: slots[0]!.id, below: false });
  let at = slots.findIndex((s) => s.id === current.id && s.below === current.below);
  // Above a block that is not its column's first: the same place as below the one before it.
  if (at < 0 && !current.below) at = slots.findIndex((s) => s.id === current.id) - 1;
  if (at < 0) at = slots.findIndex((s) => s.id === current.id);
  const next = at < 0 ? 0 : Math.max(0, Math.min(slots.length - 1, at + (up ? -1 : 1)));
  const slot = slots[next]!;
  keyboardSlot = slot;
  const rect = droppableRects.get(slot.id)!;
  const zone = zones.find((z) => z.id === slot.id)!.zone;
  // Its middle just above or below the block's middle (the side the line shows), else the zone's middle.
  const middle = rect.top + rect.height / 2 + (zone.kind === 'block' ? (slot.below ? 2 : -2) : 0);
  return { x: rect.left + rect.width / 2 - collisionRect.width / 2, y: middle - collisionRect.height / 2 };
};

function indicatorFor(source: TDragSource, zone: TDropZone | undefined, below: boolean): TIndicator {
  if (!zone || !accepts(source, zone)) return null;
  switch (zone.kind) {
    case 'block':
      return { kind: 'block', blockId: zone.blockId, below };
    case 'column':
      return { kind: 'column', sectionId: zone.sectionId, columnIndex: zone.columnIndex };
    case 'section':
      return { kind: 'section', sectionId: zone.sectionId, below };
    case 'gap':
      return { kind: 'gap', index: zone.index };
  }
}

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export interface TFlexBuilderProps {
  template: TTemplate;
  /** Read-only: a brand's template seen below the brand, or a role without templates.update. */
  readOnly: boolean;
  onSaved: (template: TTemplate) => void;
  onReload: () => void;
}

/**
 * The builder's three columns: the palette (160 px, or 56 of icons below FULL_LAYOUT), the canvas,
 * and the settings (270 px, down to 220 so that the canvas keeps the whole mail: at 1366 px the
 * settings gave up 44 px and the mail's right edge no longer hid behind a scrollbar). Narrower
 * still (below about 1270 px with the sidebar open), the canvas scrolls sideways.
 */
const GAP = 16;
const INSPECTOR = { least: 220, most: 270 } as const;
/** The grid's least width with the labelled palette, the whole mail and the settings side by side. */
const FULL_LAYOUT = PALETTE_WIDTH.full + GAP + CANVAS_WIDTH + GAP + INSPECTOR.least;

const columns = (readOnly: boolean, compact: boolean) => {
  if (readOnly) return `minmax(0, 1fr) ${INSPECTOR.most}px`;
  const palette = compact ? PALETTE_WIDTH.compact : PALETTE_WIDTH.full;
  return `${palette}px minmax(0, 1fr) clamp(${INSPECTOR.least}px, calc(100% - ${palette + CANVAS_WIDTH + 2 * GAP}px), ${INSPECTOR.most}px)`;
};

/**
 * The flex builder: a drag-and-drop editor of the template's block document, in Japanese and
 * English. What it edits is data; the preview and every sent mail are the server's rendering.
 */
export function FlexBuilder({ template: loaded, readOnly, onSaved, onReload }: TFlexBuilderProps) {
  const { t } = useTranslation();
  const me = useProfile();
  // Below the full layout's width (a 1280 px window with the sidebar open) the palette shows icons
  // only, so the whole mail still shows beside the settings rather than scrolling sideways.
  const layout = useElementSize();
  const compact = !readOnly && layout.width > 0 && layout.width < FULL_LAYOUT;
  const [template, setTemplate] = useState(loaded);
  const reducer = useMemo(() => createHistoryReducer(randomId), []);
  const [history, dispatch] = useReducer(reducer, loaded.contents, initialHistory);
  const [language, setLanguage] = useState<TTemplateLanguage>(
    loaded.contents[loaded.defaultLanguage]
      ? loaded.defaultLanguage
      : (TEMPLATE_LANGUAGES.find((l) => loaded.contents[l]) ?? 'ja'),
  );
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dragSource, setDragSource] = useState<TDragSource | null>(null);
  const [indicator, setIndicator] = useState<TIndicator>(null);
  const [dialog, setDialog] = useState<'preview' | 'test_send' | 'details' | 'remove_language' | null>(null);
  const [pickerAt, setPickerAt] = useState<number | null>(null);
  const saved = useCallback(
    (next: TTemplate) => {
      setTemplate(next);
      onSaved(next);
    },
    [onSaved],
  );
  const autosave = useAutosave(template, history.present, history.revision, !readOnly, saved);
  // Leaving before the last change is saved saves it first (the link back, the sidebar), as the
  // autosave would a moment later, and as the campaign and scenario editors do; only a change that
  // cannot be saved (refused, changed in another tab) asks, and is then truly lost. Closing or
  // reloading the tab still asks the browser's question.
  const leaveGuard = useLeaveGuard(() => !readOnly && autosave.isDirty(), {
    saveFirst: async () => {
      if (autosave.state === 'stale') return false;
      try {
        await autosave.flush();
        return !autosave.isDirty();
      } catch {
        return false;
      }
    },
  });
  const root = useRef<HTMLDivElement>(null);
  const content = history.present[language];
  const document = content?.document;

  const select = useCallback((id: string | null) => {
    setSelectedId(id);
    dispatch({ type: 'checkpoint' });
  }, []);

  // A pause in typing ends the undo step, so undo takes back the last phrase, not the whole text.
  useEffect(() => {
    const timer = setTimeout(() => dispatch({ type: 'checkpoint' }), 1000);
    return () => clearTimeout(timer);
  }, [history.revision]);

  // Ctrl/Cmd+Z undoes and Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes any edit, text included, within the builder.
  useEffect(() => {
    if (readOnly) return;
    const onKey = (event: KeyboardEvent) => {
      const mod = isMac() ? event.metaKey : event.ctrlKey;
      if (!mod || event.altKey) return;
      const target = event.target as Node | null;
      if (target && target !== window.document.body && !root.current?.contains(target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z') {
        event.preventDefault();
        dispatch({ type: event.shiftKey ? 'redo' : 'undo' });
      } else if (key === 'y' && !isMac()) {
        event.preventDefault();
        dispatch({ type: 'redo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [readOnly]);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: blockKeyboardCoordinates }),
  );

  /** Where a pressed palette item goes: after the selected block, into the selected section, else at the end. */
  const placeAtSelection = (): TPlace => {
    if (!document) return { kind: 'new_section', index: 0 };
    if (selectedId) {
      const found = findBlock(document, selectedId);
      if (found) {
        return {
          kind: 'column',
          sectionId: document.sections[found.sectionIndex]!.id,
          columnIndex: found.columnIndex,
          index: found.index + 1,
        };
      }
      const section = document.sections[findSection(document, selectedId)];
      if (section)
        return { kind: 'column', sectionId: section.id, columnIndex: 0, index: section.columns[0]!.blocks.length };
    }
    return { kind: 'new_section', index: document.sections.length };
  };
  const sectionIndexOf = (place: TPlace): number =>
    place.kind === 'new_section' ? place.index : document ? findSection(document, place.sectionId) + 1 : 0;

  const addItem = (item: TPaletteItem, place: TPlace = placeAtSelection()) => {
    if (item === 'template') {
      setPickerAt(sectionIndexOf(place));
      return;
    }
    const block = newBlock(item, randomId());
    dispatch({ type: 'insert_block', language, block, place });
    select(block.id);
  };
  const addSection = (columns: 1 | 2 | 3, index?: number) => {
    const at =
      index ??
      (document && selectedId && findSection(document, selectedId) >= 0
        ? findSection(document, selectedId) + 1
        : (document?.sections.length ?? 0));
    dispatch({ type: 'insert_section', language, columns, index: at });
  };

  const onDragStart = ({ active }: DragStartEvent) => {
    keyboardSlot = null;
    setDragSource(sourceOf(active) ?? null);
  };
  const onDragMove = (event: DragMoveEvent) => {
    const source = sourceOf(event.active);
    if (!source) return;
    const next = indicatorFor(source, zoneOf(event.over), isBelow(event));
    setIndicator((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
  };
  const onDragEnd = (event: DragEndEvent) => {
    const source = sourceOf(event.active);
    const zone = zoneOf(event.over);
    setDragSource(null);
    setIndicator(null);
    if (!source || !zone) return;
    const target = dropPlace(source, zone, isBelow(event));
    keyboardSlot = null;
    if (!target) return;
    if ('block' in target) {
      if (source.kind === 'palette') addItem(source.item, target.block);
      else if (source.kind === 'block') {
        dispatch({ type: 'move_block', language, id: source.blockId, place: target.block });
        select(source.blockId);
      }
    } else if (source.kind === 'new_section') {
      addSection(source.columns, target.sectionIndex);
    } else if (source.kind === 'section') {
      dispatch({ type: 'move_section', language, id: source.sectionId, index: target.sectionIndex });
    }
  };

  const builder: TBuilder = {
    language,
    dispatch,
    selectedId,
    select,
    readOnly,
    indicator,
    dragging: dragSource !== null,
  };
  const otherLanguage: TTemplateLanguage = language === 'ja' ? 'en' : 'ja';
  const navigate = useNavigate();
  const canPickCustomer = me.entitlements['customer.read_customer_list'] === true;
  // A brand's template below the brand: a copy of one's own is the way to change it.
  const offerCopy = !template.editable && me.entitlements['templates.create'] === true;
  const copy = async () => {
    try {
      const created = await duplicateTemplate(template.id, currentLanguage());
      showSnackbar({ status: 'success', message: t('templates.done.duplicated', { name: created.name }) });
      await navigate(`/templates/${created.id}`);
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };
  // A test send is for those who write templates (the server holds the same rule).
  const canTestSend = me.entitlements['templates.create'] === true || me.entitlements['templates.update'] === true;
  const flush = async () => {
    try {
      await autosave.flush();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
      throw error;
    }
  };

  return (
    <BuilderContext.Provider value={builder}>
      <Stack gap="sm" ref={root} data-flex-builder>
        <Group justify="space-between" wrap="nowrap" align="center">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Anchor component={Link} to="/templates" size="sm" aria-label={t('templates.editor.back')}>
              <IconChevronLeft size={18} />
            </Anchor>
            <Title order={1} size="h3" lineClamp={1} data-testid="template-name">
              {template.name}
            </Title>
            {!readOnly && (
              <SaveStatus
                state={autosave.state}
                onRetry={() => void flush().catch(() => undefined)}
                onReload={onReload}
              />
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            {!readOnly && (
              <>
                <ActionIcon
                  title={t('templates.editor.undo')}
                  variant="default"
                  size="lg"
                  aria-label={t('templates.editor.undo')}
                  disabled={history.past.length === 0}
                  onClick={() => dispatch({ type: 'undo' })}
                >
                  <IconArrowBackUp size={18} />
                </ActionIcon>
                <ActionIcon
                  title={t('templates.editor.redo')}
                  variant="default"
                  size="lg"
                  aria-label={t('templates.editor.redo')}
                  disabled={history.future.length === 0}
                  onClick={() => dispatch({ type: 'redo' })}
                >
                  <IconArrowForwardUp size={18} />
                </ActionIcon>
                <Button
                  variant="default"
                  leftSection={<IconAdjustmentsHorizontal size={16} />}
                  onClick={() => setDialog('details')}
                >
                  {t('templates.editor.details')}
                </Button>
              </>
            )}
            <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => setDialog('preview')}>
              {t('templates.editor.preview')}
            </Button>
            {canTestSend && (
              <Button leftSection={<IconMailForward size={16} />} onClick={() => setDialog('test_send')}>
                {t('templates.editor.test_send')}
              </Button>
            )}
          </Group>
        </Group>

        {readOnly && (
          <Alert color="gray" data-testid="read-only-notice">
            {offerCopy && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconCopy size={14} />}
                onClick={() => void copy()}
                style={{ float: 'right' }}
              >
                {t('templates.actions.duplicate')}
              </Button>
            )}
            {template.editable
              ? t('templates.editor.read_only_role')
              : t('templates.editor.read_only_brand', { owner: template.owner.name })}
          </Alert>
        )}

        <Tabs value={language} onChange={(value) => value && setLanguage(value as TTemplateLanguage)}>
          <Tabs.List>
            {TEMPLATE_LANGUAGES.map((l) => (
              <Tabs.Tab key={l} value={l} data-testid={`language-tab-${l}`}>
                {t(`templates.languages.${l}`)}
                {l === template.defaultLanguage ? ` (${t('templates.languages.default')})` : ''}
                {!history.present[l] ? ` – ${t('templates.languages.missing')}` : ''}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>

        {!content || !document ? (
          <Paper withBorder p="xl" radius="md" data-testid="language-missing">
            <Stack align="center" gap="sm">
              <Text>{t('templates.languages.no_version', { language: t(`templates.languages.${language}`) })}</Text>
              {!readOnly && (
                <Group>
                  {history.present[otherLanguage] && (
                    <Button onClick={() => dispatch({ type: 'add_language', language, copyFrom: otherLanguage })}>
                      {t('templates.languages.copy_from', { language: t(`templates.languages.${otherLanguage}`) })}
                    </Button>
                  )}
                  <Button
                    variant="default"
                    onClick={() => dispatch({ type: 'add_language', language, copyFrom: null })}
                  >
                    {t('templates.languages.start_empty')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
        ) : (
          <DndContext
            sensors={sensors}
            collisionDetection={collisionDetection}
            // Zones are measured again as the canvas changes under a drag (a text growing, an image loading).
            measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
            onDragStart={onDragStart}
            onDragMove={onDragMove}
            onDragOver={onDragMove}
            onDragEnd={onDragEnd}
            onDragCancel={() => {
              keyboardSlot = null;
              setDragSource(null);
              setIndicator(null);
            }}
            accessibility={{
              screenReaderInstructions: { draggable: t('templates.dnd.instructions') },
            }}
          >
            <Box
              ref={layout.ref}
              style={{
                display: 'grid',
                gridTemplateColumns: columns(readOnly, compact),
                gap: GAP,
                alignItems: 'start',
              }}
            >
              {!readOnly && (
                <Box style={{ position: 'sticky', top: 16 }}>
                  <Palette
                    compact={compact}
                    onAddItem={(item) => addItem(item)}
                    onAddSection={(columns) => addSection(columns)}
                  />
                </Box>
              )}
              <Stack gap="sm" style={{ minWidth: 0 }}>
                <Paper withBorder radius="md" p="sm">
                  <Group grow align="flex-start">
                    <TaggedTextInput
                      label={t('templates.fields.subject')}
                      name="subject"
                      value={content.subject}
                      disabled={readOnly}
                      onChange={(value) => dispatch({ type: 'set_field', language, field: 'subject', value })}
                    />
                    <TaggedTextInput
                      label={t('templates.fields.preheader')}
                      name="preheader"
                      value={content.preheader}
                      disabled={readOnly}
                      onChange={(value) => dispatch({ type: 'set_field', language, field: 'preheader', value })}
                    />
                  </Group>
                </Paper>
                <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
                  <Canvas document={document} />
                </Paper>
                {!readOnly && language !== template.defaultLanguage && (
                  <Group justify="flex-end">
                    <Button
                      variant="subtle"
                      color="red"
                      size="xs"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => setDialog('remove_language')}
                    >
                      {t('templates.languages.remove', { language: t(`templates.languages.${language}`) })}
                    </Button>
                  </Group>
                )}
              </Stack>
              <Box style={{ position: 'sticky', top: 16 }}>
                <Inspector document={document} />
              </Box>
            </Box>
            <DragOverlay dropAnimation={null}>{dragSource && <DragChip source={dragSource} />}</DragOverlay>
          </DndContext>
        )}
      </Stack>

      <Suspense fallback={null}>
        {dialog === 'preview' && (
          <PreviewDialog
            opened
            onClose={() => setDialog(null)}
            templateId={template.id}
            contents={history.present}
            initialLanguage={language}
            canPickCustomer={canPickCustomer}
            onSelectBlock={(id) => select(id)}
          />
        )}
        {dialog === 'test_send' && (
          <TestSendDialog
            opened
            onClose={() => setDialog(null)}
            templateId={template.id}
            initialLanguage={language}
            canPickCustomer={canPickCustomer}
            defaultEmail={me.email}
            beforeSend={readOnly ? async () => undefined : flush}
          />
        )}
        {dialog === 'details' && (
          <TemplateDetailsDialog
            opened
            template={template}
            onClose={() => setDialog(null)}
            onSubmit={async (details) => {
              await autosave.flush(details);
              setDialog(null);
            }}
          />
        )}
        {pickerAt !== null && (
          <TemplatePickerDialog
            opened
            onClose={() => setPickerAt(null)}
            currentId={template.id}
            language={language}
            onPick={(sections: TSection[]) =>
              dispatch({ type: 'insert_sections', language, sections, index: pickerAt ?? 0 })
            }
          />
        )}
      </Suspense>
      {leaveGuard}
      <ConfirmDialog
        opened={dialog === 'remove_language'}
        title={t('templates.languages.remove', { language: t(`templates.languages.${language}`) })}
        message={t('templates.languages.remove_message', { language: t(`templates.languages.${language}`) })}
        danger
        onClose={() => setDialog(null)}
        onConfirm={() => {
          dispatch({ type: 'remove_language', language });
          setDialog(null);
          setLanguage(template.defaultLanguage);
        }}
      />
    </BuilderContext.Provider>
  );
}

function DragChip({ source }: { source: TDragSource }) {
  const { t } = useTranslation();
  const item = source.kind === 'palette' ? source.item : source.kind === 'block' ? source.blockType : null;
  const ChipIcon = item ? PALETTE_ICONS[item] : null;
  const label =
    source.kind === 'palette' || source.kind === 'block'
      ? t(`templates.blocks.${item}`)
      : source.kind === 'new_section'
        ? t('templates.palette.columns', { count: source.columns })
        : t('templates.canvas.section_short');
  return (
    <Paper shadow="md" p="xs" radius="md" withBorder style={{ cursor: 'grabbing', width: 160 }} data-testid="drag-chip">
      <Group gap="xs" wrap="nowrap">
        {ChipIcon && <ChipIcon size={18} />}
        <Text size="sm">{label}</Text>
      </Group>
    </Paper>
  );
}
