import type { TCampaignDraft, TProblems } from '../campaignDraft';

/** What every step of the campaign editor receives. */
export interface TStepProps {
  draft: TCampaignDraft;
  change: (next: Partial<TCampaignDraft>) => void;
  /** Problems to show: only after the user tried to move on. */
  problems: TProblems;
  readOnly: boolean;
}
