import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/http/errorText';
import { ConfirmDialog } from '../../ui/components/ConfirmDialog';
import { showSnackbar } from '../../ui/components/Snackbar';
import { actOnScenario, copyScenario, deleteScenario, SCENARIOS_QUERY_KEY } from '../api/scenariosCalls';
import { isConfirmedScenarioAction, type TConfirmedScenarioAction, type TScenarioMenuAction } from '../scenarioActions';

export interface TActedScenario {
  id: string;
  name: string;
}

export function editorPath(id: string): string {
  return `/automations/editor?id=${encodeURIComponent(id)}`;
}

export function summaryPath(id: string): string {
  return `/automations/scenario/${encodeURIComponent(id)}`;
}

/**
 * Runs a scenario action: navigation and copy at once, the rest after a confirmation. Restart says
 * before it happens that it reinitialises the configuration and overrides unsaved progress; stop
 * wants the typed sentence. A refusal (a run the server finds incomplete, another user's change)
 * stays in the dialog in the user's language, and `onRefused` gets it to mark the nodes.
 */
export function useScenarioActions(
  options: { onDone?: (action: TScenarioMenuAction) => void; onRefused?: (error: unknown) => void } = {},
): {
  run: (action: TScenarioMenuAction, scenario: TActedScenario) => void;
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<{ action: TConfirmedScenarioAction; scenario: TActedScenario } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: SCENARIOS_QUERY_KEY });

  const copy = async (scenario: TActedScenario) => {
    try {
      const made = await copyScenario(scenario.id);
      showSnackbar({ status: 'success', message: t('automations.done.copy', { name: made.name }) });
      await refresh();
      options.onDone?.('copy');
    } catch (error) {
      showSnackbar({ status: 'failed', message: errorText(error, t) });
    }
  };

  const run = (action: TScenarioMenuAction, scenario: TActedScenario) => {
    if (action === 'edit') void navigate(editorPath(scenario.id));
    else if (action === 'summary') void navigate(summaryPath(scenario.id));
    else if (action === 'copy') void copy(scenario);
    else if (isConfirmedScenarioAction(action)) {
      setRefusal(null);
      setPending({ action, scenario });
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const { action, scenario } = pending;
    setBusy(true);
    try {
      if (action === 'delete') await deleteScenario(scenario.id);
      // The sentence as typed, in the user's language: the dialog let it through only when it matched, and the server checks it again.
      else
        await actOnScenario(
          scenario.id,
          action,
          action === 'stop' ? t('automations.confirm.stop_sentence') : undefined,
        );
      showSnackbar({ status: 'success', message: t(`automations.done.${action}`, { name: scenario.name }) });
      setPending(null);
      await refresh();
      options.onDone?.(action);
    } catch (error) {
      setRefusal(errorText(error, t));
      options.onRefused?.(error);
    } finally {
      setBusy(false);
    }
  };

  const danger = pending?.action === 'stop' || pending?.action === 'delete' || pending?.action === 'restart';
  const dialog = (
    <ConfirmDialog
      opened={pending !== null}
      title={pending ? t(`automations.confirm.${pending.action}_title`) : ''}
      message={
        refusal ? (
          <span role="alert" style={{ color: 'var(--mantine-color-red-7)' }} data-testid="scenario-refusal">
            {refusal}
          </span>
        ) : pending ? (
          t(`automations.confirm.${pending.action}`, { name: pending.scenario.name })
        ) : (
          ''
        )
      }
      typedSentence={pending?.action === 'stop' ? t('automations.confirm.stop_sentence') : undefined}
      confirmLabel={pending ? t(`automations.actions.${pending.action}`) : undefined}
      cancelLabel={t('automations.confirm.keep')}
      danger={danger}
      loading={busy}
      onClose={() => setPending(null)}
      onConfirm={() => void confirm()}
    />
  );
  return { run, dialog };
}
