import type { TCampaignScope, TCampaignStatus } from '@yado/contracts/campaigns';
import type { TEntitlement } from '@yado/contracts/entitlements';

/** What a user may do to a campaign from the list (spec sections 2 and 4). */
export const CAMPAIGN_ACTIONS = [
  'statistics',
  'edit',
  'edit_schedule',
  'send_now',
  'save_as_draft',
  'cancel',
  'pause',
  'resume',
  'duplicate',
  'delete',
] as const;
export type TCampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** The states each action applies to; the server refuses the same transitions (409). */
const BY_STATE: Record<TCampaignAction, readonly TCampaignStatus[]> = {
  // Counts exist from the moment the send starts (a send cancelled while paused keeps them: `started`).
  statistics: ['pending', 'sent', 'failed'],
  edit: ['draft', 'scheduled'],
  edit_schedule: ['scheduled'],
  send_now: ['draft', 'scheduled'],
  save_as_draft: ['scheduled'],
  // A sending campaign only once paused (issue 25): the admin resumes it or cancels the rest.
  cancel: ['scheduled', 'pending'],
  // A sending campaign: paused or resumed (which one, `paused` decides).
  pause: ['pending'],
  resume: ['pending'],
  duplicate: ['draft', 'scheduled', 'pending', 'sent', 'failed', 'cancelled'],
  // A send in progress finishes or fails first: its deliveries are being written.
  delete: ['draft', 'scheduled', 'sent', 'failed', 'cancelled'],
};

/** The entitlement each action needs (section 6: campaign create, edit, delete, view report). */
const NEEDS: Record<TCampaignAction, TEntitlement> = {
  statistics: 'campaign.view_campaign_report',
  edit: 'campaign.update',
  edit_schedule: 'campaign.update',
  send_now: 'campaign.update',
  save_as_draft: 'campaign.update',
  cancel: 'campaign.update',
  pause: 'campaign.update',
  resume: 'campaign.update',
  duplicate: 'campaign.create',
  delete: 'campaign.delete',
};

/** Actions that change the campaign itself, refused for another host's campaign. */
const OWNER_ONLY: ReadonlySet<TCampaignAction> = new Set([
  'edit',
  'edit_schedule',
  'send_now',
  'save_as_draft',
  'cancel',
  'pause',
  'resume',
  'delete',
]);

/** Actions that ask for a confirmation first. */
export const CONFIRMED_ACTIONS = [
  'send_now',
  'save_as_draft',
  'cancel',
  'delete',
] as const satisfies readonly TCampaignAction[];
export type TConfirmedAction = (typeof CONFIRMED_ACTIONS)[number];

export function isConfirmed(action: TCampaignAction): action is TConfirmedAction {
  return (CONFIRMED_ACTIONS as readonly string[]).includes(action);
}

/**
 * The actions offered for a campaign in `status` to a user holding `entitlements`; `editable` is
 * false for a campaign of another host, which it may read and copy only. A campaign of a host above
 * seen for the acting host's own guests (`scope` own_guests) is read only: its segments are not the
 * acting host's to copy. `paused`: a sending campaign paused (resume or cancel instead of pause).
 * `started`: its send began (a campaign cancelled while paused has statistics).
 */
export function actionsFor(
  status: TCampaignStatus,
  editable: boolean,
  entitlements: Partial<Record<TEntitlement, boolean>>,
  scope: TCampaignScope = 'campaign',
  paused = false,
  started = false,
): TCampaignAction[] {
  return CAMPAIGN_ACTIONS.filter(
    (action) =>
      (BY_STATE[action].includes(status) || (action === 'statistics' && status === 'cancelled' && started)) &&
      (action !== 'pause' || !paused) &&
      (action !== 'resume' || paused) &&
      (action !== 'cancel' || status !== 'pending' || paused) &&
      entitlements[NEEDS[action]] === true &&
      (editable || !OWNER_ONLY.has(action)) &&
      (scope === 'campaign' || action === 'statistics'),
  );
}
