import { describe, expect, it } from 'vitest';
import {
  customerFormProblems,
  customerInput,
  EMPTY_CUSTOMER_FORM,
  withLocation,
  type TCustomerFormValues,
} from './customerForm';

const today = '2026-05-03';
const filled: TCustomerFormValues = {
  ...EMPTY_CUSTOMER_FORM,
  firstName: '太郎',
  lastName: '山田',
  phone: '090-1234-5678',
  address: '東京都新宿区西新宿2-2-2',
};

describe('customer form rules (spec section 5)', () => {
  it('names first name, last name, phone and address as required with the specification text', () => {
    const problems = customerFormProblems(
      { ...EMPTY_CUSTOMER_FORM, firstName: ' ', address: '' },
      { hotelRequired: false, today },
    );
    expect(problems).toEqual({
      firstName: 'errors.field_required_fill',
      lastName: 'errors.field_required_fill',
      phone: 'errors.field_required_fill',
      address: 'errors.field_required_fill',
    });
  });

  it('wants the phone in numerals, accepting the separators and full-width digits the server normalises', () => {
    expect(customerFormProblems({ ...filled, phone: '03-12ab' }, { hotelRequired: false, today }).phone).toBe(
      'errors.use_numbers_only',
    );
    expect(customerFormProblems({ ...filled, phone: '+81 90 1234 5678' }, { hotelRequired: false, today })).toEqual({});
    expect(
      customerFormProblems({ ...filled, phone: '０９０１２３４５６７８' }, { hotelRequired: false, today }),
    ).toEqual({});
  });

  it('checks an email only when one is given, and refuses a birth date in the future', () => {
    const rules = { hotelRequired: false, today };
    expect(customerFormProblems({ ...filled, email: 'nope' }, rules).email).toBe('errors.email_invalid');
    expect(customerFormProblems({ ...filled, email: 'taro@mail.yado.jp' }, rules)).toEqual({});
    expect(customerFormProblems({ ...filled, dateOfBirth: '2026-05-04' }, rules).dateOfBirth).toBe(
      'errors.invalid_date',
    );
    expect(customerFormProblems({ ...filled, dateOfBirth: '1985-05-03' }, rules)).toEqual({});
  });

  it('asks for the hotel of a new customer when the role is above one hotel and below the brand', () => {
    expect(customerFormProblems(filled, { hotelRequired: true, today }).hotelId).toBe('errors.hotel_required');
    expect(customerFormProblems({ ...filled, hotelId: 'h1' }, { hotelRequired: true, today })).toEqual({});
  });

  it('sends empty optional fields as null and trims the rest', () => {
    expect(customerInput({ ...filled, firstName: ' 太郎 ', email: ' ', country: '' })).toEqual({
      firstName: '太郎',
      lastName: '山田',
      phone: '090-1234-5678',
      email: null,
      idNumber: null,
      gender: null,
      dateOfBirth: null,
      country: null,
      prefecture: null,
      city: null,
      address: '東京都新宿区西新宿2-2-2',
    });
  });
});

describe('customer location fields', () => {
  const inTokyo = { ...filled, country: 'JP', prefecture: '東京都', city: '新宿区' };

  it('drops the city when the prefecture changes, and keeps it when the same one is chosen again', () => {
    expect(withLocation(inTokyo, 'prefecture', '大阪府')).toMatchObject({ prefecture: '大阪府', city: '' });
    expect(withLocation(inTokyo, 'prefecture', '東京都')).toBe(inTokyo);
  });

  it("drops Japan's prefecture and city for another country, and keeps them between Japan and no country", () => {
    expect(withLocation(inTokyo, 'country', 'US')).toMatchObject({ country: 'US', prefecture: '', city: '' });
    expect(withLocation(inTokyo, 'country', '')).toMatchObject({ country: '', prefecture: '東京都', city: '新宿区' });
    const abroad = { ...filled, country: 'US', prefecture: 'California', city: 'San Jose' };
    expect(withLocation(abroad, 'country', 'CA')).toMatchObject({ prefecture: '', city: '' });
  });
});
