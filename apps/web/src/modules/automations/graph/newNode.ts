import type { TDelay, TNodeType, TScenarioNode, TTrigger } from '@yado/contracts/scenarios';

/** A fresh step of a kind, as the palette drops it: the most common choice, ready to adjust. */
export function newNode(
  type: TNodeType,
  id: string,
  position: TScenarioNode['position'],
  senderEmail: string | null,
): TScenarioNode {
  switch (type) {
    case 'trigger':
      return { id, type, position, data: { kind: 'before_check_in', days: 3 } };
    case 'delay':
      return { id, type, position, data: { kind: 'duration', amount: 1, unit: 'days' } };
    case 'branch':
      return { id, type, position, data: { condition: 'opened_previous' } };
    case 'email':
      return { id, type, position, data: { templateId: null, subject: '', senderEmail } };
  }
}

/** The settings a trigger kind starts with when the user switches to it. */
export function triggerOfKind(kind: TTrigger['kind']): TTrigger {
  switch (kind) {
    case 'segment_members':
    case 'segment_entered':
      return { kind, segmentId: null };
    case 'before_check_in':
      return { kind, days: 3 };
    case 'after_check_out':
      return { kind, days: 1 };
    default:
      return { kind };
  }
}

/** The settings a delay kind starts with when the user switches to it. */
export function delayOfKind(kind: TDelay['kind']): TDelay {
  switch (kind) {
    case 'duration':
      return { kind, amount: 1, unit: 'days' };
    case 'weekday':
      return { kind, weekdays: [1], time: '09:00' };
    case 'day_of_month':
      return { kind, day: 1, time: '09:00' };
    case 'month':
      return { kind, months: [1], day: 1, time: '09:00' };
    case 'time_of_day':
      return { kind, time: '09:00' };
    case 'date':
      return { kind, date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10), time: '09:00' };
  }
}

/** A node id the contract accepts (letters, digits, - and _), unique enough within one graph. */
export function newNodeId(type: TNodeType): string {
  return `${type}-${Math.random().toString(36).slice(2, 10)}`;
}
