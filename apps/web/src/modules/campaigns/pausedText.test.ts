import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { pausedText } from './pausedText';

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
