import { eq } from 'drizzle-orm';
import {
  frequencyCapFits,
  QUIET_HOURS_TIME,
  SENDING_DEFAULTS,
  SETTINGS_FIELDS,
  isSenderEmail,
  senderDomainOf,
  type TCampaignEmailSettings,
  type TCampaignEmailValues,
  type TErrorCode,
  type TSettingsField,
} from '@yado/contracts';
import { withTenant, type TTx } from '../../db/client.ts';
import { hosts } from '../../db/schema.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { diff, recordAudit } from '../audit/record-audit.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { dkimOptionsOf, type TDkimOptions } from './dkim.ts';
import {
  findDomainByName,
  findSettingsRows,
  inheritanceChain,
  listDomainRows,
  upsertSettingsRow,
  type TDomainRow,
  type TSettingsRow,
} from './queries.ts';

const EMPTY: TCampaignEmailValues = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, null])) as TCampaignEmailValues;

function valuesOf(row: TSettingsRow | undefined): TCampaignEmailValues {
  if (!row) return { ...EMPTY };
  return Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, row[f] ?? null])) as TCampaignEmailValues;
}

interface TResolved {
  view: TCampaignEmailSettings;
  /** The sender's domain row when it is one of the brand's. */
  senderDomainRow: TDomainRow | null;
}

/** Own values, inherited values with their source, effective values, and why the host cannot send. */
async function resolve(tx: TTx, hostId: string, brandId: string, override?: TCampaignEmailValues): Promise<TResolved> {
  const chain = await inheritanceChain(tx, hostId);
  const self = chain[0];
  if (!self) throw new AppError(404, 'not_found');
  const rows = await findSettingsRows(
    tx,
    chain.map((h) => h.id),
  );
  const own = override ?? valuesOf(rows.find((r) => r.hostId === self.id));
  const inherited: TCampaignEmailValues = { ...EMPTY };
  const inheritedFrom: TCampaignEmailSettings['inheritedFrom'] = {};
  const effective: TCampaignEmailValues = { ...EMPTY };
  for (const field of SETTINGS_FIELDS) {
    const source = chain.slice(1).find((h) => valuesOf(rows.find((r) => r.hostId === h.id))[field] !== null);
    const above = source ? valuesOf(rows.find((r) => r.hostId === source.id))[field] : null;
    const fallback = (SENDING_DEFAULTS as Record<string, string | number>)[field] ?? null;
    (inherited as Record<TSettingsField, unknown>)[field] = above ?? fallback;
    inheritedFrom[field] =
      source && source.level !== 'hotel'
        ? { level: source.level, hostName: source.name }
        : { level: fallback === null ? 'none' : 'default', hostName: null };
    (effective as Record<TSettingsField, unknown>)[field] = own[field] ?? above ?? fallback;
  }
  const domain = effective.senderEmail ? senderDomainOf(effective.senderEmail) : null;
  const senderDomainRow = domain ? await findDomainByName(tx, brandId, domain) : null;
  const domains = await listDomainRows(tx, brandId);
  const problems: TErrorCode[] = [];
  const fieldsMissing = !effective.senderEmail || !effective.senderName || !effective.unsubscribedMessage;
  // The first problem is what a waiting campaign and a refused schedule say: a sender whose
  // domain is not (or no longer) verified says so, rather than that the settings are missing.
  if (fieldsMissing) problems.push('sending_settings_missing');
  if (effective.senderEmail && senderDomainRow?.state !== 'verified') problems.push('domain_not_verified');
  if (!fieldsMissing && !domains.some((d) => d.state === 'verified')) problems.push('sending_settings_missing');
  if (!effective.footerSenderName || !effective.footerPostalAddress) problems.push('footer_missing');
  return {
    senderDomainRow,
    view: {
      hostLevel: self.level,
      hostName: self.name,
      timeZone: self.timezone,
      own,
      inherited,
      inheritedFrom,
      effective,
      senderDomain: domain ? { domain, state: senderDomainRow?.state ?? null } : null,
      canSend: problems.length === 0,
      problems,
    },
  };
}

function hostOf(ctx: TActingContext): { hostId: string; brandId: string } {
  const brandId = ctx.host.level === 'brand' ? ctx.host.id : ctx.host.brandId;
  if (!brandId || ctx.host.level === 'grand_user') throw new AppError(403, 'sending_host_only');
  return { hostId: ctx.host.id, brandId };
}

