import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('hosts_slug_key').on(t.slug),
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
    language: text('language', { enum: ['ja', 'en'] }).notNull().default('ja'),
    status: text('status', { enum: ['active', 'inactive'] }).notNull().default('active'),
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
    origin: text('origin', { enum: ['original', 'invited'] }).notNull().default('original'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('role_assignments_user_host_key').on(t.userId, t.hostId),
    uniqueIndex('role_assignments_one_default').on(t.userId).where(sql`${t.isDefault}`),
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
    purpose: text('purpose', { enum: ['reset', 'invitation'] }).notNull().default('reset'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
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
  (t) => [index('audit_log_brand_at_idx').on(t.brandId, t.at), index('audit_log_target_idx').on(t.targetType, t.targetId)],
);

/** What the embedded SMTP sink received (embedded mode only). */
export const devOutbox = pgTable(
  'dev_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    mailFrom: text('mail_from').notNull(),
    rcptTo: text('rcpt_to').array().notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull().default(''),
    html: text('html'),
    size: integer('size').notNull(),
  },
  (t) => [index('dev_outbox_received_idx').on(t.receivedAt)],
);
