import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { experimentReportFixture } from '../../test/fixtures';
import { decisionText, holdoutResultText, phaseText } from './experimentTexts';

const t = i18next.t;

describe('the words of an A/B test report', () => {
  afterEach(async () => {
    await i18next.changeLanguage('en');
  });

  it('says which variant won, on what, against the best of the others, in both languages', async () => {
    const report = experimentReportFixture();
    expect(decisionText(report, t, 'en')).toBe(
      'B won on clicks: 4.1% against 3.2%, 95% confidence. B went to the rest.',
    );
    await i18next.changeLanguage('ja');
    expect(decisionText(report, t, 'ja')).toBe(
      'Bがクリック率で勝ちました：3.2%に対して4.1%（信頼度95%）。残りのゲストにはBを送りました。',
    );
  });

  it('says an inconclusive test sent the original, and why: no significant difference or too few recipients', () => {
    const report = experimentReportFixture();
    expect(
      decisionText({ ...report, decision: { kind: 'inconclusive', reason: 'not_significant', key: 'A' } }, t, 'en'),
    ).toBe('Inconclusive: no variant beat the others at 95% confidence; A, the original, went to the rest.');
    expect(decisionText({ ...report, decision: { kind: 'inconclusive', reason: 'too_few', key: 'A' } }, t, 'en')).toBe(
      'Inconclusive: too few recipients per variant (at least 500 are needed); A, the original, went to the rest.',
    );
  });

  it('names who picked a winner by hand, and says nothing before a decision', () => {
    const report = experimentReportFixture();
    expect(
      decisionText({ ...report, decision: { kind: 'manual', key: 'B', by: { id: 'u1', name: '田中 花子' } } }, t, 'en'),
    ).toBe('B was picked by hand by 田中 花子 and went to the rest.');
    expect(decisionText({ ...report, decision: null, phase: 'waiting' }, t, 'en')).toBeNull();
  });

  it('gives the end of the wait in the named zone', async () => {
    const waiting = { phase: 'waiting' as const, decideAt: '2026-11-25T03:00:00.000Z' };
    expect(phaseText(waiting, t, 'en', 'Asia/Tokyo')).toBe(
      'Waiting for results until 25 Nov 2026, 12:00 PM (Asia/Tokyo); then the winner goes to the rest.',
    );
    await i18next.changeLanguage('ja');
    expect(phaseText(waiting, t, 'ja', 'Asia/Tokyo')).toContain('（Asia/Tokyo）まで結果を待ち');
  });
});

describe('the words of a holdout comparison', () => {
  it('says what the campaign caused, with ±, and what is not yet certain', () => {
    const [attribution, days30] = experimentReportFixture().holdout!.windows;
    expect(holdoutResultText(attribution!, 'campaign', t, 'en')).toBe(
      'This campaign caused 36 (±12) bookings and ¥1,152,000 (±¥384,000) that would not have happened otherwise (95% confidence).',
    );
    expect(holdoutResultText(days30!, 'scenario', t, 'en')).toBe(
      'No difference that holds at 95% confidence yet: 27 (±36) bookings and ¥864,000 (±¥1,152,000).',
    );
  });

  it('says plainly when the holdout is too small to say', async () => {
    const [attribution] = experimentReportFixture().holdout!.windows;
    const small = { ...attribution!, result: { kind: 'too_small' as const, holdout: 40 } };
    expect(holdoutResultText(small, 'campaign', t, 'en')).toBe(
      'The holdout is too small to say: 40 guests held out (at least 100 are needed).',
    );
    expect(holdoutResultText({ ...small, result: { kind: 'too_small', holdout: 1 } }, 'campaign', t, 'en')).toBe(
      'The holdout is too small to say: 1 guest held out (at least 100 are needed).',
    );
    await i18next.changeLanguage('ja');
    expect(holdoutResultText(small, 'campaign', t, 'ja')).toBe(
      'ホールドアウトが少なすぎて判断できません：ホールドアウトは40人です（100人以上必要です）。',
    );
    await i18next.changeLanguage('en');
  });
});
