import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

/**
 * The pool towards the embedded sink: enough connections that a send's slots (one mail each, its
 * answer committed before the next: issue 24) keep it busy and the sink's group commit gathers
 * several messages per insert, each kept open for the whole send
 * rather than replaced after nodemailer's default of 100 messages.
 */
export const SINK_POOL = { maxConnections: 16, maxMessages: Infinity } as const;

/** A pooled SMTP transport to the relay (SMTP_URL) or to the embedded sink on loopback. */
export function createMailTransport(smtpUrl: string | null, sinkPort: number | null): Transporter {
  if (smtpUrl)
    return nodemailer.createTransport(smtpUrl.includes('pool=') ? smtpUrl : { ...parseUrl(smtpUrl), pool: true });
  if (sinkPort === null) throw new Error('No SMTP relay configured and no embedded sink running');
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: sinkPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    ...SINK_POOL,
  });
}

function parseUrl(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || (u.protocol === 'smtps:' ? 465 : 587)),
    secure: u.protocol === 'smtps:',
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
  };
}
