import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { TDb } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';

export interface TSmtpSink {
  port: number;
  close(): Promise<void>;
}

/** A header line's value on one line, as a list of headers shows it. */
const unfold = (value: string) => value.replace(/\r?\n[ \t]+/g, ' ').trim();

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** How many times the sink answers 451 to a `defer...` address before it accepts it. */
export const SINK_DEFERRALS = 2;

/**
 * The sink refuses some addresses by rule, so the demo and the tests show a relay's refusals: a
 * local part starting with `bounce` is unknown (550, a hard bounce); one starting with `defer` is
 * refused for now (451) the first SINK_DEFERRALS times, then accepted.
 */
export function sinkRefusal(address: string, deferrals: Map<string, number>): { code: number; message: string } | null {
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  if (local.startsWith('bounce')) return { code: 550, message: '5.1.1 No such user here (embedded sink rule: bounce*)' };
  if (local.startsWith('defer')) {
    const key = address.toLowerCase();
    const seen = deferrals.get(key) ?? 0;
    if (seen < SINK_DEFERRALS) {
      deferrals.set(key, seen + 1);
      return { code: 451, message: '4.3.0 Try again later (embedded sink rule: defer*)' };
    }
  }
  return null;
}

/**
 * The embedded SMTP sink: a real SMTP server on loopback that keeps what it receives in the
 * dev_outbox table, so mail can be read in the console's outbox without any relay.
 */
export async function startSmtpSink(db: TDb, onError: (error: Error) => void, port = 0): Promise<TSmtpSink> {
  const deferrals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: 'Yado embedded SMTP sink',
    onRcptTo(address, _session, callback) {
      const refusal = sinkRefusal(address.address, deferrals);
      if (!refusal) return callback();
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((mail) =>
            db.insert(devOutbox).values({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : null,
              size: raw.length,
              raw,
              headers: mail.headerLines.map((h) => ({ key: h.key, value: unfold(h.line.slice(h.line.indexOf(':') + 1)) })),
            }),
          )
          .then(() => callback(), (error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A client dropping its connection (a pooled sender closing an idle socket, say) is reported
  // as an 'error' event; without a listener Node would end the whole process on it.
  server.on('error', onError);
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
