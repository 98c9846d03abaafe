import { ZBlock, ZBlockDocument, ZTemplateContent, type TBlock, type TBlockDocument } from '@yado/contracts';
import mjml2html from 'mjml';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileMessage, personalise } from './compile.ts';
import { blockMjml, documentToMjml } from './document-mjml.ts';
import { formatStayDate, personalValues } from './personal-values.ts';
import { loadSanitizer, sanitizeHtml } from './sanitize-html.ts';
import { SlotTable } from './slots.ts';

beforeAll(() => loadSanitizer());

const IMAGE = `/files/logos/${'a'.repeat(64)}.png`;
const imageUrl = (src: string) => (src.startsWith('/') ? `https://yado.example${src}` : src);
const options = { language: 'ja' as const, preheader: '', imageUrl };

const text = (t: string, marks: unknown[] = []) => ({ type: 'text', text: t, ...(marks.length ? { marks } : {}) });
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });
const textBlock = (...nodes: unknown[]) => ({ id: 't1', type: 'text', content: { type: 'doc', content: nodes } });

/** One block through the renderer, as MJML. */
function mjmlOf(
  input: unknown,
  columnWidth = 600,
): { mjml: string; warnings: { code: string; blockId?: string }[]; slots: SlotTable } {
  const block = ZBlock.parse(input) as TBlock;
  const slots = new SlotTable();
  const warnings: { code: 'image_missing_alt'; blockId?: string }[] = [];
  return { mjml: blockMjml(block, columnWidth, slots, options, warnings as never), warnings, slots };
}

const doc = (blocks: unknown[], columns = 1): TBlockDocument =>
  ZBlockDocument.parse({
    version: 1,
    sections: [
      { id: 's', columns: Array.from({ length: columns }, (_, i) => ({ id: `c${i}`, blocks: i === 0 ? blocks : [] })) },
    ],
  });

async function validMjml(document: TBlockDocument): Promise<string> {
  const { mjml } = documentToMjml(document, new SlotTable(), options);
  const { html, errors } = await mjml2html(mjml, { validationLevel: 'strict' });
  expect(errors).toEqual([]);
  return html;
}

