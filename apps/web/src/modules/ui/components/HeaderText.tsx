import { Fragment } from 'react';

// Where a Japanese compound changes script (メール|配信|ステータス), or after a middle dot (国・|都道府県).
const BREAK = /(?<=[\p{Script=Katakana}ー])(?=\p{Script=Han})|(?<=\p{Script=Han})(?=[\p{Script=Katakana}ー])|(?<=・)/u;

/**
 * A column header's text, breakable between the words of a Japanese compound only. Table headers
 * break between words, never inside one (the theme's `keep-all`), and Japanese has no spaces: in a
 * table that must fit its card, メール配信ステータス may then wrap as メール配信 / ステータス,
 * never as メール配信ステータ / ス. English keeps its spaces.
 */
export function HeaderText({ text }: { text: string }) {
  const parts = text.split(BREAK);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
