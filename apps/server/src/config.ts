import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { z } from 'zod';
import { FEATURE_FLAGS, featureFlagsFor, type TFeatureFlags } from '@yado/contracts';

/**
 * The one place that reads the environment. Every setting has an embedded default so that
 * `npm start` on a fresh machine runs the whole product; production mode demands real secrets.
 */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  YADO_ENV: z.enum(['dev', 'staging', 'production']).default('dev'),
  // Feature flags to turn off, comma-separated (e.g. dynamic_segmentation).
  FEATURES_OFF: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(FEATURE_FLAGS))),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /**
   * The reverse proxies whose X-Forwarded-For is believed, comma-separated addresses or CIDR ranges
   * (`10.0.0.5,10.1.0.0/16`, or `loopback`). Unset: none, so a request's address is its socket's.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isProxyAddress, { message: 'not an IP address or CIDR range' }))),
  /**
   * The operations listener (ops/ops-server.ts): /metrics, /healthz and /readyz, on loopback by
   * default. Port 0: a free port, logged at start.
   */
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  /** Unset: embedded PGlite under DATA_DIR/pglite. */
  DATABASE_URL: z.string().optional(),
  /** Unset: the embedded SMTP sink on loopback. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Yado <no-reply@yado.local>'),
  /** Signs access tokens; generated and kept under DATA_DIR in embedded mode. */
  JWT_SECRET: z.string().min(32).optional(),
  /** Run the job worker inside the API process (true for `npm start`). */
  WORKER_IN_PROCESS: z.enum(['true', 'false']).optional(),
  /**
   * Warm the customer list's statements and index pages in the background after the server
   * listens (modules/customers/warm-customer-list.ts). Off only to measure what it saves.
   */
  WARM_ON_START: z.enum(['true', 'false']).default('true'),
  /** Seed the demo organisation on first start (default: on in embedded mode). */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /** The demo's 90 days of past campaigns on first start (seed/demo-history.ts); e2e turns it off. */
  SEED_DEMO_HISTORY: z.enum(['true', 'false']).default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serve the built console from this folder (default apps/web/dist). */
  WEB_DIST: z.string().optional(),
  /** The booking system's API (DBK). Unset outside production: the simulator runs in-process. */
  BOOKING_API_URL: z.url().optional(),
  /** Guests per demo account of the in-process booking simulator. */
  BOOKING_SIM_GUESTS: z.coerce.number().int().min(1).max(200_000).default(5000),
  /** Encrypts stored credentials (booking-system API keys); generated under DATA_DIR in embedded mode. */
  DATA_ENCRYPTION_KEY: z.string().min(32).optional(),
  /**
   * Job leases (jobs/leases.ts): a worker that has not renewed its lease for this many seconds is
   * taken for dead and its running jobs are put back. Renewed (and lapsed leases looked for) every
   * WORKER_LEASE_RENEW_SECONDS. Short enough that a killed worker's campaign send is taken up
   * again within 15 s when another worker runs.
   */
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(10),
  WORKER_LEASE_RENEW_SECONDS: z.coerce.number().int().min(1).max(300).default(2),
  /** Campaign sends (modules/campaigns): deliveries claimed (reserved, not yet handed to SMTP) per batch. */
  CAMPAIGN_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(200),
  /** Batches of one campaign a worker process claims, builds and paces at once (handed to SMTP by the pool's slots). */
  CAMPAIGN_SEND_LANES: z.coerce.number().int().min(1).max(16).default(3),
  /** Attempts of a delivery the relay answers with 4xx, and the first back-off (doubling), in seconds. */
  CAMPAIGN_RETRY_LIMIT: z.coerce.number().int().min(1).max(20).default(5),
  CAMPAIGN_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(86_400).default(60),
  /** Most messages per second to one recipient domain, shared by every worker process (domain_send_slots); 0: no limit. */
  CAMPAIGN_DOMAIN_RATE: z.coerce.number().min(0).max(100_000).default(0),
  /** How often the worker looks for campaigns that are due (and sends that need taking up again), in seconds. */
  CAMPAIGN_DISPATCH_SECONDS: z.coerce.number().min(0.5).max(60).default(15),
  /**
   * The scenario engine's clock (modules/scenarios): real, or manual (dev and test only: it moves
   * only through POST /v1/dev/scenario-clock, so tests advance days in a moment).
   */
  SCENARIO_CLOCK: z.enum(['real', 'manual']).default('real'),
  /** How often the worker takes up due journey steps, in seconds, and how many it claims per set. */
  SCENARIO_TICK_SECONDS: z.coerce.number().min(0.5).max(60).default(5),
  SCENARIO_BATCH_SIZE: z.coerce.number().int().min(1).max(50_000).default(10_000),
  /**
   * Opens and clicks recorded per delivery and minute (modules/tracking); beyond it the pixel and
   * the redirect still answer but nothing is recorded, so a replayed link cannot flood the event log.
   */
  TRACKING_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(30),
  /** Set: logos go to this bucket of an S3-compatible store instead of DATA_DIR/uploads. */
  S3_BUCKET: z.string().min(1).optional(),
  /** Unset: AWS (https://s3.<region>.amazonaws.com). MinIO and the like: their address. */
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addressing (endpoint/bucket/key); default true with S3_ENDPOINT, false for AWS. */
  S3_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** Set: logo addresses redirect here (a CDN or public bucket) instead of being proxied. */
  S3_PUBLIC_URL: z.url().optional(),
  /**
   * Resolvers the domain verifier asks, comma-separated (`1.1.1.1,8.8.8.8:53`). Unset: the embedded
   * DNS server in embedded mode, the system's resolvers otherwise.
   */
  DNS_SERVERS: z.string().optional(),
  /** The embedded DNS server's loopback port (embedded mode); 0: a free port, printed at start. */
  EMBEDDED_DNS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Seconds before "Verify DNS setup" unlocks, after the records are shown and after each try. */
  DOMAIN_VERIFY_COUNTDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /**
   * The feedback receiver (modules/deliverability): SMTP for the VERP return paths, where bounces
   * (DSN) and complaint reports (ARF) arrive. Unset port: a free loopback port in embedded mode
   * (the embedded sink sends its reports there), not run otherwise.
   */
  BOUNCE_SMTP_HOST: z.string().default('127.0.0.1'),
  BOUNCE_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Relay webhooks (modules/deliverability/webhooks): the hosts (host[:port]) an SNS signing
   * certificate or subscription URL may come from, as a regular expression; and a PEM file of
   * extra certificate authorities trusted when fetching them (a test's local stand-in for SNS).
   */
  SNS_HOST_PATTERN: z.string().min(1).default('^sns\\.[a-z0-9-]+\\.amazonaws\\.com$'),
  SNS_EXTRA_CA_FILE: z.string().optional(),
  /** Seconds a signed webhook's timestamp may be old (SendGrid, Mailgun; SNS messages: 1 hour). */
  WEBHOOK_MAX_AGE_SECONDS: z.coerce.number().int().min(30).max(86400).default(900),
  /**
   * Days the raw bounce and complaint reports (DSN, ARF, unreadable mail) and relay webhook
   * payloads are kept; then a daily job clears them, keeping what was applied (feedback events,
   * suppressions, statistics).
   */
  FEEDBACK_RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * The worker's own vacuum and analyse of the tables (db/maintenance.ts): auto does it where no
   * autovacuum runs (the embedded database, a server with autovacuum off); on, always; off, never.
   */
  DB_MAINTENANCE: z.enum(['auto', 'on', 'off']).default('auto'),
  /** The SPF include, tracking/return-path CNAME target and DMARC report address a brand publishes. */
  SENDING_SPF_INCLUDE: z.string().min(3).default('_spf.yado-mail.net'),
  SENDING_TRACKING_HOST: z.string().min(3).default('track.yado-mail.net'),
  DMARC_REPORT_ADDRESS: z.string().min(3).default('dmarc-reports@yado-mail.net'),
});

