import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLanguage } from '../../../i18n/i18n';
import { actAtOnce, useConfirmedAction } from '../../ui/hooks/useConfirmedAction';
import { actOnScenario, copyScenario, deleteScenario, SCENARIOS_QUERY_KEY } from '../api/scenariosCalls';
import { isConfirmedScenarioAction, type TConfirmedScenarioAction, type TScenarioMenuAction } from '../scenarioActions';

export interface TActedScenario {
  id: string;
  name: string;
  /** Said after the confirmation's message (a run whose send time falls in the quiet hours). */
  note?: string;
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
  const refresh = () => queryClient.invalidateQueries({ queryKey: SCENARIOS_QUERY_KEY });

  const { ask, dialog } = useConfirmedAction<TConfirmedScenarioAction, TActedScenario>({
    perform: (action, scenario) =>
      action === 'delete'
        ? deleteScenario(scenario.id)
        : // The sentence as typed, in the user's language: the dialog let it through only when it matched, and the server checks it again.
          actOnScenario(scenario.id, action, action === 'stop' ? t('automations.confirm.stop_sentence') : undefined),
    doneText: (action, scenario) => t(`automations.done.${action}`, { name: scenario.name }),
    confirmText: (action, scenario) => ({
      title: t(`automations.confirm.${action}_title`),
      message: [t(`automations.confirm.${action}`, { name: scenario.name }), scenario.note].filter(Boolean).join(' '),
      typedSentence: action === 'stop' ? t('automations.confirm.stop_sentence') : undefined,
      confirmLabel: t(`automations.actions.${action}`),
      cancelLabel: t('automations.confirm.keep'),
      danger: action === 'stop' || action === 'delete' || action === 'restart',
    }),
    onDone: async (action) => {
      await refresh();
      options.onDone?.(action);
    },
    onRefused: options.onRefused,
    refusalTestId: 'scenario-refusal',
  });

  const run = (action: TScenarioMenuAction, scenario: TActedScenario) => {
    if (action === 'edit') void navigate(editorPath(scenario.id));
    else if (action === 'summary') void navigate(summaryPath(scenario.id));
    else if (action === 'copy')
      void actAtOnce(
        async () => t('automations.done.copy', { name: (await copyScenario(scenario.id, currentLanguage())).name }),
        t,
        async () => {
          await refresh();
          options.onDone?.('copy');
        },
      );
    else if (isConfirmedScenarioAction(action)) ask(action, scenario);
  };

  return { run, dialog };
}
