import { ERROR_MESSAGES } from '@yado/contracts';
import { describe, expect, it } from 'vitest';
import { deliveryErrorFor, MAIL_NOT_BUILT, relayReplyFor } from './delivery-error.ts';
import { ANSWER_LOST_TWICE } from './send-queries.ts';

describe("a delivery's error shown beside its recipient", () => {
  it("keeps the recipient's own address, in any case, and the relay's words", () => {
    expect(
      deliveryErrorFor('550 5.1.1 <Taro@Guest.example.jp>: Recipient address rejected', 'taro@guest.example.jp'),
    ).toBe('550 5.1.1 <Taro@Guest.example.jp>: Recipient address rejected');
    expect(deliveryErrorFor('421 4.7.0 Try again later, closing connection.', 'taro@guest.example.jp')).toBe(
      '421 4.7.0 Try again later, closing connection.',
    );
    expect(deliveryErrorFor(null, 'taro@guest.example.jp')).toBeNull();
  });

  it('hides every other address: a forwarding target, the return path, a full stop kept', () => {
    expect(
      relayReplyFor(
        '550 5.1.1 <yamada.hanako@corp.example.com>... forwarded from taro@guest.example.jp: user unknown; sender bounce+1f2e@mail.sakura.example.jp.',
        'taro@guest.example.jp',
      ),
    ).toBe('550 5.1.1 <***>... forwarded from taro@guest.example.jp: user unknown; sender ***.');
    // A recipient without an address keeps none.
    expect(relayReplyFor('550 <taro@guest.example.jp> unknown', null)).toBe('550 <***> unknown');
  });

  it("gives the send's own notes as catalogue codes, not as a relay's words", () => {
    for (const note of [MAIL_NOT_BUILT, ANSWER_LOST_TWICE]) {
      const code = deliveryErrorFor(note, 'taro@guest.example.jp');
      expect(code && code in ERROR_MESSAGES, note).toBe(true);
    }
  });
});
