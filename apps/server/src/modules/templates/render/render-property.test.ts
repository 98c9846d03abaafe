import { ZTemplateContent } from '@yado/contracts';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { compileMessage, personalise } from './compile.ts';

/** Strings a user might type or paste, weighted towards markup and MJML's own tags. */
const hostile = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '</mj-text><mj-raw><script>x</script></mj-raw><mj-text>',
    '"><img src=x onerror=alert(1)>',
    '{{first_name|<b>}}',
    '<!-- x --><![CDATA[ y ]]>',
    '&amp; &lt; & < > " \'',
    '\uE0000\uE001',
    '<mjml><mj-body></mj-body></mjml>',
    '<style>body{background:url(https://t.example/p)}</style>',
  ),
);

describe('any user text', () => {
  it('renders to valid MJML without a script, handler or javascript: link', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, hostile, async (a, b, c, d) => {
        const content = ZTemplateContent.parse({
          subject: a,
          preheader: b,
          document: {
            version: 1,
            sections: [
              {
                id: 's',
                columns: [
                  {
                    id: 'c',
                    blocks: [
                      {
                        id: 't',
                        type: 'text',
                        content: {
                          type: 'doc',
                          content: [{ type: 'paragraph', content: c ? [{ type: 'text', text: c }] : [] }],
                        },
                      },
                      { id: 'b', type: 'button', label: d.trim() || 'x', href: 'https://example.jp' },
                      { id: 'k', type: 'code', html: `${a}${c}${d}` },
                      { id: 'i', type: 'image', src: 'https://example.jp/a.png', alt: b.trim() },
                      { id: 'l', type: 'link', label: c.trim() || 'y', href: 'https://example.jp' },
                    ],
                  },
                ],
              },
            ],
          },
        });
        const compiled = await compileMessage(content, 'en', (s) => s);
        const { html } = personalise(compiled, { first_name: '<script>alert(2)</script>' });
        // Read as a browser would: escaped text is harmless, elements and attributes are not.
        const { document } = new JSDOM(html).window;
        expect(document.querySelectorAll('script, iframe, form, input, object, embed, mj-raw, mjml').length).toBe(0);
        for (const element of document.querySelectorAll('*')) {
          for (const attribute of element.attributes) {
            expect(attribute.name.startsWith('on'), `${element.tagName} ${attribute.name}`).toBe(false);
            expect(/^\s*javascript:/i.test(attribute.value), `${element.tagName} ${attribute.name}`).toBe(false);
          }
        }
        for (const style of document.querySelectorAll('style')) expect(style.textContent).not.toContain('t.example');
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