describe('block to MJML', () => {
  it('writes a text block as escaped HTML with its marks, alignment and lists', () => {
    const { mjml } = mjmlOf(
      textBlock(
        { type: 'heading', attrs: { level: 2, textAlign: 'center' }, content: [text('<Welcome>')] },
        paragraph(
          text('bold', [{ type: 'bold' }]),
          text('it', [{ type: 'italic' }]),
          text('under', [{ type: 'underline' }]),
          text('red', [{ type: 'textStyle', attrs: { color: '#ff0000', fontSize: '20px' } }]),
          { type: 'hardBreak' },
          text('site', [
            { type: 'link', attrs: { href: 'https://example.jp/?a=1&b="2"', target: '_blank', rel: 'x' } },
          ]),
        ),
        { type: 'paragraph', attrs: { textAlign: 'right' } },
        {
          type: 'orderedList',
          attrs: { start: 3 },
          content: [{ type: 'listItem', content: [paragraph(text('one'))] }],
        },
        { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('two'))] }] },
      ),
    );
    expect(mjml).toContain(
      '<h2 style="margin:0;font-size:22px;line-height:1.3;font-weight:bold;text-align:center;">&lt;Welcome&gt;</h2>',
    );
    expect(mjml).toContain(
      '<strong>bold</strong><em>it</em><u>under</u><span style="color:#ff0000;font-size:20px;line-height:1.4">red</span><br>',
    );
    expect(mjml).toContain(
      '<a href="https://example.jp/?a=1&amp;b=&quot;2&quot;" target="_blank" style="color:#1c7ed6;text-decoration:underline;">site</a>',
    );
    expect(mjml).toContain('<p style="margin:0;text-align:right;">&nbsp;</p>');
    expect(mjml).toContain('<ol start="3" style="margin:0;padding-left:1.5em;"><li>one</li></ol>');
    expect(mjml).toContain('<ul style="margin:0;padding-left:1.5em;"><li>two</li></ul>');
  });

  it('refuses text that is not the editor subset: raw HTML nodes, unknown marks, script links', () => {
    expect(ZBlock.safeParse(textBlock({ type: 'html', content: '<script>' })).success).toBe(false);
    expect(ZBlock.safeParse(textBlock(paragraph(text('x', [{ type: 'code' }])))).success).toBe(false);
    expect(
      ZBlock.safeParse(textBlock(paragraph(text('x', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }]))))
        .success,
    ).toBe(false);
    expect(
      ZBlock.safeParse(
        textBlock(paragraph(text('x', [{ type: 'textStyle', attrs: { color: 'red;background:url(x)' } }]))),
      ).success,
    ).toBe(false);
  });

  it.each([
    ['thin', 1],
    ['regular', 2],
    ['thick', 4],
  ])('draws a %s divider %ipx thick', (thickness, px) => {
    const { mjml } = mjmlOf({ id: 'd', type: 'divider', thickness, color: '#123456' });
    expect(mjml).toBe(`<mj-divider border-width="${px}px" border-color="#123456" padding="10px 20px"></mj-divider>`);
  });

  it('places an image by absolute address with alt, link, width of its column and alignment', () => {
    const { mjml, warnings } = mjmlOf(
      { id: 'i', type: 'image', src: IMAGE, alt: '外観 "A"', href: 'https://example.jp', width: 50, align: 'left' },
      300,
    );
    expect(mjml).toBe(
      `<mj-image src="https://yado.example${IMAGE}" alt="外観 &quot;A&quot;" href="https://example.jp" width="130px" align="left" padding="10px 20px"></mj-image>`,
    );
    expect(warnings).toEqual([]);
    expect(mjmlOf({ id: 'i', type: 'image', src: IMAGE, alt: 'a', width: 100 }, 200).mjml).toContain(
      'width="160px" align="center" fluid-on-mobile="true"',
    );
  });

  it('reminds of a missing alt text, and draws nothing for an empty image', () => {
    expect(mjmlOf({ id: 'i', type: 'image', src: IMAGE }).warnings).toEqual([
      { code: 'image_missing_alt', blockId: 'i' },
    ]);
    const empty = mjmlOf({ id: 'j', type: 'image', src: null });
    expect(empty.mjml).toBe('');
    expect(empty.warnings).toEqual([{ code: 'image_missing', blockId: 'j' }]);
  });

  it('draws a button with its colours, alignment and full width, and tags in its label', () => {
    const { mjml, slots } = mjmlOf({
      id: 'b',
      type: 'button',
      label: 'Book, {{first_name}} & co',
      href: 'https://example.jp/book',
      backgroundColor: '#000000',
      textColor: '#ffffff',
      align: 'right',
      fullWidth: true,
    });
    expect(mjml).toContain(
      'href="https://example.jp/book" background-color="#000000" color="#ffffff" align="right" width="100%"',
    );
    expect(mjml).toContain('>Book, \uE0000\uE001 &amp; co</mj-button>');
    expect(slots.slots).toEqual([{ key: 'first_name', fallback: null }]);
    expect(mjmlOf({ id: 'b', type: 'button', label: 'Go', href: 'https://x.jp' }).mjml).not.toContain('width=');
    expect(mjmlOf({ id: 'b', type: 'button', label: 'Go', href: '' }).warnings).toEqual([
      { code: 'link_missing', blockId: 'b' },
    ]);
  });

  it('leaves a button or link without a label out of the mail, and says so', () => {
    for (const label of ['', '  ']) {
      const button = mjmlOf({ id: 'b', type: 'button', label, href: 'https://x.jp' });
      expect(button.mjml).toBe('');
      expect(button.warnings).toEqual([{ code: 'button_label_missing', blockId: 'b' }]);
      const link = mjmlOf({ id: 'l', type: 'link', label, href: '' });
      expect(link.mjml).toBe('');
      expect(link.warnings).toEqual([{ code: 'link_label_missing', blockId: 'l' }]);
    }
  });

  it('writes a link block as a coloured anchor', () => {
    const { mjml } = mjmlOf({
      id: 'l',
      type: 'link',
      label: 'Unsubscribe',
      href: 'https://example.jp/u',
      color: '#333333',
      align: 'center',
      fontSize: 12,
    });
    expect(mjml).toBe(
      '<mj-text padding="10px 20px" align="center" font-size="12px"><a href="https://example.jp/u" target="_blank" style="color:#333333;text-decoration:underline;">Unsubscribe</a></mj-text>',
    );
  });

  it('sanitises a code block', () => {
    const { mjml } = mjmlOf({
      id: 'c',
      type: 'code',
      html: '<table><tr><td style="color:red">ok</td></tr></table><script>alert(1)</script>',
    });
    expect(mjml).toBe(
      '<mj-text padding="10px 20px"><table><tbody><tr><td style="color:red">ok</td></tr></tbody></table></mj-text>',
    );
  });

  it('lays out sections of one to three columns with background and spacing', () => {
    const document = ZBlockDocument.parse({
      version: 1,
      backgroundColor: '#eeeeee',
      sections: [
        { id: 'a', columns: [{ id: 'x', blocks: [] }], backgroundColor: '#ffeecc', paddingTop: 30, paddingBottom: 5 },
        {
          id: 'b',
          columns: [
            { id: 'x', blocks: [] },
            { id: 'y', blocks: [] },
          ],
        },
        {
          id: 'c',
          columns: [
            { id: 'x', blocks: [] },
            { id: 'y', blocks: [] },
            { id: 'z', blocks: [] },
          ],
        },
      ],
    });
    const { mjml } = documentToMjml(document, new SlotTable(), options);
    expect(mjml).toContain('<mj-body background-color="#eeeeee" width="600px">');
    expect(mjml).toContain(
      '<mj-section background-color="#ffeecc" padding="30px 0px 5px 0px">\n<mj-column width="100%">',
    );
    expect(mjml.match(/<mj-column width="50%">/g)).toHaveLength(2);
    expect(mjml.match(/<mj-column width="33.3333%">/g)).toHaveLength(3);
    expect(
      ZBlockDocument.safeParse({
        version: 1,
        sections: [{ id: 'd', columns: [1, 2, 3, 4].map((n) => ({ id: `c${n}`, blocks: [] })) }],
      }).success,
    ).toBe(false);
    expect(ZBlockDocument.safeParse({ version: 1, sections: [{ id: 'd', columns: [] }] }).success).toBe(false);
  });
});

