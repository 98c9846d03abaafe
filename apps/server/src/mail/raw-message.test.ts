import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { decodeWords, headerLinesOf, subjectOf } from './raw-message.ts';

const build = (subject: string): Promise<Buffer> =>
  new MailComposer({
    from: { name: 'さくらホテルズ', address: 'info@sakura.example.jp' },
    to: 'guest@example.jp',
    subject,
    text: 'こんにちは',
    html: '<p>こんにちは</p>',
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  })
    .compile()
    .build();

describe('reading a received message without parsing its MIME tree', () => {
  it.each([
    ['plain ASCII', 'Summer plans'],
    ['Japanese', '山田 花子様、夏の特別プランのご案内'],
    ['long Japanese, split over several encoded words', '箱根の冬のご案内'.repeat(12)],
    ['mixed, with an emoji', 'Summer 夏 🌻 plans, 50% off'],
  ])('gives the same subject and header lines as mailparser (%s)', async (_, subject) => {
    const raw = await build(subject);
    const parsed = await simpleParser(raw);
    const headers = headerLinesOf(raw);
    expect(subjectOf(headers)).toBe(subject);
    expect(subjectOf(headers)).toBe(parsed.subject);
    expect(headers).toEqual(
      parsed.headerLines.map((h) => ({
        key: h.key,
        value: h.line
          .slice(h.line.indexOf(':') + 1)
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      })),
    );
  });

  it('decodes Q words and other charsets, and keeps text between words', () => {
    expect(decodeWords('=?ISO-8859-1?Q?Caf=E9_ouvert?=')).toBe('Café ouvert');
    expect(decodeWords('Re: =?UTF-8?B?5aSP?= =?UTF-8?B?44Gu?= plan')).toBe('Re: 夏の plan');
    expect(decodeWords('=?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?=')).toBe('テスト');
  });
});
