import { describe, expect, it } from 'vitest';
import { parseReport } from './parse-report.ts';
import { complaintReport, deliveryStatusNotification } from './report-messages.ts';

// A Postfix bounce as it arrives (LF line ends, the status part's fields folded, an unquoted boundary).
const POSTFIX_DSN = `Return-Path: <>
From: MAILER-DAEMON@mx.example.net (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: b-abc@yado.sakura.example.jp
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
	boundary=5C8A81E0E1.1700000000/mx.example.net

This is a MIME-encapsulated message.

--5C8A81E0E1.1700000000/mx.example.net
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

I'm sorry to have to inform you that your message could not be delivered.

--5C8A81E0E1.1700000000/mx.example.net
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net
X-Postfix-Queue-ID: 5C8A81E0E1
Arrival-Date: Thu, 26 Nov 2026 10:00:00 +0900 (JST)

Final-Recipient: rfc822; nobody@example.jp
Original-Recipient: rfc822;nobody@example.jp
Action: failed
Status: 5.1.1
Remote-MTA: dns; mail.example.jp
Diagnostic-Code: smtp; 550 5.1.1 <nobody@example.jp>: Recipient address
    rejected: User unknown in virtual mailbox table

--5C8A81E0E1.1700000000/mx.example.net
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

From: Sakura <info@sakura.example.jp>
Subject: Winter

--5C8A81E0E1.1700000000/mx.example.net--
`;

// A Yahoo-style ARF report, its report part in base64.
const ARF = `From: feedback@arf.example.com
To: b-abc@yado.sakura.example.jp
Subject: FW: Winter
MIME-Version: 1.0
Content-Type: multipart/report; report-type="feedback-report"; boundary="----=_Part_1"

------=_Part_1
Content-Type: text/plain

This is an email abuse report.
------=_Part_1
Content-Type: message/feedback-report
Content-Transfer-Encoding: base64

${Buffer.from('Feedback-Type: abuse\r\nUser-Agent: Yahoo!-Mail-Feedback/2.0\r\nVersion: 1\r\n').toString('base64')}
------=_Part_1
Content-Type: message/rfc822

From: Sakura <info@sakura.example.jp>
Subject: Winter

Hello
------=_Part_1--
`;

const input = {
  to: 'b-abc@yado.sakura.example.jp',
  recipient: 'guest@example.jp',
  reportingMta: 'mx.example.net',
  originalHeaders: 'From: info@sakura.example.jp\r\nSubject: Winter\r\n',
};

describe('parseReport', () => {
  it("reads a DSN's recipient: action, status and the folded diagnostic", () => {
    expect(parseReport(Buffer.from(POSTFIX_DSN))).toEqual({
      type: 'dsn',
      recipients: [
        {
          finalRecipient: 'nobody@example.jp',
          action: 'failed',
          status: '5.1.1',
          diagnostic:
            '550 5.1.1 <nobody@example.jp>: Recipient address rejected: User unknown in virtual mailbox table',
        },
      ],
    });
  });

  it("reads an ARF report's feedback type, also from a base64 part", () => {
    expect(parseReport(Buffer.from(ARF))).toEqual({ type: 'arf', feedbackType: 'abuse' });
  });

  it('reads the reports the embedded sink writes', () => {
    const dsn = parseReport(
      deliveryStatusNotification({ ...input, status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' }),
    );
    expect(dsn).toMatchObject({ type: 'dsn', recipients: [{ action: 'failed', status: '5.2.2' }] });
    expect(parseReport(complaintReport(input))).toEqual({ type: 'arf', feedbackType: 'abuse' });
  });

  it('takes a message that is no report for a reply, with what tells an automatic one', () => {
    const reply = parseReport(
      Buffer.from(
        'From: guest@example.jp\r\nSubject: =?UTF-8?B?6Ieq5YuV5b+c562U?=\r\nAuto-Submitted: auto-replied\r\n\r\nAway',
      ),
    );
    expect(reply).toEqual({ type: 'reply', subject: '自動応答', autoSubmitted: 'auto-replied' });
  });

  it('never throws on garbage, and says why it could not read it', () => {
    expect(parseReport(Buffer.from(''))).toMatchObject({ type: 'unparsed' });
    expect(parseReport(Buffer.from([0, 1, 2, 255, 254]))).toMatchObject({ type: 'unparsed' });
    expect(
      parseReport(
        Buffer.from('Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\nno parts'),
      ),
    ).toEqual({ type: 'unparsed', reason: 'multipart_without_parts' });
    expect(
      parseReport(
        Buffer.from(
          'Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x--\r\n',
        ),
      ),
    ).toEqual({ type: 'unparsed', reason: 'dsn_without_status_part' });
    expect(
      parseReport(
        Buffer.from(
          'Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n--x--\r\n',
        ),
      ),
    ).toEqual({ type: 'unparsed', reason: 'dsn_without_recipients' });
    expect(
      parseReport(
        Buffer.from('Content-Type: multipart/report; report-type=other; boundary=x\r\n\r\n--x\r\n\r\nhi\r\n--x--'),
      ),
    ).toEqual({
      type: 'unparsed',
      reason: 'unknown_report_type',
    });
  });
});
