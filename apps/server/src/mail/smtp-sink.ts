import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { TDb } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';
import { headerLinesOf, subjectOf } from './raw-message.ts';

export interface TSmtpSink {
  port: number;
  close(): Promise<void>;
}

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
  if (local.startsWith('malformed'))
    return { code: 553, message: '5.1.3 Bad recipient address syntax (embedded sink rule: malformed*)' };
  if (local.startsWith('bounce'))
    return { code: 550, message: '5.1.1 No such user here (embedded sink rule: bounce*)' };
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

type TOutboxRow = typeof devOutbox.$inferInsert;

/**
 * Stores received messages with group commit: a message waits while an insert is under way and
 * then goes with every other message that arrived meanwhile, in one multi-row insert. Each SMTP
 * transaction is answered only once its row is committed, so a "250" still means "stored": the
 * batches grow with the number of connections sending at once, never with a timer.
 */
class OutboxWriter {
  private waiting: { row: TOutboxRow; done: (error: Error | null) => void }[] = [];
  private writing = false;

  constructor(private readonly db: TDb) {}

  store(row: TOutboxRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ row, done: (error) => (error ? reject(error) : resolve()) });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.waiting.length) {
      const batch = this.waiting;
      this.waiting = [];
      const error = await this.db
        .insert(devOutbox)
        .values(batch.map((w) => w.row))
        .then(
          () => null,
          (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
        );
      for (const w of batch) w.done(error);
    }
    this.writing = false;
  }
}

/**
 * The embedded SMTP sink: a real SMTP server on loopback that keeps what it receives in the
 * dev_outbox table, so mail can be read in the console's outbox without any relay. It stores the
 * message as received with its header lines and decoded subject, read cheaply from the header
 * block; the bodies are decoded only when the outbox is read (modules/dev/routes.ts), so receiving
 * costs little beside the insert.
 */
export async function startSmtpSink(db: TDb, onError: (error: Error) => void, port = 0): Promise<TSmtpSink> {
  const deferrals = new Map<string, number>();
  const writer = new OutboxWriter(db);
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
        const headers = headerLinesOf(raw);
        writer
          .store({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            subject: subjectOf(headers),
            size: raw.length,
            raw,
            headers,
          })
          .then(
            () => callback(),
            (error: Error) => callback(error),
          );
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
