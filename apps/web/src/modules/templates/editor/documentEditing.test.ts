import type { TBlock, TBlockDocument, TTemplateContents } from '@yado/contracts/templates';
import { ZTemplateContents } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import {
  createHistoryReducer,
  emptyContent,
  initialHistory,
  newBlock,
  type TEditAction,
  type THistory,
} from './documentEditing';

function counterIds() {
  let n = 0;
  return () => `id${(n += 1)}`;
}

const ja = 'ja' as const;

function run(actions: TEditAction[], start: TTemplateContents = { ja: emptyContent(), en: null }) {
  const reducer = createHistoryReducer(counterIds());
  return actions.reduce<THistory>(reducer, initialHistory(start));
}

/** The document of the Japanese version as block ids per section and column. */
const layout = (state: THistory) =>
  state.present.ja!.document.sections.map((s) => s.columns.map((c) => c.blocks.map((b) => b.id)));
const doc = (state: THistory): TBlockDocument => state.present.ja!.document;

const text = (id: string): TBlock => newBlock('text', id);
const insert = (id: string, place: Extract<TEditAction, { type: 'insert_block' }>['place']): TEditAction => ({
  type: 'insert_block',
  language: ja,
  block: text(id),
  place,
});

/** Three text blocks a, b, c in one one-column section. */
function abc(): TEditAction[] {
  // The new section is id1 and its column id2.
  return [
    insert('a', { kind: 'new_section', index: 0 }),
    insert('b', { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 1 }),
    insert('c', { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 2 }),
  ];
}

