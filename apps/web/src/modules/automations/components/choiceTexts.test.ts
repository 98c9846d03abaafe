import {
  BRANCH_CONDITIONS,
  DELAY_KINDS,
  DELAY_UNITS,
  MONTHS,
  PRESET_COLOURS,
  REPEAT_UNITS,
  RUN_PERIOD_KINDS,
  SCENARIO_STATUSES,
  TRIGGER_KINDS,
  WEEKDAYS,
} from '@yado/contracts/scenarios';
import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../../i18n/allTexts';

/** Each choice the automations pages offer (a select's options, a group of checkboxes) and its texts. */
const CHOICES: Record<string, readonly (string | number)[]> = {
  'trigger.types': TRIGGER_KINDS,
  'delay.types': DELAY_KINDS,
  'delay.units': DELAY_UNITS,
  'delay.weekday_names': WEEKDAYS,
  'delay.month_names': MONTHS,
  'branch.kinds': BRANCH_CONDITIONS,
  run_period: RUN_PERIOD_KINDS,
  'run_period.units': REPEAT_UNITS,
  status: SCENARIO_STATUSES,
  'preset.colors': PRESET_COLOURS,
};

describe('the choices of the automations pages', () => {
  it.each(['ja', 'en'] as const)('name each option apart from the others of its choice (%s)', (language) => {
    for (const [prefix, values] of Object.entries(CHOICES)) {
      const texts = values.map((value) =>
        `${prefix}.${value}`
          .split('.')
          .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], ALL_TEXTS[language].automations),
      );
      for (const text of texts) expect(typeof text, `${prefix}: ${String(text)}`).toBe('string');
      // Two options reading alike cannot be told apart ("until a date" and "until a day of the month").
      expect(new Set(texts).size, `${prefix}: ${texts.join(' / ')}`).toBe(texts.length);
    }
  });
});
