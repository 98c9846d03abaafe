import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { seedDemoSending, DEMO_DOMAINS } from '../seed/demo-sending.ts';
import { startTestServer, type TTestServer } from './harness.ts';

/**
 * What the relay answers one message: 250, a 451, nothing at all (it reads the message and hangs),
 * `drop` (it reads the message, then closes the connection without an answer) or `drop-early` (it
 * closes the connection at RCPT TO, before the message is sent).
 */
export type TRelayAnswer = '250' | '451' | 'hang' | 'drop' | 'drop-early';

/**
 * An SMTP relay of a test's own (not the product's embedded sink): it reads each message to the
 * end, counts it per recipient, runs `onMessage` (a test's move in the middle of a send, say)
 * before it answers, and answers as `script` says for the recipient, one entry per message, then 250.
 */
export interface TTestRelay {
  port: number;
  /** The product's SMTP_URL for this relay, with nodemailer's options (`socketTimeout=1000`, say). */
  url(options?: Record<string, string | number>): string;
  script: Map<string, TRelayAnswer[]>;
  /** Messages read to the end per recipient (lower-case address), answered or not. */
  received: Map<string, number>;
  onMessage: ((to: string[]) => Promise<void>) | null;
  /** Each MAIL FROM the relay has read, in order: its envelope sender (the VERP return path). */
  mailFrom: string[];
  close(): Promise<void>;
}

export async function startTestRelay(): Promise<TTestRelay> {
  const relay: Omit<TTestRelay, 'port' | 'url' | 'close'> = {
    script: new Map(),
    received: new Map(),
    onMessage: null,
    mailFrom: [],
  };
  /** Closes the session's connection from the relay's side, mid-conversation. */
  const drop = (sessionId: string) => {
    for (const connection of server.connections as Set<{ id: string; _socket: { destroy(): void } }>)
      if (connection.id === sessionId) connection._socket.destroy();
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    closeTimeout: 100,
    logger: false,
    onMailFrom(address, _session, callback) {
      relay.mailFrom.push(address.address);
      callback();
    },
    onRcptTo(address, session, callback) {
      const script = relay.script.get(address.address.toLowerCase());
      if (script?.[0] === 'drop-early') {
        script.shift();
        return drop(session.id);
      }
      callback();
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const address of to) relay.received.set(address, (relay.received.get(address) ?? 0) + 1);
        const answer = relay.script.get(to[0] ?? '')?.shift() ?? '250';
        void (relay.onMessage?.(to) ?? Promise.resolve()).then(
          () => {
            if (answer === 'hang') return; // taken, and never answered
            if (answer === 'drop') return drop(session.id); // taken, and the connection closed
            if (answer === '451')
              return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }) as Error);
            callback();
          },
          (error: unknown) => callback(error as Error),
        );
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(relay, {
    port,
    url: (options: Record<string, string | number> = {}) =>
      `smtp://127.0.0.1:${port}/?${new URLSearchParams({ pool: 'true', ...Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)])) })}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}

/**
 * A test server (no worker in it) whose relay is `smtpUrl`, with the demo's sending settings: its
 * domain marked verified (with a relay of its own the server runs no embedded DNS server to verify
 * it against, as the embedded product's seed does) and no quiet hours at the brand.
 */
export async function relayedTestServer(smtpUrl: string, env: Record<string, string> = {}): Promise<TTestServer> {
  const server = await startTestServer({ worker: false, env: { SMTP_URL: smtpUrl, ...env } });
  await seedDemoSending(server.rt);
  await server.sql(
    `update sending_domains set state = 'verified', verified_at = now(), lapsed_at = null where domain = $1`,
    [DEMO_DOMAINS.verified],
  );
  await server.sql(
    `update campaign_email_settings set quiet_hours_start = '00:00', quiet_hours_end = '00:00'
     where host_id = (select id from hosts where slug = 'sakura-hotels')`,
  );
  return server;
}

/**
 * `n` guests of さくら箱根 for a relay test, kept apart from other files' by `tag` (hex): addressed
 * `<local><g>.<tag>@guest.example.jp`, phones `<phone>` (four digits), four of the tag's and `g`'s
 * own four. Answers their ids.
 */
export async function relayGuests(
  s: TTestServer,
  n: number,
  tag: string,
  { local, phone }: { local: string; phone: string },
): Promise<string[]> {
  const rows = await s.sql(
    `with hotel as (select id, brand_id from hosts where slug = 'sakura-hakone'),
     guest as (
       insert into customers (brand_id, first_name, last_name, phone, email)
       select hotel.brand_id, '客' || g, '山田', $1 || $2 || lpad(g::text, 4, '0'), $3 || g || '.' || $4 || '@guest.example.jp'
       from hotel, generate_series(1, ${n}) g returning id, brand_id
     ), allocated as (
       insert into customer_allocations (customer_id, hotel_id, brand_id, source)
       select guest.id, hotel.id, guest.brand_id, 'manual' from guest, hotel returning customer_id
     )
     select customer_id as id from allocated order by customer_id`,
    [phone, String(parseInt(tag, 16) % 10000).padStart(4, '0'), local, tag],
  );
  return rows.map((r) => r.id as string);
}

/** Polls `check` every 10 ms until it holds (a condition, never a sleep of a guessed length). */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

/** Statements of other sessions on the test's database waiting for a lock, their text matching `like`. */
export async function lockWaiters(s: TTestServer, like = '%'): Promise<number> {
  const [row] = await s.sql(
    `select count(*)::int as n from pg_stat_activity
     where wait_event_type = 'Lock' and datname = current_database() and pid <> pg_backend_pid() and query ilike $1`,
    [like],
  );
  return row.n as number;
}
