import { STAY_SKIP_REASONS } from '@yado/contracts/scenarios';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { journeyStepDetail } from './journeyStepDetail';

const inBoth = async (step: { event: string; detail: string | null }) => {
  await i18next.changeLanguage('en');
  const en = journeyStepDetail(step, i18next.t, 'en', 'Asia/Tokyo');
  await i18next.changeLanguage('ja');
  const ja = journeyStepDetail(step, i18next.t, 'ja', 'Asia/Tokyo');
  await i18next.changeLanguage('en');
  return { en, ja };
};

describe("a step of a customer's path", () => {
  it('says from when to when a wait moved with the stay, in the scenario time zone', async () => {
    expect(await inBoth({ event: 'moved', detail: '2026-12-01T00:00:00Z/2026-12-03T00:00:00Z' })).toEqual({
      en: 'from 01 Dec 2026, 9:00 AM to 03 Dec 2026, 9:00 AM',
      ja: '2026年12月1日 午前9:00 から 2026年12月3日 午前9:00 へ',
    });
  });

  it('names why a journey was skipped in both languages', async () => {
    expect(await inBoth({ event: 'skipped', detail: 'check_in_passed' })).toEqual({
      en: 'Check-in time had passed',
      ja: 'チェックイン時刻を過ぎていました',
    });
    for (const reason of [...STAY_SKIP_REASONS, 'booking_cancelled', 'scenario_stopped']) {
      const texts = await inBoth({ event: 'skipped', detail: reason });
      expect(texts.en).not.toBe(reason);
      expect(texts.ja).not.toBe(reason);
      expect(texts.ja).not.toBe(texts.en);
    }
  });

  it('shows the end of a wait as a time, and an error text from the server as it is', async () => {
    expect((await inBoth({ event: 'waiting', detail: '2026-12-01T00:00:00.000Z' })).en).toBe(
      'until 01 Dec 2026, 9:00 AM',
    );
    expect((await inBoth({ event: 'failed', detail: '550 mailbox unavailable' })).ja).toBe('550 mailbox unavailable');
    expect((await inBoth({ event: 'entered', detail: null })).en).toBeNull();
  });
});
