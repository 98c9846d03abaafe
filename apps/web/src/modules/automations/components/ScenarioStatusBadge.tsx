import { Badge } from '@mantine/core';
import type { TScenarioStatus } from '@yado/contracts/scenarios';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TScenarioStatus, string> = {
  draft: 'gray',
  scheduled: 'blue',
  running: 'green',
  completed: 'teal',
  stopped: 'red',
  archived: 'dark',
};

export function ScenarioStatusBadge({ status }: { status: TScenarioStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="scenario-status" data-status={status}>
      {t(`automations.status.${status}`)}
    </Badge>
  );
}
