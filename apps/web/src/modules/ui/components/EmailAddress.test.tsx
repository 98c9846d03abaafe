import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailAddress } from './EmailAddress';

/** The address as lines may break it: `|` at each place a line may break (besides after a hyphen). */
const breaks = (email: string) => {
  const { container } = render(
    <span>
      <EmailAddress email={email} />
    </span>,
  );
  return [...container.firstChild!.childNodes].map((n) => (n.nodeName === 'WBR' ? '|' : n.textContent)).join('');
};

describe('an email address', () => {
  it('may break before its domain and before a dot or an underscore of its name part, never inside a domain', () => {
    expect(breaks('rin.yamashita@docomo.example.net')).toBe('rin|.yamashita|@docomo.example.net');
    expect(breaks('yamada_hanako.1987@mail.yado.jp')).toBe('yamada|_hanako|.1987|@mail.yado.jp');
    expect(breaks('reservations@hotel.example.jp')).toBe('reservations|@hotel.example.jp');
  });

  it('is left whole when it has no name part', () => {
    expect(breaks('not-an-address')).toBe('not-an-address');
  });
});
