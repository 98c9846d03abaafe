import { describe, expect, it } from 'vitest';
import type { TEdgeHandle, TNodeType, TScenarioNode } from '@yado/contracts/scenarios';
import { emptyEditorGraph, graphReducer, LAYER_GAP, type TGraphAction, type TGraphState } from './graphReducer';

const DATA = {
  trigger: { kind: 'before_check_in', days: 3 },
  delay: { kind: 'duration', amount: 1, unit: 'days' },
  branch: { condition: 'opened_previous' },
  email: { templateId: null, subject: '', senderEmail: null },
} as const;
const node = (id: string, type: TNodeType): TScenarioNode =>
  ({ id, type, position: { x: 0, y: 0 }, data: DATA[type] }) as TScenarioNode;
const run = (actions: TGraphAction[], from: TGraphState = emptyEditorGraph()) => actions.reduce(graphReducer, from);
const connect = (source: string, target: string, handle: TEdgeHandle = 'next'): TGraphAction => ({
  type: 'connect',
  id: `${source}-${handle}-${target}`,
  source,
  target,
  handle,
});

/** trigger → delay → branch (yes → email a, no → email b) */
const journey = () =>
  run([
    { type: 'add', node: node('t', 'trigger') },
    { type: 'add', node: node('d', 'delay') },
    { type: 'add', node: node('b', 'branch') },
    { type: 'add', node: node('a', 'email') },
    { type: 'add', node: node('e', 'email') },
    connect('t', 'd'),
    connect('d', 'b'),
    connect('b', 'a', 'yes'),
    connect('b', 'e', 'no'),
    { type: 'saved' },
  ]);

