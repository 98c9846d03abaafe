import { headerLinesOf, subjectOf, type THeaderLine } from '../../mail/raw-message.ts';

/**
 * Reads what arrives at a return path (issue 25) without guessing:
 *
 * - a delivery status notification (RFC 3464: `multipart/report; report-type=delivery-status`):
 *   each recipient's Action, Status and Diagnostic-Code from the `message/delivery-status` part;
 * - a complaint report (ARF, RFC 5965: `multipart/report; report-type=feedback-report`): the
 *   Feedback-Type of the `message/feedback-report` part;
 * - an automatic answer (RFC 3834 Auto-Submitted, or an out-of-office subject);
 * - anything else is `unparsed`, with the reason: the receiver keeps it as received.
 *
 * A small MIME reader of its own (headers, boundaries, base64 and quoted-printable): a report's
 * parts are short text, and every malformed input ends as `unparsed`, never as an exception.
 */

export interface TDsnRecipient {
  finalRecipient: string | null;
  action: string | null;
  status: string | null;
  diagnostic: string | null;
}

export type TReport =
  | { type: 'dsn'; recipients: TDsnRecipient[] }
  | { type: 'arf'; feedbackType: string | null }
  | { type: 'reply'; subject: string | null; autoSubmitted: string | null }
  | { type: 'unparsed'; reason: string };

interface TPart {
  headers: THeaderLine[];
  body: Buffer;
}

const MAX_DEPTH = 4;
const MAX_PARTS = 50;

function headerValue(headers: THeaderLine[], key: string): string | null {
  return headers.find((h) => h.key === key)?.value ?? null;
}

/** `type/subtype` in lower case and the parameters of a Content-Type value. */
function contentTypeOf(value: string | null): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  if (!value) return { type: 'text/plain', params };
  const [type = '', ...rest] = value.split(';');
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let v = part.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    params.set(name, v);
  }
  return { type: type.trim().toLowerCase(), params };
}

function splitHeaderBody(raw: Buffer): TPart {
  let end = raw.indexOf('\r\n\r\n');
  let skip = 4;
  const lf = raw.indexOf('\n\n');
  if (end < 0 || (lf >= 0 && lf < end)) {
    end = lf;
    skip = 2;
  }
  if (end < 0) return { headers: headerLinesOf(raw), body: Buffer.alloc(0) };
  return { headers: headerLinesOf(raw.subarray(0, end + 2)), body: raw.subarray(end + skip) };
}

function decodeBody(part: TPart): Buffer {
  const encoding = (headerValue(part.headers, 'content-transfer-encoding') ?? '').trim().toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') {
    const text = part.body
      .toString('latin1')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(text, 'latin1');
  }
  return part.body;
}

/** The parts of a multipart body, split at the boundary lines. */
function partsOf(body: Buffer, boundary: string): Buffer[] | null {
  if (!boundary || boundary.length > 200) return null;
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const lines = text.split(/\r?\n/);
  const parts: string[][] = [];
  let current: string[] | null = null;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === `${delimiter}--`) {
      if (current) parts.push(current);
      current = null;
      break;
    }
    if (trimmed === delimiter) {
      if (current) parts.push(current);
      if (parts.length >= MAX_PARTS) return null;
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current);
  if (parts.length === 0) return null;
  return parts.map((p) => Buffer.from(p.join('\r\n'), 'latin1'));
}

/** Groups of `Field: value` lines separated by blank lines (a delivery-status or feedback-report body). */
export function fieldGroups(text: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  for (const block of text.split(/\r?\n[ \t]*\r?\n/)) {
    const fields = new Map<string, string>();
    for (const line of headerLinesOf(Buffer.from(`${block.trim()}\r\n\r\n`, 'utf8'))) fields.set(line.key, line.value);
    if (fields.size) groups.push(fields);
  }
  return groups;
}

/** `rfc822; guest@example.jp` -> `guest@example.jp`; `smtp; 550 5.1.1 ...` -> `550 5.1.1 ...`. */
const typed = (value: string | undefined) => {
  if (value === undefined) return null;
  const semi = value.indexOf(';');
  return (semi >= 0 ? value.slice(semi + 1) : value).trim() || null;
};

function dsnOf(body: Buffer): TReport {
  const groups = fieldGroups(body.toString('utf8'));
  // The first group is about the message (Reporting-MTA); the others, each about one recipient.
  const recipients = groups
    .filter((g) => g.has('final-recipient') || g.has('original-recipient') || g.has('action') || g.has('status'))
    .map((g) => ({
      finalRecipient: typed(g.get('final-recipient') ?? g.get('original-recipient')),
      action: g.get('action')?.trim().toLowerCase() ?? null,
      status: g.get('status')?.trim() ?? null,
      diagnostic: typed(g.get('diagnostic-code')),
    }))
    .filter((r) => r.action || r.status);
  if (recipients.length === 0) return { type: 'unparsed', reason: 'dsn_without_recipients' };
  return { type: 'dsn', recipients };
}

function reportOf(part: TPart, depth: number): TReport | null {
  const { type, params } = contentTypeOf(headerValue(part.headers, 'content-type'));
  if (!type.startsWith('multipart/')) return null;
  const children = partsOf(part.body, params.get('boundary') ?? '');
  if (!children) return { type: 'unparsed', reason: 'multipart_without_parts' };
  const parsed = children.map(splitHeaderBody);
  if (type === 'multipart/report') {
    const reportType = params.get('report-type')?.toLowerCase();
    const partOf = (wanted: string) =>
      parsed.find((p) => contentTypeOf(headerValue(p.headers, 'content-type')).type === wanted);
    if (reportType === 'delivery-status') {
      const status = partOf('message/delivery-status') ?? partOf('message/global-delivery-status');
      return status ? dsnOf(decodeBody(status)) : { type: 'unparsed', reason: 'dsn_without_status_part' };
    }
    if (reportType === 'feedback-report') {
      const report = partOf('message/feedback-report');
      if (!report) return { type: 'unparsed', reason: 'arf_without_report_part' };
      const fields = fieldGroups(decodeBody(report).toString('utf8'))[0];
      return { type: 'arf', feedbackType: fields?.get('feedback-type')?.trim() ?? null };
    }
    return { type: 'unparsed', reason: 'unknown_report_type' };
  }
  // A report wrapped in another multipart (some relays forward them so).
  if (depth >= MAX_DEPTH) return { type: 'unparsed', reason: 'nested_too_deep' };
  for (const child of parsed) {
    const found = reportOf(child, depth + 1);
    if (found && found.type !== 'unparsed') return found;
  }
  return null;
}

/** What a message received at a return path is. Never throws. */
export function parseReport(raw: Buffer): TReport {
  try {
    const message = splitHeaderBody(raw);
    if (message.headers.length === 0) return { type: 'unparsed', reason: 'no_headers' };
    const report = reportOf(message, 0);
    if (report) return report;
    const autoSubmitted = headerValue(message.headers, 'auto-submitted');
    const subject = subjectOf(message.headers) || null;
    const xAutoreply = headerValue(message.headers, 'x-autoreply') ?? headerValue(message.headers, 'x-autorespond');
    return {
      type: 'reply',
      subject,
      autoSubmitted: autoSubmitted ?? (xAutoreply ? 'auto-replied' : null),
    };
  } catch {
    return { type: 'unparsed', reason: 'malformed' };
  }
}
