import type { TCampaign } from '@yado/contracts/campaigns';
import { describe, expect, it } from 'vitest';
import { actionsFor } from './campaignActions';
import {
  draftFromCampaign,
  emptyDraft,
  experimentInputOf,
  firstIncompleteStep,
  inputOf,
  scheduleOf,
  stepProblems,
  type TCampaignDraft,
} from './campaignDraft';
import { instantToWallClock, wallClockToInstant } from './zonedTime';

const NOW = Date.parse('2026-11-24T05:00:00Z');
const ALL = {
  'campaign.view_campaign_report': true,
  'campaign.create': true,
  'campaign.update': true,
  'campaign.delete': true,
} as const;
const VIEWER = { 'campaign.view_campaign_report': true } as const;

const complete = (): TCampaignDraft => ({
  ...emptyDraft('Asia/Tokyo', 'news@sakura.example'),
  name: 'Summer',
  subject: 'Summer stays',
  segmentIds: ['s1'],
  templateId: 't1',
});

describe('campaign actions by state', () => {
  it('offer editing, sending and deleting a draft, but not cancelling or statistics', () => {
    expect(actionsFor('draft', true, ALL)).toEqual(['edit', 'send_now', 'duplicate', 'delete']);
  });

  it('offer edit schedule, save as draft and cancel for a scheduled campaign', () => {
    expect(actionsFor('scheduled', true, ALL)).toEqual([
      'edit',
      'edit_schedule',
      'send_now',
      'save_as_draft',
      'cancel',
      'duplicate',
      'delete',
    ]);
  });

  it('keep a campaign being sent from deletion and change', () => {
    expect(actionsFor('pending', true, ALL)).toEqual(['statistics', 'pause', 'duplicate']);
    // A paused send offers resume or cancel instead; a viewer or another host's user neither.
    expect(actionsFor('pending', true, ALL, 'campaign', true)).toEqual(['statistics', 'cancel', 'resume', 'duplicate']);
    expect(actionsFor('pending', false, ALL)).toEqual(['statistics', 'duplicate']);
    expect(actionsFor('pending', true, VIEWER, 'campaign', true)).toEqual(['statistics']);
  });

  it('show statistics of sent and failed campaigns, none of a cancelled one', () => {
    expect(actionsFor('sent', true, ALL)).toEqual(['statistics', 'duplicate', 'delete']);
    expect(actionsFor('failed', true, ALL)).toEqual(['statistics', 'duplicate', 'delete']);
    expect(actionsFor('cancelled', true, ALL)).toEqual(['duplicate', 'delete']);
    // Cancelled while paused, after its send began: what went out is still reported.
    expect(actionsFor('cancelled', true, ALL, 'campaign', false, true)).toEqual(['statistics', 'duplicate', 'delete']);
  });

  it("give a hotel its brand's campaign to its guests to read only, not to copy", () => {
    expect(actionsFor('sent', false, ALL, 'own_guests')).toEqual(['statistics']);
    expect(actionsFor('pending', false, ALL, 'own_guests')).toEqual(['statistics']);
  });

  it('give viewers the report only', () => {
    expect(actionsFor('scheduled', true, VIEWER)).toEqual([]);
    expect(actionsFor('sent', true, VIEWER)).toEqual(['statistics']);
  });

  it('hide delete from staff and changes of another host’s campaign', () => {
    const staff = { ...ALL, 'campaign.delete': false };
    expect(actionsFor('draft', true, staff)).not.toContain('delete');
    expect(actionsFor('scheduled', false, ALL)).toEqual(['duplicate']);
  });
});

