import { describe, expect, it } from 'vitest';
import { mapHeaders } from './columns.ts';
import { cellText, normalizeRow, parseDate } from './normalize-row.ts';

const { columns } = mapHeaders([
  '姓',
  '名',
  '電話番号',
  'メールアドレス',
  '性別',
  '生年月日',
  '国',
  '住所',
  'メール配信',
]);
const read = (cells: string[]) => normalizeRow(cells, columns);

describe('row normalisation', () => {
  it('normalises what is clearly a phone: hyphens, full-width digits, +81, Excel text formulas', () => {
    expect(read(['山田', '太郎', '090-1234-5678', '', '', '', '', '東京', '']).values.phone).toBe('09012345678');
    expect(read(['山田', '太郎', '０９０－１２３４－５６７８', '', '', '', '', '東京', '']).values.phone).toBe(
      '09012345678',
    );
    expect(read(['山田', '太郎', '+81 90 1234 5678', '', '', '', '', '東京', '']).values.phone).toBe('09012345678');
    expect(read(['山田', '太郎', '="09012345678"', '', '', '', '', '東京', '']).values.phone).toBe('09012345678');
  });
  it('rejects the rest with the rule it breaks', () => {
    expect(read(['山田', '太郎', '090-abcd-5678', '', '', '', '', '東京', '']).problems).toEqual([
      { field: 'phone', code: 'use_numbers_only' },
    ]);
    expect(read(['山田', '太郎', '9.01E+09', '', '', '', '', '東京', '']).problems).toEqual([
      { field: 'phone', code: 'use_numbers_only' },
    ]);
    expect(read(['', '太郎', '', 'x@', '宇宙人', '2001-02-30', 'Japan', '', 'maybe']).problems).toEqual([
      { field: 'lastName', code: 'field_required_fill' },
      { field: 'phone', code: 'field_required_fill' },
      { field: 'address', code: 'field_required_fill' },
      { field: 'email', code: 'email_invalid' },
      { field: 'gender', code: 'import_invalid_gender' },
      { field: 'dateOfBirth', code: 'invalid_date' },
      { field: 'country', code: 'import_invalid_country' },
      { field: 'emailStatus', code: 'import_invalid_email_status' },
    ]);
  });
  it('guesses no gender: "other" and "unknown" in either language are row errors, not "prefer not to say"', () => {
    for (const text of ['その他', 'other', 'unknown', '不明', '無回答'])
      expect(read(['山田', '太郎', '09012345678', '', text, '', '', '東京', '']).problems, text).toEqual([
        { field: 'gender', code: 'import_invalid_gender' },
      ]);
    const accepted: [string, string][] = [
      ['回答しない', 'prefer_not_to_say'],
      ['Prefer not to say', 'prefer_not_to_say'],
      ['prefer_not_to_say', 'prefer_not_to_say'],
      ['女性', 'female'],
      ['M', 'male'],
    ];
    for (const [text, code] of accepted)
      expect(read(['山田', '太郎', '09012345678', '', text, '', '', '東京', '']).values.gender, text).toBe(code);
  });
  it('takes an ISO 3166-1 country in either width or case, and no other two letters', () => {
    const country = (text: string) => read(['山田', '太郎', '09012345678', '', '', '', text, '東京', '']);
    for (const [text, code] of [
      ['JP', 'JP'],
      ['us', 'US'],
      ['ＫＲ', 'KR'],
      ['Gb', 'GB'],
    ] as const) {
      expect(country(text).problems, text).toEqual([]);
      expect(country(text).values.country, text).toBe(code);
    }
    // ZZ and XX are no country; UK is reserved for GB, XK is user-assigned; names are not codes.
    for (const text of ['ZZ', 'XX', 'UK', 'XK', 'EU', 'J', 'JPN', '日本'])
      expect(country(text).problems, text).toEqual([{ field: 'country', code: 'import_invalid_country' }]);
  });
  it('takes addresses at real top-level domains of any length (DESIGN section 6)', () => {
    for (const email of ['hanako@ryokan.tokyo', 'Reservations@Grand.Hotel', 'guest+spring@kyoto.travel']) {
      const row = read(['山田', '花子', '09012345678', email, '', '', '', '東京', '']);
      expect(row.problems).toEqual([]);
      expect(row.values.email).toBe(email);
    }
    expect(read(['山田', '花子', '09012345678', 'hanako@ryokan..tokyo', '', '', '', '東京', '']).problems).toEqual([
      { field: 'email', code: 'email_invalid' },
    ]);
  });

  it('reads labels in both languages and the usual date forms', () => {
    const row = read([
      '山田',
      '太郎',
      '09012345678',
      'taro@example.jp',
      '男性',
      '1990年5月20日',
      'jp',
      '東京',
      '配信停止',
    ]);
    expect(row.problems).toEqual([]);
    expect(row.values).toMatchObject({
      gender: 'male',
      dateOfBirth: '1990-05-20',
      country: 'JP',
      emailStatus: 'unsubscribed',
    });
    expect(
      read(['a', 'b', '09012345678', '', 'Prefer not to say', '1990/5/2', '', 'c', 'Active']).values,
    ).toMatchObject({ gender: 'prefer_not_to_say', dateOfBirth: '1990-05-02', emailStatus: 'active' });
    // The export writes 有効 now, 配信中 before: files of either kind read the same.
    for (const status of ['有効', '配信中'])
      expect(read(['a', 'b', '09012345678', '', '', '', '', 'c', status]).values).toMatchObject({
        emailStatus: 'active',
      });
    expect(parseDate('2999-01-01')).toBeNull();
    expect(parseDate('19900520')).toBe('1990-05-20');
    expect(parseDate('2000-02-29')).toBe('2000-02-29');
    expect(parseDate('1900-02-29')).toBeNull();
    expect(parseDate('1999-04-31')).toBeNull();
    expect(parseDate('1999-13-01')).toBeNull();
  });
  it('keeps formula-looking text as text and undoes the apostrophe our export adds', () => {
    expect(cellText('\'=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
    expect(cellText('=SUM(A1)')).toBe('=SUM(A1)');
    expect(cellText("''quoted")).toBe("'quoted");
    expect(cellText(`'="kept"`)).toBe('="kept"');
  });
  it('splits a full name at the first blank, family name first', () => {
    const full = mapHeaders(['氏名', '電話', '住所']).columns;
    expect(normalizeRow(['山田　太郎', '09012345678', '東京'], full).values).toMatchObject({
      lastName: '山田',
      firstName: '太郎',
    });
    expect(normalizeRow(['山田太郎', '09012345678', '東京'], full).problems).toEqual([
      { field: 'fullName', code: 'import_full_name_unsplit' },
    ]);
  });
});