/** An address or CIDR range as proxy-addr (Fastify's trustProxy) reads it, or one of its named ranges. */
function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Where logos are kept: under DATA_DIR, or in an S3-compatible bucket. */
export type TLogoStoreConfig =
  | { kind: 'file' }
  | {
      kind: 's3';
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      pathStyle: boolean;
      publicUrl: string | null;
    };

export interface TConfig {
  environment: 'dev' | 'staging' | 'production';
  /** The feature flags of this deployment (spec section 6): the environment's, less FEATURES_OFF. */
  features: TFeatureFlags;
  production: boolean;
  port: number;
  host: string;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDR ranges); empty: the socket's address counts. */
  trustProxy: string[];
  /** The operations listener: /metrics, /healthz, /readyz (port 0: a free one). */
  metrics: { host: string; port: number };
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  jwtSecret: string;
  workerInProcess: boolean;
  warmOnStart: boolean;
  seedDemo: boolean;
  seedDemoHistory: boolean;
  logLevel: z.infer<typeof ZEnv>['LOG_LEVEL'];
  webDist: string;
  booking: {
    /** The booking system's base URL; null: the in-process simulator (embedded mode) or none. */
    apiUrl: string | null;
    /** Start the booking simulator in-process when no URL is configured (never in production). */
    embeddedSim: boolean;
    simGuestsPerAccount: number;
    /** Attempts per call on 429 and 5xx, and the first back-off delay (doubling). */
    attempts: number;
    retryBaseMs: number;
  };
  dataEncryptionKey: string;
  jobs: {
    /** Seconds a worker's lease lasts without renewal, and how often it is renewed. */
    leaseSeconds: number;
    leaseRenewSeconds: number;
  };
  campaigns: {
    batchSize: number;
    lanes: number;
    retryLimit: number;
    retryBaseSeconds: number;
    /** Messages per second per recipient domain; 0: unlimited. */
    domainRate: number;
    dispatchSeconds: number;
  };
  scenarios: {
    clock: 'real' | 'manual';
    tickSeconds: number;
    batchSize: number;
  };
  tracking: {
    /** Opens and clicks recorded per delivery and minute. */
    eventsPerMinute: number;
  };
  /** True when mail goes to the embedded SMTP sink (never in production). */
  embedded: boolean;
  logoStore: TLogoStoreConfig;
  dns: {
    /** Resolvers of the domain verifier (`ip` or `ip:port`); null: the system's. */
    servers: string[] | null;
    /** Run the embedded DNS server (embedded mode), on this loopback port (0: a free one). */
    embeddedServer: boolean;
    embeddedPort: number;
    /** Per-query timeout of the verifier, in milliseconds. */
    timeoutMs: number;
  };
  /** The feedback receiver's address; null: not run. */
  feedbackReceiver: { host: string; port: number } | null;
  webhooks: { snsHostPattern: RegExp; snsExtraCa: string | null; maxAgeSeconds: number };
  /** Days raw reports and webhook payloads are kept (deliverability/prune-feedback-raw.ts). */
  feedbackRawRetentionDays: number;
  /** Whether the worker vacuums and analyses the tables itself (db/maintenance.ts). */
  dbMaintenance: 'auto' | 'on' | 'off';
  sending: {
    verifyCountdownSeconds: number;
    spfInclude: string;
    trackingHost: string;
    dmarcReportAddress: string;
  };
}