describe('campaign steps', () => {
  it('ask for a name, a subject and a sender in the details', () => {
    const problems = stepProblems(emptyDraft('Asia/Tokyo', null), 'details', NOW);
    expect(problems.name?.key).toBe('validation.required');
    expect(problems.subject?.key).toBe('validation.required');
    expect(problems.senderEmail?.key).toBe('campaign.details.settings_missing');
    expect(stepProblems(complete(), 'details', NOW)).toEqual({});
  });

  it('refuse an over-long subject with its limit', () => {
    const problems = stepProblems({ ...complete(), subject: 'x'.repeat(201) }, 'details', NOW);
    expect(problems.subject).toEqual({ key: 'campaign.details.too_long', values: { max: 200 } });
  });

  it('need a segment, and refuse one both included and excluded', () => {
    expect(stepProblems({ ...complete(), segmentIds: [] }, 'recipients', NOW).segmentIds?.key).toBe(
      'campaign.recipients.none_chosen',
    );
    expect(stepProblems({ ...complete(), excludeSegmentIds: ['s1'] }, 'recipients', NOW).excludeSegmentIds?.key).toBe(
      'campaign.recipients.both',
    );
  });

  it('need a template', () => {
    expect(stepProblems({ ...complete(), templateId: null }, 'content', NOW).templateId?.key).toBe(
      'campaign.content.none_chosen',
    );
  });

  it('refuse a schedule in the past or not a date, in the chosen zone', () => {
    const at = { ...complete(), scheduleKind: 'at' as const };
    // 13:59 in Tokyo is 04:59 UTC, a minute before "now".
    expect(stepProblems({ ...at, date: '2026-11-24', time: '13:59' }, 'schedule', NOW).date?.key).toBe(
      'campaign.schedule.in_past',
    );
    expect(stepProblems({ ...at, date: '2026-11-24', time: '14:01' }, 'schedule', NOW)).toEqual({});
    // The same clock reading in New York is hours later, so still to come.
    expect(
      stepProblems({ ...at, date: '2026-11-24', time: '13:59', timeZone: 'America/New_York' }, 'schedule', NOW),
    ).toEqual({});
    expect(stepProblems({ ...at, date: '2026-02-30', time: '10:00' }, 'schedule', NOW).date?.key).toBe(
      'campaign.schedule.invalid',
    );
    expect(stepProblems({ ...complete(), scheduleKind: 'now' }, 'schedule', NOW)).toEqual({});
  });

  it('name the first incomplete step, and none when all are done', () => {
    expect(firstIncompleteStep(emptyDraft('Asia/Tokyo', 'a@b.jp'), NOW)).toBe('details');
    expect(firstIncompleteStep({ ...complete(), templateId: null }, NOW)).toBe('content');
    expect(firstIncompleteStep(complete(), NOW)).toBeNull();
    expect(Object.keys(stepProblems({ ...complete(), segmentIds: [] }, 'review', NOW))).toEqual(['segmentIds']);
  });

  it('send a wall-clock schedule with its zone; save a draft with it as planned, a scheduled campaign without', () => {
    const draft = { ...complete(), scheduleKind: 'at' as const, date: '2026-12-01', time: '09:30' };
    expect(scheduleOf(draft)).toEqual({ kind: 'at', localTime: '2026-12-01T09:30', timeZone: 'Asia/Tokyo' });
    expect(scheduleOf(complete())).toEqual({ kind: 'now' });
    const saved = {
      name: 'Summer',
      subject: 'Summer stays',
      preHeader: '',
      senderEmail: 'news@sakura.example',
      recipients: { segmentIds: ['s1'], excludeSegmentIds: [] },
      templateId: 't1',
      experiment: { variants: [], testPercent: 20, waitHours: 4, metric: 'clicks', holdoutPercent: null },
    };
    expect(inputOf({ ...draft, name: '  Summer  ' }, { draft: true })).toEqual({
      ...saved,
      plannedSchedule: { kind: 'at', localTime: '2026-12-01T09:30', timeZone: 'Asia/Tokyo' },
    });
    expect(inputOf({ ...draft, name: '  Summer  ' }, { draft: false })).toEqual(saved);
    // A time half typed keeps the one saved before.
    expect(inputOf({ ...draft, name: 'Summer', time: '' }, { draft: true })).toEqual(saved);
    expect(inputOf({ ...complete(), name: 'Summer' }, { draft: true }).plannedSchedule).toEqual({ kind: 'now' });
  });

  it('reopen a scheduled campaign at its date, time and zone', () => {
    const campaign = {
      name: 'Autumn',
      subject: 'S',
      preHeader: '',
      senderEmail: null,
      recipients: { segmentIds: ['a'], excludeSegmentIds: ['b'] },
      templateId: 't',
      schedule: { kind: 'at', localTime: '2026-12-24T18:00', timeZone: 'Europe/London' },
      experiment: {
        variants: [{ key: 'B', subject: 'T', preHeader: '', senderName: null, templateId: 'u', templateName: 'U' }],
        testPercent: 30,
        waitHours: 8,
        metric: 'bookings',
        holdoutPercent: 5,
      },
    } as unknown as TCampaign;
    const draft = draftFromCampaign(campaign, 'Asia/Tokyo', 'news@x.jp');
    expect(draft).toMatchObject({ scheduleKind: 'at', date: '2026-12-24', time: '18:00', timeZone: 'Europe/London' });
    // Its A/B test as it was saved: a sender name of "same as A" is an empty field.
    expect(draft.experiment).toEqual({
      variants: [{ subject: 'T', preHeader: '', senderName: '', templateId: 'u' }],
      testPercent: 30,
      waitHours: 8,
      metric: 'bookings',
      holdoutPercent: 5,
    });
    expect(draft.senderEmail).toBe('news@x.jp');
  });
});

