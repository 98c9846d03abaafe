import { DELAY_UNITS, REPEAT_UNITS, type TScenarioNode, type TScenarioRun } from '@yado/contracts/scenarios';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { runPeriodText } from '../components/runPeriodText';
import { nodeText } from './nodeText';

const wait = (amount: number, unit: (typeof DELAY_UNITS)[number]): TScenarioNode => ({
  id: 'wait',
  type: 'delay',
  position: { x: 0, y: 0 },
  data: { kind: 'duration', amount, unit },
});

const recurring = (every: number, unit: (typeof REPEAT_UNITS)[number]): TScenarioRun => ({
  period: { kind: 'recurring', every, unit },
  startDate: null,
  startTime: null,
  endDate: null,
  endTime: null,
  timeZone: 'Asia/Tokyo',
  sendTime: '09:00',
});

describe('counted step and run period texts', () => {
  afterAll(() => i18next.changeLanguage('en'));

  it('read "Wait 1 day" and "Every 1 day" in English, never "1 days" (a new delay step waits 1 day)', async () => {
    await i18next.changeLanguage('en');
    expect(nodeText(wait(1, 'days'), i18next.t)).toBe('Wait 1 day');
    expect(nodeText(wait(3, 'days'), i18next.t)).toBe('Wait 3 days');
    expect(nodeText(wait(1, 'hours'), i18next.t)).toBe('Wait 1 hour');
    expect(nodeText(wait(30, 'minutes'), i18next.t)).toBe('Wait 30 minutes');
    expect(runPeriodText(recurring(1, 'days'), i18next.t)).toBe('Recurring · Every 1 day (Asia/Tokyo)');
    expect(runPeriodText(recurring(2, 'weeks'), i18next.t)).toBe('Recurring · Every 2 weeks (Asia/Tokyo)');
    for (const unit of DELAY_UNITS) expect(nodeText(wait(1, unit), i18next.t)).not.toMatch(/\b1 \w+s\b/);
    for (const unit of REPEAT_UNITS) expect(runPeriodText(recurring(1, unit), i18next.t)).not.toMatch(/\b1 \w+s\b/);
  });

  it('read with the number in Japanese', async () => {
    await i18next.changeLanguage('ja');
    expect(nodeText(wait(1, 'days'), i18next.t)).toBe('1 日待つ');
    expect(nodeText(wait(2, 'hours'), i18next.t)).toBe('2 時間待つ');
    expect(runPeriodText(recurring(1, 'days'), i18next.t)).toBe('繰り返し · 1 日ごと (Asia/Tokyo)');
    expect(runPeriodText(recurring(3, 'months'), i18next.t)).toBe('繰り返し · 3 か月ごと (Asia/Tokyo)');
    for (const unit of REPEAT_UNITS)
      expect(runPeriodText(recurring(2, unit), i18next.t).replace(' (Asia/Tokyo)', '')).not.toMatch(/[a-z]/i);
  });
});
