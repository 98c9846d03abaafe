import { AppError } from '../http/errors.ts';

/**
 * SMTP answers by which a relay refuses an address as malformed (RFC 5321: 501 syntax error in
 * parameters, 553 mailbox name not allowed), and nodemailer's own refusal of an address it cannot
 * send to (EENVELOPE without a relay answer).
 */
const MALFORMED = new Set([501, 553]);

/**
 * The refusal of a test send to `to`: the user's input when the relay found the address malformed
 * (400 `test_address_refused`, naming the address and the relay's reason), else our failure (502).
 */
export function testSendRefusal(error: unknown, to: string): AppError {
  const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
  const malformed =
    (responseCode !== undefined && MALFORMED.has(responseCode)) || (code === 'EENVELOPE' && !responseCode);
  if (!malformed) return new AppError(502, 'test_send_failed');
  // The relay's answer, without its code: "5.1.3 Bad recipient address syntax".
  const reason = (response ?? (error as Error).message ?? '')
    .replace(/^\d{3}[ -]/, '')
    .trim()
    .slice(0, 200);
  return new AppError(
    400,
    'test_address_refused',
    { emails: { code: 'test_address_refused', message: reason } },
    undefined,
    {
      email: to,
      reason,
    },
  );
}
