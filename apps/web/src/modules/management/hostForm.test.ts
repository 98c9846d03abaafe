import { describe, expect, it } from 'vitest';
import { EMPTY_HOST_FORM, hostFormProblems, hostInput } from './hostForm';

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
    const values = { name: 'a', address: 'b', email: 'x@', phone: '03-12ab', logoUrl: '/files/logos/a.png' };
    expect(hostFormProblems(values, { logoRequired: true })).toEqual({
      email: 'errors.email_invalid',
      phone: 'errors.use_numbers_only',
    });
    expect(hostInput({ ...values, email: ' ', phone: '' })).toMatchObject({ email: null, phone: null });
  });
});
