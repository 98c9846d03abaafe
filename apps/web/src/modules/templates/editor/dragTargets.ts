import type { TBlockType, TPaletteItem } from '@yado/contracts/templates';
import type { TPlace } from './documentEditing';

/** What is being dragged: a palette item, a section layout, or something already in the document. */
export type TDragSource =
  | { kind: 'palette'; item: TPaletteItem }
  | { kind: 'new_section'; columns: 1 | 2 | 3 }
  | { kind: 'block'; blockId: string; blockType: TBlockType }
  | { kind: 'section'; sectionId: string };

/** What it is over. */
export type TDropZone =
  | { kind: 'block'; blockId: string; sectionId: string; columnIndex: number; index: number }
  | { kind: 'column'; sectionId: string; columnIndex: number; length: number }
  | { kind: 'section'; sectionId: string; index: number }
  /** The space before section `index` (the document's end when index is the section count). */
  | { kind: 'gap'; index: number };

/** Sections and section layouts go between sections; blocks go into columns or a new section. */
export function movesSections(source: TDragSource): boolean {
  return source.kind === 'section' || source.kind === 'new_section';
}

export function accepts(source: TDragSource, zone: TDropZone): boolean {
  if (movesSections(source)) return zone.kind === 'section' || zone.kind === 'gap';
  if (source.kind === 'block' && zone.kind === 'block' && zone.blockId === source.blockId) return false;
  return zone.kind === 'block' || zone.kind === 'column' || zone.kind === 'gap';
}

/** When several zones hold the pointer, the innermost wins: a block within its column within its section. */
export const ZONE_PRIORITY: Record<TDropZone['kind'], number> = { block: 0, column: 1, gap: 2, section: 3 };

/**
 * Where a drop lands. `below` says the dragged item's middle is past the middle of the zone it
 * is over (then it goes after a block or section rather than before).
 */
export function dropPlace(
  source: TDragSource,
  zone: TDropZone,
  below: boolean,
): { block: TPlace } | { sectionIndex: number } | null {
  if (!accepts(source, zone)) return null;
  if (movesSections(source)) {
    if (zone.kind === 'section') return { sectionIndex: zone.index + (below ? 1 : 0) };
    if (zone.kind === 'gap') return { sectionIndex: zone.index };
    return null;
  }
  switch (zone.kind) {
    case 'block':
      return {
        block: {
          kind: 'column',
          sectionId: zone.sectionId,
          columnIndex: zone.columnIndex,
          index: zone.index + (below ? 1 : 0),
        },
      };
    case 'column':
      return {
        block: { kind: 'column', sectionId: zone.sectionId, columnIndex: zone.columnIndex, index: zone.length },
      };
    case 'gap':
      return { block: { kind: 'new_section', index: zone.index } };
    default:
      return null;
  }
}
