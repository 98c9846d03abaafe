import type { TCampaign } from '@yado/contracts/campaigns';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { showSnackbar } from '../../ui/components/Snackbar';
import {
  CAMPAIGNS_QUERY_KEY,
  cancelCampaign,
  deleteCampaign,
  duplicateCampaign,
  pauseCampaign,
  resumeCampaign,
  saveCampaignAsDraft,
  sendCampaignNow,
} from '../api/campaignsCalls';
import { isConfirmed, type TCampaignAction, type TConfirmedAction } from '../campaignActions';

const CONFIRM_LABEL: Record<TConfirmedAction, string> = {
  send_now: 'campaign.actions.send_now',
  save_as_draft: 'campaign.actions.save_as_draft',
  cancel: 'campaign.actions.cancel',
  delete: 'campaign.actions.delete',
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
  const [pending, setPending] = useState<{ action: TConfirmedAction; campaign: TCampaign } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY });

  const duplicate = async (campaign: TCampaign) => {
    try {
      const copy = await duplicateCampaign(campaign.id);
      showSnackbar({ status: 'success', message: t('campaign.done.duplicated', { name: copy.name }) });
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  /** Pause and resume go at once (both undo each other), with a snackbar. */
  const pauseOrResume = async (action: 'pause' | 'resume', campaign: TCampaign) => {
    try {
      await (action === 'pause' ? pauseCampaign(campaign.id) : resumeCampaign(campaign.id));
      showSnackbar({
        status: 'success',
        message: t(`campaign.done.${action === 'pause' ? 'paused' : 'resumed'}`, { name: campaign.name }),
      });
      await refresh();
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const run = (action: TCampaignAction, campaign: TCampaign) => {
    if (action === 'statistics') void navigate(`/campaign/${campaign.id}`);
    else if (action === 'edit') void navigate(`/campaign/${campaign.id}/edit`);
    else if (action === 'edit_schedule') void navigate(`/campaign/${campaign.id}/edit?step=schedule`);
    else if (action === 'duplicate') void duplicate(campaign);
    else if (action === 'pause' || action === 'resume') void pauseOrResume(action, campaign);
    else if (isConfirmed(action)) {
      setRefusal(null);
      setPending({ action, campaign });
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const { action, campaign } = pending;
    setBusy(true);
    try {
      if (action === 'send_now') await sendCampaignNow(campaign.id);
      if (action === 'save_as_draft') await saveCampaignAsDraft(campaign.id);
      if (action === 'cancel') await cancelCampaign(campaign.id);
      if (action === 'delete') await deleteCampaign(campaign.id);
      const done = { send_now: 'sending', save_as_draft: 'drafted', cancel: 'cancelled', delete: 'deleted' }[action];
      showSnackbar({ status: 'success', message: t(`campaign.done.${done}`, { name: campaign.name }) });
      setPending(null);
      if (action === 'delete') onDeleted?.();
      await refresh();
    } catch (error) {
      setRefusal(errorText(error, t));
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <ConfirmDialog
      opened={pending !== null}
      title={pending ? t(`campaign.confirm.${pending.action}_title`) : ''}
      message={
        refusal ? (
          <span role="alert" style={{ color: 'var(--mantine-color-red-7)' }} data-testid="campaign-refusal">
            {refusal}
          </span>
        ) : pending ? (
          t(`campaign.confirm.${pending.action}`, { name: pending.campaign.name })
        ) : (
          ''
        )
      }
      confirmLabel={pending ? t(CONFIRM_LABEL[pending.action]) : undefined}
      cancelLabel={t('campaign.confirm.keep')}
      danger={pending?.action === 'delete' || pending?.action === 'cancel'}
      loading={busy}
      onClose={() => setPending(null)}
      onConfirm={() => void confirm()}
    />
  );
  return { run, dialog };
}
