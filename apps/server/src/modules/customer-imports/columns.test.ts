import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json' with { type: 'json' };
import ja from '../../i18n/ja.json' with { type: 'json' };
import { mapHeaders, mappedFields } from './columns.ts';

const fieldsOf = (headers: string[]) => mapHeaders(headers).columns.map((c) => c.field);

describe('header mapping', () => {
  it('maps our own export headers in both languages, ignoring the derived columns', () => {
    for (const labels of [ja.customer_csv, en.customer_csv]) {
      const { columns, problems } = mapHeaders(Object.values(labels));
      expect(problems).toEqual({ missing: [], duplicated: [] });
      expect(mappedFields(columns)).toEqual([
        'lastName',
        'firstName',
        'phone',
        'email',
        'idNumber',
        'gender',
        'dateOfBirth',
        'country',
        'prefecture',
        'city',
        'address',
        'emailStatus',
      ]);
    }
  });
  it("still reads the email status header our export wrote before it took the list's name", () => {
    expect(fieldsOf(['メール配信', 'メール配信ステータス'])).toEqual(['emailStatus', 'emailStatus']);
  });
  it('knows the usual Japanese and English names, in any width and case', () => {
    expect(fieldsOf(['氏名', 'ＴＥＬ', 'E-mail', '住所（必須）', '誕生日', 'Sex', 'メモ'])).toEqual([
      'fullName',
      'phone',
      'email',
      'address',
      'dateOfBirth',
      'gender',
      null,
    ]);
    expect(fieldsOf(['Family Name', 'Given name', 'Mobile Phone', 'Street address'])).toEqual([
      'lastName',
      'firstName',
      'phone',
      'address',
    ]);
  });
  it('reports required columns that are missing and fields filled twice', () => {
    expect(mapHeaders(['name', 'email']).problems).toEqual({ missing: ['phone', 'address'], duplicated: [] });
    expect(mapHeaders(['姓', 'email']).problems.missing).toEqual(['firstName', 'phone', 'address']);
    expect(mapHeaders(['姓', '名', '電話', '携帯', '住所']).problems.duplicated).toEqual(['phone']);
  });
});
