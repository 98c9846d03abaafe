import { classifyAnswer, classifyFeedbackType, type TFeedbackKind } from '../classify.ts';

/**
 * What a relay's webhook event says, in the same terms as a DSN (classify.ts): each provider's
 * event is read into its event id (the deduplication key), the mail it is about (our Message-ID,
 * `<delivery id>.<campaign id>@<domain>`, which every relay echoes; Postmark's metadata header
 * `X-PM-Metadata-yado-delivery`; SES's envelope sender, our VERP return path) and its kind.
 * Events of no interest (opens, clicks, processed) have no kind and are stored and ignored.
 */

export interface TProviderEvent {
  eventId: string;
  /** The delivery id the event names, when it names one of ours. */
  deliveryId: string | null;
  /** The envelope sender (SES `mail.source`): our VERP return path when the relay kept it. */
  returnPath: string | null;
  /** The domain of our Message-ID: the sending domain (policy blocks count against it). */
  sendingDomain?: string | null;
  feedback: { kind: TFeedbackKind; status: string | null; diagnostic: string | null } | null;
  raw: unknown;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const MESSAGE_ID = new RegExp(`^<?(${UUID})\\.${UUID}@([^>\\s]+)`, 'i');
const BARE_UUID = new RegExp(`^${UUID}$`, 'i');

/** The delivery named by our Message-ID (compose-message.ts `messageIdOf`). */
export function deliveryOfMessageId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = MESSAGE_ID.exec(value.trim());
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** The domain of our Message-ID (the From domain it was sent from). */
export function domainOfMessageId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return MESSAGE_ID.exec(value.trim())?.[2]?.toLowerCase() ?? null;
}

