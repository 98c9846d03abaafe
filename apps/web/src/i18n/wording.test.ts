import { PROTECTION_WARN_SHARE } from '@yado/contracts/deliverability';
import { describe, expect, it } from 'vitest';
import { ALL_TEXTS } from './allTexts';

/**
 * English texts a hand test found hard to read, held to what they must say: a sentence a reader
 * follows, and (for protection) true to what the code does.
 */
const { en } = ALL_TEXTS as unknown as {
  en: {
    sending: { protection: { description: string } };
    customers: { suppressions: { description: string } };
  };
};

const SHARE_WORDS = new Map<number, string>([
  [1 / 2, 'half'],
  [1 / 3, 'a third'],
  [1 / 4, 'a quarter'],
]);

describe('English wording', () => {
  it('says when protection pauses a campaign and when it warns, in the shares the code uses', () => {
    const text = en.sending.protection.description;
    // protectCampaigns pauses at the thresholds set below, once the minimum was sent...
    expect(text).toContain('Once a campaign has sent the minimum number of mails');
    expect(text).toContain(
      'it pauses itself when its hard-bounce rate or its complaint rate reaches the rate set below',
    );
    // ...and protectionWarning warns at a share of each (PROTECTION_WARN_SHARE).
    const hard = SHARE_WORDS.get(PROTECTION_WARN_SHARE.hard_bounce);
    const complaint = SHARE_WORDS.get(PROTECTION_WARN_SHARE.complaint);
    expect(text).toContain(
      `A warning comes earlier: at ${hard} that hard-bounce rate, or at ${complaint} of that complaint rate.`,
    );
  });

  it('describes the suppression list in a sentence with its verb', () => {
    expect(en.customers.suppressions.description).toBe(
      'Addresses that no campaign or scenario will mail, because they bounced, drew a spam complaint or were added by hand. The list is kept per brand.',
    );
  });
});
