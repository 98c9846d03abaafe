import { createPublicKey } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  RELAY_PROVIDERS,
  type TErrorCode,
  type TRelayProvider,
  type TRelayWebhook,
  type TRelayWebhookInput,
} from '@yado/contracts';
import { openSecret, sealSecret } from '../../../crypto/secret-box.ts';
import { selectRows, type TTx } from '../../../db/client.ts';
import { AppError, badRequest, fieldError, type TFieldErrors } from '../../../http/errors.ts';
import { inTenant, type TRuntime } from '../../../runtime.ts';
import { recordAudit } from '../../audit/record-audit.ts';
import type { TActingContext } from '../../tenancy/acting-context.ts';
import { forgetHooks } from './receive-webhook.ts';

/**
 * A brand's relay webhooks (issue 25): which relay posts its events to which address, and the
 * secret they are signed with. Brand context only (the relay account is the brand's, as consent
 * and the suppression list are). The secret is sealed (crypto/secret-box.ts) and never returned
 * nor audited: the answer shows only its last 4 characters, the audit entry only that it changed.
 */

interface TRow {
  id: string;
  provider: TRelayProvider;
  secret: string | null;
  topic_arn: string | null;
  /** A string from the driver. */
  updated_at: string | Date;
  last_event_at: string | Date | null;
}

function brandOf(ctx: TActingContext): string {
  if (ctx.host.level !== 'brand') throw new AppError(403, 'webhook_brand_only');
  return ctx.host.id;
}

function providerOf(value: string): TRelayProvider {
  if (!(RELAY_PROVIDERS as readonly string[]).includes(value)) throw new AppError(404, 'webhook_provider_invalid');
  return value as TRelayProvider;
}

const hintOf = (rt: TRuntime, sealed: string | null): string | null => {
  if (!sealed) return null;
  const plain = openSecret(sealed, rt.config.dataEncryptionKey);
  return `…${plain.slice(-4)}`;
};

function view(rt: TRuntime, provider: TRelayProvider, row: TRow | undefined): TRelayWebhook {
  return {
    provider,
    id: row?.id ?? null,
    url: row ? `${rt.config.publicUrl.replace(/\/$/, '')}/v1/public/relay-webhooks/${provider}/${row.id}` : null,
    secretHint: hintOf(rt, row?.secret ?? null),
    topicArn: row?.topic_arn ?? null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    lastEventAt: row?.last_event_at ? new Date(row.last_event_at).toISOString() : null,
    // SNS posts notifications only to a confirmed subscription: any message kept means it is.
    subscription: provider === 'ses' && row ? (row.last_event_at ? 'confirmed' : 'pending') : null,
  };
}

const rowsOf = (tx: TTx, brandId: string) =>
  selectRows<TRow>(
    tx,
    sql`select w.id, w.provider, w.secret, w.topic_arn, w.updated_at,
        (select max(e.received_at) from relay_webhook_events e where e.brand_id = w.brand_id and e.provider = w.provider) as last_event_at
      from relay_webhooks w where w.brand_id = ${brandId}::uuid`,
  );

export function listRelayWebhooks(rt: TRuntime, ctx: TActingContext): Promise<TRelayWebhook[]> {
  const brandId = brandOf(ctx);
  return inTenant(rt, ctx, async (tx) => {
    const rows = await rowsOf(tx, brandId);
    return RELAY_PROVIDERS.map((p) =>
      view(
        rt,
        p,
        rows.find((r) => r.provider === p),
      ),
    );
  });
}

/** SNS topic ARNs: arn:<partition>:sns:<region>:<account>:<name>. */
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;
const MAX_SECRET_LENGTH = 4096;

/**
 * A SendGrid verification key is the public key of an ECDSA P-256 pair: base64 SPKI (DER), as
 * SendGrid shows it ("MFkw…"), or PEM. A private key is refused, though its public half would do.
 */
