import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { pausedText, warningText } from './pausedText';

const AT = '2026-11-26T06:04:00.000Z';

describe('a paused campaign', () => {
  it('names who paused it', async () => {
    await i18next.changeLanguage('en');
    expect(pausedText({ at: AT, by: { id: 'u1', name: '田中 花子' } }, i18next.t, 'en', 'Asia/Tokyo')).toBe(
      'Paused by 田中 花子 at 26 Nov 2026, 3:04 PM',
    );
  });

  it('says why it paused itself, with the rate, in both languages', async () => {
    const paused = { at: AT, by: null, reason: { kind: 'hard_bounce' as const, rate: 0.0523 } };
    await i18next.changeLanguage('en');
    expect(pausedText(paused, i18next.t, 'en', 'Asia/Tokyo')).toMatch(
      /^Paused automatically: hard-bounce rate 5\.2% at 26 Nov 2026, 3:04 PM\./,
    );
    await i18next.changeLanguage('ja');
    expect(pausedText(paused, i18next.t, 'ja', 'Asia/Tokyo')).toMatch(
      /^自動で一時停止しました: ハードバウンス率 5\.2%（2026年11月26日 午後3:04）。/,
    );
    const complaint = { ...paused, reason: { kind: 'complaint' as const, rate: 0.004 } };
    expect(pausedText(complaint, i18next.t, 'ja', 'Asia/Tokyo')).toMatch(
      /^自動で一時停止しました: 迷惑メール報告率 0\.4%/,
    );
    await i18next.changeLanguage('en');
  });
});

describe('a warning of a finished campaign', () => {
  it('says its rate against the limit and to check the list before the next campaign, not that it will pause', async () => {
    await i18next.changeLanguage('en');
    const complaint = { kind: 'complaint' as const, rate: 0.0014, pausePct: 0.3 };
    expect(warningText(complaint, i18next.t, 'en')).toContain('this campaign pauses itself at 0.3%');
    expect(warningText(complaint, i18next.t, 'en', true)).toBe(
      'Complaint rate 0.14% (a campaign pauses itself at 0.3%). Check who the next campaign goes to before you send it.',
    );
    const over = { kind: 'hard_bounce' as const, rate: 0.109, pausePct: 5 };
    expect(warningText(over, i18next.t, 'en', true)).toMatch(
      /^Hard-bounce rate 10\.9%, past the 5% at which a campaign pauses itself, but it had nothing left to send\./,
    );
    await i18next.changeLanguage('ja');
    expect(warningText(over, i18next.t, 'ja', true)).toMatch(
      /^ハードバウンス率 10\.9%: キャンペーンが自動で一時停止する 5% を超えました/,
    );
    expect(warningText(complaint, i18next.t, 'ja', true)).not.toContain('その前に');
    await i18next.changeLanguage('en');
  });
});
