import { describe, expect, it } from 'vitest';
import {
  deliveryOfMessageId,
  domainOfMessageId,
  mailgunEvent,
  postmarkEvent,
  sendgridEvent,
  sesEvent,
} from './provider-events.ts';

const D = '0b7c6a52-3f1e-4c2a-9d55-8e1f2a3b4c5d';
const C = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
const MID = `<${D}.${C}@mail.sakura.example.jp>`;

describe('relay events read in the terms of the rules', () => {
  it('finds the delivery and the sending domain in our Message-ID, and nothing in others', () => {
    expect(deliveryOfMessageId(MID)).toBe(D);
    expect(deliveryOfMessageId(MID.slice(1, -1))).toBe(D);
    expect(domainOfMessageId(MID)).toBe('mail.sakura.example.jp');
    expect(deliveryOfMessageId('<abc@example.com>')).toBeNull();
    expect(deliveryOfMessageId(undefined)).toBeNull();
  });

  it.each([
    ['Permanent', 'General', undefined, 'hard_bounce'],
    ['Permanent', 'Suppressed', undefined, 'hard_bounce'],
    ['Permanent', 'ContentRejected', undefined, 'policy_block'],
    ['Permanent', 'General', '5.7.1', 'policy_block'],
    ['Transient', 'MailboxFull', undefined, 'soft_bounce'],
    ['Transient', 'General', '4.4.7', 'soft_bounce'],
  ])('SES %s/%s (status %s) is a %s', (bounceType, bounceSubType, status, kind) => {
    const e = sesEvent('sns-1', {
      notificationType: 'Bounce',
      mail: { messageId: 'ses-1', commonHeaders: { messageId: MID } },
      bounce: { bounceType, bounceSubType, bouncedRecipients: [{ emailAddress: 'a@b.jp', status }] },
    });
    expect(e).toMatchObject({ eventId: 'sns-1', deliveryId: D, feedback: { kind } });
  });

  it('takes SES complaints and deliveries, and leaves an undetermined bounce alone', () => {
    const mail = { messageId: 'ses-1', commonHeaders: { messageId: MID } };
    expect(sesEvent('1', { notificationType: 'Complaint', mail, complaint: {} })?.feedback?.kind).toBe('complaint');
    expect(sesEvent('2', { notificationType: 'Delivery', mail, delivery: {} })?.feedback?.kind).toBe('delivered');
    expect(
      sesEvent('3', { notificationType: 'Bounce', mail, bounce: { bounceType: 'Undetermined' } })?.feedback,
    ).toBeNull();
    expect(sesEvent('4', { notificationType: 'Bounce' })).toBeNull();
  });

  it.each([
    [{ event: 'bounce', type: 'bounce', status: '5.1.1', reason: 'user unknown' }, 'hard_bounce'],
    [{ event: 'bounce', type: 'blocked', status: '5.0.0', reason: 'listed on a block list' }, 'policy_block'],
    [{ event: 'dropped', reason: 'Bounced Address' }, 'hard_bounce'],
    [{ event: 'dropped', reason: 'Spam Reporting Address' }, 'complaint'],
    [{ event: 'spamreport' }, 'complaint'],
    [{ event: 'delivered' }, 'delivered'],
  ])('SendGrid %o is a %s', (event, kind) => {
    expect(sendgridEvent({ sg_event_id: 'e1', 'smtp-id': MID, ...event })).toMatchObject({
      deliveryId: D,
      feedback: { kind },
    });
  });

  it('stores SendGrid opens and unsubscribed drops without a meaning', () => {
    expect(sendgridEvent({ sg_event_id: 'e1', 'smtp-id': MID, event: 'open' })?.feedback).toBeNull();
    expect(sendgridEvent({ sg_event_id: 'e1', event: 'dropped', reason: 'Unsubscribed Address' })?.feedback).toBeNull();
    expect(sendgridEvent({ event: 'bounce' })).toBeNull();
  });

  it.each([
    [
      { event: 'failed', severity: 'permanent', 'delivery-status': { code: 550, message: '5.1.1 no such user' } },
      'hard_bounce',
    ],
    [{ event: 'failed', severity: 'permanent', reason: 'suppress-bounce' }, 'hard_bounce'],
    [{ event: 'failed', severity: 'temporary', 'delivery-status': { code: 452, message: '4.2.2 full' } }, 'deferred'],
    [{ event: 'complained' }, 'complaint'],
  ])('Mailgun %o is a %s', (event, kind) => {
    expect(
      mailgunEvent({ id: 'm1', message: { headers: { 'message-id': MID.slice(1, -1) } }, ...event }),
    ).toMatchObject({
      deliveryId: D,
      feedback: { kind },
    });
  });

  it.each([
    ['HardBounce', 'hard_bounce'],
    ['SoftBounce', 'soft_bounce'],
    ['Transient', 'deferred'],
    ['Blocked', 'policy_block'],
    ['AutoResponder', 'auto_reply'],
    ['SpamComplaint', 'complaint'],
  ])('Postmark bounce type %s is a %s, named by its metadata', (type, kind) => {
    expect(
      postmarkEvent({ RecordType: 'Bounce', ID: 7, Type: type, MessageID: 'pm-1', Metadata: { 'yado-delivery': D } }),
    ).toMatchObject({ eventId: 'bounce:7', deliveryId: D, feedback: { kind } });
  });

  it('counts a Postmark event against the domain of its From, as Postmark replaces our Message-ID', () => {
    const record = {
      RecordType: 'Bounce',
      ID: 8,
      Type: 'Blocked',
      MessageID: 'pm-2',
      Metadata: { 'yado-delivery': D },
    };
    expect(postmarkEvent({ ...record, From: 'news@Sakura-Hotels.example.jp' })?.sendingDomain).toBe(
      'sakura-hotels.example.jp',
    );
    expect(postmarkEvent({ ...record, From: 'さくら <news@sakura-hotels.example.jp>' })?.sendingDomain).toBe(
      'sakura-hotels.example.jp',
    );
    expect(postmarkEvent(record)?.sendingDomain).toBeNull();
  });

  it('ignores a Postmark metadata value that is no delivery id', () => {
    expect(
      postmarkEvent({
        RecordType: 'Bounce',
        ID: 7,
        Type: 'HardBounce',
        MessageID: 'x',
        Metadata: { 'yado-delivery': "1' or 1=1" },
      })?.deliveryId,
    ).toBeNull();
  });
});
