import { describe, expect, it } from 'vitest';
import { ZScenarioGraph, checkScenarioGraph, zonedToInstant, type TScenarioGraph } from './scenarios.ts';

const TEMPLATE = '00000000-0000-4000-8000-000000000001';
const preArrival = (): TScenarioGraph =>
  ZScenarioGraph.parse({
    nodes: [
      { id: 't', type: 'trigger', data: { kind: 'before_check_in', days: 3 } },
      {
        id: 'e',
        type: 'email',
        data: { templateId: TEMPLATE, subject: 'See you soon', senderEmail: 'info@hotel.example' },
      },
      { id: 'd', type: 'delay', data: { kind: 'duration', amount: 2, unit: 'days' } },
      { id: 'b', type: 'branch', data: { condition: 'opened_previous' } },
      {
        id: 'e2',
        type: 'email',
        data: { templateId: TEMPLATE, subject: 'Reminder', senderEmail: 'info@hotel.example' },
      },
    ],
    edges: [
      { id: '1', source: 't', target: 'e' },
      { id: '2', source: 'e', target: 'd' },
      { id: '3', source: 'd', target: 'b' },
      { id: '4', source: 'b', target: 'e2', handle: 'no' },
    ],
  });
const codes = (graph: TScenarioGraph, now?: number) =>
  checkScenarioGraph(graph, { now }).map((f) => `${f.nodeId}:${f.code}`);

describe('checkScenarioGraph', () => {
  it('marks the branch without its yes path, and nothing else of a sound graph', () => {
    expect(codes(preArrival())).toEqual(['b:branch_incomplete']);
  });

  it('accepts a complete graph', () => {
    const g = preArrival();
    g.nodes.push({
      id: 'end',
      type: 'delay',
      position: { x: 0, y: 0 },
      data: { kind: 'duration', amount: 1, unit: 'minutes' },
    });
    g.edges.push({ id: '5', source: 'b', target: 'end', handle: 'yes' });
    expect(codes(g)).toEqual([]);
  });

  it('says the workflow is not configured when empty, and finds a missing trigger', () => {
    expect(codes({ version: 1, nodes: [], edges: [] })).toEqual(['null:workflow_not_configured']);
    const g = preArrival();
    g.nodes = g.nodes.filter((n) => n.id !== 't');
    g.edges = g.edges.filter((e) => e.source !== 't');
    expect(codes(g)).toContain('null:no_trigger');
    expect(codes(g)).toContain('e:orphan_node');
  });

  it('marks an incomplete email, zero and ten-year delays, a cycle and an orphan', () => {
    const g = preArrival();
    g.nodes[1] = { ...g.nodes[1]!, type: 'email', data: { templateId: null, subject: '', senderEmail: null } } as never;
    g.nodes[2] = { ...g.nodes[2]!, type: 'delay', data: { kind: 'duration', amount: 0, unit: 'days' } } as never;
    g.nodes.push({
      id: 'long',
      type: 'delay',
      position: { x: 0, y: 0 },
      data: { kind: 'duration', amount: 3650, unit: 'days' },
    });
    g.edges.push({ id: 'loop', source: 'e2', target: 'd', handle: 'next' });
    const found = codes(g);
    expect(found).toEqual(
      expect.arrayContaining([
        'e:email_incomplete',
        'd:delay_zero',
        'long:delay_too_long',
        'long:orphan_node',
        'd:cycle',
      ]),
    );
  });

  it('refuses a dated delay whose time has passed, only when checked against a time', () => {
    const g = preArrival();
    g.nodes[2] = { ...g.nodes[2]!, type: 'delay', data: { kind: 'date', date: '2026-01-01', time: '09:00' } } as never;
    expect(codes(g)).not.toContain('d:delay_passed');
    expect(codes(g, Date.parse('2026-06-01T00:00:00Z'))).toContain('d:delay_passed');
  });

  it('turns a wall-clock time of a zone into its instant', () => {
    expect(new Date(zonedToInstant('2026-07-01', '09:00', 'Asia/Tokyo')).toISOString()).toBe(
      '2026-07-01T00:00:00.000Z',
    );
    expect(new Date(zonedToInstant('2026-07-01', '09:00', 'Europe/London')).toISOString()).toBe(
      '2026-07-01T08:00:00.000Z',
    );
    expect(new Date(zonedToInstant('2026-01-01', '09:00', 'Europe/London')).toISOString()).toBe(
      '2026-01-01T09:00:00.000Z',
    );
  });
});