describe('wall-clock time in a zone', () => {
  it('turns a Tokyo reading into UTC and back', () => {
    expect(wallClockToInstant({ date: '2026-11-24', time: '09:00' }, 'Asia/Tokyo')).toBe('2026-11-24T00:00:00.000Z');
    expect(instantToWallClock('2026-11-24T00:00:00.000Z', 'Asia/Tokyo')).toEqual({ date: '2026-11-24', time: '09:00' });
  });

  it('follows daylight saving time', () => {
    expect(wallClockToInstant({ date: '2026-07-01', time: '12:00' }, 'America/New_York')).toBe(
      '2026-07-01T16:00:00.000Z',
    );
    expect(wallClockToInstant({ date: '2026-12-01', time: '12:00' }, 'America/New_York')).toBe(
      '2026-12-01T17:00:00.000Z',
    );
  });

  it('refuses what is not a date, a time or a zone', () => {
    expect(wallClockToInstant({ date: '2026-13-01', time: '10:00' }, 'UTC')).toBeNull();
    expect(wallClockToInstant({ date: '2026-01-01', time: '24:00' }, 'UTC')).toBeNull();
    expect(wallClockToInstant({ date: '2026-01-01', time: '10:00' }, 'Mars/Olympus')).toBeNull();
  });
});

describe('the A/B test as saved', () => {
  it('leaves a variant without a subject out, says "same as A" with null, and keeps the numbers within range', () => {
    expect(
      experimentInputOf({
        variants: [
          { subject: ' 冬だけの特別料金 ', preHeader: '', senderName: ' ', templateId: null },
          { subject: '  ', preHeader: 'x', senderName: 'さくら', templateId: null },
        ],
        testPercent: 5,
        waitHours: 100,
        metric: 'bookings',
        holdoutPercent: 0,
      }),
    ).toEqual({
      variants: [{ subject: '冬だけの特別料金', preHeader: '', senderName: null, templateId: null }],
      testPercent: 10,
      waitHours: 72,
      metric: 'bookings',
      holdoutPercent: 1,
    });
  });

  it('keeps the content step from completing while a variant has no subject', () => {
    const draft = { ...emptyDraft('Asia/Tokyo', 'info@example.jp'), templateId: 't1' };
    expect(stepProblems(draft, 'content', NOW)).toEqual({});
    const blank = { subject: '', preHeader: '', senderName: '', templateId: null };
    expect(stepProblems({ ...draft, experiment: { ...draft.experiment, variants: [blank] } }, 'content', NOW)).toEqual({
      experiment: { key: 'experiments.editor.variants_incomplete' },
    });
  });
});
