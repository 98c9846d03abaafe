import { domainToUnicode } from 'node:url';
import {
  normalizeDomain,
  type TDnsRecord,
  type TDomainState,
  type TRecordCheck,
  type TSendingDomain,
} from '@yado/contracts';
import type { TConfig } from '../../config.ts';
import { withTenant } from '../../db/client.ts';
import { AppError, badRequest, fieldError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import { checkRecord, expectedRecords, type TExpectedRecord } from './check-records.ts';
import { createDkimKeys, ownershipToken } from './dkim.ts';
import { createDnsLookup } from './dns-lookup.ts';
import {
  deleteDomainRow,
  findDomainRow,
  insertDomainRow,
  listDomainRows,
  saveCheck,
  type TDomainRow,
} from './queries.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TStoredCheck = TRecordCheck & { kind: TDnsRecord['kind']; suggestion?: string };

/** The brand whose domains the context works with: its own, or the brand of its hotel group or hotel. */
export function brandOfContext(ctx: TActingContext): string {
  const brandId = ctx.host.level === 'brand' ? ctx.host.id : ctx.host.brandId;
  if (!brandId) throw new AppError(403, 'domain_brand_only');
  return brandId;
}

/** Domains are the brand's: only a brand context adds, verifies or removes them; hotels read them. */
function managingBrand(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'domain_brand_only');
  return ctx.host.id;
}

export function namesOf(config: TConfig) {
  return {
    spfInclude: config.sending.spfInclude,
    trackingHost: config.sending.trackingHost,
    dmarcReportAddress: config.sending.dmarcReportAddress,
  };
}

const recordState = (check: TStoredCheck | undefined): TDomainState =>
  !check ? 'unverified' : check.result === 'correct' ? 'verified' : 'in_verification';

