import { createHash } from 'node:crypto';
import type Mail from 'nodemailer/lib/mailer';
import { foldLines } from 'nodemailer/lib/mime-funcs';
import MimeNode, { type MimeNodeHeaderValue } from 'nodemailer/lib/mime-node';

/**
 * A marketing mail's MIME, built directly rather than by nodemailer's composer: the one shape a
 * campaign sends (a text and an HTML alternative, both base64, and a few header fields) written
 * into one buffer. The composer builds a tree of nodes and streams each body through transforms
 * for every message, which was a third of the sender's work per mail besides the SMTP exchange.
 * Header values are still encoded by nodemailer's own encoder, so they read exactly as before.
 *
 * The body comes out in its own relaxed canonical form (RFC 6376 section 3.4.4: base64 lines and
 * boundary lines carry no trailing or repeated whitespace, and it ends in a single CRLF), so its
 * DKIM body hash is the plain hash of its bytes.
 */

export interface THeaderField {
  name: string;
  /** What follows the colon on the wire (RFC 2047 words, folded), without the field's final CRLF. */
  value: string;
}

export interface TMimeMessage {
  /** In the order they are written. */
  fields: THeaderField[];
  body: Buffer;
  /** The body's DKIM hash (sha256, base64), relaxed and simple alike. */
  bodyHash: string;
}

/** Characters a line of base64 holds (RFC 2045 section 6.8). */
const LINE = 76;

/** The bytes as base64 in lines of 76, each ending in CRLF. */
export function base64Lines(data: Buffer): Buffer {
  const encoded = data.toString('base64');
  const lines = Math.ceil(encoded.length / LINE);
  const out = Buffer.allocUnsafe(encoded.length + lines * 2);
  out.write(encoded, 0, 'latin1');
  // Each line moves right by two bytes per line before it, so from the last line back nothing
  // is overwritten before it has moved.
  for (let line = lines - 1; line >= 0; line--) {
    const from = line * LINE;
    const end = Math.min(from + LINE, encoded.length);
    const to = line * (LINE + 2);
    out.copyWithin(to, from, end);
    out[to + end - from] = 13;
    out[to + end - from + 1] = 10;
  }
  return out;
}

/**
 * One node for every value: it only encodes here, and a node made per call (as the static
 * `MimeNode.encodeHeaderValue` does) draws random bytes for a boundary each time.
 */
const encoder = new MimeNode();
const encode = (name: string, value: unknown) => encoder.encodeHeaderValue(name, value as MimeNodeHeaderValue);

const field = (name: string, value: string): THeaderField => ({
  name,
  // Folded as nodemailer folds (a long value may begin on the next line), then split at the colon.
  value: foldLines(`${name}: ${value}`, 76).slice(name.length + 1),
});

/** The options a campaign mail has (compose-message.ts); any other means another shape. */
const PLAIN_OPTIONS = new Set([
  'from',
  'replyTo',
  'to',
  'subject',
  'html',
  'text',
  'messageId',
  'headers',
  'textEncoding',
  'dkim',
]);

/** Whether `mail` is the shape this builder writes; anything else goes through nodemailer's composer. */
export function isPlainAlternative(mail: Mail.Options): boolean {
  return (
    Object.keys(mail).every((key) => PLAIN_OPTIONS.has(key)) &&
    typeof mail.html === 'string' &&
    typeof mail.text === 'string' &&
    typeof mail.to === 'string' &&
    typeof mail.subject === 'string' &&
    typeof mail.messageId === 'string' &&
    (mail.textEncoding === undefined || mail.textEncoding === 'base64') &&
    (mail.headers === undefined ||
      Object.values(mail.headers as Record<string, unknown>).every((v) => typeof v === 'string'))
  );
}

/** The message for `mail`, which `isPlainAlternative` accepted; `date` is its Date field. */
export function mimeMessage(mail: Mail.Options, date = new Date()): TMimeMessage {
  const messageId = mail.messageId as string;
  // Base64 never holds "_" or "-", so no line of either body can be mistaken for the boundary;
  // derived from the Message-ID, a repeat of the mail is built the same.
  const boundary = `_yado_alt_${createHash('sha256').update(messageId).digest('hex').slice(0, 24)}`;
  const fields: THeaderField[] = [];
  for (const [name, value] of Object.entries((mail.headers ?? {}) as Record<string, string>))
    fields.push(field(name, encode(name, value)));
  fields.push(field('From', encode('From', mail.from)));
  if (mail.replyTo) fields.push(field('Reply-To', encode('Reply-To', mail.replyTo)));
  fields.push(
    field('To', encode('To', mail.to)),
    field('Subject', encode('Subject', mail.subject)),
    field('Message-ID', encode('Message-ID', messageId)),
    field('Date', date.toUTCString().replace(/GMT/, '+0000')),
    field('MIME-Version', '1.0'),
    field('Content-Type', `multipart/alternative; boundary="${boundary}"`),
  );
  const part = (type: string) =>
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n`;
  const body = Buffer.concat([
    Buffer.from(part('text/plain'), 'latin1'),
    base64Lines(Buffer.from(mail.text as string, 'utf8')),
    Buffer.from(part('text/html'), 'latin1'),
    base64Lines(Buffer.from(mail.html as string, 'utf8')),
    Buffer.from(`--${boundary}--\r\n`, 'latin1'),
  ]);
  return { fields, body, bodyHash: createHash('sha256').update(body).digest('base64') };
}

/** The header block (each field and its CRLF) and the blank line before the body. */
export function headerBlock(fields: THeaderField[]): string {
  let block = '';
  for (const f of fields) block += `${f.name}:${f.value}\r\n`;
  return `${block}\r\n`;
}
