import { screen } from '@testing-library/react';
import type { TNodeStatus, TScenarioNode } from '@yado/contracts/scenarios';
import { ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { StepNode, type TStepFlowNode } from './StepNode';

const counted = (node: TScenarioNode, counts: TNodeStatus['counts'], state: TNodeStatus['state'] = 'success') =>
  renderWithProviders(
    <ReactFlowProvider>
      <StepNode
        {...({ id: node.id, type: 'step', selected: false } as unknown as NodeProps<TStepFlowNode>)}
        data={{
          node,
          faults: [],
          status: { nodeId: node.id, state, message: null, counts, nextDueAt: null, hold: null },
          templateName: undefined,
        }}
      />
    </ReactFlowProvider>,
  );

const count = (key: string) => screen.getByTestId('node-counts').querySelector(`[data-count="${key}"]`);

describe('a step on the scenario canvas', () => {
  it("counts an email step's mails sent apart from the guests it passed without a mail", async () => {
    // The demo's birthday mail: 370 passed it, 208 of them not mailable then.
    await counted(
      {
        id: 'email',
        type: 'email',
        position: { x: 0, y: 0 },
        data: { templateId: null, subject: 'お誕生日おめでとうございます', senderEmail: null },
      },
      { entered: 370, waiting: 0, done: 370, skipped: 208, failed: 0, left: 0, stopped: 0 },
    );
    expect(count('sent')?.textContent).toBe('Sent 162');
    expect(count('skipped')?.textContent).toBe('Skipped 208');
    expect(count('done')).toBeNull();
  });

  it('counts the guests done with any other step', async () => {
    await counted(
      { id: 'wait', type: 'delay', position: { x: 0, y: 0 }, data: { amount: 3, unit: 'days' } } as TScenarioNode,
      { entered: 370, waiting: 46, done: 324, skipped: 0, failed: 0, left: 0, stopped: 0 },
    );
    expect(count('done')?.textContent).toBe('Done 324');
    expect(count('sent')).toBeNull();
    expect(count('stopped')).toBeNull();
  });

  it("counts a stopped scenario's guests still at the step apart from those who left of their own accord, and does not call it a success", async () => {
    // A pre-arrival entrance: 3 guests went on to their mail, 2 cancelled their stay, 115 were
    // still waiting for their "3 days before check-in" when the scenario stopped.
    await counted(
      { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'before_check_in', days: 3 } },
      { entered: 120, waiting: 0, done: 3, skipped: 0, failed: 0, left: 117, stopped: 115 },
      'stopped',
    );
    expect(screen.getByTestId('node-state').textContent).toBe('Stopped');
    expect(count('left')?.textContent).toBe('Left 2');
    expect(count('stopped')?.textContent).toBe('Left when stopped 115');
  });
});
