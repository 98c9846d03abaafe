import type { TCampaign } from '@yado/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { actAtOnce, useConfirmedAction } from '../../ui/hooks/useConfirmedAction';
import {
  CAMPAIGNS_QUERY_KEY,
  cancelCampaign,
  deleteCampaign,
  duplicateCampaign,
  pauseCampaign,
  quietHoursQuery,
  resumeCampaign,
  saveCampaignAsDraft,
  sendCampaignNow,
} from '../api/campaignsCalls';
import { isConfirmed, type TCampaignAction, type TConfirmedAction } from '../campaignActions';
import { heldUntilText } from '../heldUntil';
import { pausedRate } from '../pausedText';

/** A campaign a confirmation is about, and for "Send now" in the quiet hours, when its mails go. */
type TAsked = TCampaign & { heldUntil: string | null };
/** What asks first: the confirmed actions, and resuming a campaign that paused itself (issue 25). */
type TAsking = TConfirmedAction | 'resume';

const CONFIRM_LABEL: Record<TAsking, string> = {
  resume: 'campaign.actions.resume',
  send_now: 'campaign.actions.send_now',
  save_as_draft: 'campaign.actions.save_as_draft',
  cancel: 'campaign.actions.cancel',
  delete: 'campaign.actions.delete',
};
const PERFORM: Record<TAsking, (id: string) => Promise<unknown>> = {
  resume: resumeCampaign,
  send_now: sendCampaignNow,
  save_as_draft: saveCampaignAsDraft,
  cancel: cancelCampaign,
  delete: deleteCampaign,
};
const DONE: Record<TAsking, string> = {
  resume: 'resumed',
  send_now: 'sending',
  save_as_draft: 'drafted',
  cancel: 'cancelled',
  delete: 'deleted',
};

/**
 * Runs a list action on a campaign: navigation at once, changes after a confirmation. A refusal
 * (another user sent it meanwhile, a deleted segment) stays in the dialog in the user's language.
 */
export function useCampaignActions(onDeleted?: () => void): {
  run: (action: TCampaignAction, campaign: TCampaign) => void;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY });

  const { ask, dialog } = useConfirmedAction<TAsking, TAsked>({
    perform: (action, campaign) => PERFORM[action](campaign.id),
    doneText: (action, campaign) =>
      action === 'send_now' && campaign.heldUntil
        ? t('campaign.done.sending_held', { date: campaign.heldUntil })
        : t(`campaign.done.${DONE[action]}`, { name: campaign.name }),
    confirmText: (action, campaign) => ({
      title: t(`campaign.confirm.${action}_title`),
      // Cancelling a paused send stops the mails not yet sent (queued, deferred, and those a worker
      // claimed and had not handed to the relay when it paused); the sent ones stay counted.
      // Resuming a campaign that paused itself sends the rest at once: the dialog says why it
      // paused, at which rate, and how many mails go (those a cancel would stop).
      message:
        action === 'resume' && campaign.paused?.reason
          ? t(`campaign.confirm.resume_protection.${campaign.paused.reason.kind}`, {
              name: campaign.name,
              rate: pausedRate(campaign.paused.reason.rate, currentLanguage()),
              guests: (
                campaign.statistics.queued +
                campaign.statistics.deferred +
                campaign.statistics.claimed
              ).toLocaleString(),
            })
          : action === 'cancel' && campaign.status === 'pending'
            ? t('campaign.confirm.cancel_paused', {
                name: campaign.name,
                guests: campaign.statistics.queued + campaign.statistics.deferred + campaign.statistics.claimed,
              })
            : action === 'send_now' && campaign.heldUntil
              ? t('campaign.confirm.send_now_held', { name: campaign.name, date: campaign.heldUntil })
              : t(`campaign.confirm.${action}`, { name: campaign.name }),
      confirmLabel: t(CONFIRM_LABEL[action]),
      cancelLabel: t('campaign.confirm.keep'),
      danger: action === 'delete' || action === 'cancel',
    }),
    onDone: async (action) => {
      if (action === 'delete') onDeleted?.();
      await refresh();
    },
    refusalTestId: 'campaign-refusal',
  });

  const run = (action: TCampaignAction, campaign: TCampaign) => {
    if (action === 'statistics') void navigate(`/campaign/${campaign.id}`);
    else if (action === 'edit') void navigate(`/campaign/${campaign.id}/edit`);
    else if (action === 'edit_schedule') void navigate(`/campaign/${campaign.id}/edit?step=schedule`);
    else if (action === 'duplicate')
      void actAtOnce(
        async () =>
          t('campaign.done.duplicated', { name: (await duplicateCampaign(campaign.id, currentLanguage())).name }),
        t,
        refresh,
      );
    // A campaign that paused itself (bounces, complaints) asks before it resumes: the rest goes at once.
    else if (action === 'resume' && campaign.paused?.reason) ask('resume', { ...campaign, heldUntil: null });
    // Pause and resume go at once (both undo each other), with a snackbar.
    else if (action === 'pause' || action === 'resume')
      void actAtOnce(
        async () => {
          await (action === 'pause' ? pauseCampaign(campaign.id) : resumeCampaign(campaign.id));
          return t(`campaign.done.${action === 'pause' ? 'paused' : 'resumed'}`, { name: campaign.name });
        },
        t,
        refresh,
      );
    // "Send now" asks the quiet hours first, so the confirmation says when the mails will go; a
    // check that fails leaves the plain sentence (the send itself holds them all the same).
    else if (action === 'send_now')
      void queryClient
        .fetchQuery(quietHoursQuery({ kind: 'now' }))
        .then(heldUntilText, () => null)
        .then((heldUntil) => ask(action, { ...campaign, heldUntil }));
    else if (isConfirmed(action)) ask(action, { ...campaign, heldUntil: null });
  };

  return { run, dialog };
}