describe('MJML validation', () => {
  it('passes strict validation for every block and option, in 1, 2 and 3 columns', async () => {
    const blocks = [
      textBlock(paragraph(text('hi')), {
        type: 'bulletList',
        content: [{ type: 'listItem', content: [paragraph(text('x'))] }],
      }),
      ...(['thin', 'regular', 'thick'] as const).map((thickness, n) => ({ id: `d${n}`, type: 'divider', thickness })),
      { id: 'i1', type: 'image', src: IMAGE, alt: 'a', href: 'https://x.jp', width: 40, align: 'right' },
      { id: 'i2', type: 'image', src: 'https://cdn.example.jp/a.jpg', alt: 'b' },
      { id: 'b1', type: 'button', label: 'Go', href: 'https://x.jp', fullWidth: true, align: 'left' },
      { id: 'b2', type: 'button', label: 'Go', href: null },
      { id: 'c1', type: 'code', html: '<div style="padding:4px"><b>raw</b></div>' },
      { id: 'l1', type: 'link', label: 'Link', href: 'mailto:info@example.jp' },
    ];
    for (const columns of [1, 2, 3]) {
      const html = await validMjml(doc(blocks, columns));
      expect(html).toContain('<!doctype html>');
    }
  });
});

describe('the code block sanitiser', () => {
  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<img src="https://x.jp/a.png" onerror="alert(1)">', '<img src="https://x.jp/a.png">'],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<form action="https://evil.example"><input name="card"><button>Pay</button></form>ok', 'Payok'],
    ['<iframe src="https://evil.example"></iframe>ok', 'ok'],
    ['<p style="background:url(https://track.example/p.gif)">x</p>', '<p>x</p>'],
    ['<svg><script>alert(1)</script></svg>ok', 'ok'],
    ['<a href="https://x.jp" target="top">x</a>', '<a href="https://x.jp">x</a>'],
    ['<a href="vbscript:x">x</a><img src="file:///etc/passwd">', '<a>x</a><img>'],
    [
      '<table width="100%"><tr><td align="center" style="color:#333">cell</td></tr></table>',
      '<table width="100%"><tbody><tr><td align="center" style="color:#333">cell</td></tr></tbody></table>',
    ],
    ['<a href="mailto:info@x.jp">mail</a>', '<a href="mailto:info@x.jp">mail</a>'],
  ])('%s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });

  it('turns tags in text into slots, never in attributes', () => {
    const slots = new SlotTable();
    const html = sanitizeHtml('<a href="https://x.jp/{{first_name}}">{{first_name}} &amp;</a>', (t) =>
      slots.withTags(t, (s) => s),
    );
    expect(html).toBe('<a href="https://x.jp/{{first_name}}">\uE0000\uE001 &amp;</a>');
  });
});

