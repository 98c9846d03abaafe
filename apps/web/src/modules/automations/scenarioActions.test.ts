import { entitlementsFor } from '@yado/contracts/entitlements';
import { describe, expect, it } from 'vitest';
import { scenarioActionsFor } from './scenarioActions';

const admin = entitlementsFor('hotel', 'admin', false);
const staff = entitlementsFor('hotel', 'staff', false);
const viewer = entitlementsFor('hotel', 'viewer', false);

describe('scenarioActionsFor', () => {
  it('offers each status its actions of section 4', () => {
    expect(scenarioActionsFor('draft', true, admin)).toEqual(['edit', 'run', 'copy', 'delete']);
    expect(scenarioActionsFor('scheduled', true, admin)).toEqual(['cancel', 'stop', 'copy']);
    expect(scenarioActionsFor('running', true, admin)).toEqual(['summary', 'stop', 'copy']);
    expect(scenarioActionsFor('completed', true, admin)).toEqual(['summary', 'restart', 'resume', 'copy', 'delete']);
    expect(scenarioActionsFor('stopped', true, admin)).toEqual(['summary', 'restart', 'copy', 'delete']);
    expect(scenarioActionsFor('archived', true, admin)).toEqual(['summary', 'restore', 'copy', 'delete']);
  });

  it('hides what the role lacks: staff cannot delete, a viewer only reads', () => {
    expect(scenarioActionsFor('draft', true, staff)).toEqual(['edit', 'run', 'copy']);
    expect(scenarioActionsFor('running', true, viewer)).toEqual(['summary']);
    expect(scenarioActionsFor('draft', true, viewer)).toEqual([]);
  });

  it("offers only summary and copy on another host's scenario", () => {
    expect(scenarioActionsFor('running', false, admin)).toEqual(['summary', 'copy']);
    expect(scenarioActionsFor('draft', false, admin)).toEqual(['copy']);
  });
});