function isSendgridKey(secret: string): boolean {
  if (secret.includes('PRIVATE KEY')) return false;
  try {
    const key = secret.includes('BEGIN')
      ? createPublicKey(secret)
      : createPublicKey({ key: Buffer.from(secret, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

/**
 * What is wrong with a provider's secret as typed (already trimmed), by catalogue code; null: fine.
 * A Mailgun signing key is one word of letters, digits and hyphens ("key-…", or hex groups); a
 * Postmark password is the brand's choice, but it travels in a header: no control characters.
 */
function secretFault(provider: Exclude<TRelayProvider, 'ses'>, secret: string): TErrorCode | null {
  if (secret === '') return 'webhook_secret_required';
  if (secret.length > MAX_SECRET_LENGTH) return 'value_too_long';
  if (provider === 'sendgrid') return isSendgridKey(secret) ? null : 'webhook_sendgrid_key_invalid';
  if (provider === 'mailgun') return /^[A-Za-z0-9_-]{16,}$/.test(secret) ? null : 'webhook_mailgun_key_invalid';
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(secret) ? 'webhook_password_invalid' : null;
}

/**
 * The input checked field by field, each fault a catalogue code (the contract takes any string, so
 * that no validator text reaches the answer). SES has no secret (SNS signs with its certificate):
 * one sent is ignored; its topic is trimmed, empty meaning any.
 */
function checkedInput(
  provider: TRelayProvider,
  input: TRelayWebhookInput,
): { secret: string | null; topicArn: string | null } {
  const fields: TFieldErrors = {};
  let secret: string | null = null;
  let topicArn: string | null = null;
  if (provider === 'ses') {
    topicArn = input.topicArn?.trim() || null;
    if (topicArn !== null && !TOPIC_ARN.test(topicArn)) fields.topicArn = fieldError('webhook_topic_invalid');
  } else if (input.secret !== undefined && input.secret !== null) {
    secret = input.secret.trim();
    const fault = secretFault(provider, secret);
    if (fault) fields.secret = fieldError(fault);
  }
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  return { secret, topicArn };
}

export function saveRelayWebhook(
  rt: TRuntime,
  ctx: TActingContext,
  providerName: string,
  input: TRelayWebhookInput,
): Promise<TRelayWebhook> {
  const brandId = brandOf(ctx);
  const provider = providerOf(providerName);
  const { secret, topicArn } = checkedInput(provider, input);
  return inTenant(rt, ctx, async (tx) => {
    const [before] = (await rowsOf(tx, brandId)).filter((r) => r.provider === provider);
    if (provider !== 'ses' && !secret && !before?.secret)
      throw new AppError(400, 'validation_failed', { secret: fieldError('webhook_secret_required') });
    const sealed = secret ? sealSecret(secret, rt.config.dataEncryptionKey) : (before?.secret ?? null);
    const [row] = await selectRows<TRow>(
      tx,
      sql`insert into relay_webhooks (brand_id, provider, secret, topic_arn) values (${brandId}::uuid, ${provider}, ${sealed}, ${topicArn})
        on conflict (brand_id, provider) do update set secret = excluded.secret, topic_arn = excluded.topic_arn, updated_at = now()
        returning id, provider, secret, topic_arn, updated_at,
          (select max(e.received_at) from relay_webhook_events e where e.brand_id = ${brandId}::uuid and e.provider = ${provider}) as last_event_at`,
    );
    const changes: Record<string, unknown> = { provider };
    if (!before) changes.created = true;
    if (secret) changes.secret = 'changed';
    if ((before?.topic_arn ?? null) !== topicArn) changes.topicArn = [before?.topic_arn ?? null, topicArn];
    await recordAudit(tx, ctx, {
      action: before ? 'update' : 'create',
      targetType: 'relay_webhook',
      targetId: (row as TRow).id,
      brandId,
      changes,
    });
    return view(rt, provider, row);
  }).finally(forgetHooks);
}

export function deleteRelayWebhook(
  rt: TRuntime,
  ctx: TActingContext,
  providerName: string,
): Promise<{ deleted: boolean }> {
  const brandId = brandOf(ctx);
  const provider = providerOf(providerName);
  return inTenant(rt, ctx, async (tx) => {
    const [row] = await selectRows<{ id: string }>(
      tx,
      sql`delete from relay_webhooks where brand_id = ${brandId}::uuid and provider = ${provider} returning id`,
    );
    if (row)
      await recordAudit(tx, ctx, {
        action: 'delete',
        targetType: 'relay_webhook',
        targetId: row.id,
        brandId,
        changes: { provider },
      });
    return { deleted: !!row };
  }).finally(forgetHooks);
}
