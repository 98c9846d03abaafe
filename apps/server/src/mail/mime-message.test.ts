import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { relaxedBodyHash } from '../modules/campaigns/dkim-sign.ts';
import { base64Lines, headerBlock, isPlainAlternative, mimeMessage } from './mime-message.ts';

const mail = {
  from: { name: 'さくらホテルズ "本店"', address: 'info@sakura.example.jp' },
  replyTo: 'desk@sakura.example.jp',
  to: 'guest@example.jp',
  subject: '山田 花子 様、冬のご案内 — 特別プランのお知らせ（ご宿泊のお客様へ）',
  html: `<html><body><p>${'ご滞在をより快適に。 '.repeat(300)}</p>  \n\n</body></html>`,
  text: 'ご案内   です \n\n\n',
  messageId: '<d1.c1@sakura.example.jp>',
  headers: {
    // As long as a real one: folded after the field's name.
    'List-Unsubscribe': `<https://yado.example.jp/v1/public/unsubscribe?token=${'x'.repeat(90)}>, <mailto:info@sakura.example.jp?subject=unsubscribe%20${'x'.repeat(90)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  textEncoding: 'base64' as const,
};

describe('base64Lines', () => {
  it('encodes any length as lines of at most 76 characters, each ending in CRLF, that decode to the input', () => {
    for (const length of [0, 1, 2, 3, 56, 57, 58, 113, 114, 115, 1000, 40_001]) {
      const data = Buffer.from(Array.from({ length }, (_, i) => (i * 7 + length) % 256));
      const text = base64Lines(data).toString('latin1');
      const lines = text.split('\r\n');
      expect(lines.pop()).toBe('');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(76);
      expect(lines.slice(0, -1).every((line) => line.length === 76)).toBe(true);
      expect(Buffer.from(lines.join(''), 'base64').equals(data)).toBe(true);
    }
  });
});

describe('mimeMessage', () => {
  it('builds a message a mail parser reads back whole: both bodies, the encoded names and the headers', async () => {
    const built = mimeMessage(mail, new Date('2026-11-29T07:00:00Z'));
    const raw = Buffer.concat([Buffer.from(headerBlock(built.fields), 'latin1'), built.body]);
    // Plain ASCII, as SMTP without 8BITMIME needs, in lines within RFC 5322's limit (a token longer
    // than 78 characters cannot be folded); the bodies' lines within RFC 2045's 76.
    const lines = raw.toString('latin1').split('\r\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(998);
    for (const line of built.body.toString('latin1').split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    expect(raw.every((byte) => byte < 128)).toBe(true);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.from?.value).toEqual([{ name: mail.from.name, address: mail.from.address }]);
    expect(parsed.replyTo?.text).toBe(mail.replyTo);
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.date?.toISOString()).toBe('2026-11-29T07:00:00.000Z');
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    const line = (key: string) => parsed.headerLines.find((h) => h.key === key)?.line.replace(/\r\n /g, ' ');
    expect(line('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(line('list-unsubscribe')).toBe(`List-Unsubscribe: ${mail.headers['List-Unsubscribe']}`);
  });

  it('writes the body in its relaxed canonical form, so its DKIM hash is the plain hash of its bytes', () => {
    const built = mimeMessage(mail);
    const plain = createHash('sha256').update(built.body).digest('base64');
    expect(built.bodyHash).toBe(plain);
    expect(relaxedBodyHash(built.body.toString('latin1'))).toBe(plain);
  });

  it('builds a repeat of the mail with the same boundary, and another mail with its own', () => {
    const boundary = (m: typeof mail) =>
      mimeMessage(m)
        .fields.find((f) => f.name === 'Content-Type')
        ?.value.match(/boundary="([^"]+)"/)?.[1];
    expect(boundary(mail)).toBe(boundary(mail));
    expect(boundary({ ...mail, messageId: '<d2.c1@sakura.example.jp>' })).not.toBe(boundary(mail));
  });

  it('takes only the shape it builds: attachments or a non-string body go to nodemailer', () => {
    expect(isPlainAlternative(mail)).toBe(true);
    expect(isPlainAlternative({ ...mail, attachments: [{ content: 'x' }] })).toBe(false);
    expect(isPlainAlternative({ ...mail, html: Buffer.from('x') })).toBe(false);
    expect(isPlainAlternative({ ...mail, textEncoding: 'quoted-printable' })).toBe(false);
  });
});