function embeddedSecret(dataDir: string, name: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `${name}.secret`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<TConfig> = {}): TConfig {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = resolve(e.DATA_DIR);
  if (production && !e.JWT_SECRET) throw new ConfigError('JWT_SECRET is required in production');
  if (production && !e.DATABASE_URL) throw new ConfigError('DATABASE_URL is required in production');
  if (production && !e.DATA_ENCRYPTION_KEY) throw new ConfigError('DATA_ENCRYPTION_KEY is required in production');
  let logoStore: TLogoStoreConfig = { kind: 'file' };
  if (e.S3_BUCKET) {
    // Named, never shown: a config error must not print a secret.
    if (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)
      throw new ConfigError('S3_BUCKET needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
    logoStore = {
      kind: 's3',
      endpoint: (e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`).replace(/\/$/, ''),
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      pathStyle: e.S3_PATH_STYLE ? e.S3_PATH_STYLE === 'true' : Boolean(e.S3_ENDPOINT),
      publicUrl: e.S3_PUBLIC_URL?.replace(/\/$/, '') ?? null,
    };
  }
  // The outbox and other developer aids exist only while mail goes to the embedded sink.
  const embedded = !e.SMTP_URL && !production;
  const config: TConfig = {
    environment: e.YADO_ENV,
    features: featureFlagsFor(e.YADO_ENV, e.FEATURES_OFF),
    production,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    metrics: { host: e.METRICS_HOST, port: e.METRICS_PORT },
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET ?? overrides.jwtSecret ?? embeddedSecret(dataDir, 'jwt'),
    workerInProcess: e.WORKER_IN_PROCESS ? e.WORKER_IN_PROCESS === 'true' : true,
    warmOnStart: e.WARM_ON_START === 'true',
    seedDemo: e.SEED_DEMO ? e.SEED_DEMO === 'true' : !production,
    seedDemoHistory: e.SEED_DEMO_HISTORY === 'true',
    logLevel: e.LOG_LEVEL,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    booking: {
      apiUrl: e.BOOKING_API_URL?.replace(/\/$/, '') ?? null,
      embeddedSim: !e.BOOKING_API_URL && !production,
      simGuestsPerAccount: e.BOOKING_SIM_GUESTS,
      attempts: 6,
      retryBaseMs: 500,
    },
    dataEncryptionKey:
      e.DATA_ENCRYPTION_KEY ?? overrides.dataEncryptionKey ?? embeddedSecret(dataDir, 'data-encryption'),
    jobs: {
      leaseSeconds: e.WORKER_LEASE_SECONDS,
      // Renewed at least twice per lease, so one slow renewal does not lose it.
      leaseRenewSeconds: Math.min(e.WORKER_LEASE_RENEW_SECONDS, Math.floor(e.WORKER_LEASE_SECONDS / 2)),
    },
    campaigns: {
      batchSize: e.CAMPAIGN_BATCH_SIZE,
      lanes: e.CAMPAIGN_SEND_LANES,
      retryLimit: e.CAMPAIGN_RETRY_LIMIT,
      retryBaseSeconds: e.CAMPAIGN_RETRY_BASE_SECONDS,
      domainRate: e.CAMPAIGN_DOMAIN_RATE,
      dispatchSeconds: e.CAMPAIGN_DISPATCH_SECONDS,
    },
    scenarios: { clock: e.SCENARIO_CLOCK, tickSeconds: e.SCENARIO_TICK_SECONDS, batchSize: e.SCENARIO_BATCH_SIZE },
    tracking: { eventsPerMinute: e.TRACKING_EVENTS_PER_MINUTE },
    embedded,
    logoStore,
    dns: {
      servers: e.DNS_SERVERS
        ? e.DNS_SERVERS.split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : null,
      embeddedServer: embedded,
      embeddedPort: e.EMBEDDED_DNS_PORT,
      timeoutMs: 3000,
    },
    feedbackReceiver:
      e.BOUNCE_SMTP_PORT !== undefined
        ? { host: e.BOUNCE_SMTP_HOST, port: e.BOUNCE_SMTP_PORT }
        : embedded
          ? { host: '127.0.0.1', port: 0 }
          : null,
    webhooks: {
      snsHostPattern: new RegExp(e.SNS_HOST_PATTERN, 'i'),
      snsExtraCa: e.SNS_EXTRA_CA_FILE ? readFileSync(e.SNS_EXTRA_CA_FILE, 'utf8') : null,
      maxAgeSeconds: e.WEBHOOK_MAX_AGE_SECONDS,
    },
    feedbackRawRetentionDays: e.FEEDBACK_RAW_RETENTION_DAYS,
    dbMaintenance: e.DB_MAINTENANCE,
    sending: {
      verifyCountdownSeconds: e.DOMAIN_VERIFY_COUNTDOWN_SECONDS,
      spfInclude: e.SENDING_SPF_INCLUDE,
      trackingHost: e.SENDING_TRACKING_HOST,
      dmarcReportAddress: e.DMARC_REPORT_ADDRESS,
    },
  };
  return { ...config, ...overrides };
}
