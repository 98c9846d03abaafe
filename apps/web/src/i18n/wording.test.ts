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

/** Every text of a catalogue by its dotted key. */
function leaves(node: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof node === 'string') return out.set(prefix, node);
  for (const [key, child] of Object.entries(node as Record<string, unknown>))
    for (const [k, v] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(k, v);
  return out;
}

describe('Japanese wording', () => {
  // 配信停止 is the unsubscribe status across the console: quiet hours called 配信停止時間帯 read as
  // "unsubscribe hours". They are 配信休止時間帯 (their start and end 配信休止の開始/終了時刻).
  it('names quiet hours with one term that is not the unsubscribe status', () => {
    const en = leaves(ALL_TEXTS.en);
    const ja = leaves(ALL_TEXTS.ja);
    const quiet = [...en].filter(([, text]) => /quiet hours/i.test(text)).map(([key]) => key);
    expect(quiet.length).toBeGreaterThan(10);
    for (const key of quiet) {
      expect(ja.get(key), key).toMatch(/配信休止/);
      expect(ja.get(key), key).not.toMatch(/配信停止/);
    }
    expect([...ja].filter(([, text]) => /配信停止(時間帯|の開始|の終了)/.test(text))).toEqual([]);
  });
});
