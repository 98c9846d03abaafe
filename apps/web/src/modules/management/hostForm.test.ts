import { describe, expect, it } from 'vitest';
import { EMPTY_HOST_FORM, hostFormProblems, hostInput, hotelInput } from './hostForm';

describe('host form rules', () => {
  it('wants a name, an address and, when creating, a logo', () => {
    expect(hostFormProblems(EMPTY_HOST_FORM, { logoRequired: true })).toEqual({
      name: 'errors.field_required_fill',
      address: 'errors.field_required_fill',
      logoUrl: 'errors.logo_required',
    });
    expect(hostFormProblems({ ...EMPTY_HOST_FORM, name: 'a', address: 'b' }, { logoRequired: false })).toEqual({});
  });

  it('checks the optional email and phone only when given', () => {
    const values = {
      ...EMPTY_HOST_FORM,
      name: 'a',
      address: 'b',
      email: 'x@',
      phone: '03-12ab',
      logoUrl: '/files/logos/a.png',
    };
    expect(hostFormProblems(values, { logoRequired: true })).toEqual({
      email: 'errors.email_invalid',
      phone: 'errors.use_numbers_only',
    });
    expect(hostInput({ ...values, email: ' ', phone: '' })).toMatchObject({ email: null, phone: null });
  });

  it("checks a hotel's booking-system code as the server does, and sends it folded to ASCII", () => {
    const hotel = { ...EMPTY_HOST_FORM, name: 'a', address: 'b', logoUrl: '/files/logos/a.png' };
    expect(hostFormProblems({ ...hotel, bookingHotelCode: 'SKR 1' }, { logoRequired: true })).toEqual({
      bookingHotelCode: 'errors.booking_hotel_code_invalid',
    });
    expect(hostFormProblems({ ...hotel, bookingHotelCode: ' ＳＫＲ－１ ' }, { logoRequired: true })).toEqual({});
    expect(hotelInput({ ...hotel, bookingHotelCode: ' ＳＫＲ－１ ' }).bookingHotelCode).toBe('SKR-1');
    expect(hotelInput(hotel).bookingHotelCode).toBeNull();
    expect(hostInput({ ...hotel, bookingHotelCode: 'SKR-1' })).not.toHaveProperty('bookingHotelCode');
  });
});
