/**
 * Runs the booking-system simulator on its own:
 *   npx tsx apps/booking-sim/src/main.ts
 * Environment: BOOKING_SIM_PORT (3900), BOOKING_SIM_HOST (127.0.0.1), BOOKING_SIM_SEED (yado),
 * BOOKING_SIM_GUESTS (guests per account, 5000), BOOKING_SIM_RATE_LIMIT (`off` to disable).
 * Yado's server does not use this file: it embeds the simulator through createBookingSim.
 */
import { createBookingSim, DEFAULT_RATE_LIMIT, DEFAULT_SEED } from './index.ts';

const port = Number(process.env.BOOKING_SIM_PORT ?? 3900);
const host = process.env.BOOKING_SIM_HOST ?? '127.0.0.1';
const guestsPerAccount = Number(process.env.BOOKING_SIM_GUESTS ?? 5000);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  throw new Error(`BOOKING_SIM_PORT must be a port number, got ${process.env.BOOKING_SIM_PORT}`);
if (!Number.isInteger(guestsPerAccount) || guestsPerAccount < 0)
  throw new Error(`BOOKING_SIM_GUESTS must be a whole number, got ${process.env.BOOKING_SIM_GUESTS}`);

const sim = createBookingSim({
  seed: process.env.BOOKING_SIM_SEED ?? DEFAULT_SEED,
  guestsPerAccount,
  rateLimit: process.env.BOOKING_SIM_RATE_LIMIT === 'off' ? false : DEFAULT_RATE_LIMIT,
});
const listening = await sim.listen(port, host);

const lines = [
  `Booking system simulator (DBK) listening on ${listening.url}`,
  `API base: ${listening.url}/api/v1   (Authorization: Bearer <api key>)`,
  '',
  'Demo accounts:',
  ...sim.accounts.map(
    (a) =>
      `  ${a.apiKey}  ${a.id}  ${a.name}${a.suspended ? '  [suspended]' : ''}  hotels: ${a.hotels.map((h) => h.code).join(', ')}`,
  ),
  '',
  `Try: curl -H 'Authorization: Bearer ${sim.accounts[0]?.apiKey}' '${listening.url}/api/v1/guests?limit=2'`,
];
process.stdout.write(`${lines.join('\n')}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void listening.close().then(() => process.exit(0));
  });
}
