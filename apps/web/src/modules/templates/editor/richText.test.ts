import { ZRichText } from '@yado/contracts/templates';
import { describe, expect, it } from 'vitest';
import { cleanRichText } from './richText';

describe('rich text as the editor hands it to the document', () => {
  it('keeps what the contract accepts and drops pasted colours, links and attributes it does not', () => {
    const pasted = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          attrs: { textAlign: 'center', class: 'x' },
          content: [
            { type: 'text', text: 'Bold', marks: [{ type: 'bold' }] },
            {
              type: 'text',
              text: ' red',
              marks: [{ type: 'textStyle', attrs: { color: 'rgb(255, 0, 0)', fontSize: '18px' } }],
            },
            {
              type: 'text',
              text: ' blue',
              marks: [{ type: 'textStyle', attrs: { color: '#1c7ed6', fontSize: null } }],
            },
            {
              type: 'text',
              text: ' bad',
              marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)', target: '_blank' } }],
            },
            { type: 'text', text: ' site', marks: [{ type: 'link', attrs: { href: 'https://example.jp', rel: 'x' } }] },
            { type: 'personalTag', attrs: { key: 'full_name', fallback: 'お客様' } },
          ],
        },
        {
          type: 'orderedList',
          attrs: { start: 1, type: null },
          content: [{ type: 'listItem', content: [{ type: 'paragraph' }] }],
        },
      ],
    };
    const clean = cleanRichText(pasted);
    expect(ZRichText.safeParse(clean).success).toBe(true);
    const inline = (clean.content[0] as { content: { marks?: unknown[] }[] }).content;
    expect(inline[0]!.marks).toEqual([{ type: 'bold' }]);
    expect(inline[1]!.marks).toEqual([{ type: 'textStyle', attrs: { color: null, fontSize: '18px' } }]);
    expect(inline[2]!.marks).toEqual([{ type: 'textStyle', attrs: { color: '#1c7ed6', fontSize: null } }]);
    expect(inline[3]!.marks).toBeUndefined();
    expect(inline[4]!.marks).toEqual([{ type: 'link', attrs: { href: 'https://example.jp' } }]);
    expect(inline[5]).toEqual({ type: 'personalTag', attrs: { key: 'full_name', fallback: 'お客様' } });
    expect(clean.content[1]).toEqual({
      type: 'orderedList',
      attrs: { start: 1 },
      content: [{ type: 'listItem', content: [{ type: 'paragraph', attrs: { textAlign: null } }] }],
    });
  });
});
