import type {
  TBlock,
  TBlockDocument,
  TBlockType,
  TSection,
  TTemplateContent,
  TTemplateContents,
  TTemplateLanguage,
} from '@yado/contracts/templates';
import { emptyDocument } from '@yado/contracts/templates';

/**
 * The flex builder's edits as a pure reducer over both language versions of a template, with
 * undo and redo. The console edits the block document of the contract and nothing else: the
 * server alone turns it into a mail.
 */

/** Where a block goes: a position in a column, or a new one-column section at a position. */
export type TPlace =
  { kind: 'column'; sectionId: string; columnIndex: number; index: number } | { kind: 'new_section'; index: number };

export type TSectionPatch = Partial<Pick<TSection, 'backgroundColor' | 'paddingTop' | 'paddingBottom'>> & {
  columnCount?: 1 | 2 | 3;
};
export type TDocumentPatch = Partial<
  Pick<TBlockDocument, 'backgroundColor' | 'contentBackgroundColor' | 'textColor' | 'fontSize'>
>;
export type TBlockPatch = { [K in keyof TBlock]?: unknown } & Record<string, unknown>;

export type TEditAction =
  | { type: 'insert_block'; language: TTemplateLanguage; block: TBlock; place: TPlace }
  | { type: 'insert_section'; language: TTemplateLanguage; columns: 1 | 2 | 3; index: number }
  /** A saved template's sections (the palette's "templates" item), copied with fresh ids. */
  | { type: 'insert_sections'; language: TTemplateLanguage; sections: TSection[]; index: number }
  | { type: 'move_block'; language: TTemplateLanguage; id: string; place: TPlace }
  /** One step up or down in reading order, crossing into the neighbouring column or section. */
  | { type: 'move_block_by'; language: TTemplateLanguage; id: string; delta: -1 | 1 }
  | { type: 'move_section'; language: TTemplateLanguage; id: string; index: number }
  | { type: 'duplicate'; language: TTemplateLanguage; id: string }
  | { type: 'delete'; language: TTemplateLanguage; id: string }
  | { type: 'update_block'; language: TTemplateLanguage; id: string; patch: TBlockPatch }
  | { type: 'update_section'; language: TTemplateLanguage; id: string; patch: TSectionPatch }
  | { type: 'update_document'; language: TTemplateLanguage; patch: TDocumentPatch }
  | { type: 'set_field'; language: TTemplateLanguage; field: 'subject' | 'preheader'; value: string }
  /** A new language version: a copy of another one, or empty. */
  | { type: 'add_language'; language: TTemplateLanguage; copyFrom: TTemplateLanguage | null }
  | { type: 'remove_language'; language: TTemplateLanguage }
  | { type: 'undo' }
  | { type: 'redo' }
  /** Ends a run of merging edits (another block was selected): the next keystroke is a new step. */
  | { type: 'checkpoint' }
  /** The stored template replaced what is edited (a reload): history starts again. */
  | { type: 'reset'; contents: TTemplateContents };

export interface THistory {
  present: TTemplateContents;
  past: TTemplateContents[];
  future: TTemplateContents[];
  /**
   * The kind of the last edit when it may merge with the next one (typing into one field of one
   * block): a word typed is not an undo step of its own.
   */
  mergeKey: string | null;
  /** Rises with every change of `present`, undo and redo included: autosave watches it. */
  revision: number;
}

export const HISTORY_LIMIT = 200;

export function initialHistory(contents: TTemplateContents): THistory {
  return { present: contents, past: [], future: [], mergeKey: null, revision: 0 };
}

export type TNewId = () => string;

export function randomId(): string {
  return `b${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36).slice(-4)}`;
}

/** A block of `type` with the contract's defaults, as the palette adds it. */
export function newBlock(type: TBlockType, id: string): TBlock {
  switch (type) {
    case 'text':
      return { id, type, padding: 10, content: { type: 'doc', content: [{ type: 'paragraph' }] } };
    case 'divider':
      return { id, type, thickness: 'regular', color: '#d9d9d9', padding: 10 };
    case 'image':
      return { id, type, src: null, alt: '', href: null, width: 100, align: 'center', padding: 10 };
    case 'button':
      return {
        id,
        type,
        label: '',
        href: null,
        backgroundColor: '#1c7ed6',
        textColor: '#ffffff',
        align: 'center',
        fullWidth: false,
        padding: 10,
      };
    case 'code':
      return { id, type, html: '', padding: 10 };
    case 'link':
      return { id, type, label: '', href: null, color: '#1c7ed6', fontSize: 16, align: 'left', padding: 10 };
  }
}

