import { SKIP_REASONS, HOLDOUT_SKIP_REASON } from '@yado/contracts/campaigns';
import {
  JOURNEY_EVENTS,
  JOURNEY_STATES,
  LEAVE_REASONS,
  NODE_STATES,
  SCENARIO_STATUSES,
  STAY_SKIP_REASONS,
} from '@yado/contracts/scenarios';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../../i18n/allTexts';
import { journeyStepDetail } from './journeyStepDetail';

const textAt = (language: 'ja' | 'en', path: string): unknown =>
  path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], ALL_TEXTS[language]);

/**
 * Every code the server writes on a customer's path or a step's state, and the texts that name
 * it: an event (the server's JOURNEY_EVENTS, which its answers are checked against), a state, and
 * the reasons a step's detail carries (a stay's skip, a delivery's skip, a departure, an engine failure).
 */
const CODES: Record<string, readonly string[]> = {
  'automations.journey_event': JOURNEY_EVENTS,
  'automations.journey_state': JOURNEY_STATES,
  'automations.node_state': NODE_STATES,
  'automations.editor.read_only_status': SCENARIO_STATUSES.filter((s) => s !== 'draft'),
  'automations.journey_reason': [
    ...STAY_SKIP_REASONS,
    ...SKIP_REASONS,
    HOLDOUT_SKIP_REASON,
    ...LEAVE_REASONS,
    'node_missing',
    'campaign_failed',
  ],
};

describe("the texts of a customer's path", () => {
  it.each(['ja', 'en'] as const)('name every code the server can write, none left as the code (%s)', (language) => {
    for (const [prefix, codes] of Object.entries(CODES))
      for (const code of codes) {
        const text = textAt(language, `${prefix}.${code}`);
        expect(typeof text, `${prefix}.${code}`).toBe('string');
        expect(text, `${prefix}.${code}`).not.toBe(code);
      }
  });

  it('names the reason of a failed mail step from the error catalogue when it is one of its codes', async () => {
    await i18next.changeLanguage('en');
    const text = journeyStepDetail({ event: 'failed', detail: 'email_incomplete' }, i18next.t, 'en', 'Asia/Tokyo');
    expect(text).not.toBe('email_incomplete');
    expect(text).toBe(i18next.t('errors.email_incomplete'));
  });
});
