import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';

/** Texts the console counts with: one reads in the singular in English, Japanese has one form. */
const COUNTED: [key: string, one: string, many: string, ja: string][] = [
  ['dashboard.level_info.hotel_count', '1 hotel', '3 hotels', '3軒のホテル'],
  ['management.detail.hotel_count', '1 hotel', '3 hotels', 'ホテル 3 件'],
  ['segmentation.summary.in_last_days', 'in the last 1 day', 'in the last 3 days', '過去 3 日以内'],
  [
    'customers.done.status_changed',
    'Email status changed for 1 customer.',
    'Email status changed for 3 customers.',
    '',
  ],
  ['users.invite.done', '1 user invited.', '3 users invited.', ''],
];

describe('counted texts', () => {
  afterAll(() => i18next.changeLanguage('en'));

  it('read "1 hotel" and "3 hotels" in English, never "1 hotels" or "hotel(s)"', async () => {
    await i18next.changeLanguage('en');
    for (const [key, one, many] of COUNTED) {
      expect(i18next.t(key, { count: 1 }), key).toBe(one);
      expect(i18next.t(key, { count: 3 }), key).toBe(many);
    }
  });

  it('read naturally in Japanese, with the number and no English plural', async () => {
    await i18next.changeLanguage('ja');
    for (const [key, , , ja] of COUNTED) {
      const text = i18next.t(key, { count: 3 });
      expect(text, key).toContain('3');
      expect(text, key).not.toMatch(/[a-z]/i);
      if (ja) expect(text, key).toBe(ja);
    }
  });
});
