import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldKey } from '../../lib/i18n/fieldKey';
import { conditionText } from './conditionText';

const hotels = [{ value: 'h1', label: 'さくらホテル 新宿' }];
const choicesOf = (field: string) => (field === 'hotel' ? hotels : []);

describe('condition text', () => {
  beforeAll(async () => {
    await i18next.changeLanguage('en');
  });

  it('reads a condition in the console language, with choice labels, yen and day counts', () => {
    const t = i18next.t;
    expect(conditionText({ field: 'hotel', operator: 'is', value: ['h1'] }, t, 'en', choicesOf)).toBe(
      'Hotel is さくらホテル 新宿',
    );
    expect(conditionText({ field: 'amount', operator: 'greater_than', value: 50000 }, t, 'en', choicesOf)).toBe(
      'Booking amount greater than ¥50,000',
    );
    expect(conditionText({ field: 'checkInDate', operator: 'in_last_days', value: 365 }, t, 'en', choicesOf)).toBe(
      'Check-in date: in the last 365 days',
    );
    expect(conditionText({ field: 'nights', operator: 'between', value: [2, 5] }, t, 'en', choicesOf)).toBe(
      'Number of nights between 2 and 5',
    );
    expect(conditionText({ field: 'gender', operator: 'all', value: null }, t, 'en', choicesOf)).toBe(
      'Gender: any value given',
    );
  });

  it('puts the value before the operator in Japanese', async () => {
    await i18next.changeLanguage('ja');
    expect(conditionText({ field: 'lastName', operator: 'starts_with', value: '佐' }, i18next.t, 'ja', choicesOf)).toBe(
      '姓：佐（で始まる）',
    );
    await i18next.changeLanguage('en');
  });

  it('translates room types on Japanese screens, for a reader without the list too', async () => {
    await i18next.changeLanguage('ja');
    const text = conditionText(
      { field: 'roomType', operator: 'is', value: ['twin', 'japanese_style'] },
      i18next.t,
      'ja',
      choicesOf,
    );
    expect(text).toContain('ツイン');
    expect(text).toContain('和室');
    expect(text).not.toContain('twin');
    await i18next.changeLanguage('en');
    expect(conditionText({ field: 'roomType', operator: 'is', value: ['twin'] }, i18next.t, 'en', choicesOf)).toContain(
      'Twin',
    );
  });

  it('names catalogue keys in snake_case', () => {
    expect(fieldKey('checkOutStatus')).toBe('check_out_status');
    expect(fieldKey('age')).toBe('age');
  });
});
