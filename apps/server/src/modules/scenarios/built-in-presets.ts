import {
  BUILT_IN_PRESETS,
  SCENARIO_GRAPH_VERSION,
  ZScenarioRunInput,
  type TBuiltInPreset,
  type TPreset,
  type TPresetLanguage,
  type TScenarioGraph,
  type TTrigger,
} from '@yado/contracts/scenarios';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };

/**
 * The presets every hotel starts from (issue 14), for the hotel stay. Each makes a draft whose
 * email still needs its template, subject and sender (the run says so at the node), so a hotel
 * turns "3 days before check-in" on by choosing those three and pressing run. Their name,
 * description and email step's label are catalogue texts, in the language asked: a scenario made
 * from one keeps them, so it reads in the language of the user who made it.
 */

const TEXTS = { ja: ja.scenario_presets, en: en.scenario_presets } as const;

const email = { templateId: null, subject: '', senderEmail: null };

const triggerThenEmail = (trigger: TTrigger, emailLabel: string): TScenarioGraph => ({
  version: SCENARIO_GRAPH_VERSION,
  nodes: [
    { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: trigger },
    { id: 'email', type: 'email', position: { x: 0, y: 160 }, label: emailLabel, data: email },
  ],
  edges: [{ id: 'trigger-email', source: 'trigger', target: 'email', handle: 'next' }],
});

/**
 * The run period every built-in preset (and a host's preset made from nothing) shows: a template,
 * as a scenario made from a preset takes the creating host's time zone instead of Tokyo's.
 */
export const PRESET_RUN = ZScenarioRunInput.parse({
  period: { kind: 'long_run' },
  timeZone: 'Asia/Tokyo',
  sendTime: '09:00',
});

const PRESETS: Record<TBuiltInPreset, Pick<TPreset, 'emoji' | 'colour'> & { trigger: TTrigger }> = {
  pre_arrival: { emoji: '🧳', colour: 'blue', trigger: { kind: 'before_check_in', days: 3 } },
  check_in_welcome: { emoji: '🛎️', colour: 'teal', trigger: { kind: 'check_in_day' } },
  post_stay_thanks: { emoji: '🙏', colour: 'grape', trigger: { kind: 'after_check_out', days: 1 } },
  birthday: { emoji: '🎂', colour: 'pink', trigger: { kind: 'birthday' } },
  // Its segment (guests whose last check-out is more than 12 months ago) is the hotel's to choose.
  win_back: { emoji: '💌', colour: 'orange', trigger: { kind: 'segment_entered', segmentId: null } },
};

export const BUILT_IN_PREFIX = 'builtin:';

export function builtInPresets(language: TPresetLanguage): TPreset[] {
  return BUILT_IN_PRESETS.map((key) => {
    const { emoji, colour, trigger } = PRESETS[key];
    const text = TEXTS[language][key];
    return {
      id: `${BUILT_IN_PREFIX}${key}`,
      builtIn: key,
      name: text.name,
      description: text.description,
      emoji,
      colour,
      graph: triggerThenEmail(trigger, text.email_label),
      run: PRESET_RUN,
      hostId: null,
      editable: false,
      createdAt: null,
    };
  });
}

export function builtInPreset(id: string, language: TPresetLanguage): TPreset | null {
  return builtInPresets(language).find((p) => p.id === id) ?? null;
}