/** The domain of a sender address (`news@d`, `Name <news@d>`): Postmark names no Message-ID of ours. */
function domainOfAddress(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /@([a-z0-9.-]+)>?\s*$/i.exec(value.trim());
  return m?.[1] ? m[1].toLowerCase() : null;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const obj = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const failed = (status: string | null, diagnostic: string | null, smtpCode?: number | null) => {
  const c = classifyAnswer({ action: 'failed', status, diagnostic, smtpCode: smtpCode ?? null, final: true });
  return { kind: c.kind, status: c.status, diagnostic };
};

// ---- Amazon SES (the SNS notification's Message, a JSON text) ----

const SES_SUBTYPE_STATUS: Record<string, string> = {
  General: '5.1.1',
  NoEmail: '5.1.1',
  Suppressed: '5.1.1',
  OnAccountSuppressionList: '5.1.1',
  MailboxFull: '5.2.2',
  MessageTooLarge: '5.3.4',
  ContentRejected: '5.7.1',
  AttachmentRejected: '5.7.1',
};

export function sesEvent(snsMessageId: string, message: unknown): TProviderEvent | null {
  const m = obj(message);
  const type = str(m.notificationType) ?? str(m.eventType);
  const mail = obj(m.mail);
  const common = obj(mail.commonHeaders);
  const headers = Array.isArray(mail.headers) ? (mail.headers as unknown[]).map(obj) : [];
  const fromHeader = headers.find((h) => typeof h.name === 'string' && h.name.toLowerCase() === 'message-id')?.value;
  const deliveryId = deliveryOfMessageId(common.messageId) ?? deliveryOfMessageId(fromHeader);
  if (!type || !str(mail.messageId)) return null;
  const base = {
    eventId: snsMessageId,
    deliveryId,
    returnPath: str(mail.source),
    sendingDomain: domainOfMessageId(common.messageId) ?? domainOfMessageId(fromHeader),
    raw: message,
  };
  if (type === 'Bounce') {
    const bounce = obj(m.bounce);
    const recipient = obj((Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients : [])[0]);
    const bounceType = str(bounce.bounceType);
    const subType = str(bounce.bounceSubType) ?? 'General';
    const diagnostic = str(recipient.diagnosticCode) ?? `${bounceType ?? ''} ${subType}`.trim();
    if (bounceType === 'Transient') {
      // SES has given up retrying: a final temporary failure (a soft bounce, or a policy one).
      const status = str(recipient.status) ?? (subType === 'MailboxFull' ? '4.2.2' : null);
      const c = classifyAnswer({ action: 'failed', status, diagnostic, final: true });
      return { ...base, feedback: { kind: c.kind, status: c.status, diagnostic } };
    }
    if (bounceType === 'Permanent')
      return { ...base, feedback: failed(str(recipient.status) ?? SES_SUBTYPE_STATUS[subType] ?? null, diagnostic) };
    // Undetermined: SES could not tell; nothing is known about the address.
    return { ...base, feedback: null };
  }
  if (type === 'Complaint') {
    const complaint = obj(m.complaint);
    const feedbackType = str(complaint.complaintFeedbackType) ?? 'abuse';
    const kind = classifyFeedbackType(feedbackType) ?? 'complaint';
    return { ...base, feedback: { kind, status: null, diagnostic: `Feedback-Type: ${feedbackType}` } };
  }
  if (type === 'Delivery') {
    const delivery = obj(m.delivery);
    return { ...base, feedback: { kind: 'delivered', status: null, diagnostic: str(delivery.smtpResponse) } };
  }
  return { ...base, feedback: null };
}

// ---- SendGrid (a JSON array of events) ----

export function sendgridEvent(event: unknown): TProviderEvent | null {
  const e = obj(event);
  const eventId = str(e.sg_event_id);
  const type = str(e.event);
  if (!eventId || !type) return null;
  const base = {
    eventId,
    deliveryId: deliveryOfMessageId(e['smtp-id']),
    returnPath: null,
    sendingDomain: domainOfMessageId(e['smtp-id']),
    raw: event,
  };
  const reason = str(e.reason) ?? str(e.response);
  const status = str(e.status);
  switch (type) {
    case 'bounce': {
      const f = failed(status, reason);
      // SendGrid's "blocked" is the receiving server refusing the sender, unless it named the address.
      if (e.type === 'blocked' && f.kind !== 'hard_bounce')
        return { ...base, feedback: { ...f, kind: 'policy_block' } };
      return { ...base, feedback: f };
    }
    case 'dropped': {
      // Not sent: the address is on SendGrid's own list for a reason we mirror.
      if (reason === 'Bounced Address' || reason === 'Invalid')
        return { ...base, feedback: { kind: 'hard_bounce', status: null, diagnostic: reason } };
      if (reason === 'Spam Reporting Address')
        return { ...base, feedback: { kind: 'complaint', status: null, diagnostic: reason } };
      return { ...base, feedback: null };
    }
    case 'spamreport':
      return { ...base, feedback: { kind: 'complaint', status: null, diagnostic: 'SendGrid spamreport' } };
    case 'delivered':
      return { ...base, feedback: { kind: 'delivered', status: null, diagnostic: reason } };
    default:
      return { ...base, feedback: null };
  }
}

// ---- Mailgun (one event: `event-data`) ----

export function mailgunEvent(eventData: unknown): TProviderEvent | null {
  const e = obj(eventData);
  const eventId = str(e.id);
  const type = str(e.event);
  if (!eventId || !type) return null;
  const headers = obj(obj(e.message).headers);
  const base = {
    eventId,
    deliveryId: deliveryOfMessageId(headers['message-id']),
    returnPath: null,
    sendingDomain: domainOfMessageId(headers['message-id']),
    raw: eventData,
  };
  const ds = obj(e['delivery-status']);
  const diagnostic = str(ds.message) ?? str(ds.description) ?? str(e.reason);
  const code = typeof ds.code === 'number' ? ds.code : Number(ds.code) || null;
  const status = str(ds['enhanced-code']);
  if (type === 'failed') {
    if (e.severity === 'permanent') {
      // Mailgun's own suppression lists: the address bounced or complained with it before.
      if (e.reason === 'suppress-bounce') return { ...base, feedback: { kind: 'hard_bounce', status, diagnostic } };
      if (e.reason === 'suppress-complaint')
        return { ...base, feedback: { kind: 'complaint', status: null, diagnostic } };
      return { ...base, feedback: failed(status, diagnostic, code) };
    }
    // Temporary: Mailgun retries; a final one says so.
    return {
      ...base,
      feedback: { ...failed(status, diagnostic, code), ...(e.severity === 'temporary' ? { kind: 'deferred' } : {}) },
    };
  }
  if (type === 'complained')
    return { ...base, feedback: { kind: 'complaint', status: null, diagnostic: 'Mailgun complained' } };
  if (type === 'delivered') return { ...base, feedback: { kind: 'delivered', status, diagnostic } };
  return { ...base, feedback: null };
}

// ---- Postmark (one record: Bounce, SpamComplaint, Delivery...) ----

const POSTMARK_BOUNCE: Record<string, TFeedbackKind> = {
  HardBounce: 'hard_bounce',
  BadEmailAddress: 'hard_bounce',
  ManuallyDeactivated: 'hard_bounce',
  SoftBounce: 'soft_bounce',
  DnsError: 'soft_bounce',
  Transient: 'deferred',
  SpamNotification: 'policy_block',
  Blocked: 'policy_block',
  ContentRelated: 'policy_block',
  AutoResponder: 'auto_reply',
  SpamComplaint: 'complaint',
};

export function postmarkEvent(record: unknown): TProviderEvent | null {
  const r = obj(record);
  const type = str(r.RecordType);
  const metadata = obj(r.Metadata);
  const given = str(metadata['yado-delivery']);
  const deliveryId = given && BARE_UUID.test(given) ? given.toLowerCase() : null;
  const messageId = str(r.MessageID);
  if (!type || !messageId) return null;
  const id = typeof r.ID === 'number' || typeof r.ID === 'string' ? String(r.ID) : null;
  const base = { deliveryId, returnPath: null, sendingDomain: domainOfAddress(r.From), raw: record };
  const diagnostic = str(r.Details) ?? str(r.Description);
  if (type === 'Bounce' && id) {
    const bounceType = str(r.Type) ?? '';
    const kind = POSTMARK_BOUNCE[bounceType];
    const feedback = kind
      ? { kind, status: null, diagnostic }
      : bounceType === 'Unknown' || bounceType === 'Undeliverable'
        ? failed(null, diagnostic)
        : null;
    return { ...base, eventId: `bounce:${id}`, feedback };
  }
  if (type === 'SpamComplaint' && id)
    return {
      ...base,
      eventId: `complaint:${id}`,
      feedback: { kind: 'complaint', status: null, diagnostic: 'Postmark SpamComplaint' },
    };
  if (type === 'Delivery')
    return {
      ...base,
      eventId: `delivery:${messageId}:${str(r.Recipient) ?? ''}`,
      feedback: { kind: 'delivered', status: null, diagnostic },
    };
  return { ...base, eventId: `${type}:${id ?? messageId}:${str(r.ReceivedAt) ?? ''}`, feedback: null };
}
