import { entitlementsFor } from '@yado/contracts/entitlements';
import { STOP_SENTENCES } from '@yado/contracts/scenarios';
import { describe, expect, it } from 'vitest';
import automationsEn from '../../i18n/areas/automations/en.json';
import automationsJa from '../../i18n/areas/automations/ja.json';
import { scenarioActionsFor } from './scenarioActions';

const admin = entitlementsFor('hotel', 'admin', false);
const staff = entitlementsFor('hotel', 'staff', false);
const viewer = entitlementsFor('hotel', 'viewer', false);

describe('scenarioActionsFor', () => {
  it('offers each status its actions of section 4', () => {
    expect(scenarioActionsFor('draft', true, admin)).toEqual(['edit', 'run', 'copy', 'delete']);
    expect(scenarioActionsFor('scheduled', false, admin)).toEqual(['cancel', 'stop', 'copy']);
    expect(scenarioActionsFor('running', false, admin)).toEqual(['summary', 'stop', 'copy']);
    expect(scenarioActionsFor('completed', false, admin)).toEqual(['summary', 'restart', 'resume', 'copy', 'delete']);
    expect(scenarioActionsFor('stopped', false, admin)).toEqual(['summary', 'restart', 'copy', 'delete']);
    expect(scenarioActionsFor('archived', false, admin)).toEqual(['summary', 'restore', 'copy', 'delete']);
  });

  it('hides what the role lacks: staff cannot delete, a viewer only reads', () => {
    expect(scenarioActionsFor('draft', true, staff)).toEqual(['edit', 'run', 'copy']);
    expect(scenarioActionsFor('running', true, viewer)).toEqual(['summary']);
    expect(scenarioActionsFor('draft', true, viewer)).toEqual([]);
  });

  it("offers only copy on another host's draft; past draft the server judges the owner", () => {
    expect(scenarioActionsFor('draft', false, admin)).toEqual(['copy']);
    expect(scenarioActionsFor('running', false, admin)).toEqual(['summary', 'stop', 'copy']);
  });
});

describe('the stop sentence', () => {
  it('is shown in each language exactly as the server accepts it (the English is the specification’s)', () => {
    expect(automationsEn.automations.confirm.stop_sentence).toBe(STOP_SENTENCES.en);
    expect(automationsJa.automations.confirm.stop_sentence).toBe(STOP_SENTENCES.ja);
    expect(STOP_SENTENCES.en).toBe('I acknowledge that this action cannot be undone.');
  });
});
