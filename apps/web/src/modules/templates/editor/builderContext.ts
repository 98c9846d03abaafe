import type { TTemplateLanguage } from '@yado/contracts/templates';
import { createContext, useContext, type Dispatch } from 'react';
import type { TEditAction } from './documentEditing';
import type { TDropZone } from './dragTargets';

/** Where the dragged item would land now, for the insertion line. */
export type TIndicator =
  | { kind: 'block'; blockId: string; below: boolean }
  | { kind: 'column'; sectionId: string; columnIndex: number }
  | { kind: 'section'; sectionId: string; below: boolean }
  | { kind: 'gap'; index: number }
  | null;

export interface TBuilder {
  language: TTemplateLanguage;
  dispatch: Dispatch<TEditAction>;
  selectedId: string | null;
  select: (id: string | null) => void;
  readOnly: boolean;
  indicator: TIndicator;
  dragging: boolean;
}

export const BuilderContext = createContext<TBuilder | null>(null);

export function useBuilder(): TBuilder {
  const builder = useContext(BuilderContext);
  if (!builder) throw new Error('useBuilder outside the flex builder');
  return builder;
}

/** The dnd-kit data of a drop zone, read back in the drag handlers. */
export const zoneData = (zone: TDropZone) => ({ zone });
