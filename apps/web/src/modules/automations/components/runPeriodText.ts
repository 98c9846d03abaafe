import type { TScenarioRun } from '@yado/contracts/scenarios';
import type { TFunction } from 'i18next';

/** "Recurring · Every 3 days · 2026-12-01 09:00 – 2026-12-31" in the list and the summary. */
export function runPeriodText(run: TScenarioRun, t: TFunction): string {
  const parts = [t(`automations.run_period.${run.period.kind}`)];
  if (run.period.kind === 'recurring') {
    // One key per unit, counted: "Every 1 day" and "Every 3 days", never "Every 1 days".
    parts.push(t(`automations.run_period.every_${run.period.unit}`, { count: run.period.every }));
  }
  const start = run.startDate ? `${run.startDate}${run.startTime ? ` ${run.startTime}` : ''}` : null;
  const end = run.endDate ? `${run.endDate}${run.endTime ? ` ${run.endTime}` : ''}` : null;
  if (start && end) parts.push(t('automations.run_period.from_to', { start, end }));
  else if (start) parts.push(t('automations.run_period.from', { start }));
  return `${parts.join(' · ')} (${run.timeZone})`;
}