/** The domain as the console shows it: each record with its own state and last check. */
export function toSendingDomain(row: TDomainRow, config: TConfig, now = new Date()): TSendingDomain {
  const checks = row.checks as TStoredCheck[];
  return {
    id: row.id,
    domain: row.domain,
    displayName: domainToUnicode(row.domain) || row.domain,
    state: row.state,
    records: expectedRecords(row, namesOf(config)).map((r) => {
      const stored = checks.find((c) => c.kind === r.kind);
      const check = stored
        ? { result: stored.result, found: stored.found, problem: stored.problem, checkedAt: stored.checkedAt }
        : null;
      // The brand's own SPF or DMARC record is kept: without our include, the SPF to publish is
      // theirs with it added; once correct, theirs is what is shown, never a replacement.
      const kept =
        stored?.result === 'correct' && (r.kind === 'spf' || r.kind === 'dmarc') ? stored.found[0] : undefined;
      return { ...r, value: stored?.suggestion ?? kept ?? r.value, state: recordState(stored), check };
    }),
    verifyInSeconds: Math.max(0, Math.ceil((row.verifyAvailableAt.getTime() - now.getTime()) / 1000)),
    verifyAvailableAt: row.verifyAvailableAt.toISOString(),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    lapsedAt: row.lapsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listDomains(
  rt: TRuntime,
  ctx: TActingContext,
): Promise<{ domains: TSendingDomain[]; canManage: boolean }> {
  const brandId = brandOfContext(ctx);
  const rows = await inTenant(rt, ctx, (tx) => listDomainRows(tx, brandId));
  return {
    domains: rows.map((r) => toSendingDomain(r, rt.config)),
    canManage: ctx.host.level === 'brand' && ctx.entitlements['settings.manage_domain_authentication'],
  };
}

export async function getDomain(rt: TRuntime, ctx: TActingContext, id: string): Promise<TSendingDomain> {
  const brandId = brandOfContext(ctx);
  const row = UUID.test(id) ? await inTenant(rt, ctx, (tx) => findDomainRow(tx, brandId, id)) : null;
  if (!row) throw new AppError(404, 'domain_not_found');
  return toSendingDomain(row, rt.config);
}

const isDomainTaken = (error: unknown): boolean => {
  const e = error as { constraint?: string; message?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    /sending_domains_domain_key/.test(String(e.constraint ?? e.message ?? '')) ||
    (e.cause !== undefined && isDomainTaken(e.cause))
  );
};

/**
 * Step 1: a domain typed in Unicode or punycode becomes the brand's, in punycode, with a fresh
 * DKIM key pair and an ownership token. A domain is one brand's on the whole platform.
 */
export async function addDomain(rt: TRuntime, ctx: TActingContext, input: { domain: string }): Promise<TSendingDomain> {
  const brandId = managingBrand(ctx);
  const domain = normalizeDomain(input.domain);
  if (!domain) throw badRequest({ domain: fieldError('domain_invalid') });
  const row = await createDomain(rt, { brandId, domain, createdBy: ctx.user.id }, ctx);
  return toSendingDomain(row, rt.config);
}

/** Creates the domain row and its keys; with a context, records the audit entry in the same transaction. */
export async function createDomain(
  rt: TRuntime,
  input: { brandId: string; domain: string; createdBy: string | null },
  ctx?: TActingContext,
): Promise<TDomainRow> {
  const keys = await createDkimKeys(rt.config.dataEncryptionKey);
  const values = {
    brandId: input.brandId,
    domain: input.domain,
    dkimSelector: keys.selector,
    dkimPublicKey: keys.publicKey,
    dkimPrivateKeyEncrypted: keys.privateKeyEncrypted,
    ownershipToken: ownershipToken(),
    verifyAvailableAt: new Date(Date.now() + rt.config.sending.verifyCountdownSeconds * 1000),
    createdBy: input.createdBy,
  };
  try {
    if (!ctx)
      return await withTenant(rt.database.db, { scopeAll: false, brandId: input.brandId }, (tx) =>
        insertDomainRow(tx, values),
      );
    return await inTenant(rt, ctx, async (tx) => {
      const row = await insertDomainRow(tx, values);
      await recordAudit(tx, ctx, {
        action: 'create',
        targetType: 'sending_domain',
        targetId: row.id,
        brandId: input.brandId,
        changes: { domain: row.domain },
      });
      return row;
    });
  } catch (error) {
    // The unique index sees every brand's domains, where row-level security shows only ours.
    if (isDomainTaken(error)) throw new AppError(409, 'domain_exists', { domain: fieldError('domain_exists') });
    throw error;
  }
}

export interface TVerification {
  state: TDomainState;
  checks: TStoredCheck[];
  /** DNS did not answer for some record: nothing is concluded. */
  unavailable: boolean;
}

/**
 * Looks every record up and judges it (correct, missing, wrong, malformed, or unavailable). Never
 * call it inside a transaction: on PGlite the embedded DNS server reads its zone through the same
 * single connection, and would wait for the transaction until the lookup timed out.
 */
export async function lookUpRecords(config: TConfig, row: TDomainRow, now = new Date()): Promise<TVerification> {
  const lookup = createDnsLookup(config);
  const names = namesOf(config);
  const expected: TExpectedRecord[] = expectedRecords(row, names);
  const checks = await Promise.all(
    expected.map(async (r): Promise<TStoredCheck> => {
      const found = r.type === 'CNAME' ? await lookup.cname(r.name) : await lookup.txt(r.name);
      const outcome = checkRecord(r, found, names);
      return {
        kind: r.kind,
        result: outcome.result,
        found: outcome.found,
        problem: outcome.problem,
        checkedAt: now.toISOString(),
        ...(outcome.suggestion ? { suggestion: outcome.suggestion } : {}),
      };
    }),
  );
  return {
    state: checks.every((c) => c.result === 'correct') ? 'verified' : 'in_verification',
    checks,
    unavailable: checks.some((c) => c.result === 'unavailable'),
  };
}

/** The row after a conclusive check: verified, or back in verification (lapsed if it had been verified). */
export function afterCheck(row: TDomainRow, v: TVerification, now: Date) {
  const verified = v.state === 'verified';
  return {
    state: v.state,
    checks: v.checks,
    lastCheckedAt: now,
    verifiedAt: verified ? (row.state === 'verified' && row.verifiedAt ? row.verifiedAt : now) : null,
    lapsedAt: verified ? null : row.state === 'verified' ? now : row.lapsedAt,
  };
}

/**
 * Step 2, "Verify DNS setup": locked until the countdown ends; each conclusive try starts it again.
 * When DNS does not answer, nothing is saved or marked failed, and the user is told to try later.
 */
export async function verifyDomain(rt: TRuntime, ctx: TActingContext, id: string): Promise<TSendingDomain> {
  const brandId = managingBrand(ctx);
  const row = UUID.test(id) ? await inTenant(rt, ctx, (tx) => findDomainRow(tx, brandId, id)) : null;
  if (!row) throw new AppError(404, 'domain_not_found');
  const now = new Date();
  const wait = Math.ceil((row.verifyAvailableAt.getTime() - now.getTime()) / 1000);
  if (wait > 0) throw new AppError(429, 'domain_verify_too_soon', undefined, { 'retry-after': String(wait) });
  const verification = await lookUpRecords(rt.config, row, now);
  if (verification.unavailable) throw new AppError(503, 'dns_unavailable');
  const saved = await inTenant(rt, ctx, async (tx) => {
    const updated = await saveCheck(tx, row.id, {
      ...afterCheck(row, verification, now),
      verifyAvailableAt: new Date(now.getTime() + rt.config.sending.verifyCountdownSeconds * 1000),
    });
    await recordAudit(tx, ctx, {
      action: 'verify',
      targetType: 'sending_domain',
      targetId: row.id,
      brandId,
      changes: {
        domain: row.domain,
        state: verification.state,
        records: Object.fromEntries(verification.checks.map((c) => [c.kind, c.result])),
      },
    });
    return updated;
  });
  return toSendingDomain(saved, rt.config, now);
}

export async function removeDomain(rt: TRuntime, ctx: TActingContext, id: string): Promise<{ id: string }> {
  const brandId = managingBrand(ctx);
  if (!UUID.test(id)) throw new AppError(404, 'domain_not_found');
  return inTenant(rt, ctx, async (tx) => {
    const row = await findDomainRow(tx, brandId, id);
    if (!row || !(await deleteDomainRow(tx, brandId, id))) throw new AppError(404, 'domain_not_found');
    await recordAudit(tx, ctx, {
      action: 'delete',
      targetType: 'sending_domain',
      targetId: id,
      brandId,
      changes: { domain: row.domain },
    });
    return { id };
  });
}
