import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';

/** A pooled SMTP transport to the relay (SMTP_URL) or to the embedded sink on loopback. */
export function createMailTransport(smtpUrl: string | null, sinkPort: number | null): Transporter {
  if (smtpUrl) return nodemailer.createTransport(smtpUrl.includes('pool=') ? smtpUrl : { ...parseUrl(smtpUrl), pool: true });
  if (sinkPort === null) throw new Error('No SMTP relay configured and no embedded sink running');
  return nodemailer.createTransport({ host: '127.0.0.1', port: sinkPort, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 });
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
