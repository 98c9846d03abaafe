import type { AddressInfo } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import type { TDb } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';
import { complaintReport, deliveryStatusNotification } from '../modules/deliverability/report-messages.ts';
import { RETURN_PATH_PREFIX, RETURN_PATH_SUBDOMAIN } from '../modules/deliverability/verp.ts';
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
 * local part starting with `unknown` is refused during the conversation (550, a hard bounce); one
 * starting with `blocked` is refused as spam (554 5.7.1, a policy block: the guest is not
 * suppressed); one starting with `defer` is refused for now (451) the first SINK_DEFERRALS times,
 * then accepted.
 */
export function sinkRefusal(address: string, deferrals: Map<string, number>): { code: number; message: string } | null {
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  if (local.startsWith('malformed'))
    return { code: 553, message: '5.1.3 Bad recipient address syntax (embedded sink rule: malformed*)' };
  if (local.startsWith('unknown'))
    return { code: 550, message: '5.1.1 No such user here (embedded sink rule: unknown*)' };
  if (local.startsWith('blocked'))
    return { code: 554, message: '5.7.1 Message rejected as spam (embedded sink rule: blocked*)' };
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

export type TSinkReport = { kind: 'dsn'; status: string; diagnostic: string } | { kind: 'arf'; feedbackType: string };

/**
 * What happens after the sink took a message, as a real relay's later reports (issue 25): a local
 * part starting with `bounce` is bounced by a DSN (5.1.1, a hard bounce), `full` by a DSN saying
 * the mailbox is full (5.2.2, a soft bounce), and `complain` is reported as spam by an ARF report,
 * each sent a moment later to the message's return path (the feedback receiver).
 */
export function sinkReport(address: string): TSinkReport | null {
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase();
  if (local.startsWith('bounce'))
    return { kind: 'dsn', status: '5.1.1', diagnostic: '550 5.1.1 No such user here (embedded sink rule: bounce*)' };
  if (local.startsWith('full'))
    return { kind: 'dsn', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full (embedded sink rule: full*)' };
  if (local.startsWith('complain')) return { kind: 'arf', feedbackType: 'abuse' };
  return null;
}

/** How long after accepting a message the sink sends its report (a relay's bounce comes later). */
const REPORT_DELAY_MS = 200;
const REPORTING_MTA = 'sink.yado.local';

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
export async function startSmtpSink(
  db: TDb,
  onError: (error: Error) => void,
  port = 0,
  /** The feedback receiver's port for the sink's reports (null: none running, no reports). */
  reportPort: () => number | null = () => null,
): Promise<TSmtpSink> {
  const deferrals = new Map<string, number>();
  const writer = new OutboxWriter(db);
  let reporter: Transporter | null = null;
  const pending = new Set<NodeJS.Timeout>();
  /** Sends the reports the rules ask for to the message's return path, a moment later. */
  const report = (mailFrom: string, rcptTo: string[], raw: Buffer) => {
    const returnPath = mailFrom.toLowerCase();
    const domain = returnPath.slice(returnPath.lastIndexOf('@') + 1);
    if (!returnPath.startsWith(RETURN_PATH_PREFIX) || !domain.startsWith(RETURN_PATH_SUBDOMAIN)) return;
    const receiver = reportPort();
    if (receiver === null) return;
    let end = raw.indexOf('\r\n\r\n');
    if (end < 0) end = raw.length;
    const originalHeaders = raw.subarray(0, Math.min(end, 16 * 1024)).toString('utf8');
    for (const recipient of rcptTo) {
      const rule = sinkReport(recipient);
      if (!rule) continue;
      const input = { to: mailFrom, recipient, reportingMta: REPORTING_MTA, originalHeaders };
      const message =
        rule.kind === 'dsn'
          ? deliveryStatusNotification({ ...input, status: rule.status, diagnostic: rule.diagnostic })
          : complaintReport({ ...input, feedbackType: rule.feedbackType });
      const timer = setTimeout(() => {
        pending.delete(timer);
        reporter ??= nodemailer.createTransport({ host: '127.0.0.1', port: receiver, secure: false, ignoreTLS: true });
        // The null sender (<>) a report goes out with, so no report is ever answered by another.
        reporter
          .sendMail({ envelope: { from: '', to: [mailFrom] }, raw: message })
          .catch((error: Error) => onError(error));
      }, REPORT_DELAY_MS);
      pending.add(timer);
    }
  };
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
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const rcptTo = session.envelope.rcptTo.map((r) => r.address);
        writer.store({ mailFrom, rcptTo, subject: subjectOf(headers), size: raw.length, raw, headers }).then(
          () => {
            callback();
            report(mailFrom, rcptTo, raw);
          },
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pending) clearTimeout(timer);
        reporter?.close();
        server.close(() => resolve());
      }),
  };
}
