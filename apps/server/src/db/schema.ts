import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
/** A set of date ranges, as PostgreSQL writes it: `{[2025-07-01,2025-07-02),[2025-12-24,2025-12-25)}`. */
const dateMultirange = customType<{ data: string; driverData: string }>({ dataType: () => 'datemultirange' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The host tree: the platform (level grand_user), brands, hotel groups (in a brand) and hotels
 * (in a brand, optionally in one hotel group). `brand_id` is the tenant key: a brand's own row
 * carries its own id, the platform's row carries none.
 */
export const hosts = pgTable(
  'hosts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    level: text('level', { enum: ['grand_user', 'brand', 'hotel_group', 'hotel'] }).notNull(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    brandId: uuid('brand_id'),
    hotelGroupId: uuid('hotel_group_id'),
    address: text('address'),
    email: text('email'),
    phone: text('phone'),
    logoUrl: text('logo_url'),
    timezone: text('timezone').notNull().default('Asia/Tokyo'),
    /** A hotel's code in the booking system (DBK), which the sync maps reservations by. */
    bookingHotelCode: text('booking_hotel_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('hosts_slug_key').on(t.slug),
    // Unique among the brand's live hotels: a deleted hotel keeps its code without holding it.
    uniqueIndex('hosts_booking_hotel_code_key')
      .on(t.brandId, t.bookingHotelCode)
      .where(sql`${t.deletedAt} is null`),
    index('hosts_brand_idx').on(t.brandId),
    index('hosts_hotel_group_idx').on(t.hotelGroupId),
    check(
      'hosts_level_shape',
      sql`(${t.level} = 'grand_user' and ${t.brandId} is null and ${t.hotelGroupId} is null)
        or (${t.level} = 'brand' and ${t.brandId} = ${t.id} and ${t.hotelGroupId} is null)
        or (${t.level} = 'hotel_group' and ${t.brandId} is not null and ${t.hotelGroupId} is null)
        or (${t.level} = 'hotel' and ${t.brandId} is not null)`,
    ),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    nickName: text('nick_name'),
    phoneNumber: text('phone_number'),
    imageUrl: text('image_url'),
    /** argon2id; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    language: text('language', { enum: ['ja', 'en'] })
      .notNull()
      .default('ja'),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    originalHostId: uuid('original_host_id').references(() => hosts.id),
    /** Access tokens issued before this instant are refused (password reset or change). */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`)],
);

export const roleAssignments = pgTable(
  'role_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    /** The host's brand, copied here so that row-level security needs no join. */
    brandId: uuid('brand_id'),
    role: text('role', { enum: ['granduser', 'admin', 'staff', 'viewer'] }).notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    origin: text('origin', { enum: ['original', 'invited'] })
      .notNull()
      .default('original'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('role_assignments_user_host_key').on(t.userId, t.hostId),
    uniqueIndex('role_assignments_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
    index('role_assignments_host_idx').on(t.hostId),
    index('role_assignments_brand_idx').on(t.brandId),
  ],
);

/** Refresh tokens, stored hashed; one family per sign-in, rotated on each use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** 'reset' for a forgotten password, 'invitation' for a new user setting a first one. */
    purpose: text('purpose', { enum: ['reset', 'invitation'] })
      .notNull()
      .default('reset'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash),
    index('password_reset_tokens_user_idx').on(t.userId),
  ],
);

/** Failed sign-ins, for throttling per account and per address across every API process. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_failures_key_at_idx').on(t.key, t.at)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    actingHostId: uuid('acting_host_id'),
    actingRole: text('acting_role'),
    brandId: uuid('brand_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    changes: jsonb('changes'),
  },
  (t) => [
    index('audit_log_brand_at_idx').on(t.brandId, t.at),
    // The whole log newest first (the granduser's "all brands"), by when, then by id (list-audit.ts).
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

/** What the embedded SMTP sink received (embedded mode only). */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    mailFrom: text('mail_from').notNull(),
    rcptTo: text('rcpt_to').array().notNull(),
    /** Decoded from the header; the bodies are decoded from `raw` when the outbox is read. */
    subject: text('subject').notNull().default(''),
    size: integer('size').notNull(),
    /** The message exactly as received, so any mail tool can check its headers and signatures. */
    raw: bytea('raw'),
    /** Header lines in order: [{ key, value }] (value unfolded, as mailparser reads it). */
    headers: jsonb('headers').$type<{ key: string; value: string }[]>().notNull().default([]),
  },
  (t) => [index('dev_outbox_received_idx').on(t.receivedAt)],
);

/**
 * A guest of a brand. Phone (digits only) is unique within the brand; a customer is allocated to
 * hotels by bookings or by an import made at a hotel. Consent is brand-wide (DESIGN section 4).
 */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    idNumber: text('id_number'),
    gender: text('gender', { enum: ['male', 'female', 'prefer_not_to_say'] }),
    dateOfBirth: date('date_of_birth'),
    country: text('country'),
    prefecture: text('prefecture'),
    city: text('city'),
    address: text('address'),
    emailStatus: text('email_status', { enum: ['active', 'unsubscribed'] })
      .notNull()
      .default('active'),
    emailStatusChangedAt: timestamp('email_status_changed_at', { withTimezone: true }),
    unsubscribeReason: text('unsubscribe_reason'),
    consentSource: text('consent_source', { enum: ['import', 'booking_system', 'manual'] })
      .notNull()
      .default('manual'),
    consentAt: timestamp('consent_at', { withTimezone: true }).notNull().defaultNow(),
    externalGuestId: text('external_guest_id'),
    /*
     * Search keys, kept by PostgreSQL. Row-level security lets only leakproof operators drive an
     * index, and neither LIKE nor lower() is; a prefix becomes a range on these plain columns
     * with the leakproof ~>=~ and ~<~ instead.
     */
    lastNameKey: text('last_name_key').generatedAlwaysAs(sql`lower(last_name)`),
    firstNameKey: text('first_name_key').generatedAlwaysAs(sql`lower(first_name)`),
    fullNameKey: text('full_name_key').generatedAlwaysAs(sql`lower(last_name || first_name)`),
    emailKey: text('email_key').generatedAlwaysAs(sql`lower(email)`),
    /*
     * The customer's check-in days over all their bookings, kept by PostgreSQL (triggers on
     * bookings, migration 0026) for a segment's date-only booking conditions; the first and last
     * day apart, as plain dates that answer most customers without opening the days.
     */
    checkIns: dateMultirange('check_ins'),
    firstCheckIn: date('first_check_in'),
    lastCheckIn: date('last_check_in'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  /*
   * Every index costs each inserted customer a descent (an import of a million rows spends most of
   * its time in them), so none is kept twice: the phone's unique index also serves prefix search
   * (text_pattern_ops keeps `=` and adds the ~>=~ range), and the booking-system key indexes only
   * customers that have one. Three more, written in SQL only (drizzle cannot declare INCLUDE):
   * `customers_segment_fields_idx` (migration 0027), keyed by brand and family-name key
   * (text_pattern_ops, so it also serves family-name search), holding the id, given-name key,
   * gender, birth date, prefecture and check-in days, so a count asking only about those reads it
   * instead of the table; and `customers_last_check_in_idx` and `customers_check_in_days_idx`, by
   * last check-in, for counts of recent stays (filter-count.ts).
   */
  (t) => [
    uniqueIndex('customers_brand_phone_key').on(t.brandId, t.phone.op('text_pattern_ops')),
    index('customers_first_name_key_idx').on(t.brandId, t.firstNameKey.op('text_pattern_ops')),
    index('customers_full_name_key_idx').on(t.brandId, t.fullNameKey.op('text_pattern_ops')),
    index('customers_email_key_idx').on(t.brandId, t.emailKey.op('text_pattern_ops')),
    index('customers_brand_last_name_idx').on(t.brandId, t.lastName, t.firstName, t.id),
    index('customers_brand_created_idx').on(t.brandId, t.createdAt, t.id),
    uniqueIndex('customers_brand_external_key')
      .on(t.brandId, t.externalGuestId)
      .where(sql`external_guest_id is not null`),
  ],
);

/** Which hotels a customer belongs to, and how many bookings there. */
export const customerAllocations = pgTable(
  'customer_allocations',
  {
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    hotelId: uuid('hotel_id')
      .notNull()
      .references(() => hosts.id),
    brandId: uuid('brand_id').notNull(),
    source: text('source', { enum: ['booking', 'import', 'manual'] }).notNull(),
    bookingCount: integer('booking_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('customer_allocations_key').on(t.customerId, t.hotelId),
    index('customer_allocations_hotel_idx').on(t.hotelId, t.customerId),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    hotelId: uuid('hotel_id')
      .notNull()
      .references(() => hosts.id),
    externalId: text('external_id').notNull(),
    bookingDate: date('booking_date').notNull(),
    checkIn: date('check_in').notNull(),
    checkOut: date('check_out').notNull(),
    nights: integer('nights').notNull(),
    guests: integer('guests').notNull(),
    roomName: text('room_name'),
    roomType: text('room_type'),
    source: text('source'),
    /** Yen, whole. */
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['confirmed', 'cancelled', 'checked_in', 'checked_out', 'no_show'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('bookings_brand_external_key').on(t.brandId, t.externalId),
    index('bookings_customer_idx').on(t.customerId, t.checkIn),
    index('bookings_hotel_check_in_idx').on(t.hotelId, t.checkIn),
    // A segment count's booking sets by stay date, brand-wide or for some hotels, with or without
    // an amount: read from the index alone (docs/benchmarks.md, segment-count).
    index('bookings_brand_check_in_idx').on(t.brandId, t.checkIn, t.customerId, t.hotelId, t.amount),
  ],
);

/**
 * A customer CSV import: the uploaded file (kept under DATA_DIR until the import ends), how its
 * columns were read, the review's counts and the import's result. Owned by the acting host.
 */
export const customerImports = pgTable(
  'customer_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    /** The acting host that uploaded it: only that context sees the import. */
    hostId: uuid('host_id').notNull(),
    /** The hotel the customers are allocated to (none at brand level). */
    hotelId: uuid('hotel_id'),
    createdBy: uuid('created_by').notNull(),
    status: text('status', {
      enum: ['reviewing', 'reviewed', 'rejected', 'queued', 'importing', 'completed', 'failed', 'cancelled'],
    }).notNull(),
    fileName: text('file_name').notNull(),
    fileSize: integer('file_size').notNull(),
    encoding: text('encoding', { enum: ['utf-8', 'cp932'] }).notNull(),
    /** [{ column, header, field }] as read from the header row. */
    columns: jsonb('columns').notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    counts: jsonb('counts'),
    result: jsonb('result'),
    emailReception: text('email_reception', { enum: ['booking', 'web_form', 'in_person', 'not_given'] }),
    /** Step three's static segment, and how many customers joined it. */
    segmentId: uuid('segment_id'),
    segmentAdded: integer('segment_added'),
    errorCode: text('error_code'),
    errorRow: integer('error_row'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When a worker took the import up again after the one running it stopped (jobs/leases.ts). */
    resumedAt: timestamp('resumed_at', { withTimezone: true }),
  },
  (t) => [index('customer_imports_host_idx').on(t.hostId, t.createdAt)],
);

/**
 * The rows of an import between review and import: parsed, normalised and checked, written with
 * COPY. UNLOGGED (see the migration): a database crash empties it, and an import whose rows are
 * gone asks for the file again. Values are text as normalised; `status` is ok, duplicate or failed.
 */
export const customerImportRows = pgTable(
  'customer_import_rows',
  {
    importId: uuid('import_id').notNull(),
    brandId: uuid('brand_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    status: text('status', { enum: ['ok', 'duplicate', 'failed'] }).notNull(),
    duplicateOf: integer('duplicate_of'),
    /** "field:code" pairs, comma-separated, for a failed row. */
    problems: text('problems'),
    lastName: text('last_name'),
    firstName: text('first_name'),
    phone: text('phone'),
    email: text('email'),
    idNumber: text('id_number'),
    gender: text('gender'),
    dateOfBirth: text('date_of_birth'),
    country: text('country'),
    prefecture: text('prefecture'),
    city: text('city'),
    address: text('address'),
    emailStatus: text('email_status'),
    /**
     * A failed row's cells exactly as the file had them (a JSON array of strings), for the
     * failures download the user corrects and imports again; null for the other rows.
     */
    source: text('source'),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

/**
 * A brand's connection to its booking system (DBK) account: one account per brand, one brand per
 * account. The API key is stored encrypted (AES-256-GCM) and never leaves the server.
 */
export const bookingConnections = pgTable(
  'booking_connections',
  {
    brandId: uuid('brand_id')
      .primaryKey()
      .references(() => hosts.id),
    accountId: text('account_id').notNull(),
    accountName: text('account_name').notNull(),
    apiKeyEncrypted: text('api_key_encrypted').notNull(),
    status: text('status', { enum: ['active', 'refused'] })
      .notNull()
      .default('active'),
    /** The account's hotels as the booking system listed them at verification: [{ code, name }]. */
    hotels: jsonb('hotels').$type<{ code: string; name: string }[]>().notNull().default([]),
    /** The booking system's `as_of` of the last complete sync: the next one reads what changed after it. */
    watermark: timestamp('watermark', { withTimezone: true, precision: 3 }),
    /**
     * The `as_of` of the last complete sync, as the settings card shows it. Unlike the watermark it
     * stays when a hotel's code change rewinds the watermark: the data read so far is still there.
     */
    syncedUpTo: timestamp('synced_up_to', { withTimezone: true, precision: 3 }),
    /** The brand-local day of the last daily sync, so that each day gets exactly one. */
    lastDailyOn: date('last_daily_on'),
    /** When a sync was last asked for (connect, "sync now", the daily schedule). */
    syncRequestedAt: timestamp('sync_requested_at', { withTimezone: true }),
    connectedBy: uuid('connected_by'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('booking_connections_account_key').on(t.accountId)],
);

/** Which customer each guest of the booking system became (a person on file twice maps to one customer). */
export const bookingGuestLinks = pgTable(
  'booking_guest_links',
  {
    brandId: uuid('brand_id').notNull(),
    externalGuestId: text('external_guest_id').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('booking_guest_links_key').on(t.brandId, t.externalGuestId),
    index('booking_guest_links_customer_idx').on(t.customerId),
  ],
);

/** The sync log: one row per run, with counts and error reasons (no personal data). */
export const bookingSyncRuns = pgTable(
  'booking_sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    trigger: text('trigger', { enum: ['cron', 'manual', 'connect'] }).notNull(),
    status: text('status', { enum: ['running', 'succeeded', 'failed'] })
      .notNull()
      .default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    asOf: timestamp('as_of', { withTimezone: true, precision: 3 }),
    guestsRead: integer('guests_read').notNull().default(0),
    reservationsRead: integer('reservations_read').notNull().default(0),
    customersCreated: integer('customers_created').notNull().default(0),
    customersUpdated: integer('customers_updated').notNull().default(0),
    bookingsCreated: integer('bookings_created').notNull().default(0),
    bookingsUpdated: integer('bookings_updated').notNull().default(0),
    bookingsCancelled: integer('bookings_cancelled').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** [{ code, count, examples: external ids }] */
    errors: jsonb('errors').$type<{ code: string; count: number; examples: string[] }[]>().notNull().default([]),
    /** Started again by another worker after the one running the sync stopped (jobs/leases.ts). */
    resumed: boolean('resumed').notNull().default(false),
  },
  (t) => [index('booking_sync_runs_brand_started_idx').on(t.brandId, t.startedAt)],
);

/**
 * A domain a brand sends from (campaign email settings' sender). The domain is unique across the
 * platform ("Oops! This domain already exists."), stored in punycode. The DKIM private key is
 * sealed with DATA_ENCRYPTION_KEY and never leaves the server; `checks` is the last verification,
 * per record.
 */
export const sendingDomains = pgTable(
  'sending_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => hosts.id),
    domain: text('domain').notNull(),
    dkimSelector: text('dkim_selector').notNull(),
    /** base64 of the DER SubjectPublicKeyInfo: the p= of the DKIM record. */
    dkimPublicKey: text('dkim_public_key').notNull(),
    dkimPrivateKeyEncrypted: text('dkim_private_key_encrypted').notNull(),
    ownershipToken: text('ownership_token').notNull(),
    state: text('state', { enum: ['unverified', 'in_verification', 'verified'] })
      .notNull()
      .default('unverified'),
    checks: jsonb('checks').$type<unknown[]>().notNull().default([]),
    /** The earliest time "Verify DNS setup" may run again (the countdown). */
    verifyAvailableAt: timestamp('verify_available_at', { withTimezone: true }).notNull(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Set when a verified domain failed its daily re-check; cleared when it verifies again. */
    lapsedAt: timestamp('lapsed_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sending_domains_domain_key').on(t.domain), index('sending_domains_brand_idx').on(t.brandId)],
);

/**
 * Campaign email settings of one host (brand, hotel group or hotel). A null value inherits from the
 * host above: hotel, then its hotel group, then the brand, then the product's defaults.
 */
export const campaignEmailSettings = pgTable('campaign_email_settings', {
  hostId: uuid('host_id')
    .primaryKey()
    .references(() => hosts.id),
  brandId: uuid('brand_id').notNull(),
  senderEmail: text('sender_email'),
  senderName: text('sender_name'),
  replyTo: text('reply_to'),
  /** The Japanese unsubscribed message (the column predates English). */
  unsubscribedMessage: text('unsubscribed_message'),
  /** The English one; when no host sets it, English pages show the Japanese one. */
  unsubscribedMessageEn: text('unsubscribed_message_en'),
  footerSenderName: text('footer_sender_name'),
  footerPostalAddress: text('footer_postal_address'),
  defaultLanguage: text('default_language', { enum: ['ja', 'en'] }),
  frequencyCapCount: integer('frequency_cap_count'),
  frequencyCapDays: integer('frequency_cap_days'),
  quietHoursStart: text('quiet_hours_start'),
  quietHoursEnd: text('quiet_hours_end'),
  /**
   * Protection (issue 25), read from the brand's row: once a campaign has handed this many mails to
   * the relay, a hard-bounce rate or complaint rate at its threshold (percent) pauses it; at half
   * the bounce threshold and a third of the complaint one the statistics warn.
   */
  pauseMinSent: integer('pause_min_sent').notNull().default(1000),
  pauseHardBouncePct: numeric('pause_hard_bounce_pct', { precision: 4, scale: 2, mode: 'number' }).notNull().default(5),
  pauseComplaintPct: numeric('pause_complaint_pct', { precision: 4, scale: 2, mode: 'number' }).notNull().default(0.3),
  updatedBy: uuid('updated_by'),
  updatedAt: updatedAt(),
});

/** The embedded DNS server's zone (embedded mode only): what a developer or test published. */
export const devDnsRecords = pgTable(
  'dev_dns_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    type: text('type', { enum: ['TXT', 'CNAME'] }).notNull(),
    value: text('value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('dev_dns_records_name_idx').on(t.name)],
);

/**
 * Job leases (jobs/leases.ts): one row per live worker process, renewed every few seconds. Not
 * tenant data: only workers read and write it, as the owner, like pg-boss's own tables.
 */
export const workerLeases = pgTable('worker_leases', {
  id: uuid('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Campaign sends' pace per recipient domain (modules/campaigns/domain-rate.ts), shared by every
 * worker process: the time the domain's next free slot begins. Not tenant data (a receiver such as
 * gmail.com is one for every brand): only workers use it, as the owner.
 */
export const domainSendSlots = pgTable('domain_send_slots', {
  domain: text('domain').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

/** Which worker runs which pg-boss job, and how often the job was taken up again after a lapse. */
export const jobClaims = pgTable(
  'job_claims',
  {
    jobId: uuid('job_id').primaryKey(),
    queue: text('queue').notNull(),
    /** Null while the job waits to be taken up again. */
    workerId: uuid('worker_id'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    lapses: integer('lapses').notNull().default(0),
  },
  (t) => [index('job_claims_worker_idx').on(t.workerId)],
);

/**
 * Email templates: a block document per language (`contents`: { ja?, en? } of subject, pre-header
 * and document), owned by the host that made it. A brand's templates are usable, read-only, by its
 * hotel groups and hotels; the others' stay their own (the queries narrow by host, row-level
 * security by brand). `version` rises with each saved change, so a stale autosave is refused.
 */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the platform's own templates (granduser), seen only with scope_all. */
    brandId: uuid('brand_id'),
    hostId: uuid('host_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    coverImageUrl: text('cover_image_url'),
    defaultLanguage: text('default_language', { enum: ['ja', 'en'] })
      .notNull()
      .default('ja'),
    contents: jsonb('contents').notNull(),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('templates_host_idx').on(t.hostId, t.updatedAt), index('templates_brand_idx').on(t.brandId)],
);

/**
 * Which campaigns use which template, written by the campaigns module: a template is not deleted
 * while a scheduled campaign uses it, and its report lists them.
 */
export const templateUses = pgTable(
  'template_uses',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').notNull(),
    brandId: uuid('brand_id'),
    campaignName: text('campaign_name').notNull(),
    status: text('status', { enum: ['draft', 'scheduled', 'sent', 'pending', 'failed', 'cancelled'] }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.campaignId] })],
);

/**
 * A segment (issue 10): owned by one host, whose customers and bookings are its scope. Dynamic
 * segments keep a filter document (packages/contracts segments.ts); static ones a member list.
 */
export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: ['dynamic', 'static'] }).notNull(),
    filter: jsonb('filter'),
    audience: integer('audience'),
    audienceCountedAt: timestamp('audience_counted_at', { withTimezone: true }),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('segments_host_name_key').on(t.hostId, sql`lower(${t.name})`),
    index('segments_brand_created_idx').on(t.brandId, t.createdAt),
  ],
);

/** The member list of a static segment. */
export const segmentMembers = pgTable(
  'segment_members',
  {
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => segments.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    brandId: uuid('brand_id').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.segmentId, t.customerId] }), index('segment_members_customer_idx').on(t.customerId)],
);

/**
 * What uses a segment: campaigns and scenarios write a row here while they hold it (state and
 * whether that state forbids deleting the segment), so segmentation needs no knowledge of them.
 */
export const segmentUses = pgTable(
  'segment_uses',
  {
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => segments.id, { onDelete: 'cascade' }),
    brandId: uuid('brand_id').notNull(),
    kind: text('kind', { enum: ['campaign', 'scenario'] }).notNull(),
    objectId: uuid('object_id').notNull(),
    name: text('name').notNull(),
    state: text('state').notNull(),
    blocksDelete: boolean('blocks_delete').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.segmentId, t.kind, t.objectId] }),
    index('segment_uses_object_idx').on(t.kind, t.objectId),
  ],
);

/**
 * Campaigns (issue 13): owned by one host, whose reach is the audience's scope. The send counts
 * live on the deliveries; `audience` is fixed when the audience is snapshotted at the start.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    name: text('name').notNull(),
    subject: text('subject').notNull().default(''),
    preHeader: text('pre_header').notNull().default(''),
    senderEmail: text('sender_email'),
    /** No foreign key: a deleted template is reported on scheduling (campaign_template_deleted). */
    templateId: uuid('template_id'),
    status: text('status', { enum: ['draft', 'scheduled', 'pending', 'sent', 'failed', 'cancelled'] })
      .notNull()
      .default('draft'),
    scheduleKind: text('schedule_kind', { enum: ['now', 'at'] }),
    scheduleLocalTime: text('schedule_local_time'),
    scheduleTimeZone: text('schedule_time_zone'),
    sendAt: timestamp('send_at', { withTimezone: true }),
    audience: integer('audience'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** An error code: why a due campaign waits (sender domain lost verification) or why it failed. */
    problem: text('problem'),
    /** A sending campaign paused by a user: it claims nothing until resumed (status stays pending). */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    pausedBy: uuid('paused_by'),
    /**
     * Set when the campaign paused itself (issue 25, protection): which rate crossed the brand's
     * threshold and how high it was (`{kind: 'hard_bounce' | 'complaint', rate}`, rate a fraction).
     * `paused_by` is null then: the system paused it.
     */
    pausedReason: jsonb('paused_reason'),
    createdBy: uuid('created_by'),
    /**
     * Set on the hidden campaign that carries one email node of a scenario (issue 14): its
     * deliveries go through the same send path. `scenario_round` is the customer's n-th journey of
     * the scenario, so a guest with two bookings gets the mail twice (one delivery per campaign and customer).
     */
    scenarioId: uuid('scenario_id'),
    scenarioNodeId: text('scenario_node_id'),
    scenarioRound: integer('scenario_round'),
    /**
     * Issue 26, experiments. `experiment_variants`: the alternatives B..D to the control A (the
     * campaign's own texts), each `{subject, preHeader, senderName, templateId}` (nulls: as A); [] is
     * no A/B test. The test share is split evenly among A and the alternatives; the rest waits
     * (deliveries of arm 'rest' are not claimed) until a winner is recorded here. `decide_at`:
     * started_at + wait, set when the send starts. `holdout_percent`: guests never mailed, stored.
     */
    experimentVariants: jsonb('experiment_variants').notNull().default([]),
    experimentTestPercent: integer('experiment_test_percent').notNull().default(20),
    experimentWaitHours: integer('experiment_wait_hours').notNull().default(4),
    experimentMetric: text('experiment_metric', { enum: ['clicks', 'bookings', 'opens'] })
      .notNull()
      .default('clicks'),
    holdoutPercent: integer('holdout_percent'),
    /** none | testing | waiting | decided (testing -> waiting when the test share is all answered). */
    experimentPhase: text('experiment_phase', { enum: ['none', 'testing', 'waiting', 'decided'] })
      .notNull()
      .default('none'),
    experimentDecideAt: timestamp('experiment_decide_at', { withTimezone: true }),
    /** The variant the rest gets (0 = A); set with how, by whom (null: the server) and when. */
    experimentWinner: integer('experiment_winner'),
    experimentHow: text('experiment_how', { enum: ['significant', 'inconclusive', 'manual'] }),
    /** The decision's details: `{reason, pValue, lift}` (the report shows them). */
    experimentDecision: jsonb('experiment_decision'),
    experimentDecidedBy: uuid('experiment_decided_by'),
    experimentDecidedAt: timestamp('experiment_decided_at', { withTimezone: true }),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('campaigns_experiment_due_idx')
      .on(t.experimentDecideAt)
      .where(sql`experiment_phase in ('testing', 'waiting')`),
    index('campaigns_brand_created_idx').on(t.brandId, t.createdAt),
    index('campaigns_host_idx').on(t.hostId),
    index('campaigns_due_idx')
      .on(t.sendAt)
      .where(sql`status in ('scheduled', 'pending')`),
    uniqueIndex('campaigns_scenario_node_key')
      .on(t.scenarioId, t.scenarioNodeId, t.scenarioRound)
      .where(sql`scenario_id is not null`),
  ],
);

/** The segments a campaign sends to (`exclude` false) or leaves out (`exclude` true). */
export const campaignSegments = pgTable(
  'campaign_segments',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** No foreign key: a deleted segment is reported on scheduling (campaign_segment_deleted). */
    segmentId: uuid('segment_id').notNull(),
    brandId: uuid('brand_id').notNull(),
    exclude: boolean('exclude').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.segmentId] })],
);

/**
 * One customer of one campaign (unique), snapshotted when the send starts. `sending` marks a
 * delivery claimed by a worker whose SMTP answer is not recorded yet: after a crash these are the
 * only ones that may be sent twice. `hotel_id` attributes the delivery to a hotel for statistics.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    brandId: uuid('brand_id').notNull(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    hotelId: uuid('hotel_id'),
    email: text('email'),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'deferred', 'skipped', 'failed'] })
      .notNull()
      .default('queued'),
    skipReason: text('skip_reason'),
    /**
     * Issue 26: the delivery's place in the campaign's experiment, stored at the snapshot so a crash
     * or a resume never changes it. `arm`: null without an experiment; 'test' (mailed the variant
     * `variant`, 0 = A), 'rest' (waits for the winner, then mailed it), 'holdout' (skipped with
     * reason 'holdout', never mailed). `variant` of a rest delivery is set to the winner's.
     */
    arm: text('arm', { enum: ['test', 'rest', 'holdout'] }),
    variant: integer('variant').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** Times the delivery was claimed and its worker died before recording an answer. */
    inFlightRepeats: integer('in_flight_repeats').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The worker (its lease, `worker_leases.id`) holding the delivery in flight: put back only when that lease lapsed. */
    claimedBy: uuid('claimed_by'),
    /** The claim that holds it: only that claim may record its answer (a put-back claim is fenced off). */
    claimToken: uuid('claim_token'),
    /** Set, in the claim, the moment the message is handed to SMTP (consent checked in the same statement). */
    handedAt: timestamp('handed_at', { withTimezone: true }),
    messageId: text('message_id'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('deliveries_campaign_customer_key').on(t.campaignId, t.customerId),
    index('deliveries_campaign_status_idx').on(t.campaignId, t.status),
    // The send's claims, in their order (send-queries.ts claimBatch): a claim reads its batch, not the queue.
    index('deliveries_claim_idx')
      .on(t.campaignId, t.inFlightRepeats, t.id)
      .where(sql`status = 'queued'`),
    index('deliveries_customer_sent_idx')
      .on(t.customerId, t.sentAt)
      .where(sql`status = 'sent'`),
  ],
);

/*
 * Tracking (issue 13, modules/tracking): the append-only event log, what each delivery has seen,
 * conversions, and the rollups that statistics and the dashboard read (never the raw events).
 */

/** The counters every rollup keeps (packages/contracts tracking.ts, ZStatCounters). */
const statCounters = () => ({
  sent: integer('sent').notNull().default(0),
  delivered: integer('delivered').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  bounced: integer('bounced').notNull().default(0),
  /** Issue 25: hard and soft bounces (the relay's answer or a later DSN) and complaints (ARF). */
  hardBounces: integer('hard_bounces').notNull().default(0),
  softBounces: integer('soft_bounces').notNull().default(0),
  complaints: integer('complaints').notNull().default(0),
  opens: integer('opens').notNull().default(0),
  uniqueOpens: integer('unique_opens').notNull().default(0),
  machineOpens: integer('machine_opens').notNull().default(0),
  clicks: integer('clicks').notNull().default(0),
  uniqueClicks: integer('unique_clicks').notNull().default(0),
  unsubscribes: integer('unsubscribes').notNull().default(0),
  conversions: integer('conversions').notNull().default(0),
  revenue: bigint('revenue', { mode: 'number' }).notNull().default(0),
});

/**
 * Every open, machine open, click, unsubscribe, conversion and bounce, appended in batches and
 * never updated. The key and indexes lead with `occurred_at` or are local to one delivery, so the
 * table can be range-partitioned by month (each index then per partition) without a change to
 * what reads it: the recipient list reads one delivery's events; statistics read rollups only.
 */
export const trackingEvents = pgTable(
  'tracking_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    brandId: uuid('brand_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    deliveryId: uuid('delivery_id').notNull(),
    kind: text('kind', {
      enum: ['open', 'machine_open', 'click', 'unsubscribe', 'resubscribe', 'conversion', 'bounce'],
    }).notNull(),
    linkIndex: integer('link_index'),
    url: text('url'),
    amount: integer('amount'),
    bookingId: uuid('booking_id'),
    /** An unsubscribe's source (one_click, page) or why an open was taken for a machine's. */
    source: text('source'),
  },
  (t) => [
    primaryKey({ columns: [t.occurredAt, t.id] }),
    index('tracking_events_delivery_idx').on(t.deliveryId, t.occurredAt),
    index('tracking_events_brand_at_idx').on(t.brandId, t.occurredAt),
  ],
);

/** What one delivery has seen so far: first opens and clicks decide the unique counts. */
export const deliveryEngagement = pgTable(
  'delivery_engagement',
  {
    deliveryId: uuid('delivery_id').primaryKey(),
    brandId: uuid('brand_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    opens: integer('opens').notNull().default(0),
    machineOpens: integer('machine_opens').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    clickedAt: timestamp('clicked_at', { withTimezone: true }),
    lastClickedAt: timestamp('last_clicked_at', { withTimezone: true }),
  },
  // Conversions look up a customer's latest clicks.
  (t) => [index('delivery_engagement_customer_click_idx').on(t.brandId, t.customerId, t.lastClickedAt)],
);

/** One row per delivery and link clicked: the unique clicks per link. */
export const deliveryLinkClicks = pgTable(
  'delivery_link_clicks',
  {
    deliveryId: uuid('delivery_id').notNull(),
    linkIndex: integer('link_index').notNull(),
    brandId: uuid('brand_id').notNull(),
    clicks: integer('clicks').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.linkIndex] })],
);

/** A booking attributed to a campaign click (once per booking, so a re-synced booking counts once). */
export const campaignConversions = pgTable(
  'campaign_conversions',
  {
    bookingId: uuid('booking_id').primaryKey(),
    brandId: uuid('brand_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    deliveryId: uuid('delivery_id').notNull(),
    amount: integer('amount').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('campaign_conversions_campaign_idx').on(t.campaignId)],
);

/** Per campaign totals. */
export const campaignStats = pgTable('campaign_stats', {
  campaignId: uuid('campaign_id').primaryKey(),
  brandId: uuid('brand_id').notNull(),
  ...statCounters(),
  updatedAt: updatedAt(),
});

/** Per campaign and hour (UTC hour start): the series, summed into days when read. */
export const campaignStatsHourly = pgTable(
  'campaign_stats_hourly',
  {
    campaignId: uuid('campaign_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    brandId: uuid('brand_id').notNull(),
    ...statCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.hour] })],
);

/** Per campaign and hotel (the brand itself for a delivery without a hotel). */
export const campaignHostStats = pgTable(
  'campaign_host_stats',
  {
    campaignId: uuid('campaign_id').notNull(),
    hostId: uuid('host_id').notNull(),
    brandId: uuid('brand_id').notNull(),
    ...statCounters(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.hostId] })],
);

/** Per campaign and link (its position in the mail). */
export const campaignLinkStats = pgTable(
  'campaign_link_stats',
  {
    campaignId: uuid('campaign_id').notNull(),
    linkIndex: integer('link_index').notNull(),
    brandId: uuid('brand_id').notNull(),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    uniqueClicks: integer('unique_clicks').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.linkIndex] })],
);

/**
 * Per hotel (or brand, for deliveries without a hotel) and local day (the host's time zone), over
 * all campaigns: what the dashboard reads. A hotel group sums its hotels.
 */
export const hostDailyStats = pgTable(
  'host_daily_stats',
  {
    hostId: uuid('host_id').notNull(),
    day: date('day').notNull(),
    brandId: uuid('brand_id').notNull(),
    ...statCounters(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.day] }), index('host_daily_stats_brand_day_idx').on(t.brandId, t.day)],
);

/** Per brand tracking settings: the conversion window after a click (days). */
export const trackingSettings = pgTable('tracking_settings', {
  brandId: uuid('brand_id')
    .primaryKey()
    .references(() => hosts.id),
  conversionWindowDays: integer('conversion_window_days').notNull().default(7),
  updatedAt: updatedAt(),
});

/**
 * The dashboard's daily customer counts (issue 15): per host (brand, hotel group, hotel) and local
 * day, how many customers its scope held, active and unsubscribed. Today's row is recounted when
 * the dashboard is read and the row is older than a few minutes; the day's last count stays as
 * that day's figure, so "the week before" is read, never rebuilt from history that is not kept.
 */
export const customerCountDays = pgTable(
  'customer_count_days',
  {
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    day: date('day').notNull(),
    brandId: uuid('brand_id').notNull(),
    customers: integer('customers').notNull(),
    active: integer('active').notNull(),
    unsubscribed: integer('unsubscribed').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.hostId, t.day] })],
);

/**
 * Automations (issue 14). A scenario is owned by one host; its graph and run period are the
 * contract's documents (packages/contracts scenarios.ts), kept as JSON.
 */
export const scenarios = pgTable(
  'scenarios',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['draft', 'scheduled', 'running', 'completed', 'stopped', 'archived'] })
      .notNull()
      .default('draft'),
    graph: jsonb('graph').notNull(),
    run: jsonb('run').notNull(),
    presetId: text('preset_id'),
    /** Counts the runs (restart begins a new one); entry keys of segment entries carry it. */
    runNumber: integer('run_number').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When segment members enter next (start, then each recurrence); null when no more. */
    nextEntryAt: timestamp('next_entry_at', { withTimezone: true }),
    entryCount: integer('entry_count').notNull().default(0),
    /** Bookings changed after this instant are scanned next (booking triggers follow the sync). */
    bookingsSeenAt: timestamp('bookings_seen_at', { withTimezone: true }),
    /** Last local date birthdays were entered, and last dynamic-segment scan. */
    birthdaysOn: date('birthdays_on'),
    segmentScannedAt: timestamp('segment_scanned_at', { withTimezone: true }),
    /** The status before archiving, for restore. */
    archivedFrom: text('archived_from'),
    /** Node errors that are not a customer's: { nodeId: errorCode } (a deleted segment under a trigger). */
    nodeErrors: jsonb('node_errors').notNull().default({}),
    /** Issue 26: the share (1..20) of entering guests held out: they enter, are recorded, never mailed. */
    holdoutPercent: integer('holdout_percent'),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('scenarios_brand_updated_idx').on(t.brandId, t.updatedAt),
    index('scenarios_host_idx').on(t.hostId),
    index('scenarios_active_idx')
      .on(t.status)
      .where(sql`status in ('scheduled', 'running')`),
  ],
);

/** A host's own presets (the built-in ones live in code). */
export const scenarioPresets = pgTable(
  'scenario_presets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    hostId: uuid('host_id')
      .notNull()
      .references(() => hosts.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    emoji: text('emoji').notNull(),
    colour: text('colour').notNull(),
    graph: jsonb('graph').notNull(),
    run: jsonb('run').notNull(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('scenario_presets_host_idx').on(t.hostId)],
);

/**
 * One customer's place in a scenario. Due steps are claimed in sets by `due_at` (partial index of
 * the waiting ones); `phase` says whether the customer has just arrived at `node_id` or waits there.
 * `entry_key` makes entering idempotent: one journey per booking, per run of a segment entry, per birthday year.
 */
export const journeys = pgTable(
  'journeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    scenarioId: uuid('scenario_id')
      .notNull()
      .references(() => scenarios.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id'),
    entryKey: text('entry_key').notNull(),
    round: integer('round').notNull().default(0),
    nodeId: text('node_id'),
    phase: text('phase', { enum: ['arrive', 'wait'] })
      .notNull()
      .default('arrive'),
    state: text('state', { enum: ['waiting', 'done', 'left', 'failed'] })
      .notNull()
      .default('waiting'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** The delivery of the last email node passed (the branches read its opens and clicks). */
    deliveryId: uuid('delivery_id'),
    /** Issue 26: held out by the scenario's holdout when it entered: its email nodes never mail it. */
    heldOut: boolean('held_out').notNull().default(false),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('journeys_entry_key').on(t.scenarioId, t.customerId, t.entryKey),
    index('journeys_due_idx')
      .on(t.dueAt)
      .where(sql`state = 'waiting'`),
    index('journeys_scenario_node_idx').on(t.scenarioId, t.nodeId, t.state),
    index('journeys_booking_idx')
      .on(t.bookingId)
      .where(sql`booking_id is not null`),
    // Customers waiting for their email's outcome (no due time until the send answers).
    index('journeys_email_wait_idx')
      .on(t.deliveryId)
      .where(sql`state = 'waiting' and due_at is null`),
  ],
);

/** A journey's path: what happened at which node when (the summary's execution log counts these). */
export const journeySteps = pgTable(
  'journey_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    brandId: uuid('brand_id').notNull(),
    scenarioId: uuid('scenario_id').notNull(),
    /**
     * No foreign key, on purpose: the engine writes a journey and its first log row in one
     * statement, and the key's per-row check, planned while the table was still empty, scanned
     * the whole of it for every row (quadratic: a minute for 100,000 guests entering). A journey's
     * rows go with it all the same, by the statement trigger of migration 0025.
     */
    journeyId: uuid('journey_id').notNull(),
    nodeId: text('node_id').notNull(),
    event: text('event').notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('journey_steps_journey_idx').on(t.journeyId, t.id),
    index('journey_steps_scenario_node_idx').on(t.scenarioId, t.nodeId, t.event),
  ],
);

/** Members of a dynamic segment already seen by a scenario (so only new members enter). */
export const scenarioSegmentSeen = pgTable(
  'scenario_segment_seen',
  {
    scenarioId: uuid('scenario_id')
      .notNull()
      .references(() => scenarios.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').notNull(),
    brandId: uuid('brand_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scenarioId, t.customerId] })],
);

/** The manual scenario clock (SCENARIO_CLOCK=manual), shared by the API and worker processes. */
export const scenarioClock = pgTable('scenario_clock', {
  id: integer('id').primaryKey(),
  now: timestamp('now', { withTimezone: true }).notNull(),
});

/*
 * Deliverability (issue 25, modules/deliverability): what happened to a mail after the relay took
 * it (bounces, complaints), the per-brand suppression list it feeds, and what could not be read.
 */

/**
 * A brand's suppression list: an address that is not mailed (campaigns and journeys alike) while
 * a row for it is active (not lifted, and `until` not passed). At most one active row per address;
 * a soft-bounce suppression ends by itself (`until`), the others only when lifted.
 */
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id').notNull(),
    /** The address in lower case (customers.email_key). */
    email: text('email').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    reason: text('reason', { enum: ['hard_bounce', 'soft_bounces', 'complaint', 'manual'] }).notNull(),
    /** The relay's or the report's diagnostic text, as received (cut to 1,000 characters). */
    diagnostic: text('diagnostic'),
    /** Where it came from: the delivery, its campaign, and the scenario when it was a journey's mail. */
    deliveryId: uuid('delivery_id'),
    campaignId: uuid('campaign_id'),
    scenarioId: uuid('scenario_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Soft bounces: suppressed until then (30 days), then tried again. Null: until lifted. */
    until: timestamp('until', { withTimezone: true }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: uuid('lifted_by'),
  },
  (t) => [
    uniqueIndex('suppressions_active_key')
      .on(t.brandId, t.email)
      .where(sql`lifted_at is null`),
    index('suppressions_brand_created_idx').on(t.brandId, t.createdAt),
  ],
);

/**
 * What the relay or a mailbox provider reported about one delivery: the synchronous answer's
 * classification (source `smtp`), a DSN or an ARF report received by the feedback receiver.
 * One per delivery and kind (`feedback_events_delivery_kind_key`) makes a repeated report a no-op:
 * rules apply once. The same index finds a delivery's events (the recipient list, the soft-bounce
 * window).
 */
/**
 * Issue 25: the deliveries that a report coming after the relay accepted the mail (a DSN, a relay's
 * webhook) said bounced, hard or soft, one row each: from then the mail no longer counts as
 * delivered. The first such report takes it out of `delivered` once (deliverability/apply-feedback.ts:
 * its insert is the one that finds the key free), a later one of the other kind finds the row and
 * does not take it out again. A table of its own rather than a column of `deliveries`: marking the
 * wide delivery wrote its row again with an entry in each of its six indexes, for half of the
 * events of issue 25's bench; a row here is one small tuple and one key.
 */
export const deliveryBounces = pgTable('delivery_bounces', {
  deliveryId: uuid('delivery_id').primaryKey(),
  brandId: uuid('brand_id').notNull(),
  bouncedAt: timestamp('bounced_at', { withTimezone: true }).notNull(),
});

export const feedbackEvents = pgTable(
  'feedback_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    brandId: uuid('brand_id').notNull(),
    deliveryId: uuid('delivery_id').notNull(),
    campaignId: uuid('campaign_id').notNull(),
    customerId: uuid('customer_id'),
    kind: text('kind', {
      enum: ['hard_bounce', 'soft_bounce', 'policy_block', 'auto_reply', 'complaint', 'deferred', 'delivered'],
    }).notNull(),
    source: text('source', { enum: ['smtp', 'dsn', 'arf', 'reply', 'webhook'] }).notNull(),
    /** The enhanced status code (5.1.1) the rules went by. */
    status: text('status'),
    diagnostic: text('diagnostic'),
    /** The From domain the mail was sent from: policy blocks count against it. */
    sendingDomain: text('sending_domain'),
    /** The report as received (DSN, ARF, a webhook's event); null for a synchronous answer, and once past FEEDBACK_RAW_RETENTION_DAYS. */
    raw: bytea('raw'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('feedback_events_delivery_kind_key').on(t.deliveryId, t.kind),
    index('feedback_events_customer_idx')
      .on(t.customerId, t.kind)
      .where(sql`customer_id is not null`),
    // The deliverability view's latest policy blocks of a sending domain.
    index('feedback_events_policy_block_idx')
      .on(t.brandId, t.sendingDomain, t.receivedAt)
      .where(sql`kind = 'policy_block'`),
    // The retention job's reports still kept (prune-feedback-raw.ts): only the last days' rows.
    index('feedback_events_raw_at_idx')
      .on(t.receivedAt)
      .where(sql`raw is not null`),
  ],
);

/**
 * Mail the feedback receiver accepted for one of our return paths but could not read as a report
 * (or whose report named no delivery it could find): kept as received and counted, never guessed.
 */
export const inboundUnparsed = pgTable(
  'inbound_unparsed',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The brand of the delivery the return path names (always known: the token was valid). */
    brandId: uuid('brand_id').notNull(),
    deliveryId: uuid('delivery_id'),
    reason: text('reason').notNull(),
    mailFrom: text('mail_from').notNull(),
    rcptTo: text('rcpt_to').notNull(),
    size: integer('size').notNull(),
    /** The message as received; null once past FEEDBACK_RAW_RETENTION_DAYS (prune-feedback-raw.ts). */
    raw: bytea('raw'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inbound_unparsed_brand_at_idx').on(t.brandId, t.receivedAt),
    index('inbound_unparsed_raw_at_idx')
      .on(t.receivedAt)
      .where(sql`raw is not null`),
  ],
);

/**
 * A brand's relay webhook (issue 25, modules/deliverability/webhooks): the provider whose signed
 * events the brand's URL `/v1/public/relay-webhooks/<provider>/<id>` takes. `secret` is sealed
 * (crypto/secret-box.ts): the Mailgun signing key, the SendGrid verification key, the Postmark
 * webhook password; `topic_arn` pins the SES notifications to one SNS topic when set.
 */
export const relayWebhooks = pgTable(
  'relay_webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => hosts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['ses', 'sendgrid', 'mailgun', 'postmark'] }).notNull(),
    secret: text('secret'),
    topicArn: text('topic_arn'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('relay_webhooks_brand_provider_key').on(t.brandId, t.provider)],
);

/**
 * Every verified relay webhook event, as received, once per provider event id (a repeat is not
 * stored again and changes nothing).
 */
export const relayWebhookEvents = pgTable(
  'relay_webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    brandId: uuid('brand_id').notNull(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    deliveryId: uuid('delivery_id'),
    /** What it meant (classify.ts), or null when the event was of no interest or named no delivery of ours. */
    kind: text('kind'),
    /** The rest of what it meant: status, diagnostic and sending domain, for apply-feedback.ts. */
    feedback: jsonb('feedback'),
    /** The event as received; null once applied and past FEEDBACK_RAW_RETENTION_DAYS (prune-feedback-raw.ts). */
    raw: jsonb('raw'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('relay_webhook_events_event_key').on(t.brandId, t.provider, t.eventId),
    index('relay_webhook_events_brand_at_idx').on(t.brandId, t.receivedAt),
    index('relay_webhook_events_raw_at_idx')
      .on(t.receivedAt)
      .where(sql`raw is not null`),
  ],
);

/**
 * The one-time tokens of the signatures taken (Mailgun's `token`): a request whose token is here
 * already is a replay, refused. Its own table, with its key as its only index, rather than a
 * column of the events: the check of each request is then a probe of that key whatever the tables
 * held when a connection planned it (on the events, an empty table's plan walked a brand's events
 * for every request). A token past any timestamp window (WEBHOOK_MAX_AGE_SECONDS, at most a day)
 * cannot be replayed, as its request is refused as too old: the daily prune forgets it.
 */
export const relayWebhookReplayKeys = pgTable(
  'relay_webhook_replay_keys',
  {
    brandId: uuid('brand_id').notNull(),
    provider: text('provider').notNull(),
    replayKey: text('replay_key').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'relay_webhook_replay_keys_pkey', columns: [t.brandId, t.provider, t.replayKey] })],
);

/**
 * The relay webhook events stored whose rules are still to be applied (apply-webhook-events.ts):
 * a row written with the event, in the same statement, and deleted by the transaction that applies
 * it. An event with nothing to apply (no delivery of ours, an open) has none. Its own narrow table
 * rather than a mark on the event: marking the event applied wrote the whole event again, its
 * payload and every one of its indexes, for each event.
 */
export const relayWebhookPending = pgTable('relay_webhook_pending', {
  eventId: bigint('event_id', { mode: 'number' }).primaryKey(),
  brandId: uuid('brand_id').notNull(),
});

/**
 * Per brand, sending domain (the From domain, in punycode and lower case) and UTC hour: the mails
 * handed to the relay and what became of them, the figures of the deliverability view per sending
 * domain (deliverability/domain-deliverability.ts), which therefore never reads the deliveries.
 * Handed and delivered are written with the send's answers (tracking/rollups.ts,
 * recordDeliveryOutcomes), the rest with each newly recorded feedback event (apply-feedback.ts),
 * by the hour it came in.
 */
export const sendingDomainStatsHourly = pgTable(
  'sending_domain_stats_hourly',
  {
    brandId: uuid('brand_id').notNull(),
    domain: text('domain').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    handed: integer('handed').notNull().default(0),
    delivered: integer('delivered').notNull().default(0),
    hardBounces: integer('hard_bounces').notNull().default(0),
    softBounces: integer('soft_bounces').notNull().default(0),
    complaints: integer('complaints').notNull().default(0),
    policyBlocks: integer('policy_blocks').notNull().default(0),
    autoReplies: integer('auto_replies').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.domain, t.hour] })],
);
