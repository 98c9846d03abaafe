import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { retryingConflicts, selectRows, withTenant } from '../../db/client.ts';
import { countFeedback } from '../../metrics/metrics.ts';
import type { TRuntime } from '../../runtime.ts';
import { applyFeedback, type TFeedback } from './apply-feedback.ts';
import { classifyAnswer, classifyFeedbackType, isAutoReply } from './classify.ts';
import { parseReport } from './parse-report.ts';
import { openReturnPathAddress } from './verp.ts';

/**
 * The feedback receiver (issue 25): an SMTP server for the VERP return paths
 * (`b-<token>@yado.<sending domain>`, verp.ts). It accepts a recipient only when the token's
 * signature holds and the delivery it names belongs to the brand that owns the domain (a token
 * of another brand's delivery is refused: 550, counted). A message is then read (parse-report.ts):
 * a DSN or a complaint report is classified by the same rules as the send path's answers
 * (classify.ts) and applied once (apply-feedback.ts, deduplicated per delivery and kind), with the
 * report kept raw; an automatic answer is recorded and changes nothing; anything else is kept in
 * `inbound_unparsed` and counted, never guessed. A message over MAX_BYTES is refused (552).
 * Nothing a sender writes can make it answer with an error of ours or stop the process: a failure
 * while storing is a 451 (the sender tries again later).
 *
 * Runs in the API process (`npm start`: in embedded mode on a free loopback port, where the
 * embedded sink sends its DSNs and ARF reports), on BOUNCE_SMTP_HOST:BOUNCE_SMTP_PORT.
 */

export interface TFeedbackReceiver {
  port: number;
  close(): Promise<void>;
}

/** Reports are small; a bounce quoting a whole message with attachments is cut off here. */
export const MAX_BYTES = 2 * 1024 * 1024;

export interface TTarget {
  address: string;
  deliveryId: string;
  brandId: string;
  sendingDomain: string;
}

const SYSTEM = { scopeAll: true, brandId: null } as const;

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/** The delivery a return path names, when the token holds and the delivery is of the domain's brand. */
async function targetOf(rt: TRuntime, address: string): Promise<TTarget | 'bad_token' | 'foreign_brand'> {
  const opened = openReturnPathAddress(rt, address);
  if (!opened) return 'bad_token';
  const [row] = await withTenant(rt.database.db, SYSTEM, (tx) =>
    selectRows<{ brand_id: string; own: boolean }>(
      tx,
      sql`select d.brand_id, exists (select 1 from sending_domains sd where sd.brand_id = d.brand_id and sd.domain = ${opened.sendingDomain}) as own
        from deliveries d where d.id = ${opened.deliveryId}::uuid`,
    ),
  );
  // A delivery since deleted (its campaign deleted) is as unknown as a forged one.
  if (!row) return 'bad_token';
  if (!row.own) return 'foreign_brand';
  return { address, deliveryId: opened.deliveryId, brandId: row.brand_id, sendingDomain: opened.sendingDomain };
}

/**
 * What one received message means for one return path it was sent to (also how the demo history
 * reads the reports it makes for its past bounces and complaints).
 */
export function feedbackOf(raw: Buffer, target: TTarget): TFeedback | { unparsed: string } {
  const report = parseReport(raw);
  const base = { deliveryId: target.deliveryId, sendingDomain: target.sendingDomain, raw };
  switch (report.type) {
    case 'dsn': {
      // VERP: one guest per envelope. The failed recipient first, else the first one reported.
      const r = report.recipients.find((x) => x.action === 'failed') ?? report.recipients[0];
      if (!r) return { unparsed: 'dsn_without_recipients' };
      const classified = classifyAnswer({
        action: r.action,
        status: r.status,
        diagnostic: r.diagnostic,
        final: r.action === 'failed',
      });
      return { ...base, kind: classified.kind, source: 'dsn', status: classified.status, diagnostic: r.diagnostic };
    }
    case 'arf': {
      const kind = classifyFeedbackType(report.feedbackType);
      if (!kind) return { unparsed: 'arf_feedback_type' };
      return { ...base, kind, source: 'arf', status: null, diagnostic: `Feedback-Type: ${report.feedbackType ?? ''}` };
    }
    case 'reply':
      if (isAutoReply(report))
        return { ...base, kind: 'auto_reply', source: 'reply', status: null, diagnostic: report.subject };
      // A person wrote to the return path: not a report, kept for someone to read.
      return { unparsed: 'not_a_report' };
    case 'unparsed':
      return { unparsed: report.reason };
  }
}

async function receive(rt: TRuntime, raw: Buffer, session: SMTPServerSession, targets: TTarget[]): Promise<void> {
  const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  for (const target of targets) {
    const found = feedbackOf(raw, target);
    if ('unparsed' in found) {
      await withTenant(rt.database.db, { scopeAll: false, brandId: target.brandId }, (tx) =>
        tx.execute(sql`insert into inbound_unparsed (brand_id, delivery_id, reason, mail_from, rcpt_to, size, raw)
          values (${target.brandId}::uuid, ${target.deliveryId}::uuid, ${found.unparsed}, ${mailFrom}, ${target.address}, ${raw.length}, ${raw})`),
      );
      countFeedback('unparsed');
      continue;
    }
    // A report may meet the send's own commit on the same rows (a protection pause among them):
    // PostgreSQL then rolls one back, and it is applied again.
    const applied = await retryingConflicts(
      () =>
        withTenant(rt.database.db, { scopeAll: false, brandId: target.brandId }, (tx) => applyFeedback(tx, [found])),
      { log: rt.log, what: 'a report applied' },
    );
    countFeedback(applied.length ? 'applied' : 'duplicate');
  }
}

export async function startFeedbackReceiver(
  rt: TRuntime,
  options: { host: string; port: number },
  onError: (error: Error) => void,
): Promise<TFeedbackReceiver> {
  const targets = new Map<string, TTarget[]>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    size: MAX_BYTES,
    logger: false,
    banner: 'Yado feedback receiver',
    onRcptTo(address, session, callback) {
      targetOf(rt, address.address).then(
        (target) => {
          if (typeof target === 'string') {
            countFeedback(`refused_${target === 'bad_token' ? 'token' : 'brand'}`);
            return callback(smtpError(550, '5.1.1 No such return path'));
          }
          const list = targets.get(session.id) ?? [];
          list.push(target);
          targets.set(session.id, list);
          callback();
        },
        (error: Error) => {
          onError(error);
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BYTES) chunks.push(c);
      });
      stream.on('error', () => undefined);
      stream.on('end', () => {
        const mine = (targets.get(session.id) ?? []).filter((t) =>
          session.envelope.rcptTo.some((r) => r.address === t.address),
        );
        targets.delete(session.id);
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded || size > MAX_BYTES) {
          countFeedback('too_large');
          return callback(smtpError(552, '5.3.4 Message too big'));
        }
        receive(rt, Buffer.concat(chunks), session, mine).then(
          () => callback(),
          (error: Error) => {
            countFeedback('error');
            onError(error);
            callback(smtpError(451, '4.3.0 Try again later'));
          },
        );
      });
    },
    onClose(session) {
      targets.delete(session.id);
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A client dropping its connection is an 'error' event: worth a warning, never the process.
  server.on('error', onError);
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
