import { ERROR_MESSAGES } from '@yado/contracts/errors';
import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import serverEn from '../../../server/src/i18n/en.json';
import { ALL_TEXTS } from './allTexts';

/** Every text of a catalogue tree with its key. */
function texts(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([k, v]) => texts(v, prefix ? `${prefix}.${k}` : k));
}

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
  ['segmentation.why.nights', '1 night', '3 nights', '3 泊'],
  ['segmentation.why.guests', '1 guest', '3 guests', '3 名'],
  ['templates.canvas.section', 'Section · 1 column', 'Section · 3 columns', 'セクション・3列'],
  ['automations.node_text.days', '1 day', '3 days', '3 日'],
  [
    'booking_sync.log.reasons.guest_not_synced',
    '1 reservation of a guest not synced',
    '3 reservations of guests not synced',
    '同期されていないゲストの予約 3 件',
  ],
  [
    'booking_sync.log.reasons.unknown_hotel_code',
    '1 reservation at a hotel not mapped',
    '3 reservations at hotels not mapped',
    '対応付けのないホテルの予約 3 件',
  ],
  [
    'booking_sync.log.reasons.guest_without_phone',
    '1 guest without a phone number',
    '3 guests without a phone number',
    '',
  ],
  [
    'booking_sync.log.reasons.phone_in_use',
    '1 phone change to a number another customer has',
    '3 phone changes to a number another customer has',
    '',
  ],
  [
    'booking_sync.log.reasons.country_invalid',
    '1 guest with an invalid country code (synced without the country)',
    '3 guests with an invalid country code (synced without the country)',
    '国コードが正しくないゲスト 3 件（国を除いて同期しました）',
  ],
  ['booking_sync.log.reasons.other', '1 other error', '3 other errors', 'その他のエラー 3 件'],
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

describe('English texts', () => {
  it('never count with "(s)": the console and the server catalogues use plural forms (the specification\'s own error texts are verbatim)', () => {
    const verbatim = new Set<string>(Object.values(ERROR_MESSAGES));
    const found = [...texts(ALL_TEXTS.en), ...texts(serverEn)].filter(
      ([, text]) => /\w\(s\)/.test(text) && !verbatim.has(text),
    );
    expect(found).toEqual([]);
  });

  it('count the bookings of a segment explanation in the singular and the plural', async () => {
    await i18next.changeLanguage('en');
    expect(i18next.t('segmentation.why.bookings_at_least', { count: 1, need: 2 })).toBe(
      '1 booking matched; at least 2 needed',
    );
    expect(i18next.t('segmentation.why.bookings_none', { count: 2 })).toBe('2 bookings matched; none allowed');
    expect(i18next.t('segmentation.builder.such_bookings', { count: 1 })).toBe('such booking');
    expect(i18next.t('segmentation.builder.such_bookings', { count: 2 })).toBe('such bookings');
  });
});
