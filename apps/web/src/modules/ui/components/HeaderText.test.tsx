import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HeaderText } from './HeaderText';

/** The header's text as lines may break it: `|` at each place a line may break. */
const breaks = (text: string) => {
  const { container } = render(
    <span>
      <HeaderText text={text} />
    </span>,
  );
  return [...container.firstChild!.childNodes].map((n) => (n.nodeName === 'WBR' ? '|' : n.textContent)).join('');
};

describe('a column header', () => {
  it('may break between the words of a Japanese compound, never inside a word', () => {
    expect(breaks('メール配信ステータス')).toBe('メール|配信|ステータス');
    expect(breaks('国・都道府県')).toBe('国・|都道府県');
    expect(breaks('予約件数合計')).toBe('予約件数合計');
    expect(breaks('テンプレート')).toBe('テンプレート');
    expect(breaks('Email delivery status')).toBe('Email delivery status');
  });
});
