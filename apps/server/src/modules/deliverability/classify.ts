/**
 * The one set of rules that says what a relay's answer or a delivery status notification means
 * for the guest (issue 25). Both the send path (the relay's synchronous answer) and the feedback
 * receiver (a DSN's Status and Diagnostic-Code, an ARF report) call it, so a 550 5.1.1 means the
 * same thing whenever it arrives.
 *
 * - hard_bounce: the address does not exist (5.1.x, 5.1.10 null MX, unknown domain): suppressed at
 *   the first.
 * - soft_bounce: the mailbox cannot take mail now (full: 4.2.2 / 5.2.2, or any 4.x.x once the
 *   retries are used up): suppressed only when 3 of the guest's last 5 sends soft-bounced.
 * - policy_block: the relay or the provider refused us, not the address (5.7.x, content, spam
 *   reputation): never suppresses the guest, counts against the sending domain.
 * - auto_reply: an out-of-office answer: never suppresses.
 * - complaint: the guest reported the mail as spam (ARF): unsubscribed from the brand's marketing.
 * - deferred: a temporary answer with retries left (or a DSN's "delayed"): nothing to do yet.
 * - delivered: a DSN that reports success (relayed, delivered, expanded): nothing to do.
 */
export const FEEDBACK_KINDS = [
  'hard_bounce',
  'soft_bounce',
  'policy_block',
  'auto_reply',
  'complaint',
  'deferred',
  'delivered',
] as const;
export type TFeedbackKind = (typeof FEEDBACK_KINDS)[number];

export interface TAnswer {
  /** The SMTP reply code (550, 452...), when the answer came in the SMTP conversation. */
  smtpCode?: number | null;
  /** An RFC 3463 enhanced status code ("5.1.1"): a DSN's Status field, or read from the text. */
  status?: string | null;
  /** The relay's text (a DSN's Diagnostic-Code, or the SMTP reply line). */
  diagnostic?: string | null;
  /** A DSN's Action field (RFC 3464: failed, delayed, delivered, relayed, expanded). */
  action?: string | null;
  /** True when no retry follows (the send's retries are used up, or a DSN reports a final failure). */
  final?: boolean;
}

export interface TClassified {
  kind: TFeedbackKind;
  /** The enhanced status code the rules went by, when there was one. */
  status: string | null;
}

const ENHANCED = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

const FULL =
  /mailbox (is )?full|over ?quota|quota (exceeded|exceeds)|exceeded (storage|quota)|insufficient (system )?storage|mailbox size limit/i;
const UNKNOWN_USER =
  /no such (user|mailbox|recipient)|user (unknown|not found)|unknown (user|recipient|mailbox)|mailbox (not found|does not exist|unavailable)|recipient (not found|unknown|does not exist)|address (does not exist|rejected|not found)|does not exist|invalid (recipient|mailbox|address)|account (has been )?(disabled|closed|does not exist)/i;
const UNKNOWN_DOMAIN =
  /(host|domain)( name)? (not found|unknown|does not exist)|unknown (host|domain)|no mx|null mx|unrouteable|unroutable|name or service not known/i;
const POLICY =
  /spam|blocked|block ?list|black ?list|blacklisted|reputation|policy|dmarc|spf|dkim|not authorized|unauthenticated|denied|rate limit|too many|refused.*(content|message)/i;
const AUTO_REPLY = /auto[- ]?reply|out of (the )?office|autoreply|vacation|自動応答|自動返信|不在/i;

/** The enhanced status code given, or the first one in the text. */
export function enhancedStatusOf(answer: Pick<TAnswer, 'status' | 'diagnostic'>): string | null {
  const given = answer.status?.trim();
  const m = (given && ENHANCED.exec(given)) || (answer.diagnostic ? ENHANCED.exec(answer.diagnostic) : null);
  return m ? `${m[1]}.${Number(m[2])}.${Number(m[3])}` : null;
}

/** What the answer means for the guest: see the module comment. */
export function classifyAnswer(answer: TAnswer): TClassified {
  const action = answer.action?.trim().toLowerCase() ?? null;
  const status = enhancedStatusOf(answer);
  const text = answer.diagnostic ?? '';
  if (action === 'delivered' || action === 'relayed' || action === 'expanded') return { kind: 'delivered', status };
  if (status?.startsWith('2.') || (answer.smtpCode && answer.smtpCode < 400)) return { kind: 'delivered', status };
  const klass = status ? status[0] : answer.smtpCode ? String(answer.smtpCode)[0] : action === 'failed' ? '5' : null;
  if (action === 'delayed') return { kind: 'deferred', status };
  if (klass === '4') {
    if (!answer.final) return { kind: 'deferred', status };
    // Retries used up: the mailbox could not take it (full, busy); a 4.7.x is the provider throttling us.
    if (status?.startsWith('4.7.') || (!status && POLICY.test(text) && !FULL.test(text)))
      return { kind: 'policy_block', status };
    return { kind: 'soft_bounce', status };
  }
  if (klass !== '5') {
    // No code at all (a connection that failed): nothing known about the address.
    return { kind: answer.final ? 'soft_bounce' : 'deferred', status };
  }
  if (FULL.test(text)) return { kind: 'soft_bounce', status };
  if (status) {
    const [, subject, detail] = status.split('.').map(Number) as [number, number, number];
    if (subject === 1) return { kind: 'hard_bounce', status };
    if (subject === 7 || subject === 6 || subject === 5) return { kind: 'policy_block', status };
    if (subject === 4 && detail === 4) return { kind: 'hard_bounce', status };
    if (subject === 2 || subject === 3 || subject === 4) return { kind: 'soft_bounce', status };
    // 5.0.0 and the like: the text decides.
  }
  if (UNKNOWN_USER.test(text) || UNKNOWN_DOMAIN.test(text)) return { kind: 'hard_bounce', status };
  if (POLICY.test(text)) return { kind: 'policy_block', status };
  if (AUTO_REPLY.test(text)) return { kind: 'auto_reply', status };
  // A bare 550 / 551 / 553 is "mailbox unavailable / not local / name not allowed" (RFC 5321).
  const code = answer.smtpCode ?? null;
  if (code === 550 || code === 551 || code === 553) return { kind: 'hard_bounce', status };
  return { kind: 'soft_bounce', status };
}

/** An ARF report's Feedback-Type (RFC 5965): abuse, fraud, virus and other are the guest's complaint. */
export function classifyFeedbackType(feedbackType: string | null | undefined): TFeedbackKind | null {
  const type = feedbackType?.trim().toLowerCase() ?? '';
  if (['abuse', 'fraud', 'virus', 'other'].includes(type)) return 'complaint';
  // A DMARC/SPF/DKIM failure report is about our domain, not the guest.
  if (type === 'auth-failure') return 'policy_block';
  return null;
}

/** Whether a message that is no report is an automatic answer (RFC 3834 Auto-Submitted, or the usual subjects). */
export function isAutoReply(headers: { autoSubmitted?: string | null; subject?: string | null }): boolean {
  const auto = headers.autoSubmitted?.trim().toLowerCase();
  if (auto && auto !== 'no') return true;
  return headers.subject ? AUTO_REPLY.test(headers.subject) : false;
}
