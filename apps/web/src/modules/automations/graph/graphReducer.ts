/**
 * The scenario graph as the editor holds it, and every change the editor makes to it, as one pure
 * reducer over the contract's own nodes and edges: the canvas only draws this state and
 * dispatches actions, so the editing rules (what may connect to what, what a delete takes with
 * it, where auto-arrange puts things) are tested without a browser.
 */
import type { TEdgeHandle, TGraphFaultCode, TNodeType, TScenarioEdge, TScenarioNode } from '@yado/contracts/scenarios';

export type TPoint = TScenarioNode['position'];

export interface TGraphState {
  nodes: TScenarioNode[];
  edges: TScenarioEdge[];
  /** Validation marks per node (the contract's check, or the server's refusal of a run). */
  faults: Record<string, TGraphFaultCode[]>;
  /** Faults of the whole workflow or its run period, shown above the canvas. */
  graphFaults: TGraphFaultCode[];
  selectedId: string | null;
  /** Changed since the last load or save. */
  dirty: boolean;
  /** Counts the user's changes (autosave saves a revision not saved yet); a load keeps it. */
  revision: number;
  /** Why the last connect was refused, for the editor to say so; cleared by the next change of any kind. */
  refusal: TConnectRefusal | null;
}

export type TConnectRefusal = 'self' | 'into_trigger' | 'duplicate' | 'outlet_taken' | 'cycle' | 'unknown_node';

export type TGraphAction =
  | { type: 'load'; nodes: TScenarioNode[]; edges: TScenarioEdge[] }
  | { type: 'add'; node: TScenarioNode }
  | { type: 'move'; id: string; position: TPoint }
  | { type: 'connect'; id: string; source: string; target: string; handle: TEdgeHandle }
  | { type: 'remove'; nodeIds: string[]; edgeIds: string[] }
  | { type: 'configure'; node: TScenarioNode }
  | { type: 'select'; id: string | null }
  /** The canvas unselected a node (an edge or the pane was clicked): only that node lets go. */
  | { type: 'deselect'; id: string }
  | { type: 'layout' }
  | { type: 'mark'; faults: { nodeId: string | null; code: TGraphFaultCode }[] }
  | { type: 'saved' };

/** The exits of a node, as the contract's check allows them. */
export function outletsOf(type: TNodeType): TEdgeHandle[] {
  if (type === 'branch') return ['yes', 'no'];
  if (type === 'email') return ['next', 'error'];
  return ['next'];
}

export function emptyEditorGraph(): TGraphState {
  return {
    nodes: [],
    edges: [],
    faults: {},
    graphFaults: [],
    selectedId: null,
    dirty: false,
    revision: 0,
    refusal: null,
  };
}

/** Whether `to` can be reached from `from` along the edges (a new edge back would close a loop). */
function reaches(edges: TScenarioEdge[], from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const edge of edges) if (edge.source === id) stack.push(edge.target);
  }
  return false;
}

/** Why an edge may not be drawn, or null when it may. Scenarios run forward: no loops. */
export function connectRefusal(
  state: TGraphState,
  source: string,
  target: string,
  handle: TEdgeHandle,
): TConnectRefusal | null {
  const from = state.nodes.find((n) => n.id === source);
  const to = state.nodes.find((n) => n.id === target);
  if (!from || !to || !outletsOf(from.type).includes(handle)) return 'unknown_node';
  if (source === target) return 'self';
  if (to.type === 'trigger') return 'into_trigger';
  if (state.edges.some((e) => e.source === source && e.target === target)) return 'duplicate';
  if (state.edges.some((e) => e.source === source && e.handle === handle)) return 'outlet_taken';
  if (reaches(state.edges, target, source)) return 'cycle';
  return null;
}

/** Faults that belong to nodes still present (a deleted node takes its marks with it). */
function keepFaults(faults: Record<string, TGraphFaultCode[]>, ids: Set<string>): Record<string, TGraphFaultCode[]> {
  return Object.fromEntries(Object.entries(faults).filter(([id]) => ids.has(id)));
}

export const LAYER_GAP = 160;
export const COLUMN_GAP = 280;

/**
 * A simple layered layout, top to bottom: each node sits one layer below the deepest node leading
 * into it (longest path from the triggers), nodes of a layer side by side in the order of their
 * parents, and nodes nothing leads to (triggers, orphans) in the first layer.
 */
