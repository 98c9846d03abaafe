import { AppError } from '../http/errors.ts';

/**
 * SMTP answers by which a relay refuses an address as malformed (RFC 5321: 501 syntax error in
 * parameters, 553 mailbox name not allowed), and nodemailer's own refusal of an address it cannot
 * send to (EENVELOPE without a relay answer).
 */
const MALFORMED = new Set([501, 553]);

/** The relay's reason for refusing an address as malformed, or null when the failure is not that. */
function malformedReason(error: unknown): string | null {
  const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
  const malformed =
    (responseCode !== undefined && MALFORMED.has(responseCode)) || (code === 'EENVELOPE' && !responseCode);
  if (!malformed) return null;
  // The relay's answer, without its code: "5.1.3 Bad recipient address syntax".
  return (response ?? (error as Error).message ?? '')
    .replace(/^\d{3}[ -]/, '')
    .trim()
    .slice(0, 200);
}

/**
 * A test sent to each of `recipients` in turn. An address the relay refuses as malformed is the
 * user's input and does not stop the others: each of them gets its test, and the refusal (400)
 * names the first refused address with the relay's reason and, when some went out, how many, so
 * the user fixes the one address rather than sending the rest a second test. Any other failure is
 * ours and stops at once (502). `logFailure` hears each failure (its codes only: the relay's
 * answer can quote the address).
 */
export async function sendEachTest(
  recipients: string[],
  send: (to: string) => Promise<unknown>,
  logFailure: (error: unknown) => void,
): Promise<{ sent: number }> {
  let sent = 0;
  let refused: { email: string; reason: string } | null = null;
  for (const to of recipients) {
    try {
      await send(to);
      sent += 1;
    } catch (error) {
      logFailure(error);
      const reason = malformedReason(error);
      if (reason === null) throw new AppError(502, 'test_send_failed');
      refused ??= { email: to, reason };
    }
  }
  if (!refused) return { sent };
  const code = sent > 0 ? 'test_address_refused_others_sent' : 'test_address_refused';
  throw new AppError(400, code, { emails: { code, message: refused.reason } }, undefined, {
    ...refused,
    ...(sent > 0 ? { sent: String(sent), total: String(recipients.length) } : {}),
  });
}
