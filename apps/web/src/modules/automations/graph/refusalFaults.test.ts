import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http/ApiError';
import { refusalFaults } from './refusalFaults';

describe('refusalFaults', () => {
  it("reads a refused run's fields into marks: a node's under its id, the rest on the workflow", () => {
    const error = new ApiError(400, 'scenario_invalid', 'This scenario cannot run yet.', {
      'nodes.email': { code: 'email_incomplete', message: 'x' },
      'nodes.delay-1': { code: 'delay_passed', message: 'x' },
      'nodes.gone': { code: 'orphan_node', message: 'x' },
      workflow: { code: 'start_passed', message: 'x' },
      name: { code: 'too_long', message: 'x' },
    });
    expect(refusalFaults(error, ['email', 'delay-1'])).toEqual([
      { nodeId: 'email', code: 'email_incomplete' },
      { nodeId: 'delay-1', code: 'delay_passed' },
      { nodeId: null, code: 'orphan_node' },
      { nodeId: null, code: 'start_passed' },
    ]);
  });

  it('marks nothing for a refusal without fields or a failure that is not an answer', () => {
    expect(refusalFaults(new ApiError(409, 'scenario_action_not_allowed', ''), ['a'])).toEqual([]);
    expect(refusalFaults(new Error('network'), ['a'])).toEqual([]);
  });
});
