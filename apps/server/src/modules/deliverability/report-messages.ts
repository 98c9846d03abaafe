import { randomUUID } from 'node:crypto';

/**
 * Delivery status notifications (RFC 3464) and complaint reports (ARF, RFC 5965) as a relay or a
 * mailbox provider writes them: what the embedded sink sends to a return path for its `bounce*`,
 * `full*` and `complain*` rules, so the embedded product shows the whole loop.
 */

export interface TReportInput {
  /** The return path the report goes to (the original envelope's MAIL FROM). */
  to: string;
  /** The guest's address the original mail went to. */
  recipient: string;
  /** The reporting system's host name. */
  reportingMta: string;
  /** The original message's header block (the report quotes it). */
  originalHeaders: string;
}

const crlf = (lines: string[]) => lines.join('\r\n');

export function deliveryStatusNotification(
  input: TReportInput & { status: string; diagnostic: string; action?: 'failed' | 'delayed' },
): Buffer {
  const boundary = `dsn-${randomUUID()}`;
  return Buffer.from(
    crlf([
      `From: Mail Delivery System <MAILER-DAEMON@${input.reportingMta}>`,
      `To: <${input.to}>`,
      'Subject: Undelivered Mail Returned to Sender',
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${randomUUID()}@${input.reportingMta}>`,
      'Auto-Submitted: auto-replied',
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      `Your message to <${input.recipient}> could not be delivered.`,
      '',
      `--${boundary}`,
      'Content-Type: message/delivery-status',
      '',
      `Reporting-MTA: dns; ${input.reportingMta}`,
      `Arrival-Date: ${new Date().toUTCString()}`,
      '',
      `Final-Recipient: rfc822; ${input.recipient}`,
      `Action: ${input.action ?? 'failed'}`,
      `Status: ${input.status}`,
      `Diagnostic-Code: smtp; ${input.diagnostic}`,
      '',
      `--${boundary}`,
      'Content-Type: text/rfc822-headers',
      '',
      input.originalHeaders.trimEnd(),
      '',
      `--${boundary}--`,
      '',
    ]),
    'utf8',
  );
}

export function complaintReport(input: TReportInput & { feedbackType?: string }): Buffer {
  const boundary = `arf-${randomUUID()}`;
  return Buffer.from(
    crlf([
      `From: Feedback Loop <fbl@${input.reportingMta}>`,
      `To: <${input.to}>`,
      'Subject: FW: complaint about a message',
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${randomUUID()}@${input.reportingMta}>`,
      'MIME-Version: 1.0',
      `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is an email abuse report for a message received from your system.',
      '',
      `--${boundary}`,
      'Content-Type: message/feedback-report',
      '',
      `Feedback-Type: ${input.feedbackType ?? 'abuse'}`,
      `User-Agent: ${input.reportingMta}/1.0`,
      'Version: 1',
      `Original-Rcpt-To: ${input.recipient}`,
      `Arrival-Date: ${new Date().toUTCString()}`,
      '',
      `--${boundary}`,
      'Content-Type: text/rfc822-headers',
      '',
      input.originalHeaders.trimEnd(),
      '',
      `--${boundary}--`,
      '',
    ]),
    'utf8',
  );
}
