import {
  SCENARIO_GRAPH_VERSION,
  ZScenarioRunInput,
  type TBuiltInPreset,
  type TPreset,
  type TScenarioGraph,
  type TTrigger,
} from '@yado/contracts/scenarios';

/**
 * The presets every hotel starts from (issue 14), for the hotel stay. Each makes a draft whose
 * email still needs its template, subject and sender (the run says so at the node), so a hotel
 * turns "3 days before check-in" on by choosing those three and pressing run. Names and
 * descriptions are the console's catalogue texts by key; the English here is for the API.
 */

const email = { templateId: null, subject: '', senderEmail: null };

const triggerThenEmail = (trigger: TTrigger, emailLabel: string): TScenarioGraph => ({
  version: SCENARIO_GRAPH_VERSION,
  nodes: [
    { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: trigger },
    { id: 'email', type: 'email', position: { x: 0, y: 160 }, label: emailLabel, data: email },
  ],
  edges: [{ id: 'trigger-email', source: 'trigger', target: 'email', handle: 'next' }],
});

const RUN = ZScenarioRunInput.parse({ period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime: '09:00' });

const PRESETS: Record<TBuiltInPreset, Omit<TPreset, 'id' | 'builtIn' | 'hostId' | 'editable' | 'createdAt' | 'run'>> = {
  pre_arrival: {
    name: 'Pre-arrival',
    description: 'An email 3 days before check-in.',
    emoji: '🧳',
    colour: 'blue',
    graph: triggerThenEmail({ kind: 'before_check_in', days: 3 }, 'See you soon'),
  },
  check_in_welcome: {
    name: 'Welcome on check-in day',
    description: 'A welcome email on the day of check-in.',
    emoji: '🛎️',
    colour: 'teal',
    graph: triggerThenEmail({ kind: 'check_in_day' }, 'Welcome'),
  },
  post_stay_thanks: {
    name: 'Thank-you and review request',
    description: 'A thank-you with a review request 1 day after check-out.',
    emoji: '🙏',
    colour: 'grape',
    graph: triggerThenEmail({ kind: 'after_check_out', days: 1 }, 'Thank you'),
  },
  birthday: {
    name: 'Birthday',
    description: "A greeting on the guest's birthday.",
    emoji: '🎂',
    colour: 'pink',
    graph: triggerThenEmail({ kind: 'birthday' }, 'Happy birthday'),
  },
  win_back: {
    name: 'Win-back',
    description:
      'An email to guests with no stay for 12 months: choose a dynamic segment of them (last check-out more than 12 months ago).',
    emoji: '💌',
    colour: 'orange',
    graph: triggerThenEmail({ kind: 'segment_entered', segmentId: null }, 'We miss you'),
  },
};

export const BUILT_IN_PREFIX = 'builtin:';

export function builtInPresets(): TPreset[] {
  return (Object.keys(PRESETS) as TBuiltInPreset[]).map((key) => ({
    id: `${BUILT_IN_PREFIX}${key}`,
    builtIn: key,
    hostId: null,
    editable: false,
    createdAt: null,
    run: RUN,
    ...PRESETS[key],
  }));
}

export function builtInPreset(id: string): TPreset | null {
  return builtInPresets().find((p) => p.id === id) ?? null;
}
