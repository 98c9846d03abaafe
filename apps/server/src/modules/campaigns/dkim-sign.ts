import { createHash, sign, type KeyObject } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { headerBlock, isPlainAlternative, mimeMessage, type THeaderField } from '../../mail/mime-message.ts';
import type { TSigningKey } from './compose-message.ts';

/**
 * DKIM (RFC 6376, rsa-sha256, relaxed/relaxed) for the campaign send, with the RSA signature made by
 * node's asynchronous `crypto.sign`, which runs in libuv's thread pool: nodemailer signs on the
 * event loop, where each signature stalls every other message of the send. The message is handed
 * to the transport as raw bytes.
 */

const signAsync = (data: Buffer, key: KeyObject | string) =>
  new Promise<Buffer>((resolve, reject) =>
    sign('sha256', data, key, (error, signature) => (error ? reject(error) : resolve(signature))),
  );

/** The body's relaxed canonical form (section 3.4.4), hashed. */
export function relaxedBodyHash(body: string): string {
  const lines = body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return createHash('sha256')
    .update(lines.length ? `${lines.join('\r\n')}\r\n` : '', 'latin1')
    .digest('base64');
}

/** A header field's relaxed canonical form (section 3.4.2): `name:value`, unfolded, spaces collapsed. */
const relaxedHeader = (name: string, value: string) =>
  `${name.toLowerCase()}:${value
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;

/** Header fields of a header block, unfolded into name and value, in order. */
function headerFields(block: string): THeaderField[] {
  return block
    .split(/\r\n(?![ \t])/)
    .filter((line) => line.includes(':'))
    .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1) }));
}

/** Signs a built message: the DKIM-Signature field, ready to put in front of it. */
export async function dkimSignature(raw: Buffer, key: TSigningKey & { headerFieldNames: string }): Promise<string> {
  const text = raw.toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  const fields = headerFields(split < 0 ? text : text.slice(0, split));
  return signatureOf(fields, relaxedBodyHash(split < 0 ? '' : text.slice(split + 4)), key);
}

/** The DKIM-Signature field over `fields` (as written, unfolded or not) and a body of hash `bodyHash`. */
async function signatureOf(
  fields: THeaderField[],
  bodyHash: string,
  key: TSigningKey & { headerFieldNames: string },
): Promise<string> {
  const signed: string[] = [];
  const canonical: string[] = [];
  for (const name of key.headerFieldNames.split(':')) {
    // The last instance of a field is the one signed (section 5.4.2); absent fields are left out.
    let field: THeaderField | undefined;
    for (let i = fields.length - 1; i >= 0 && !field; i--)
      if (fields[i]?.name.toLowerCase() === name.toLowerCase()) field = fields[i];
    if (!field) continue;
    signed.push(name.toLowerCase());
    canonical.push(relaxedHeader(field.name, field.value));
  }
  const tags = `v=1; a=rsa-sha256; c=relaxed/relaxed; d=${key.domainName}; q=dns/txt; s=${key.keySelector};\r\n bh=${bodyHash};\r\n h=${signed.join(':')}; b=`;
  const header = `DKIM-Signature: ${tags}`;
  const data = `${canonical.join('\r\n')}\r\n${relaxedHeader('DKIM-Signature', tags)}`;
  const signature = (await signAsync(Buffer.from(data, 'latin1'), key.privateKey)).toString('base64');
  return `${header}${signature.replace(/.{1,72}/g, '$&\r\n ').trimEnd()}`;
}

/**
 * The message for `mail`, signed as its `dkim` option asks but with the RSA work off the event
 * loop: the envelope and raw bytes to pass to `sendMail`. A campaign's mail (`isPlainAlternative`)
 * is built by `mimeMessage`, whose body needs no canonicalising to hash; any other shape by
 * nodemailer's composer.
 */
export async function signedRaw(mail: Mail.Options): Promise<Mail.Options> {
  const { dkim, ...unsigned } = mail;
  const key = dkim as (TSigningKey & { headerFieldNames: string }) | undefined;
  const envelope = envelopeOf(mail);
  if (isPlainAlternative(mail)) {
    const built = mimeMessage(mail);
    const signature = key ? `${await signatureOf(built.fields, built.bodyHash, key)}\r\n` : '';
    return {
      envelope,
      raw: Buffer.concat([Buffer.from(signature + headerBlock(built.fields), 'latin1'), built.body]),
      messageId: mail.messageId,
    };
  }
  const raw = await new MailComposer(unsigned).compile().build();
  if (!key) return { envelope, raw, messageId: mail.messageId };
  return {
    envelope,
    raw: Buffer.concat([Buffer.from(`${await dkimSignature(raw, key)}\r\n`, 'latin1'), raw]),
    messageId: mail.messageId,
  };
}

const addressOf = (a: Mail.Options['from']) =>
  typeof a === 'string' ? a : a && !Array.isArray(a) ? (a as Mail.Address).address : '';

const envelopeOf = (mail: Mail.Options) => ({ from: addressOf(mail.from), to: [mail.to as string] });
