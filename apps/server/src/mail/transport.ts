import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { Readable } from 'node:stream';

/**
 * A message's body probe: `sendMail({ ...mail, [BODY_PROBE]: probe })` and, if no answer came,
 * `bodyWentOut(probe)` says whether the message stream was being read, which nodemailer starts only
 * once the relay said 354 to DATA. Before that the relay can have taken nothing.
 */
export const BODY_PROBE = 'yadoBodyProbe';
export interface TBodyProbe {
  stream?: Readable;
}
export const bodyWentOut = (probe: TBodyProbe) => probe.stream?.readableDidRead === true;

/** The transport plugin that hands each probed message's stream to its probe. */
function probeBody(
  mail: Mail & { data: Record<string, unknown>; message: { createReadStream(): Readable } },
  done: (err?: Error | null) => void,
) {
  const probe = mail.data[BODY_PROBE] as TBodyProbe | undefined;
  if (probe) {
    const create = mail.message.createReadStream.bind(mail.message);
    mail.message.createReadStream = () => (probe.stream = create());
  }
  done();
}

/**
 * The pool towards the embedded sink: enough connections that a send's slots (one mail each, its
 * answer committed before the next: issue 24) keep it busy and the sink's group commit gathers
 * several messages per insert, each kept open for the whole send
 * rather than replaced after nodemailer's default of 100 messages.
 */
export const SINK_POOL = { maxConnections: 16, maxMessages: Infinity, maxRequeues: 0 } as const;

/**
 * nodemailer's pool re-sends a message on its own when its connection closes mid-send (up to
 * `maxRequeues`, 5 by default), without telling the caller: a message the relay may already have
 * taken would go twice unseen. Always 0 here, whatever SMTP_URL says, so the error reaches the send
 * (send-campaign.ts, deliver), which decides by its own rules: lost after the body was sent is
 * "unknown" (sent again once, marked), lost before it took nothing.
 */
export const NO_REQUEUES = 0;

/** A pooled SMTP transport to the relay (SMTP_URL) or to the embedded sink on loopback. */
export function createMailTransport(smtpUrl: string | null, sinkPort: number | null): Transporter {
  const transport = createPool(smtpUrl, sinkPort);
  transport.use('stream', probeBody as never);
  return transport;
}

function createPool(smtpUrl: string | null, sinkPort: number | null): Transporter {
  if (smtpUrl) {
    if (!smtpUrl.includes('pool='))
      return nodemailer.createTransport({ ...parseUrl(smtpUrl), pool: true, maxRequeues: NO_REQUEUES });
    const url = new URL(smtpUrl);
    url.searchParams.set('maxRequeues', String(NO_REQUEUES));
    return nodemailer.createTransport(url.toString());
  }
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
