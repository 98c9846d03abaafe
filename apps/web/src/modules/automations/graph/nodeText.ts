import type { TScenarioNode } from '@yado/contracts/scenarios';
import type { TFunction } from 'i18next';

/** One line saying what a step does, shown on its card in the canvas. */
export function nodeText(node: TScenarioNode, t: TFunction, templateName?: string): string {
  switch (node.type) {
    case 'trigger': {
      const kind = t(`automations.trigger.types.${node.data.kind}`);
      return 'days' in node.data ? `${kind}: ${t('automations.node_text.days', { count: node.data.days })}` : kind;
    }
    case 'delay': {
      const d = node.data;
      if (d.kind === 'duration')
        // Counted per unit: "Wait 1 day", "Wait 3 days".
        return t(`automations.node_text.wait_${d.unit}`, { count: d.amount });
      if (d.kind === 'weekday')
        return `${t('automations.delay.types.weekday')}: ${d.weekdays.map((w) => t(`automations.delay.weekday_names.${w}`)).join(', ')}`;
      if (d.kind === 'day_of_month') return `${t('automations.delay.types.day_of_month')}: ${d.day}`;
      if (d.kind === 'month')
        return `${t('automations.delay.types.month')}: ${d.months.map((m) => t(`automations.delay.month_names.${m}`)).join(', ')}`;
      if (d.kind === 'time_of_day') return `${t('automations.delay.types.time_of_day')}: ${d.time}`;
      return `${t('automations.delay.types.date')}: ${d.date} ${d.time ?? ''}`.trim();
    }
    case 'branch':
      return t(`automations.branch.kinds.${node.data.condition}`);
    case 'email':
      return node.data.subject || templateName || t('automations.node_text.email_unset');
  }
}