describe('the flex builder document editing', () => {
  it('inserts a block into a new section or at a place in a column', () => {
    const state = run(abc());
    expect(layout(state)).toEqual([[['a', 'b', 'c']]]);
    const between = run([...abc(), insert('x', { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 1 })]);
    expect(layout(between)).toEqual([[['a', 'x', 'b', 'c']]]);
  });

  it('gives new blocks the contract defaults, which the contract accepts', () => {
    const state = run(
      (['text', 'divider', 'image', 'button', 'code', 'link'] as const).map((type, i) => ({
        type: 'insert_block' as const,
        language: ja,
        block: newBlock(type, `blk${i}`),
        place: { kind: 'new_section' as const, index: i },
      })),
    );
    expect(doc(state).sections).toHaveLength(6);
    expect(ZTemplateContents.safeParse(state.present).success).toBe(true);
  });

  it('moves a block down and up in its column, counting the place before the block leaves', () => {
    const down = run([
      ...abc(),
      {
        type: 'move_block',
        language: ja,
        id: 'a',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 3 },
      },
    ]);
    expect(layout(down)).toEqual([[['b', 'c', 'a']]]);
    const up = run([
      ...abc(),
      {
        type: 'move_block',
        language: ja,
        id: 'c',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 0 },
      },
    ]);
    expect(layout(up)).toEqual([[['c', 'a', 'b']]]);
  });

  it('a move onto its own place changes nothing and makes no undo step', () => {
    const before = run(abc());
    const reducer = createHistoryReducer(counterIds());
    const place = { kind: 'column' as const, sectionId: 'id1', columnIndex: 0, index: 2 };
    expect(reducer(before, { type: 'move_block', language: ja, id: 'b', place })).toBe(before);
  });

  it('moves a block into another column and out into a new section', () => {
    const state = run([
      ...abc(),
      { type: 'update_section', language: ja, id: 'id1', patch: { columnCount: 2 } },
      {
        type: 'move_block',
        language: ja,
        id: 'b',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 1, index: 0 },
      },
      { type: 'move_block', language: ja, id: 'c', place: { kind: 'new_section', index: 0 } },
    ]);
    expect(layout(state)).toEqual([[['c']], [['a'], ['b']]]);
  });

  it('moves by keyboard one step at a time, trading places across columns and sections', () => {
    const start = run([...abc(), insert('d', { kind: 'new_section', index: 1 })]);
    expect(layout(start)).toEqual([[['a', 'b', 'c']], [['d']]]);
    const reducer = createHistoryReducer(counterIds());
    let state = reducer(start, { type: 'move_block_by', language: ja, id: 'c', delta: 1 });
    expect(layout(state)).toEqual([[['a', 'b']], [['d', 'c']]]);
    state = reducer(state, { type: 'move_block_by', language: ja, id: 'c', delta: -1 });
    expect(layout(state)).toEqual([[['a', 'b']], [['c', 'd']]]);
    state = reducer(state, { type: 'move_block_by', language: ja, id: 'c', delta: -1 });
    expect(layout(state)).toEqual([[['a', 'c', 'b']], [['d']]]);
    expect(reducer(state, { type: 'move_block_by', language: ja, id: 'a', delta: -1 })).toBe(state);
    state = reducer(state, { type: 'move_block_by', language: ja, id: 'a', delta: 1 });
    expect(layout(state)).toEqual([[['c', 'a', 'b']], [['d']]]);
  });

  it('removes a one-column section its only block leaves, but keeps emptied columns of wider sections', () => {
    const reducer = createHistoryReducer(counterIds());
    const start = run([...abc(), insert('d', { kind: 'new_section', index: 1 })]);
    const moved = reducer(start, { type: 'move_block_by', language: ja, id: 'd', delta: -1 });
    expect(layout(moved)).toEqual([[['a', 'b', 'd', 'c']]]);
    const wide = run([
      ...abc(),
      { type: 'update_section', language: ja, id: 'id1', patch: { columnCount: 2 } },
      {
        type: 'move_block',
        language: ja,
        id: 'a',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 1, index: 0 },
      },
      {
        type: 'move_block',
        language: ja,
        id: 'a',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 0 },
      },
    ]);
    expect(layout(wide)).toEqual([[['a', 'b', 'c'], []]]);
  });

  it('moves sections', () => {
    const start = run([
      ...abc(),
      insert('d', { kind: 'new_section', index: 1 }),
      insert('e', { kind: 'new_section', index: 2 }),
    ]);
    const ids = doc(start).sections.map((s) => s.id);
    const reducer = createHistoryReducer(counterIds());
    const moved = reducer(start, { type: 'move_section', language: ja, id: ids[0]!, index: 3 });
    expect(layout(moved)).toEqual([[['d']], [['e']], [['a', 'b', 'c']]]);
    const back = reducer(moved, { type: 'move_section', language: ja, id: ids[0]!, index: 0 });
    expect(layout(back)).toEqual(layout(start));
  });

  it('duplicates a block after itself and a section with fresh ids throughout', () => {
    const reducer = createHistoryReducer(() => `copy${Math.random()}`);
    const start = run(abc());
    const block = reducer(start, { type: 'duplicate', language: ja, id: 'b' });
    const ids = layout(block)[0]![0]!;
    expect(ids).toHaveLength(4);
    expect(ids.slice(0, 2)).toEqual(['a', 'b']);
    expect(ids[2]).toMatch(/^copy/);
    expect(doc(block).sections[0]!.columns[0]!.blocks[2]).toEqual({ ...text('b'), id: ids[2] });

    const section = reducer(start, { type: 'duplicate', language: ja, id: 'id1' });
    const [first, second] = doc(section).sections;
    expect(second!.columns[0]!.blocks).toHaveLength(3);
    const all = [first!, second!].flatMap((s) => [
      s.id,
      ...s.columns.flatMap((c) => [c.id, ...c.blocks.map((b) => b.id)]),
    ]);
    expect(new Set(all).size).toBe(all.length);
  });

  it('deletes a block or a whole section', () => {
    const state = run([...abc(), { type: 'delete', language: ja, id: 'b' }]);
    expect(layout(state)).toEqual([[['a', 'c']]]);
    const none = run([...abc(), { type: 'delete', language: ja, id: 'id1' }]);
    expect(layout(none)).toEqual([]);
  });

  it('keeps the blocks of the columns taken away in the last column kept', () => {
    const state = run([
      ...abc(),
      { type: 'update_section', language: ja, id: 'id1', patch: { columnCount: 3 } },
      {
        type: 'move_block',
        language: ja,
        id: 'c',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 2, index: 0 },
      },
      {
        type: 'move_block',
        language: ja,
        id: 'b',
        place: { kind: 'column', sectionId: 'id1', columnIndex: 1, index: 0 },
      },
      { type: 'update_section', language: ja, id: 'id1', patch: { columnCount: 1, backgroundColor: '#ffeedd' } },
    ]);
    expect(layout(state)).toEqual([[['a', 'b', 'c']]]);
    expect(doc(state).sections[0]!.backgroundColor).toBe('#ffeedd');
  });

  it('undoes and redoes each edit, and a new edit forgets what was undone', () => {
    const reducer = createHistoryReducer(counterIds());
    let state = run(abc());
    const original = state.present;
    state = reducer(state, { type: 'delete', language: ja, id: 'a' });
    state = reducer(state, {
      type: 'move_block',
      language: ja,
      id: 'c',
      place: { kind: 'column', sectionId: 'id1', columnIndex: 0, index: 0 },
    });
    expect(layout(state)).toEqual([[['c', 'b']]]);
    state = reducer(state, { type: 'undo' });
    expect(layout(state)).toEqual([[['b', 'c']]]);
    state = reducer(state, { type: 'undo' });
    expect(state.present).toBe(original);
    state = reducer(state, { type: 'redo' });
    expect(layout(state)).toEqual([[['b', 'c']]]);
    state = reducer(state, { type: 'duplicate', language: ja, id: 'b' });
    expect(state.future).toEqual([]);
    expect(reducer(state, { type: 'redo' })).toBe(state);
  });

  it('merges typing into one field into one undo step until a checkpoint', () => {
    const reducer = createHistoryReducer(counterIds());
    let state = run([
      ...abc(),
      {
        type: 'insert_block',
        language: ja,
        block: newBlock('button', 'btn'),
        place: { kind: 'new_section', index: 1 },
      },
    ]);
    const steps = state.past.length;
    for (const label of ['B', 'Bo', 'Boo', 'Book']) {
      state = reducer(state, { type: 'update_block', language: ja, id: 'btn', patch: { label } });
    }
    expect(state.past).toHaveLength(steps + 1);
    state = reducer(state, { type: 'checkpoint' });
    state = reducer(state, { type: 'update_block', language: ja, id: 'btn', patch: { label: 'Book now' } });
    expect(state.past).toHaveLength(steps + 2);
    state = reducer(state, { type: 'undo' });
    expect(doc(state).sections[1]!.columns[0]!.blocks[0]).toMatchObject({ label: 'Book' });
    state = reducer(state, { type: 'undo' });
    expect(doc(state).sections[1]!.columns[0]!.blocks[0]).toMatchObject({ label: '' });
  });

  it('never changes a block id or type through an update', () => {
    const state = run([
      ...abc(),
      { type: 'update_block', language: ja, id: 'a', patch: { id: 'z', type: 'code', padding: 20 } },
    ]);
    expect(doc(state).sections[0]!.columns[0]!.blocks[0]).toMatchObject({ id: 'a', type: 'text', padding: 20 });
  });

  it('inserts a saved template’s sections with fresh ids', () => {
    const saved = run(abc());
    const state = run([{ type: 'insert_sections', language: ja, sections: doc(saved).sections, index: 0 }], {
      ja: { ...emptyContent() },
      en: null,
    });
    const blocks = doc(state).sections[0]!.columns[0]!.blocks;
    expect(blocks).toHaveLength(3);
    expect(blocks.map((b) => b.id)).not.toContain('a');
  });

  it('adds an English version copied from the Japanese one, and removes it', () => {
    const reducer = createHistoryReducer(counterIds());
    let state = run([...abc(), { type: 'set_field', language: ja, field: 'subject', value: 'ご到着前のご案内' }]);
    state = reducer(state, { type: 'add_language', language: 'en', copyFrom: 'ja' });
    expect(state.present.en!.subject).toBe('ご到着前のご案内');
    expect(state.present.en!.document.sections[0]!.columns[0]!.blocks).toHaveLength(3);
    // Edits to one language leave the other alone.
    state = reducer(state, { type: 'delete', language: 'en', id: state.present.en!.document.sections[0]!.id });
    expect(layout(state)).toEqual([[['a', 'b', 'c']]]);
    state = reducer(state, { type: 'remove_language', language: 'en' });
    expect(state.present.en).toBeNull();
  });

  it('counts every change in the revision autosave watches', () => {
    const reducer = createHistoryReducer(counterIds());
    let state = run(abc());
    const revision = state.revision;
    state = reducer(state, { type: 'delete', language: ja, id: 'a' });
    state = reducer(state, { type: 'undo' });
    expect(state.revision).toBe(revision + 2);
    expect(reducer(state, { type: 'delete', language: ja, id: 'missing' })).toBe(state);
  });
});