export function newSection(columns: number, newId: TNewId, blocks: TBlock[] = []): TSection {
  return {
    id: newId(),
    paddingTop: 10,
    paddingBottom: 10,
    backgroundColor: null,
    columns: Array.from({ length: columns }, (_, i) => ({ id: newId(), blocks: i === 0 ? blocks : [] })),
  };
}

export const emptyContent = (): TTemplateContent => ({ subject: '', preheader: '', document: emptyDocument() });

/** Where a block is: its section, column and index, or null. */
export function findBlock(
  document: TBlockDocument,
  id: string,
): { sectionIndex: number; columnIndex: number; index: number; block: TBlock } | null {
  for (const [sectionIndex, section] of document.sections.entries()) {
    for (const [columnIndex, column] of section.columns.entries()) {
      const index = column.blocks.findIndex((b) => b.id === id);
      const block = column.blocks[index];
      if (block) return { sectionIndex, columnIndex, index, block };
    }
  }
  return null;
}

export function findSection(document: TBlockDocument, id: string): number {
  return document.sections.findIndex((s) => s.id === id);
}

const withSections = (document: TBlockDocument, sections: TSection[]): TBlockDocument => ({ ...document, sections });

function mapColumn(
  document: TBlockDocument,
  sectionIndex: number,
  columnIndex: number,
  change: (blocks: TBlock[]) => TBlock[],
): TBlockDocument {
  return withSections(
    document,
    document.sections.map((section, si) =>
      si !== sectionIndex
        ? section
        : {
            ...section,
            columns: section.columns.map((column, ci) =>
              ci !== columnIndex ? column : { ...column, blocks: change(column.blocks) },
            ),
          },
    ),
  );
}

const insertAt = <T>(list: T[], index: number, item: T): T[] => {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), item, ...list.slice(at)];
};

function placeBlock(document: TBlockDocument, block: TBlock, place: TPlace, newId: TNewId): TBlockDocument {
  if (place.kind === 'new_section') {
    return withSections(document, insertAt(document.sections, place.index, newSection(1, newId, [block])));
  }
  const sectionIndex = findSection(document, place.sectionId);
  const section = document.sections[sectionIndex];
  if (!section || !section.columns[place.columnIndex]) return document;
  return mapColumn(document, sectionIndex, place.columnIndex, (blocks) => insertAt(blocks, place.index, block));
}

function removeBlock(document: TBlockDocument, id: string): TBlockDocument {
  const found = findBlock(document, id);
  if (!found) return document;
  return mapColumn(document, found.sectionIndex, found.columnIndex, (blocks) => blocks.filter((b) => b.id !== id));
}

/** A copy with fresh ids throughout, so the document keeps every id unique. */
function copySection(section: TSection, newId: TNewId): TSection {
  return {
    ...structuredClone(section),
    id: newId(),
    columns: section.columns.map((column) => ({
      id: newId(),
      blocks: column.blocks.map((block) => ({ ...structuredClone(block), id: newId() })),
    })),
  };
}

function moveBlock(document: TBlockDocument, id: string, place: TPlace, newId: TNewId): TBlockDocument {
  const found = findBlock(document, id);
  if (!found) return document;
  let target = place;
  // The place is counted before the block leaves: further down its own column, one less after.
  if (target.kind === 'column') {
    const sameColumn =
      document.sections[found.sectionIndex]?.id === target.sectionId && found.columnIndex === target.columnIndex;
    if (sameColumn) {
      if (target.index === found.index || target.index === found.index + 1) return document;
      if (target.index > found.index) target = { ...target, index: target.index - 1 };
    }
  }
  const moved = placeBlock(removeBlock(document, id), found.block, target, newId);
  // A one-column section left empty by a move goes too: moving the only block of a section out
  // of it means moving the section's content, not leaving a hole behind.
  const sectionId = document.sections[found.sectionIndex]!.id;
  const left = moved.sections.find((s) => s.id === sectionId);
  if (left && left.columns.length === 1 && left.columns[0]!.blocks.length === 0) {
    return withSections(
      moved,
      moved.sections.filter((s) => s.id !== sectionId),
    );
  }
  return moved;
}

