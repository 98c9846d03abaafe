import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountWorld } from './account-world.ts';
import { parseDay } from './calendar.ts';
import { DEMO_BOOKING_ACCOUNTS } from './demo-accounts.ts';
import { FaultInjector, type TServerErrorStatus } from './fault-injector.ts';
import { createRequestHandler } from './http-handler.ts';
import { RateLimiter, type TRateLimitConfig } from './rate-limiter.ts';
import type { TActivityConfig, TFaultConfig, TGuest, TReservation, TSimAccountConfig } from './types.ts';

/** History is generated up to this JST day and simulated day by day from it. */
export const DEFAULT_ORIGIN = '2026-11-01';
export const DEFAULT_SEED = 'yado';
export const DEFAULT_GUESTS_PER_ACCOUNT = 1000;
export const DEFAULT_HISTORY_DAYS = 3 * 365;
export const DEFAULT_RATE_LIMIT: TRateLimitConfig = { burst: 60, perSecond: 20 };

export interface TBookingSimOptions {
  /** Same seed, same options, same instant: same data. Default 'yado'. */
  seed?: number | string;
  /** Default DEMO_BOOKING_ACCOUNTS. */
  accounts?: readonly TSimAccountConfig[];
  /** Guests on file at the origin for accounts that do not set their own `guests`. Default 1000. */
  guestsPerAccount?: number;
  /** The simulated clock. Default: the real time. */
  now?: () => Date;
  /**
   * `YYYY-MM-DD` (JST): the day the simulation starts; earlier data is generated history. Keep it
   * fixed (the default is) so that a restarted simulator serves the same data as before.
   */
  origin?: string;
  /** How many days of history precede the origin. Default three years. */
  historyDays?: number;
  /** Daily volumes, for every account; defaults scale with each account's guests. */
  activity?: TActivityConfig;
  /** Per-API-key throttling; false turns it off. Default 60 at once, 20 a second. */
  rateLimit?: TRateLimitConfig | false;
  /** Intermittent server errors for every account that has no `faults` of its own. */
  faults?: TFaultConfig;
  /** Unexpected errors (bugs) while answering; the request still gets a 500. Default console.error. */
  onError?: (error: unknown) => void;
}

export interface TSimAccountInfo {
  id: string;
  name: string;
  apiKey: string;
  suspended: boolean;
  hotels: { code: string; name: string }[];
}

export interface TListeningSim {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:3900. */
  url: string;
  port: number;
  close: () => Promise<void>;
}

export interface TBookingSim {
  /** A node:http request listener, to mount in another server or call in tests. */
  handler: (request: IncomingMessage, response: ServerResponse) => void;
  /** Starts an HTTP server. Port 0 picks a free one. Default host 127.0.0.1. */
  listen: (port?: number, host?: string) => Promise<TListeningSim>;
  accounts: readonly TSimAccountInfo[];
  now: () => Date;
  /** Every guest and reservation of an account as they are now: the truth a sync should converge to. */
  inspect: (accountId: string) => { guests: TGuest[]; reservations: TReservation[] };
  /** The next `count` authenticated requests (of one account, or of every account) fail with `status`. */
  failNext: (count: number, options?: { status?: TServerErrorStatus; accountId?: string }) => void;
  /** Sets or clears (null) an account's intermittent failures. */
  setFaults: (accountId: string, faults: TFaultConfig | null) => void;
}

export function createBookingSim(options: TBookingSimOptions = {}): TBookingSim {
  const seed = String(options.seed ?? DEFAULT_SEED);
  const accounts = options.accounts ?? DEMO_BOOKING_ACCOUNTS;
  const originDay = parseDay(options.origin ?? DEFAULT_ORIGIN);
  if (originDay === null) throw new Error(`origin must be YYYY-MM-DD, got ${options.origin}`);
  assertUnique(
    accounts.map((a) => a.id),
    'account id',
  );
  assertUnique(
    accounts.map((a) => a.apiKey),
    'API key',
  );
  assertUnique(
    accounts.flatMap((a) => a.hotels.map((h) => h.code)),
    'hotel code',
  );

  const clock = options.now ?? (() => new Date());
  const now = (): number => {
    const ms = clock().getTime();
    if (Number.isNaN(ms)) throw new Error('the clock returned an invalid date');
    return ms;
  };
  const worlds = new Map(
    accounts.map((account) => [
      account.id,
      new AccountWorld({
        seed,
        account,
        guests: account.guests ?? options.guestsPerAccount ?? DEFAULT_GUESTS_PER_ACCOUNT,
        originDay,
        historyDays: options.historyDays ?? DEFAULT_HISTORY_DAYS,
        activity: options.activity,
      }),
    ]),
  );
  const worldsByKey = new Map(accounts.map((a) => [a.apiKey, worlds.get(a.id) as AccountWorld]));
  const faults = new FaultInjector(seed, Object.fromEntries(accounts.map((a) => [a.id, a.faults ?? options.faults])));
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const onError = options.onError ?? ((error: unknown) => console.error('[booking-sim]', error));

  const handler = createRequestHandler({
    now,
    worldForApiKey: (apiKey) => worldsByKey.get(apiKey),
    rateLimiter: rateLimit ? new RateLimiter(rateLimit) : null,
    faults,
    onError,
  });

  const worldOf = (accountId: string): AccountWorld => {
    const world = worlds.get(accountId);
    if (!world) throw new Error(`no booking-sim account ${accountId}`);
    return world;
  };

  return {
    handler,
    listen: (port = 0, host = '127.0.0.1') =>
      new Promise((resolve, reject) => {
        const server = createServer(handler);
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({
            url: `http://${hostInUrl}:${address.port}`,
            port: address.port,
            close: () =>
              new Promise<void>((done, fail) => {
                server.close((error) => (error ? fail(error) : done()));
                server.closeAllConnections();
              }),
          });
        });
      }),
    accounts: accounts.map((a) => ({
      id: a.id,
      name: a.name,
      apiKey: a.apiKey,
      suspended: a.suspended ?? false,
      hotels: a.hotels.map((h) => ({ code: h.code, name: h.name })),
    })),
    now: () => new Date(now()),
    inspect: (accountId) => {
      const world = worldOf(accountId);
      world.advanceTo(now());
      return { guests: world.guests.currentRecords(), reservations: world.reservations.currentRecords() };
    },
    failNext: (count, { status = 503, accountId } = {}) => {
      for (const id of accountId ? [worldOf(accountId).account.id] : worlds.keys()) faults.failNext(id, count, status);
    },
    setFaults: (accountId, config) => faults.setFaults(worldOf(accountId).account.id, config),
  };
}

function assertUnique(values: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`duplicate ${what}: ${value}`);
    seen.add(value);
  }
}
