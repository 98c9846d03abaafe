import { describe, expect, it } from 'vitest';
import { invitationProblem, parseEmailList, userFormProblems } from './userForm';

describe('user form rules', () => {
  it('names each missing field with the specification text key', () => {
    expect(
      userFormProblems({ fullName: '', nickName: ' ', email: '', phoneNumber: '', role: '' }, { withEmail: true }),
    ).toEqual({
      fullName: 'errors.field_required_fill',
      nickName: 'errors.field_required_fill',
      email: 'errors.email_required',
      phoneNumber: 'errors.field_required_fill',
      role: 'errors.role_required',
    });
  });

  it('wants a valid email and a phone in numerals; edits skip the email', () => {
    const values = { fullName: 'a', nickName: 'b', email: 'not-an-email', phoneNumber: '03-12a', role: 'staff' };
    expect(userFormProblems(values, { withEmail: true })).toEqual({
      email: 'errors.email_invalid',
      phoneNumber: 'errors.use_numbers_only',
    });
    expect(userFormProblems({ ...values, phoneNumber: '03-1234 5678' }, { withEmail: false })).toEqual({});
  });

  it("takes addresses at real top-level domains of any length, the demo accounts' .test among them", () => {
    for (const email of ['hotel.staff@demo.test', 'sales@ryokan.tokyo', 'front@kyoto.travel']) {
      const values = { fullName: 'a', nickName: 'b', email, phoneNumber: '0312345678', role: 'staff' };
      expect(userFormProblems(values, { withEmail: true })).toEqual({});
    }
    expect(invitationProblem(['hotel.staff@demo.test', 'sales@ryokan.tokyo'])).toBeNull();
    expect(invitationProblem(['sales@ryokan.tokyo.'])).toBe('errors.email_invalid');
  });

  it('reads an invitation list and refuses repeats and bad addresses', () => {
    expect(parseEmailList(' a@x.jp,\nb@x.jp  c@x.jp ')).toEqual(['a@x.jp', 'b@x.jp', 'c@x.jp']);
    expect(invitationProblem([])).toBe('errors.email_required');
    expect(invitationProblem(['a@x.jp', 'A@x.jp'])).toBe('errors.duplicate_input');
    expect(invitationProblem(['a@x.jp', 'nope'])).toBe('errors.email_invalid');
    expect(invitationProblem(['a@x.jp', 'b@x.jp'])).toBeNull();
  });
});