/** The columns in reading order: sections top to bottom, columns left to right. */
function columnSlots(document: TBlockDocument): { sectionId: string; columnIndex: number; length: number }[] {
  return document.sections.flatMap((section) =>
    section.columns.map((column, columnIndex) => ({
      sectionId: section.id,
      columnIndex,
      length: column.blocks.length,
    })),
  );
}

function moveBlockBy(document: TBlockDocument, id: string, delta: -1 | 1, newId: TNewId): TBlockDocument {
  const found = findBlock(document, id);
  if (!found) return document;
  const section = document.sections[found.sectionIndex]!;
  const length = section.columns[found.columnIndex]!.blocks.length;
  const inside = found.index + delta;
  if (inside >= 0 && inside < length) {
    return moveBlock(
      document,
      id,
      { kind: 'column', sectionId: section.id, columnIndex: found.columnIndex, index: delta > 0 ? inside + 1 : inside },
      newId,
    );
  }
  // Past the edge of its column the block trades places with its neighbour in reading order: after
  // the first block of the next column, or before the last block of the previous one.
  const slots = columnSlots(document);
  const here = slots.findIndex((s) => s.sectionId === section.id && s.columnIndex === found.columnIndex);
  const next = slots[here + delta];
  if (!next) return document;
  const index = delta > 0 ? Math.min(1, next.length) : Math.max(0, next.length - 1);
  return moveBlock(
    document,
    id,
    { kind: 'column', sectionId: next.sectionId, columnIndex: next.columnIndex, index },
    newId,
  );
}

function moveSection(document: TBlockDocument, id: string, index: number): TBlockDocument {
  const from = findSection(document, id);
  if (from < 0) return document;
  const to = index > from ? index - 1 : index;
  if (to === from) return document;
  const section = document.sections[from]!;
  const rest = document.sections.filter((s) => s.id !== id);
  return withSections(document, insertAt(rest, to, section));
}

function duplicate(document: TBlockDocument, id: string, newId: TNewId): TBlockDocument {
  const sectionIndex = findSection(document, id);
  if (sectionIndex >= 0) {
    return withSections(
      document,
      insertAt(document.sections, sectionIndex + 1, copySection(document.sections[sectionIndex]!, newId)),
    );
  }
  const found = findBlock(document, id);
  if (!found) return document;
  const copy = { ...structuredClone(found.block), id: newId() };
  return mapColumn(document, found.sectionIndex, found.columnIndex, (blocks) =>
    insertAt(blocks, found.index + 1, copy),
  );
}

function remove(document: TBlockDocument, id: string): TBlockDocument {
  const sectionIndex = findSection(document, id);
  if (sectionIndex >= 0)
    return withSections(
      document,
      document.sections.filter((s) => s.id !== id),
    );
  return removeBlock(document, id);
}

function updateBlock(document: TBlockDocument, id: string, patch: TBlockPatch): TBlockDocument {
  const found = findBlock(document, id);
  if (!found) return document;
  const { id: _id, type: _type, ...rest } = patch;
  return mapColumn(document, found.sectionIndex, found.columnIndex, (blocks) =>
    blocks.map((b) => (b.id === id ? ({ ...b, ...rest } as TBlock) : b)),
  );
}

function updateSection(document: TBlockDocument, id: string, patch: TSectionPatch, newId: TNewId): TBlockDocument {
  const { columnCount, ...values } = patch;
  return withSections(
    document,
    document.sections.map((section) => {
      if (section.id !== id) return section;
      let columns = section.columns;
      if (columnCount !== undefined && columnCount !== columns.length) {
        if (columnCount > columns.length) {
          columns = [
            ...columns,
            ...Array.from({ length: columnCount - columns.length }, () => ({ id: newId(), blocks: [] as TBlock[] })),
          ];
        } else {
          // Nothing is lost: the blocks of the columns taken away join the last one kept.
          const kept = columns.slice(0, columnCount);
          const moved = columns.slice(columnCount).flatMap((c) => c.blocks);
          columns = kept.map((c, i) => (i === kept.length - 1 ? { ...c, blocks: [...c.blocks, ...moved] } : c));
        }
      }
      return { ...section, ...values, columns };
    }),
  );
}

