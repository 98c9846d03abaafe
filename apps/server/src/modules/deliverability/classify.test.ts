import { describe, expect, it } from 'vitest';
import {
  classifyAnswer,
  classifyFeedbackType,
  enhancedStatusOf,
  isAutoReply,
  type TAnswer,
  type TFeedbackKind,
} from './classify.ts';

/** The rules table of issue 25: each answer and what it means for the guest. */
const TABLE: [string, TAnswer, TFeedbackKind][] = [
  // Hard bounces: the address or its domain does not exist.
  [
    '550 5.1.1 no such user',
    { smtpCode: 550, diagnostic: '5.1.1 <a@b.jp>: Recipient address rejected: User unknown' },
    'hard_bounce',
  ],
  [
    'DSN 5.1.1',
    { action: 'failed', status: '5.1.1', diagnostic: 'smtp; 550 5.1.1 The email account does not exist' },
    'hard_bounce',
  ],
  [
    '5.1.10 null MX',
    { action: 'failed', status: '5.1.10', diagnostic: 'smtp; 556 5.1.10 Recipient address has null MX' },
    'hard_bounce',
  ],
  ['5.1.2 unknown domain', { smtpCode: 550, diagnostic: '5.1.2 Host or domain name not found' }, 'hard_bounce'],
  ['5.4.4 unable to route', { action: 'failed', status: '5.4.4', diagnostic: 'Unrouteable address' }, 'hard_bounce'],
  [
    'bare 550 user unknown',
    { smtpCode: 550, diagnostic: 'Requested action not taken: mailbox unavailable' },
    'hard_bounce',
  ],
  [
    '5.0.0 with no such user text',
    { action: 'failed', status: '5.0.0', diagnostic: 'smtp; 550 no such user here' },
    'hard_bounce',
  ],
  [
    '5.0.0 host not found',
    { action: 'failed', status: '5.0.0', diagnostic: 'Host or domain name not found. Name service error' },
    'hard_bounce',
  ],
  ['bare 553', { smtpCode: 553, diagnostic: 'sorry, that address is not in my list' }, 'hard_bounce'],
  // Soft bounces: the mailbox cannot take mail now.
  [
    '5.2.2 mailbox full',
    { smtpCode: 552, diagnostic: '5.2.2 The email account that you tried to reach is over quota' },
    'soft_bounce',
  ],
  ['DSN 5.2.2', { action: 'failed', status: '5.2.2', diagnostic: 'smtp; 552 5.2.2 Mailbox full' }, 'soft_bounce'],
  ['4.2.2 full after retries', { smtpCode: 452, diagnostic: '4.2.2 Mailbox full', final: true }, 'soft_bounce'],
  ['550 text says full', { smtpCode: 550, diagnostic: 'Mailbox is full' }, 'soft_bounce'],
  ['4.x.x after retries', { smtpCode: 451, diagnostic: '4.3.0 Try again later', final: true }, 'soft_bounce'],
  [
    'DSN failed with 4.4.7 (expired)',
    { action: 'failed', status: '4.4.7', diagnostic: 'delivery time expired', final: true },
    'soft_bounce',
  ],
  ['no code, retries used up', { diagnostic: 'ECONNREFUSED', final: true }, 'soft_bounce'],
  ['5.2.1 mailbox disabled', { action: 'failed', status: '5.2.1', diagnostic: 'mailbox disabled' }, 'soft_bounce'],
  ['bare 554', { smtpCode: 554, diagnostic: 'Transaction failed' }, 'soft_bounce'],
  // Policy blocks: the provider refused us, not the address.
  ['5.7.1 spam', { smtpCode: 550, diagnostic: '5.7.1 Message rejected as spam' }, 'policy_block'],
  [
    '5.7.26 DMARC',
    { action: 'failed', status: '5.7.26', diagnostic: 'Unauthenticated email is not accepted' },
    'policy_block',
  ],
  [
    '5.7.1 even when it names the user',
    { smtpCode: 550, diagnostic: '5.7.1 Recipient address rejected: user unknown' },
    'policy_block',
  ],
  [
    '554 block list, no enhanced code',
    { smtpCode: 554, diagnostic: 'Service unavailable; client host blocked using a block list' },
    'policy_block',
  ],
  [
    '4.7.0 throttled after retries',
    { smtpCode: 421, diagnostic: '4.7.0 Try again later, rate limited', final: true },
    'policy_block',
  ],
  ['5.6.0 content', { action: 'failed', status: '5.6.0', diagnostic: 'Message content rejected' }, 'policy_block'],
  // Temporary: retried, nothing to do yet.
  ['451 with retries left', { smtpCode: 451, diagnostic: '4.3.0 Try again later' }, 'deferred'],
  ['452 full with retries left', { smtpCode: 452, diagnostic: '4.2.2 Mailbox full' }, 'deferred'],
  ['DSN delayed', { action: 'delayed', status: '4.4.1', diagnostic: 'connection timed out' }, 'deferred'],
  // Success reports.
  ['DSN delivered', { action: 'delivered', status: '2.0.0' }, 'delivered'],
  ['DSN relayed', { action: 'relayed', status: '2.0.0' }, 'delivered'],
  // An automatic answer that came back as a 5xx text.
  ['auto-reply text', { smtpCode: 550, diagnostic: 'Out of office until Monday' }, 'auto_reply'],
];

describe('classifyAnswer', () => {
  it.each(TABLE)('%s', (_name, answer, kind) => {
    expect(classifyAnswer(answer).kind).toBe(kind);
  });

  it('names the enhanced status code the rules went by', () => {
    expect(classifyAnswer({ smtpCode: 550, diagnostic: '550 5.1.1 <a@b.jp> no such user' }).status).toBe('5.1.1');
    expect(classifyAnswer({ action: 'failed', status: ' 5.01.010 ' }).status).toBe('5.1.10');
    expect(classifyAnswer({ smtpCode: 550, diagnostic: 'mailbox unavailable' }).status).toBeNull();
  });

  it('prefers the given status over one in the text', () => {
    expect(enhancedStatusOf({ status: '5.2.2', diagnostic: 'smtp; 550 5.1.1 whatever' })).toBe('5.2.2');
    expect(enhancedStatusOf({ status: 'garbage', diagnostic: 'smtp; 550 5.1.1 whatever' })).toBe('5.1.1');
    expect(enhancedStatusOf({})).toBeNull();
  });
});

describe('classifyFeedbackType', () => {
  it('takes abuse, fraud, virus and other reports for complaints, auth failures for policy', () => {
    expect(classifyFeedbackType('abuse')).toBe('complaint');
    expect(classifyFeedbackType(' Fraud ')).toBe('complaint');
    expect(classifyFeedbackType('virus')).toBe('complaint');
    expect(classifyFeedbackType('other')).toBe('complaint');
    expect(classifyFeedbackType('auth-failure')).toBe('policy_block');
    expect(classifyFeedbackType('not-spam')).toBeNull();
    expect(classifyFeedbackType(undefined)).toBeNull();
  });
});

describe('isAutoReply', () => {
  it('reads Auto-Submitted and the usual subjects', () => {
    expect(isAutoReply({ autoSubmitted: 'auto-replied' })).toBe(true);
    expect(isAutoReply({ autoSubmitted: 'no', subject: 'Re: your stay' })).toBe(false);
    expect(isAutoReply({ subject: 'Out of Office: 冬のご案内' })).toBe(true);
    expect(isAutoReply({ subject: '自動応答: 冬のご案内' })).toBe(true);
    expect(isAutoReply({ subject: 'Hello' })).toBe(false);
  });
});
