import type { TEntitlement } from '@yado/contracts/entitlements';
import {
  ACTION_FROM,
  DELETABLE_STATUSES,
  SCENARIO_ACTIONS,
  type TScenarioAction,
  type TScenarioStatus,
} from '@yado/contracts/scenarios';

/** What a user may do to a scenario from the list and the editor (spec section 4). */
export type TScenarioMenuAction = 'edit' | 'summary' | TScenarioAction | 'copy' | 'delete';

const NEEDS: Record<TScenarioMenuAction, TEntitlement> = {
  edit: 'scenarios.update',
  summary: 'scenarios.read',
  run: 'scenarios.update',
  cancel: 'scenarios.update',
  stop: 'scenarios.update',
  restart: 'scenarios.update',
  resume: 'scenarios.update',
  restore: 'scenarios.update',
  copy: 'scenarios.create',
  delete: 'scenarios.delete',
};

/** A scenario that never ran has nothing to summarise. */
const HAS_RUN: readonly TScenarioStatus[] = ['running', 'completed', 'stopped', 'archived'];

/**
 * The actions offered for a scenario in `status` to a user holding `entitlements`, in menu order;
 * `editable` is the server's "an own draft". The transitions are the contract's, which the server
 * enforces (409 otherwise).
 */
export function scenarioActionsFor(
  status: TScenarioStatus,
  editable: boolean,
  entitlements: Partial<Record<TEntitlement, boolean>>,
): TScenarioMenuAction[] {
  const all: TScenarioMenuAction[] = [];
  if (status === 'draft') all.push('edit');
  if (HAS_RUN.includes(status)) all.push('summary');
  for (const action of SCENARIO_ACTIONS) if (ACTION_FROM[action].includes(status)) all.push(action);
  all.push('copy');
  if ((DELETABLE_STATUSES as readonly TScenarioStatus[]).includes(status)) all.push('delete');
  // The server's `editable` is "an own draft": a draft that is not is another host's, read and
  // copied only. Past draft it says nothing about the owner, so the status actions stay offered
  // and the server refuses another host's scenario with its own message.
  const owned = editable || status !== 'draft';
  return all.filter((action) => {
    if (entitlements[NEEDS[action]] !== true) return false;
    return owned || action === 'summary' || action === 'copy';
  });
}

/** Actions that ask first; stop also wants the typed sentence. */
export type TConfirmedScenarioAction = TScenarioAction | 'delete';

export function isConfirmedScenarioAction(action: TScenarioMenuAction): action is TConfirmedScenarioAction {
  return action !== 'edit' && action !== 'summary' && action !== 'copy';
}