type TDocumentAction = Exclude<
  TEditAction,
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'checkpoint' }
  | { type: 'reset' }
  | { type: 'set_field' }
  | { type: 'add_language' }
  | { type: 'remove_language' }
>;

function editDocument(document: TBlockDocument, action: TDocumentAction, newId: TNewId): TBlockDocument {
  switch (action.type) {
    case 'insert_block':
      return placeBlock(document, action.block, action.place, newId);
    case 'insert_section':
      return withSections(document, insertAt(document.sections, action.index, newSection(action.columns, newId)));
    case 'insert_sections':
      return withSections(document, [
        ...document.sections.slice(0, action.index),
        ...action.sections.map((s) => copySection(s, newId)),
        ...document.sections.slice(action.index),
      ]);
    case 'move_block':
      return moveBlock(document, action.id, action.place, newId);
    case 'move_block_by':
      return moveBlockBy(document, action.id, action.delta, newId);
    case 'move_section':
      return moveSection(document, action.id, action.index);
    case 'duplicate':
      return duplicate(document, action.id, newId);
    case 'delete':
      return remove(document, action.id);
    case 'update_block':
      return updateBlock(document, action.id, action.patch);
    case 'update_section':
      return updateSection(document, action.id, action.patch, newId);
    case 'update_document':
      return { ...document, ...action.patch };
  }
}

/** Edits to one field of one block (or the subject) in a row merge into one undo step. */
function mergeKeyOf(action: TEditAction): string | null {
  if (action.type === 'update_block')
    return `block:${action.language}:${action.id}:${Object.keys(action.patch).sort().join(',')}`;
  if (action.type === 'set_field') return `field:${action.language}:${action.field}`;
  if (action.type === 'update_section')
    return `section:${action.language}:${action.id}:${Object.keys(action.patch).sort().join(',')}`;
  if (action.type === 'update_document')
    return `document:${action.language}:${Object.keys(action.patch).sort().join(',')}`;
  return null;
}

function applyEdit(contents: TTemplateContents, action: TEditAction, newId: TNewId): TTemplateContents {
  switch (action.type) {
    case 'undo':
    case 'redo':
    case 'reset':
    case 'checkpoint':
      return contents;
    case 'add_language': {
      if (contents[action.language]) return contents;
      const source = action.copyFrom ? contents[action.copyFrom] : null;
      const content = source
        ? {
            ...structuredClone(source),
            document: { ...source.document, sections: source.document.sections.map((s) => copySection(s, newId)) },
          }
        : emptyContent();
      return { ...contents, [action.language]: content };
    }
    case 'remove_language':
      return { ...contents, [action.language]: null };
    case 'set_field': {
      const content = contents[action.language];
      if (!content || content[action.field] === action.value) return contents;
      return { ...contents, [action.language]: { ...content, [action.field]: action.value } };
    }
    default: {
      const content = contents[action.language];
      if (!content) return contents;
      const document = editDocument(content.document, action, newId);
      if (document === content.document) return contents;
      return { ...contents, [action.language]: { ...content, document } };
    }
  }
}

/** The reducer of the editor's history; ids of new and copied blocks come from `newId`. */
export function createHistoryReducer(newId: TNewId = randomId) {
  return function historyReducer(state: THistory, action: TEditAction): THistory {
    switch (action.type) {
      case 'undo': {
        const previous = state.past.at(-1);
        if (!previous) return state;
        return {
          present: previous,
          past: state.past.slice(0, -1),
          future: [state.present, ...state.future],
          mergeKey: null,
          revision: state.revision + 1,
        };
      }
      case 'redo': {
        const next = state.future[0];
        if (!next) return state;
        return {
          present: next,
          past: [...state.past, state.present],
          future: state.future.slice(1),
          mergeKey: null,
          revision: state.revision + 1,
        };
      }
      case 'reset':
        return initialHistory(action.contents);
      case 'checkpoint':
        return state.mergeKey === null ? state : { ...state, mergeKey: null };
      default: {
        const present = applyEdit(state.present, action, newId);
        if (present === state.present) return state;
        const mergeKey = mergeKeyOf(action);
        const merges = mergeKey !== null && mergeKey === state.mergeKey;
        return {
          present,
          past: merges ? state.past : [...state.past, state.present].slice(-HISTORY_LIMIT),
          future: [],
          mergeKey,
          revision: state.revision + 1,
        };
      }
    }
  };
}
