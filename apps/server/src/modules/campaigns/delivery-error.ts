import { ANSWER_LOST_TWICE } from './send-queries.ts';

/**
 * A delivery's error as the console shows it beside the recipient. `deliveries.error` keeps either
 * a note of the send's own (turned into its catalogue code here, so old rows read alike) or the
 * relay's reply as received, which is all an unclassified failure has to say. A reply may name
 * other addresses than the recipient's: the address a guest's mail was forwarded to, the
 * campaign's return path, another mailbox of the guest's provider. The recipient row shows the
 * guest's own address already; any other is hidden, so the relay's words tell what went wrong
 * without handing out an address the row does not show.
 */

/** The send's note for a mail it could not build (send-campaign.ts). */
export const MAIL_NOT_BUILT = 'the mail could not be built';

const OWN_NOTES: Record<string, string> = {
  [MAIL_NOT_BUILT]: 'delivery_not_built',
  [ANSWER_LOST_TWICE]: 'delivery_answer_lost_twice',
};

/** Anything shaped like an address: the relay's text is free, so no stricter grammar applies. */
const ADDRESS = /[^\s<>()[\]{}"',;:@]+@[^\s<>()[\]{}"',;:@]+/gu;
export const HIDDEN_ADDRESS = '***';

/** The stored error of a delivery to `recipientEmail`: a catalogue code, or the relay's words. */
export function deliveryErrorFor(stored: string | null, recipientEmail: string | null): string | null {
  if (stored === null) return null;
  return OWN_NOTES[stored] ?? relayReplyFor(stored, recipientEmail);
}

/** A relay's reply or a report's diagnostic, with no address but `recipientEmail`. */
export function relayReplyFor(reply: string | null, recipientEmail: string | null): string | null {
  if (reply === null) return null;
  const own = recipientEmail?.trim().toLowerCase() ?? null;
  return reply.replace(ADDRESS, (found) => {
    // A sentence's full stop is not part of the address.
    const address = found.replace(/\.+$/u, '');
    return address.toLowerCase() === own ? found : HIDDEN_ADDRESS + found.slice(address.length);
  });
}