describe('personalisation', () => {
  const content = (subject: string, blocks: unknown[], preheader = '') =>
    ZTemplateContent.parse({
      subject,
      preheader,
      document: { version: 1, sections: [{ id: 's', columns: [{ id: 'c', blocks }] }] },
    });

  it('HTML-escapes values in the HTML, keeps them plain in the subject and text, and renders MJML once', async () => {
    const compiled = await compileMessage(
      content('Hello {{first_name}}', [
        textBlock(paragraph(text('Dear '), { type: 'personalTag', attrs: { key: 'first_name' } })),
      ]),
      'en',
      imageUrl,
    );
    const a = personalise(compiled, { first_name: '<script>alert("x")</script> & Co' });
    expect(a.subject).toBe('Hello <script>alert("x")</script> & Co');
    expect(a.html).toContain('Dear &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(a.html).not.toContain('<script>');
    expect(a.text).toContain('Dear <script>alert("x")</script> & Co');
    const b = personalise(compiled, { first_name: 'Emily' });
    expect(b.html).toContain('Dear Emily');
    expect(b.html.length).toBeLessThan(a.html.length);
  });

  it("uses the tag's fallback, else the catalogue's, when the guest has no value", async () => {
    const compiled = await compileMessage(
      content('{{full_name}}', [
        textBlock(
          paragraph(
            { type: 'personalTag', attrs: { key: 'first_name', fallback: 'ゲスト' } },
            text('|{{hotel_name|当館}}|{{full_name}}|{{nope}}'),
          ),
        ),
      ]),
      'ja',
      imageUrl,
    );
    const none = personalise(compiled, {});
    expect(none.subject).toBe('お客様');
    expect(none.html).toContain('ゲスト|当館|お客様|{{nope}}');
    const some = personalise(compiled, { first_name: '太郎', hotel_name: '', full_name: '山田 太郎 様' });
    expect(some.html).toContain('太郎|当館|山田 太郎 様|');
  });

  it('puts tags in the pre-header, keeps subject lines on one line, and a value cannot forge a slot', async () => {
    const compiled = await compileMessage(content('Hi {{first_name}}', [], 'For {{first_name}}'), 'en', imageUrl);
    const m = personalise(compiled, { first_name: 'A\r\nBcc: x@evil.example \uE0000\uE001' });
    expect(m.subject).toBe('Hi A Bcc: x@evil.example \uE0000\uE001');
    expect(m.html).toContain('For A\r\nBcc: x@evil.example \uE0000\uE001');
  });

  it('strips marker characters a user typed so they cannot pose as tags', async () => {
    const compiled = await compileMessage(
      content('x\uE0000\uE001', [textBlock(paragraph(text('a\uE0000\uE001b')))]),
      'en',
      imageUrl,
    );
    expect(compiled.tags).toEqual([]);
    expect(personalise(compiled, { first_name: 'Z' }).html).toContain('ab');
  });

  it('warns past 100 KB of HTML and when the subject is missing', async () => {
    const big = Array.from({ length: 80 }, (_, n) => ({
      ...textBlock(paragraph(text('あいうえお'.repeat(100)))),
      id: `t${n}`,
    }));
    const compiled = await compileMessage(content('', big), 'ja', imageUrl);
    expect(compiled.htmlBytes).toBeGreaterThan(100 * 1024);
    expect(compiled.warnings.map((w) => w.code)).toEqual(['subject_missing', 'html_too_large']);
    const small = await compileMessage(content('s', [textBlock(paragraph(text('x')))]), 'ja', imageUrl);
    expect(small.warnings).toEqual([]);
  });

  it('leaves the hidden pre-header and image addresses out of the text part', async () => {
    const compiled = await compileMessage(
      content(
        's',
        [{ id: 'i', type: 'image', src: IMAGE, alt: 'Lobby' }, textBlock(paragraph(text('Body')))],
        'Hidden line',
      ),
      'en',
      imageUrl,
    );
    const { text: part, html } = personalise(compiled, {});
    expect(html).toContain('Hidden line');
    expect(part).not.toContain('Hidden line');
    expect(part).not.toContain('/files/logos/');
    expect(part).toContain('Body');
  });
});

describe('guest values', () => {
  it('writes the full name in the guest order, with 様 in Japanese only', () => {
    expect(personalValues({ firstName: '太郎', lastName: '山田' }, 'ja').full_name).toBe('山田 太郎 様');
    expect(personalValues({ firstName: '太郎', lastName: '山田' }, 'en').full_name).toBe('山田 太郎');
    expect(personalValues({ firstName: 'Emily', lastName: 'Carter' }, 'ja').full_name).toBe('Emily Carter 様');
    expect(personalValues({ firstName: 'Emily', lastName: 'Carter' }, 'en').full_name).toBe('Emily Carter');
    expect(personalValues({ firstName: ' ', lastName: '' }, 'ja').full_name).toBeNull();
  });

  it('formats stay dates for the language', () => {
    expect(formatStayDate('2026-12-04', 'ja')).toBe('2026年12月4日');
    expect(formatStayDate('2026-12-04', 'en')).toBe('4 Dec 2026');
    expect(formatStayDate('bad', 'en')).toBeNull();
    expect(personalValues({ checkIn: '2027-01-02', numberOfGuests: 2 }, 'ja')).toMatchObject({
      check_in_date: '2027年1月2日',
      number_of_guests: '2',
    });
  });
});

describe('the editor JSON', () => {
  it("accepts tiptap's getJSON() output as it comes, dropping attributes the renderer does not use", () => {
    const fromEditor = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          attrs: { textAlign: null },
          content: [
            {
              type: 'text',
              text: 'Hi ',
              marks: [
                {
                  type: 'link',
                  attrs: { href: 'https://x.jp', target: '_blank', rel: 'noopener noreferrer nofollow', class: null },
                },
              ],
            },
            {
              type: 'text',
              text: 'there',
              marks: [{ type: 'textStyle', attrs: { color: '#aa0000', fontSize: null, fontFamily: null } }],
            },
            { type: 'personalTag', attrs: { key: 'full_name', fallback: null } },
          ],
        },
        { type: 'heading', attrs: { textAlign: 'left', level: 3 }, content: [{ type: 'text', text: 'H' }] },
        {
          type: 'orderedList',
          attrs: { start: 1, type: null },
          content: [{ type: 'listItem', content: [{ type: 'paragraph', attrs: { textAlign: null } }] }],
        },
      ],
    };
    const parsed = ZBlock.parse({ id: 't', type: 'text', content: fromEditor });
    expect(JSON.stringify(parsed)).not.toContain('noopener');
    expect(mjmlOf(parsed).mjml).toContain('<ol style="margin:0;padding-left:1.5em;"><li></li></ol>');
  });
});