describe('graphReducer', () => {
  it('adds a node, selects it and marks the graph changed; a repeated id is ignored', () => {
    const state = run([{ type: 'add', node: node('t', 'trigger') }]);
    expect(state.nodes.map((n) => n.id)).toEqual(['t']);
    expect(state.selectedId).toBe('t');
    expect(state.dirty).toBe(true);
    expect(graphReducer(state, { type: 'add', node: node('t', 'email') })).toBe(state);
  });

  it('connects along the outlets a node has: one next step, a yes and a no for a branch', () => {
    const state = journey();
    expect(state.edges.map((e) => `${e.source}>${e.target}:${e.handle}`)).toEqual([
      't>d:next',
      'd>b:next',
      'b>a:yes',
      'b>e:no',
    ]);
    expect(state.refusal).toBeNull();
    expect(state.dirty).toBe(false);
  });

  it('refuses edges that would make no sense, and says why', () => {
    const state = journey();
    const refused = (action: TGraphAction) => {
      const next = graphReducer(state, action);
      expect(next.edges).toEqual(state.edges);
      return next.refusal;
    };
    expect(refused(connect('a', 'a'))).toBe('self');
    expect(refused(connect('a', 't'))).toBe('into_trigger');
    expect(refused(connect('t', 'd'))).toBe('duplicate');
    expect(refused(connect('t', 'a'))).toBe('outlet_taken');
    expect(refused(connect('a', 'd'))).toBe('cycle');
    expect(refused(connect('d', 'a', 'yes'))).toBe('unknown_node');
    expect(refused(connect('b', 'a', 'next'))).toBe('unknown_node');
    expect(refused(connect('x', 'a'))).toBe('unknown_node');
  });

  it('lets a refusal go with the next change of any kind, so its banner does not outlive it', () => {
    const refused = graphReducer(journey(), connect('t', 'd'));
    expect(refused.refusal).toBe('duplicate');
    const changes: TGraphAction[] = [
      {
        type: 'configure',
        node: { ...node('a', 'email'), data: { ...DATA.email, subject: 'Welcome' } } as TScenarioNode,
      },
      { type: 'move', id: 'a', position: { x: 10, y: 20 } },
      { type: 'layout' },
      { type: 'add', node: node('x', 'delay') },
      { type: 'remove', nodeIds: ['e'], edgeIds: [] },
      connect('a', 'e', 'error'),
    ];
    for (const change of changes) expect(graphReducer(refused, change).refusal, change.type).toBeNull();
    // Selecting a step changes nothing: the refusal stays said.
    expect(graphReducer(refused, { type: 'select', id: 'a' }).refusal).toBe('duplicate');
  });

  it('deletes a node with its edges and its marks, and an edge alone', () => {
    let state = graphReducer(journey(), {
      type: 'mark',
      faults: [
        { nodeId: 'b', code: 'branch_incomplete' },
        { nodeId: 'a', code: 'email_incomplete' },
      ],
    });
    state = graphReducer(graphReducer(state, { type: 'select', id: 'b' }), {
      type: 'remove',
      nodeIds: ['b'],
      edgeIds: [],
    });
    expect(state.nodes.map((n) => n.id)).toEqual(['t', 'd', 'a', 'e']);
    expect(state.edges.map((e) => e.id)).toEqual(['t-next-d']);
    expect(Object.keys(state.faults)).toEqual(['a']);
    expect(state.selectedId).toBeNull();
    state = graphReducer(state, { type: 'remove', nodeIds: [], edgeIds: ['t-next-d'] });
    expect(state.edges).toEqual([]);
    expect(state.nodes).toHaveLength(4);
    expect(graphReducer(state, { type: 'remove', nodeIds: ['nope'], edgeIds: [] })).toBe(state);
  });

  it('arranges in layers from the trigger down, yes left of no, orphans on top', () => {
    const state = graphReducer(graphReducer(journey(), { type: 'add', node: node('o', 'email') }), { type: 'layout' });
    const at = Object.fromEntries(state.nodes.map((n) => [n.id, n.position]));
    expect(at.t!.y).toBe(0);
    expect(at.o!.y).toBe(0);
    expect(at.d!.y).toBe(LAYER_GAP);
    expect(at.b!.y).toBe(2 * LAYER_GAP);
    expect(at.a!.y).toBe(3 * LAYER_GAP);
    expect(at.e!.y).toBe(3 * LAYER_GAP);
    expect(at.a!.x).toBeLessThan(at.e!.x);
    expect(at.a!.x + at.e!.x).toBe(0);
    expect(state.dirty).toBe(true);
  });

  it('layers a node below the deepest node leading into it', () => {
    const base = run([
      { type: 'add', node: node('t', 'branch') },
      { type: 'add', node: node('d', 'delay') },
      { type: 'add', node: node('a', 'email') },
    ]);
    const state = run([connect('t', 'a', 'yes'), connect('t', 'd', 'no'), connect('d', 'a'), { type: 'layout' }], base);
    const at = Object.fromEntries(state.nodes.map((n) => [n.id, n.position]));
    expect(at.a!.y).toBe(2 * LAYER_GAP);
  });

  it('shows validation marks on present nodes only, and a change clears the changed node’s marks', () => {
    let state = graphReducer(journey(), {
      type: 'mark',
      faults: [
        { nodeId: 'a', code: 'email_incomplete' },
        { nodeId: 'gone', code: 'orphan_node' },
        { nodeId: null, code: 'start_passed' },
      ],
    });
    expect(state.faults).toEqual({ a: ['email_incomplete'] });
    expect(state.graphFaults).toEqual(['start_passed']);
    const changed = {
      ...node('a', 'email'),
      data: { templateId: null, subject: 'See you soon', senderEmail: null },
    } as TScenarioNode;
    state = graphReducer(state, { type: 'configure', node: changed });
    expect(state.faults.a).toBeUndefined();
    expect(state.nodes.find((n) => n.id === 'a')).toEqual(changed);
    expect(state.dirty).toBe(true);
  });

  it('lets go of a node only when that node is the one unselected', () => {
    const state = graphReducer(journey(), { type: 'select', id: 'a' });
    expect(graphReducer(state, { type: 'deselect', id: 'e' })).toBe(state);
    expect(graphReducer(state, { type: 'deselect', id: 'a' }).selectedId).toBeNull();
  });

  it('loads a graph clean, without marks or selection', () => {
    const dirty = graphReducer(journey(), { type: 'select', id: 'a' });
    const state = graphReducer(dirty, { type: 'load', nodes: dirty.nodes, edges: dirty.edges });
    expect(state.selectedId).toBeNull();
    expect(state.dirty).toBe(false);
    expect(state.nodes).toHaveLength(5);
  });
});
