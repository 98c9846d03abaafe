import type { TNodeCounts, TNodeState } from '@yado/contracts/scenarios';

/** A step's state as the canvas and the summary colour it. */
export const NODE_STATE_COLOR: Record<TNodeState, string> = {
  success: 'green',
  running: 'blue',
  error: 'red',
  stopped: 'gray',
};

/**
 * Guests who left a step for a reason of their own (a cancelled booking, an unsubscribe); those the
 * scenario's stop took out are counted apart, so each guest who entered is counted once.
 */
export const leftOtherwise = (counts: TNodeCounts): number => counts.left - counts.stopped;