export async function getEmailSettings(rt: TRuntime, ctx: TActingContext): Promise<TCampaignEmailSettings> {
  const { hostId, brandId } = hostOf(ctx);
  return inTenant(rt, ctx, async (tx) => (await resolve(tx, hostId, brandId)).view);
}

const clean = (value: string | null) => {
  const v = value?.trim() ?? '';
  return v === '' ? null : v;
};

/** An address with its domain in punycode and lower case, so it matches the brand's domains. */
function normalizeAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at)}@${senderDomainOf(email)}`;
}

/**
 * Saves the acting host's own values (null inherits). Sender name and the Japanese unsubscribed
 * message must have a value here or above (the English one is optional: English pages fall back to
 * the Japanese one); the sender email must be on one of the brand's domains (a domain
 * still in verification is accepted: the setup continues, and campaigns wait for it).
 */
export async function updateEmailSettings(
  rt: TRuntime,
  ctx: TActingContext,
  input: TCampaignEmailValues,
): Promise<TCampaignEmailSettings> {
  const { hostId, brandId } = hostOf(ctx);
  const values: TCampaignEmailValues = {
    ...input,
    senderEmail: clean(input.senderEmail),
    senderName: clean(input.senderName),
    replyTo: clean(input.replyTo),
    unsubscribedMessage: clean(input.unsubscribedMessage),
    unsubscribedMessageEn: clean(input.unsubscribedMessageEn),
    footerSenderName: clean(input.footerSenderName),
    footerPostalAddress: clean(input.footerPostalAddress),
    quietHoursStart: clean(input.quietHoursStart),
    quietHoursEnd: clean(input.quietHoursEnd),
  };
  const fields: TFieldErrors = {};
  // Refused with a code per field (the console shows the range beside it), never moved into range.
  for (const f of ['frequencyCapCount', 'frequencyCapDays'] as const) {
    const v = values[f];
    if (v !== null && !frequencyCapFits(f, v)) fields[f] = fieldError('frequency_cap_out_of_range');
  }
  for (const f of ['quietHoursStart', 'quietHoursEnd'] as const) {
    const v = values[f];
    if (v !== null && !QUIET_HOURS_TIME.test(v)) fields[f] = fieldError('quiet_hours_time_invalid');
  }
  for (const f of ['senderEmail', 'replyTo'] as const) {
    const v = values[f];
    if (v !== null) {
      if (isSenderEmail(v)) values[f] = normalizeAddress(v);
      else fields[f] = fieldError('sender_email_invalid');
    }
  }
  if (Object.keys(fields).length) throw badRequest(fields);
  return inTenant(rt, ctx, async (tx) => {
    const preview = await resolve(tx, hostId, brandId, values);
    if (!preview.view.effective.senderName) fields.senderName = fieldError('field_required');
    if (!preview.view.effective.unsubscribedMessage) fields.unsubscribedMessage = fieldError('field_required');
    if (values.senderEmail && !preview.senderDomainRow) fields.senderEmail = fieldError('sender_domain_not_verified');
    if (Object.keys(fields).length) throw badRequest(fields);
    const before = (await resolve(tx, hostId, brandId)).view.own;
    await upsertSettingsRow(tx, { hostId, brandId, ...values, updatedBy: ctx.user.id });
    const changes = diff(before, values);
    if (Object.keys(changes).length)
      await recordAudit(tx, ctx, {
        action: 'update',
        targetType: 'campaign_email_settings',
        targetId: hostId,
        brandId,
        changes,
      });
    return (await resolve(tx, hostId, brandId)).view;
  });
}

export interface TSendingIdentity {
  from: { name: string; address: string };
  replyTo: string | null;
  /** The unsubscribed message per language; English falls back to the Japanese one. */
  unsubscribedMessage: { ja: string; en: string };
  footer: { senderName: string; postalAddress: string };
  defaultLanguage: 'ja' | 'en';
  frequencyCap: { count: number; days: number };
  quietHours: { start: string; end: string; timeZone: string };
  /** nodemailer's `dkim` option for this sender (d= the From domain). */
  dkim: TDkimOptions;
}

export type TSendingResolution = { ok: true; identity: TSendingIdentity } | { ok: false; problems: string[] };

/**
 * For campaigns: the effective sending identity of a brand, hotel group or hotel, with its DKIM
 * signing options, or the catalogue codes of why it cannot send (specification section 8,
 * "campaign email settings missing (sender email and verified domains)"). Runs outside a request,
 * under the host's brand.
 */
export async function resolveSendingIdentity(rt: TRuntime, hostId: string): Promise<TSendingResolution> {
  const [host] = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, (tx) =>
    tx.select({ brandId: hosts.brandId }).from(hosts).where(eq(hosts.id, hostId)),
  );
  if (!host?.brandId) return { ok: false, problems: ['sending_host_only'] };
  const brandId = host.brandId;
  return withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) =>
    identityOf(rt, await resolve(tx, hostId, brandId)),
  );
}

/**
 * The same, inside a transaction the caller already holds (the scenario engine's claimed set):
 * opening a second one from inside the first would wait forever on the embedded database, which
 * has a single connection. `resolve` names the brand in every query, so any tenant context will do.
 */
export async function resolveSendingIdentityIn(rt: TRuntime, tx: TTx, hostId: string): Promise<TSendingResolution> {
  const [host] = await tx.select({ brandId: hosts.brandId }).from(hosts).where(eq(hosts.id, hostId));
  if (!host?.brandId) return { ok: false, problems: ['sending_host_only'] };
  return identityOf(rt, await resolve(tx, hostId, host.brandId));
}

function identityOf(rt: TRuntime, { view, senderDomainRow }: TResolved): TSendingResolution {
  const e = view.effective;
  if (
    !view.canSend ||
    !senderDomainRow ||
    !e.senderEmail ||
    !e.senderName ||
    !e.unsubscribedMessage ||
    !e.footerSenderName ||
    !e.footerPostalAddress
  )
    return { ok: false, problems: view.problems };
  return {
    ok: true,
    identity: {
      from: { name: e.senderName, address: e.senderEmail },
      replyTo: e.replyTo,
      unsubscribedMessage: { ja: e.unsubscribedMessage, en: e.unsubscribedMessageEn ?? e.unsubscribedMessage },
      footer: { senderName: e.footerSenderName, postalAddress: e.footerPostalAddress },
      defaultLanguage: e.defaultLanguage ?? SENDING_DEFAULTS.defaultLanguage,
      frequencyCap: {
        count: e.frequencyCapCount ?? SENDING_DEFAULTS.frequencyCapCount,
        days: e.frequencyCapDays ?? SENDING_DEFAULTS.frequencyCapDays,
      },
      quietHours: {
        start: e.quietHoursStart ?? SENDING_DEFAULTS.quietHoursStart,
        end: e.quietHoursEnd ?? SENDING_DEFAULTS.quietHoursEnd,
        timeZone: view.timeZone,
      },
      dkim: dkimOptionsOf(senderDomainRow, rt.config.dataEncryptionKey),
    },
  };
}

/** Whether a host can send, and if not why (catalogue codes). */
export async function canSend(rt: TRuntime, hostId: string): Promise<{ ok: boolean; problems: string[] }> {
  const r = await resolveSendingIdentity(rt, hostId);
  return r.ok ? { ok: true, problems: [] } : r;
}

/** Used by the Setup page: the view for the acting host, or null for the platform. */
export async function emailSettingsOrNull(rt: TRuntime, ctx: TActingContext): Promise<TCampaignEmailSettings | null> {
  if (ctx.host.level === 'grand_user') return null;
  return getEmailSettings(rt, ctx);
}

/**
 * DKIM signing options for mail From `address` on behalf of a brand: the brand's verified domain
 * equal to the address's domain signs it (d= the From domain, so DMARC aligns); null when that
 * domain is not a verified domain of the brand, and such mail must not be sent as the brand's.
 */
export async function dkimOptionsForSender(
  rt: TRuntime,
  brandId: string,
  address: string,
): Promise<TDkimOptions | null> {
  return withTenant(rt.database.db, { scopeAll: false, brandId }, (tx) =>
    dkimOptionsForSenderIn(rt, tx, brandId, address),
  );
}

/** The same, inside a transaction the caller already holds (see `resolveSendingIdentityIn`). */
export async function dkimOptionsForSenderIn(
  rt: TRuntime,
  tx: TTx,
  brandId: string,
  address: string,
): Promise<TDkimOptions | null> {
  const domain = senderDomainOf(address);
  if (!domain) return null;
  const row = await findDomainByName(tx, brandId, domain);
  return row?.state === 'verified' ? dkimOptionsOf(row, rt.config.dataEncryptionKey) : null;
}