export function layeredPositions(nodes: TScenarioNode[], edges: TScenarioEdge[]): Record<string, TPoint> {
  const ids = new Set(nodes.map((n) => n.id));
  const live = edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const incoming = new Map<string, number>(nodes.map((n) => [n.id, 0]));
  for (const e of live) incoming.set(e.target, (incoming.get(e.target) ?? 0) + 1);
  const layer = new Map<string, number>();
  // Kahn's order: a node is placed once every node leading into it is; a loop the server would
  // refuse leaves its nodes unplaced, and they go below the rest rather than hang the editor.
  const queue = nodes.filter((n) => incoming.get(n.id) === 0).map((n) => n.id);
  for (const id of queue) layer.set(id, 0);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const e of live) {
      if (e.source !== id) continue;
      layer.set(e.target, Math.max(layer.get(e.target) ?? 0, (layer.get(id) ?? 0) + 1));
      const left = (incoming.get(e.target) ?? 0) - 1;
      incoming.set(e.target, left);
      if (left === 0) queue.push(e.target);
    }
  }
  const deepest = Math.max(0, ...layer.values());
  for (const n of nodes) if (!layer.has(n.id)) layer.set(n.id, deepest + 1);

  const outletRank: Record<TEdgeHandle, number> = { next: 0, yes: 0, no: 1, error: 1 };
  const order = new Map<string, number>();
  const rows: string[][] = [];
  for (const n of nodes) (rows[layer.get(n.id)!] ??= []).push(n.id);
  const positions: Record<string, TPoint> = {};
  rows.forEach((row, depth) => {
    // Sort by where the parent sits, then by the outlet (yes left of no), so edges do not cross.
    const key = (id: string) => {
      const parent = live.find((e) => e.target === id && layer.get(e.source) === depth - 1);
      return parent ? (order.get(parent.source) ?? 0) * 2 + outletRank[parent.handle] : -1;
    };
    const sorted = depth === 0 ? row : [...row].sort((a, b) => key(a) - key(b));
    sorted.forEach((id, column) => {
      order.set(id, column);
      positions[id] = { x: (column - (sorted.length - 1) / 2) * COLUMN_GAP, y: depth * LAYER_GAP };
    });
  });
  return positions;
}

export function graphReducer(state: TGraphState, action: TGraphAction): TGraphState {
  switch (action.type) {
    case 'load':
      return { ...emptyEditorGraph(), nodes: action.nodes, edges: action.edges, revision: state.revision };
    case 'add':
      if (state.nodes.some((n) => n.id === action.node.id)) return state;
      return {
        ...state,
        nodes: [...state.nodes, action.node],
        selectedId: action.node.id,
        dirty: true,
        revision: state.revision + 1,
        refusal: null,
      };
    case 'move':
      return {
        ...state,
        nodes: state.nodes.map((n) => (n.id === action.id ? { ...n, position: action.position } : n)),
        dirty: true,
        revision: state.revision + 1,
        refusal: null,
      };
    case 'connect': {
      const refusal = connectRefusal(state, action.source, action.target, action.handle);
      if (refusal) return { ...state, refusal };
      const edge: TScenarioEdge = {
        id: action.id,
        source: action.source,
        target: action.target,
        handle: action.handle,
      };
      return { ...state, edges: [...state.edges, edge], dirty: true, revision: state.revision + 1, refusal: null };
    }
    case 'remove': {
      const gone = new Set(action.nodeIds);
      const nodes = state.nodes.filter((n) => !gone.has(n.id));
      const edgeGone = new Set(action.edgeIds);
      // An edge goes with either of its ends.
      const edges = state.edges.filter((e) => !edgeGone.has(e.id) && !gone.has(e.source) && !gone.has(e.target));
      if (nodes.length === state.nodes.length && edges.length === state.edges.length) return state;
      return {
        ...state,
        nodes,
        edges,
        faults: keepFaults(state.faults, new Set(nodes.map((n) => n.id))),
        selectedId: state.selectedId && gone.has(state.selectedId) ? null : state.selectedId,
        dirty: true,
        revision: state.revision + 1,
        refusal: null,
      };
    }
    case 'configure': {
      const id = action.node.id;
      if (!state.nodes.some((n) => n.id === id)) return state;
      // The node's own marks are stale once it changes; the next validation marks it again.
      const faults = { ...state.faults };
      delete faults[id];
      return {
        ...state,
        nodes: state.nodes.map((n) => (n.id === id ? action.node : n)),
        faults,
        dirty: true,
        revision: state.revision + 1,
        refusal: null,
      };
    }
    case 'select':
      return { ...state, selectedId: action.id };
    case 'deselect':
      return state.selectedId === action.id ? { ...state, selectedId: null } : state;
    case 'layout': {
      const positions = layeredPositions(state.nodes, state.edges);
      return {
        ...state,
        nodes: state.nodes.map((n) => ({ ...n, position: positions[n.id] ?? n.position })),
        dirty: true,
        revision: state.revision + 1,
        refusal: null,
      };
    }
    case 'mark': {
      const ids = new Set(state.nodes.map((n) => n.id));
      const faults: Record<string, TGraphFaultCode[]> = {};
      const graphFaults: TGraphFaultCode[] = [];
      for (const fault of action.faults) {
        // A fault on a node deleted meanwhile is stale: the next check says what still holds.
        if (fault.nodeId === null) graphFaults.push(fault.code);
        else if (ids.has(fault.nodeId)) (faults[fault.nodeId] ??= []).push(fault.code);
      }
      return { ...state, faults, graphFaults };
    }
    case 'saved':
      return { ...state, dirty: false };
  }
}
